"""Classroom drills: join codes, one answer per student and question (retries included),
the live tally, the instructor's controls, the report and the CSV, and who may see what."""

from __future__ import annotations

import csv
import io
import re
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from trainer.store import live as classroom
from trainer.store.learners import sign_up as make_account
from trainer.store.models import LiveAnswer, LiveStudent, now

from tests.store.helpers import BTN, BTN_RIGHT, BTN_TWO_WRONG, HTMX, post_form, sign_up, token

# ------------------------------------------------------------------ the store


@pytest.fixture
def teacher(s):
    account, _ = make_account(
        s, email="t@example.com", password="password1", name="T", instructor=True, learner_id=None
    )
    s.commit()
    return account


def _submit(s, cs, who, answer_id, position=0, right=True):
    marks = {"a": right, "b": True}
    return classroom.submit(
        s,
        cs,
        who,
        answer_id=answer_id,
        position=position,
        typed={"a": ["1"]},
        shown={"a": "1", "b": "yes"},
        marks=marks,
    )


def test_codes_are_8_characters_without_look_alikes_and_unique(s, teacher):
    codes = {classroom.create(s, instructor_id=teacher.id, title="x", mode="paced", refs=["a"]).code for _ in range(30)}
    assert len(codes) == 30
    assert all(re.fullmatch(r"[A-HJ-NP-Z2-9]{8}", c) for c in codes)
    s.commit()
    some = next(iter(codes))
    assert classroom.by_code(s, f" {some[:4].lower()}-{some[4:]} ").code == some
    assert classroom.by_code(s, "ABCD") is None


def test_a_retried_answer_is_stored_once_and_a_second_answer_does_not_replace_the_first(s, teacher):
    cs = classroom.create(s, instructor_id=teacher.id, title="x", mode="paced", refs=["a", "b"])
    ana = classroom.join(s, cs, "Ana")
    classroom.advance(s, cs)
    s.commit()
    first_id = str(uuid.uuid4())
    stored, created = _submit(s, cs, ana, first_id)
    assert created
    s.commit()
    again, created = _submit(s, cs, ana, first_id, right=False)  # the same submission, retried
    assert not created and again.id == first_id and again.right == 2
    other, created = _submit(s, cs, ana, str(uuid.uuid4()), right=False)  # a second answer
    assert not created and other.id == first_id
    s.commit()
    assert s.scalar(select(func.count()).select_from(LiveAnswer)) == 1

    classroom.reveal(s, cs)
    s.commit()
    # A retry of an answer that was stored is still acknowledged after the reveal; a new one is refused.
    assert _submit(s, cs, ana, first_id)[0].id == first_id
    bo = classroom.join(s, cs, "Bo")
    with pytest.raises(classroom.ClassError):
        _submit(s, cs, bo, str(uuid.uuid4()))


def test_instructor_paced_questions_open_one_at_a_time(s, teacher):
    cs = classroom.create(s, instructor_id=teacher.id, title="x", mode="paced", refs=["a", "b"])
    ana = classroom.join(s, cs, "Ana")
    with pytest.raises(classroom.ClassError):
        _submit(s, cs, ana, str(uuid.uuid4()))  # still in the lobby
    classroom.advance(s, cs)
    with pytest.raises(classroom.ClassError):
        _submit(s, cs, ana, str(uuid.uuid4()), position=1)  # not shown yet
    classroom.advance(s, cs)
    _submit(s, cs, ana, str(uuid.uuid4()), position=1)
    with pytest.raises(classroom.ClassError):
        classroom.advance(s, cs)  # that was the last
    classroom.end(s, cs)
    assert classroom.by_code(s, cs.code) is None  # an ended session cannot be joined


def test_self_paced_assignments_take_answers_in_any_order_until_the_deadline(s, teacher):
    cs = classroom.create(
        s, instructor_id=teacher.id, title="x", mode="self", refs=["a", "b"], deadline=now() + timedelta(minutes=5)
    )
    ana = classroom.join(s, cs, "Ana")
    _submit(s, cs, ana, str(uuid.uuid4()), position=1)
    _submit(s, cs, ana, str(uuid.uuid4()), position=0)
    bo = classroom.join(s, cs, "Bo")
    with pytest.raises(classroom.ClassError):
        classroom.submit(
            s,
            cs,
            bo,
            answer_id=str(uuid.uuid4()),
            position=0,
            typed={},
            shown={},
            marks={},
            at=now() + timedelta(minutes=6),
        )
    with pytest.raises(classroom.ClassError):
        classroom.create(s, instructor_id=teacher.id, title="x", mode="self", refs=["a"], deadline=None)


def test_names_are_unique_within_a_session_and_the_tally_leaves_out_removed_students(s, teacher):
    cs = classroom.create(s, instructor_id=teacher.id, title="x", mode="paced", refs=["a"])
    ana = classroom.join(s, cs, "Ana")
    with pytest.raises(classroom.ClassError):
        classroom.join(s, cs, " Ana ")
    bo = classroom.join(s, cs, "Bo")
    classroom.join(s, cs, "Cy")
    classroom.advance(s, cs)
    _submit(s, cs, ana, str(uuid.uuid4()))
    _submit(s, cs, bo, str(uuid.uuid4()), right=False)
    s.commit()
    tally = classroom.tally(s, cs, 0)
    assert (tally.answered, tally.expected, tally.all_right, tally.waiting) == (2, 3, 1, ("Cy",))
    assert tally.distribution["a"] == [("1", 2)]
    classroom.remove(s, cs, bo.id)
    s.commit()
    tally = classroom.tally(s, cs, 0)
    assert (tally.answered, tally.expected) == (1, 2)
    with pytest.raises(classroom.ClassError):
        _submit(s, cs, classroom.student(s, cs, bo.id), str(uuid.uuid4()))


def test_a_join_retried_by_the_same_browser_gets_its_own_student_back(s, store, teacher):
    cs = classroom.create(s, instructor_id=teacher.id, title="x", mode="paced", refs=["a"])
    phone, other = "a" * 32, "b" * 32
    ana = classroom.join(s, cs, "Ana", learner_id=phone)
    s.commit()
    # the response was lost and the same browser sends the form again
    assert classroom.join(s, cs, " Ana ", learner_id=phone).id == ana.id
    s.commit()
    # the retry raced the first request: its insert hits the name's unique constraint in another session
    with store.session() as racing:
        assert classroom.join(racing, racing.get(type(cs), cs.id), "Ana", learner_id=phone).id == ana.id
        racing.commit()
    assert s.scalar(select(func.count()).select_from(LiveStudent)) == 1
    # another browser, or one without a learner id, is still refused that name
    for someone in (other, None):
        with pytest.raises(classroom.ClassError, match="already has that name"):
            classroom.join(s, cs, "Ana", learner_id=someone)
    # and a removed student does not get back in by joining again
    classroom.remove(s, cs, ana.id)
    s.commit()
    with pytest.raises(classroom.ClassError, match="removed"):
        classroom.join(s, cs, "Ana", learner_id=phone)
    assert s.scalar(select(func.count()).select_from(LiveStudent)) == 1


def test_a_browser_has_one_seat_and_a_new_name_from_it_renames_the_seat(s, store, teacher):
    cs = classroom.create(s, instructor_id=teacher.id, title="x", mode="paced", refs=["a"])
    phone = "a" * 32
    alice = classroom.join(s, cs, "Alice", learner_id=phone)
    s.commit()
    renamed = []
    for name, stored in (("alice", "alice"), ("Bob", "Bob"), ("\u202eecilA", "ecilA")):
        seat = classroom.take_seat(s, cs, name, learner_id=phone)
        s.commit()
        assert seat.student.id == alice.id and seat.student.name == stored
        renamed.append(seat.renamed_from)
    assert renamed == ["Alice", "alice", "Bob"]
    # a request racing another from the same browser also finds its seat
    with store.session() as racing:
        seat = classroom.take_seat(racing, racing.get(type(cs), cs.id), "Eve", learner_id=phone)
        racing.commit()
    assert (seat.student.id, seat.student.name) == (alice.id, "Eve")
    assert s.scalar(select(func.count()).select_from(LiveStudent)) == 1
    assert classroom.tally(s, cs, 0).expected == 1


@pytest.mark.parametrize("alike", ["eve", "EVE", " Ｅｖｅ ", "E\u200bve", "\u2066Eve\u2069", "\u202eEve"])
def test_two_browsers_cannot_hold_names_that_read_alike(s, teacher, alike):
    cs = classroom.create(s, instructor_id=teacher.id, title="x", mode="paced", refs=["a"])
    phone, other = "a" * 32, "b" * 32
    classroom.join(s, cs, "Eve", learner_id=phone)
    s.commit()
    with pytest.raises(classroom.ClassError, match="already has that name"):
        classroom.join(s, cs, alike, learner_id=other)
    # nor take such a name by renaming a seat of its own
    bo = classroom.join(s, cs, "Bo", learner_id=other)
    s.commit()
    with pytest.raises(classroom.ClassError, match="already has that name"):
        classroom.take_seat(s, cs, alike, learner_id=other)
    s.rollback()
    assert classroom.student(s, cs, bo.id).name == "Bo"
    assert [p.name for p in classroom.students(s, cs)] == ["Eve", "Bo"]


def test_format_characters_are_left_out_of_a_stored_name(s, teacher):
    cs = classroom.create(s, instructor_id=teacher.id, title="x", mode="paced", refs=["a"])
    assert classroom.join(s, cs, "\u202eecilA\u202c").name == "ecilA"
    assert classroom.join(s, cs, "\ufeffMei\u200b Lin").name == "Mei Lin"
    with pytest.raises(classroom.ClassError, match="display name"):
        classroom.join(s, cs, "\u200b\u200e\u2067")


def test_a_removed_browser_cannot_rename_its_way_back_in(s, teacher):
    cs = classroom.create(s, instructor_id=teacher.id, title="x", mode="paced", refs=["a"])
    phone = "a" * 32
    ana = classroom.join(s, cs, "Ana", learner_id=phone)
    classroom.remove(s, cs, ana.id)
    s.commit()
    for name in ("Ana", "Zed", "ana"):
        with pytest.raises(classroom.ClassError, match="removed"):
            classroom.join(s, cs, name, learner_id=phone)
    classroom.readmit(s, cs, ana.id)
    assert classroom.join(s, cs, "Ana", learner_id=phone).id == ana.id


# ------------------------------------------------------------------ the web


def _create(client, **form):
    data = {"title": "Tuesday", "mode": "paced", "ids": f"{BTN}\nseed001-min-raise", **form}
    response = post_form(client, "/classroom/", data, to="/classroom/new")
    assert response.status_code == 303, response.text
    session_id = response.headers["Location"].split("/")[2]
    page = client.get(f"/classroom/{session_id}/")
    code = re.search(r'id="join-code">([A-Z2-9]{4}-[A-Z2-9]{4})<', page.text).group(1)
    return session_id, code, page


def _join(app, code, name):
    student = app.test_client()
    response = post_form(student, f"/join/{code}", {"code": code, "name": name}, to="/join")
    assert response.status_code == 303, response.text
    return student


def _act(client, session_id, action, **data):
    page = client.get("/classroom/")  # any form of the instructor's carries their token
    return client.post(f"/classroom/{session_id}/{action}", data={"csrf_token": token(page.text), **data})


def _answer(student, code, answer, *, answer_id=None, headers=None):
    page = student.get(f"/c/{code}")
    form = {"csrf_token": token(student.get("/join").text), "position": "0", **answer}
    form["answer_id"] = answer_id or re.search(r'name="answer_id" value="([0-9a-f]+)"', page.text).group(1)
    return student.post(f"/c/{code}/answer", data=form, headers=headers or {})


@pytest.fixture
def instructor(app, client):
    sign_up(client, "teacher@example.com", name="Ms T", instructor=True)
    return client


def test_a_live_class_from_join_to_report_and_csv(app, instructor):
    session_id, code, page = _create(instructor)
    assert "<svg" in page.text and 'class="segno"' in page.text  # the QR code, drawn here
    assert f"/join/{code}" in page.text

    ana = _join(app, code, "Ana")
    bo = _join(app, code, "Bo")
    assert "Waiting for the instructor" in ana.get(f"/c/{code}").text

    _act(instructor, session_id, "next")
    stage = ana.get(f"/c/{code}").text
    assert "Question 1 of 2" in stage and 'name="answer_id"' in stage
    assert "2,400" not in stage  # no answer before the reveal

    sent = _answer(ana, code, BTN_TWO_WRONG, headers=HTMX)
    assert sent.status_code == 200 and "Answer received" in sent.text

    live = instructor.get(f"/classroom/{session_id}/live").text
    assert "1 of 2 answered" in live and "Not answered yet:" in live and "Bo" in live
    assert "1,800" in live  # Ana's minimum raise-to, in the distribution of that column

    _answer(bo, code, BTN_RIGHT)
    _act(instructor, session_id, "reveal")
    revealed = ana.get(f"/c/{code}").text
    assert "8 of 10 right" in revealed and "correct: 2,400" in revealed and "R-REOPEN" in revealed
    projector = instructor.get(f"/classroom/{session_id}/projector").text
    assert "The answer" in projector and "2,400" in projector and "R-REOPEN" in projector

    # "End the session" sits beside Next and Reveal: it asks once more, and only "End it" ends the class.
    asked = instructor.get(f"/classroom/{session_id}/end")
    assert "End the session?" in asked.text and "all its 2 students" in asked.text
    unconfirmed = _act(instructor, session_id, "end")
    assert unconfirmed.status_code == 303 and unconfirmed.location.endswith(f"/classroom/{session_id}/end")
    assert "8 of 10 right" in ana.get(f"/c/{code}").text  # still the revealed question: not ended
    _act(instructor, session_id, "end", confirm="1")
    assert "You got 0 of 2 questions all right" in ana.get(f"/c/{code}").text
    assert "You got 1 of 2" in bo.get(f"/c/{code}").text
    report = instructor.get(f"/classroom/{session_id}/report").text
    assert "Ana" in report and "Bo" in report

    exported = instructor.get(f"/classroom/{session_id}/answers.csv")
    assert exported.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(exported.data.decode("utf-8-sig"))))
    assert len(rows) == 20  # two answers, ten fields each
    ana_min = next(r for r in rows if r["student"] == "Ana" and r["field"] == "min_to")
    assert (ana_min["answer"], ana_min["correct"], ana_min["right"]) == ("1800", "2400", "no")


def test_the_student_poll_answers_204_until_the_session_moves_on(app, instructor):
    session_id, code, _ = _create(instructor)
    ana = _join(app, code, "Ana")
    page = ana.get(f"/c/{code}").text
    poll = re.search(r'hx-get="([^"]+/stage[^"]*)"', page).group(1).replace("&amp;", "&")
    assert ana.get(poll, headers=HTMX).status_code == 204
    _act(instructor, session_id, "next")
    moved = ana.get(poll, headers=HTMX)
    assert moved.status_code == 200 and "Question 1 of 2" in moved.text


def test_a_retried_submission_is_acknowledged_and_stored_once(app, instructor):
    session_id, code, _ = _create(instructor)
    ana = _join(app, code, "Ana")
    _act(instructor, session_id, "next")
    answer_id = uuid.uuid4().hex
    for _ in range(3):
        assert "Answer received" in _answer(ana, code, BTN_RIGHT, answer_id=answer_id, headers=HTMX).text
    with app.extensions["trainer.store"].session() as s:
        assert s.scalar(select(func.count()).select_from(LiveAnswer)) == 1


def test_a_removed_student_is_told_and_cannot_answer(app, instructor):
    session_id, code, _ = _create(instructor)
    ana = _join(app, code, "Ana")
    _act(instructor, session_id, "next")
    live = instructor.get(f"/classroom/{session_id}/live").text
    student_id = re.search(r'name="student" value="([0-9a-f]+)"', live).group(1)
    _act(instructor, session_id, "remove", student=student_id)
    assert "You were removed" in ana.get(f"/c/{code}").text


def test_self_paced_students_get_their_marks_after_each_answer(app, instructor):
    session_id, code, _ = _create(instructor, mode="self", minutes="30")
    ana = _join(app, code, "Ana")
    assert "Assignment" in ana.get(f"/c/{code}").text
    from tests.store.test_exams import _moments

    # The deadline, and the session's start on the instructor's list, for the reader's zone.
    assert _moments(ana.get(f"/c/{code}").text) == ["datetime"]
    assert _moments(instructor.get(f"/classroom/{session_id}/").text) == ["datetime"]
    assert "datetime" in _moments(instructor.get("/classroom/").text)
    page = ana.get(f"/c/{code}/q/1")
    form = {
        "csrf_token": token(page.text),
        "position": "0",
        "answer_id": uuid.uuid4().hex,
        **BTN_RIGHT,
    }
    done = ana.post(f"/c/{code}/answer", data=form)
    assert done.status_code == 303
    assert "10 of 10 right" in ana.get(done.headers["Location"]).text
    assert "1 answered" in instructor.get(f"/classroom/{session_id}/live").text


def test_instructors_see_only_their_own_sessions_and_students_only_theirs(app, instructor):
    session_id, code, _ = _create(instructor)
    other = app.test_client()
    sign_up(other, "other@example.com", instructor=True)
    for path in ("/", "/live", "/report", "/answers.csv", "/projector"):
        assert other.get(f"/classroom/{session_id}{path}").status_code == 404
    assert _act(other, session_id, "end").status_code == 404
    learner = app.test_client()
    sign_up(learner, "learner@example.com")
    assert learner.get("/classroom/").status_code == 403
    anonymous = app.test_client()
    assert anonymous.get("/classroom/").status_code == 302
    assert anonymous.get(f"/c/{code}").status_code == 404  # not joined


def test_a_wrong_code_is_rejected_and_guessing_is_rate_limited(app):
    guesser = app.test_client()
    page = guesser.get("/join")
    for _ in range(20):
        response = guesser.post("/join", data={"csrf_token": token(page.text), "code": "ABCD-EFGH", "name": "x"})
        assert response.status_code == 200 and "no live session" in response.text
    blocked = guesser.post("/join", data={"csrf_token": token(page.text), "code": "ABCD-EFGH", "name": "x"})
    assert blocked.status_code == 429


def test_a_class_joining_from_one_address_is_not_rate_limited(app, instructor):
    _session_id, code, _ = _create(instructor)
    for n in range(30):
        _join(app, code, f"Student {n}")


def _full_width(text: str) -> str:
    """``text`` as a phone's Chinese keyboard types it: every ASCII letter, digit and dash full-width."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@pytest.mark.parametrize(
    "typed",
    [
        lambda code: _full_width(code),  # ＣＷＪＥ－４９４Ｊ
        lambda code: _full_width(code.replace("-", "")),  # ＣＷＪＥ４９４Ｊ
        lambda code: _full_width(code.lower()).replace("－", "ー"),  # the long-vowel mark an IME gives for a dash
        lambda code: "\u3000" + code.replace("-", "\u2014") + "\u3000",  # an em dash, ideographic spaces
        lambda code: code.replace("-", "\u2010"),
    ],
)
def test_a_code_typed_full_width_joins_the_session(app, instructor, typed):
    _session_id, code, _ = _create(instructor)
    phone = app.test_client()
    joined = post_form(phone, "/join", {"code": typed(code), "name": "Ana"})
    assert joined.status_code == 303, joined.text
    assert joined.headers["Location"] == f"/c/{code}"
    assert phone.get(f"/join/{_full_width(code)}").text.count(f'value="{code}"') == 1


def test_one_browser_joining_again_under_other_names_keeps_one_seat_and_is_told(app, instructor):
    session_id, code, _ = _create(instructor)
    phone = app.test_client()
    for name in ("Alice", "alice", "Bob", "\u202eecilA"):
        joined = post_form(phone, f"/join/{code}", {"code": code, "name": name}, to="/join")
        assert joined.status_code == 303, joined.text
    play = phone.get(joined.headers["Location"]).text
    assert "You are ecilA." in play and "already had a seat in this session" in play
    assert "1 student<" in instructor.get(f"/classroom/{session_id}/").text
    with app.extensions["trainer.store"].session() as s:
        assert s.scalars(select(LiveStudent.name)).all() == ["ecilA"]
    # a retry of the same join says nothing more
    again = post_form(phone, f"/join/{code}", {"code": code, "name": "ecilA"}, to="/join")
    assert "already had a seat" not in phone.get(again.headers["Location"]).text
    # another browser cannot take a name that reads like it
    refused = post_form(app.test_client(), f"/join/{code}", {"code": code, "name": "ECILA"}, to="/join")
    assert refused.status_code == 200 and "already has that name" in refused.text


def test_a_join_retried_after_its_response_was_lost_lands_on_the_play_page(app, instructor):
    _session_id, code, _ = _create(instructor)
    phone = app.test_client()
    page = phone.get(f"/join/{code}")
    opened = phone.get_cookie("session").value  # what the browser holds with the form
    form = {"csrf_token": token(page.text), "code": code, "name": "Ana"}
    assert phone.post("/join", data=form).status_code == 303
    # The student was stored but the response, and the cookie it set, never arrived: the form is sent again.
    phone.set_cookie("session", opened)
    again = phone.post("/join", data=form)
    assert again.status_code == 303 and again.headers["Location"] == f"/c/{code}"
    assert "Waiting for the instructor" in phone.get(f"/c/{code}").text
    with app.extensions["trainer.store"].session() as s:
        assert s.scalar(select(func.count()).select_from(LiveStudent)) == 1
    # another phone still cannot take that name
    refused = post_form(app.test_client(), f"/join/{code}", {"code": code, "name": "Ana"}, to="/join")
    assert refused.status_code == 200 and "already has that name" in refused.text


def test_the_stage_kept_for_a_whole_class_still_carries_each_students_own_id_token_and_result(app, instructor):
    """The stage a class sees alike is rendered once and kept; each response still has the
    student's own CSRF token and a fresh answer id, and after the reveal each student sees the
    result of what they typed (the same answer, the same kept result)."""
    session_id, code, _ = _create(instructor)
    ana, bo, cy = (_join(app, code, name) for name in ("Ana", "Bo", "Cy"))
    _act(instructor, session_id, "next")
    stages = [s.get(f"/c/{code}/stage?v=old", headers=HTMX).text for s in (ana, bo, cy)]
    ids = [re.search(r'name="answer_id" value="([0-9a-f]+)"', t).group(1) for t in stages]
    assert len(set(ids)) == 3
    for student, stage in zip((ana, bo, cy), stages):
        assert token(stage) == token(student.get("/join").text)  # this student's own token
    again = ana.get(f"/c/{code}/stage?v=old", headers=HTMX).text
    assert re.search(r'name="answer_id" value="([0-9a-f]+)"', again).group(1) not in ids

    for student, answer in ((ana, BTN_RIGHT), (bo, BTN_TWO_WRONG), (cy, BTN_RIGHT)):
        assert "Answer received" in _answer(student, code, answer, headers=HTMX).text
    _act(instructor, session_id, "reveal")
    results = [s.get(f"/c/{code}/stage?v=old", headers=HTMX).text for s in (ana, bo, cy)]
    marks = [re.search(r'class="stage-result">([^<]+)<', t).group(1) for t in results]
    assert marks[0] == marks[2] != marks[1], marks
    assert "all right" not in marks[1]
    # A label that asks ("…是否已經行動？") takes its answer without a colon after the question mark.
    shown_zh = ana.get(f"/c/{code}/stage?v=old&lang=zh-Hant", headers=HTMX).text
    assert "？：" not in shown_zh and "？ " in shown_zh


def test_ending_a_session_nobody_joined_says_so_instead_of_counting_0_students(app, instructor):
    session_id, _code, _page = _create(instructor)
    asked = instructor.get(f"/classroom/{session_id}/end").text
    assert "ends before anyone joined" in asked and "0 students" not in asked


def test_an_ended_session_says_so_on_its_end_page_its_control_page_and_its_join_link(app, instructor):
    session_id, code, _page = _create(instructor)
    _join(app, code, "Ana")
    _act(instructor, session_id, "next")
    _act(instructor, session_id, "end", confirm="1")

    end = instructor.get(f"/classroom/{session_id}/end")
    assert end.status_code == 200 and "This session has ended" in end.text
    assert "End it" not in end.text and 'value="1"' not in end.text  # nothing left to end
    assert f'href="/classroom/{session_id}/report"' in end.text

    control = instructor.get(f"/classroom/{session_id}/").text
    assert "This session has ended" in control
    assert code not in control and 'class="segno"' not in control  # no code or QR code to join by
    assert "Not answered yet" not in control
    assert "Not answered yet" not in instructor.get(f"/classroom/{session_id}/live").text

    # A student following the join link is told at once, before typing a name.
    late = app.test_client()
    page = late.get(f"/join/{code}")
    assert page.status_code == 200 and "This session is over" in page.text
    typed = post_form(late, f"/join/{code}", {"code": code, "name": "Late"}, to="/join")
    assert typed.status_code == 200 and "This session is over" in typed.text


def test_the_join_link_of_a_self_paced_assignment_past_its_deadline_says_it_is_over(app, instructor):
    _session_id, code, _page = _create(instructor, mode="self", minutes="5")
    with app.extensions["trainer.store"].session() as s:
        classroom.by_code(s, code).deadline = now() - timedelta(minutes=1)
        s.commit()
    assert "This session is over" in app.test_client().get(f"/join/{code}").text


def test_the_report_shows_a_dash_not_0_for_a_question_nobody_answered(app, instructor):
    session_id, code, _page = _create(instructor)
    ana = _join(app, code, "Ana")
    _act(instructor, session_id, "next")
    _answer(ana, code, BTN_RIGHT)
    _act(instructor, session_id, "next")  # nobody answers question 2
    _act(instructor, session_id, "end", confirm="1")
    report = instructor.get(f"/classroom/{session_id}/report").text
    cells = [re.findall(r'<td class="num">(.*?)</td>', row, re.S) for row in re.findall(r"<tr><td>\d</td>.*?</tr>", report, re.S)]
    assert len(cells) == 2 and cells[0] == ["1", "1 (100%)"]
    assert cells[1][0] == "0" and "—" in cells[1][1] and ">0<" not in cells[1][1]
