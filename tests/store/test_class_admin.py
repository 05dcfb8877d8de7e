"""Class exams an instructor manages (edit, extend, delete, one student's extra time or late window,
remove a member, open an attempt), assigned attempts counted apart from self-study, the join
confirmation and the invite's QR code, and the gradebook exports with a student number."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import replace
from datetime import timedelta

import pytest
from openpyxl import load_workbook
from sqlalchemy import select, update

from trainer.store import classes, exams
from trainer.store.learners import sign_up as make_account
from trainer.store.models import ClassExam, ClassMember, ExamAttempt, LiveStudent, SchoolClass, now

from tests.store.helpers import BTN_RIGHT, BTN_TWO_WRONG, post_form, sign_up, token
from tests.store.test_class_exams import _assign, _class, _local, _only, _student
from tests.store.test_classroom import _act, _answer, _create
from tests.store.test_exams import MINI

ONE_A_DAY = replace(MINI, slug="once", title="Once a day", retake=exams.RetakePolicy(attempts=1, hours=24))


@pytest.fixture
def app(database, tmp_path):
    from tests.store.conftest import running_app

    yield from running_app(database, tmp_path, EXAM_TEMPLATES=[MINI, ONE_A_DAY])


@pytest.fixture
def instructor(app):
    client = app.test_client()
    sign_up(client, "teacher@example.com", name="Ms T", instructor=True)
    return client


def _open_class(instructor, *, template="mini", title="Dealers 101"):
    class_id, code = _class(instructor, title=title)
    made = _assign(instructor, class_id, opens=_local(now() - timedelta(hours=1)),
                   closes=_local(now() + timedelta(days=1)), template=template)
    assert made.status_code == 303, made.text
    return class_id, code


def _post(client, path, data=None):
    """A form posted with the client's token, as the page's button would."""
    page = client.get("/exams/")
    return client.post(path, data={"csrf_token": token(page.text), **(data or {})})


def _start(client, assignment_id, name="Ana Lee"):
    return post_form(client, "/exams/", {"candidate_name": name}, to=f"/exams/assigned/{assignment_id}/start")


def _account_id(app, email):
    from trainer.store.models import Account

    with app.extensions["trainer.store"].session() as s:
        return s.scalar(select(Account.id).where(Account.email == email))


# ------------------------------------------------------------------ who may manage


def test_every_management_page_and_action_is_404_to_another_instructor_and_to_a_student(app, instructor):
    class_id, code = _open_class(instructor)
    a = _only(app, ClassExam).id
    ana = _student(app, "ana@example.com", "Ana Lee", code)
    ana_id = _account_id(app, "ana@example.com")
    exam_id = _start(ana, a).headers["Location"].split("/")[2]
    other = app.test_client()
    sign_up(other, "other@example.com", name="Mr O", instructor=True)
    pages = [f"/classroom/exams/{a}/edit", f"/classroom/exams/{a}/students/{ana_id}", f"/classroom/results/{exam_id}/"]
    actions = [
        (f"/classroom/exams/{a}/edit", {"template": "mini", "opens": "2030-01-01T00:00", "closes": "2030-01-02T00:00",
                                         "tz": "UTC"}),
        (f"/classroom/exams/{a}/extend", {}),
        (f"/classroom/exams/{a}/delete", {}),
        (f"/classroom/exams/{a}/students/{ana_id}", {"extra_minutes": "30"}),
        (f"/classroom/classes/{class_id}/members/{ana_id}/remove", {}),
        (f"/classroom/classes/{class_id}/settings", {"ask_number": "1"}),
    ]
    for client in (other, ana):
        for path in pages:
            assert client.get(path).status_code == 404, path
        for path, data in actions:
            assert _post(client, path, data).status_code == 404, path
    with app.extensions["trainer.store"].session() as s:
        kept = s.get(ClassExam, a)
        assert kept is not None and kept.closes_at.year != 2030
        assert s.scalar(select(ClassMember)) is not None and not s.scalar(select(SchoolClass)).ask_number
        assert classes.allowance(s, kept, ana_id) is None
    assert instructor.get(f"/classroom/exams/{a}/edit").status_code == 200


# ------------------------------------------------------------------ edit, extend, delete


def test_the_instructor_edits_extends_and_deletes_an_assignment(app, instructor):
    class_id, code = _open_class(instructor)
    a = _only(app, ClassExam).id
    form = instructor.get(f"/classroom/exams/{a}/edit")
    assert form.status_code == 200 and 'value="Asia/Taipei"' in form.text and "Delete this assigned exam" in form.text
    closes = now() + timedelta(days=3)
    edited = post_form(instructor, f"/classroom/exams/{a}/edit", {
        "template": "mini", "opens": _local(now() - timedelta(hours=1)), "closes": _local(closes), "tz": "Asia/Taipei",
        "review": "after-attempt"})
    assert edited.status_code == 303 and edited.headers["Location"] == f"/classroom/exams/{a}/"
    kept = _only(app, ClassExam)
    assert abs((kept.closes_at - closes).total_seconds()) < 60 and kept.review == "after-attempt"

    refused = post_form(instructor, f"/classroom/exams/{a}/edit", {
        "template": "mini", "opens": "2030-03-01T09:00", "closes": "2030-03-01T08:00", "tz": "Asia/Taipei"})
    assert refused.status_code == 200 and "The exam must close after it opens." in refused.text
    assert 'value="2030-03-01T08:00"' in refused.text

    before = _only(app, ClassExam).closes_at
    assert _post(instructor, f"/classroom/exams/{a}/extend").status_code == 303
    assert _only(app, ClassExam).closes_at == before + timedelta(days=1)

    # Once someone has started, the exam stays: its results stand.
    ana = _student(app, "ana@example.com", "Ana Lee", code)
    _start(ana, a)
    kept_back = _post(instructor, f"/classroom/exams/{a}/delete")
    assert kept_back.status_code == 200 and "cannot be deleted: their results stay" in kept_back.text
    switched = post_form(instructor, f"/classroom/exams/{a}/edit", {
        "template": "once", "opens": _local(now() - timedelta(hours=1)), "closes": _local(closes), "tz": "UTC"})
    assert switched.status_code == 200 and "cannot be changed for another one" in switched.text
    assert _only(app, ClassExam).template == "mini"

    _assign(instructor, class_id, opens=_local(now()), closes=_local(now() + timedelta(days=1)), template="once")
    with app.extensions["trainer.store"].session() as s:
        fresh = s.scalar(select(ClassExam.id).where(ClassExam.template == "once"))
    gone = _post(instructor, f"/classroom/exams/{fresh}/delete")
    assert gone.status_code == 303 and gone.headers["Location"].startswith(f"/classroom/classes/{class_id}/")
    assert "Once a day" not in ana.get("/exams/").text.split('id="assigned-h"', 1)[1].split("</section>", 1)[0]


def test_moving_the_close_moves_the_end_of_an_attempt_that_is_running(app, instructor):
    _class_id, code = _open_class(instructor)
    a = _only(app, ClassExam)
    with app.extensions["trainer.store"].session() as s:  # a close 2 minutes away cuts the 5-minute attempt
        s.execute(update(ClassExam).values(closes_at=now() + timedelta(minutes=2)))
        s.commit()
    ana = _student(app, "ana@example.com", "Ana Lee", code)
    _start(ana, a.id)
    short = _only(app, ExamAttempt)
    assert (short.deadline - short.started_at) < timedelta(minutes=2, seconds=1)
    assert _post(instructor, f"/classroom/exams/{a.id}/extend").status_code == 303
    longer = _only(app, ExamAttempt)
    assert longer.deadline - longer.started_at == timedelta(minutes=5)  # its own time limit now ends it


# ------------------------------------------------------------------ one student's terms


def test_extra_time_for_one_student_is_kept_by_the_timer_and_by_the_server(app, instructor):
    _class_id, code = _open_class(instructor)
    a = _only(app, ClassExam).id
    ana = _student(app, "ana@example.com", "Ana Lee", code)
    bo = _student(app, "bo@example.com", "Bo", code)
    ana_id = _account_id(app, "ana@example.com")
    page = instructor.get(f"/classroom/exams/{a}/students/{ana_id}")
    assert page.status_code == 200 and "the exam takes 5 minutes" in page.text
    for bad in ("abc", "-5", "601", "1.5"):
        refused = post_form(instructor, f"/classroom/exams/{a}/students/{ana_id}", {"extra_minutes": bad})
        assert refused.status_code == 200 and "whole minutes, from 0 to 600" in refused.text, bad
    saved = post_form(instructor, f"/classroom/exams/{a}/students/{ana_id}", {"extra_minutes": "10"})
    assert saved.status_code == 303
    # Back on the same form: it says it was saved, and for whom (the form alone looked unchanged).
    said = instructor.get(saved.headers["Location"]).text
    assert "Saved for Ana Lee" in said and 'value="10"' in said
    assert "Saved for" not in page.text
    assert "+10 min" in instructor.get(f"/classroom/exams/{a}/").text
    assert "10 extra minutes" in ana.get("/exams/").text and "extra minutes" not in bo.get("/exams/").text

    first = _start(ana, a).headers["Location"]
    question = ana.get(first).text
    seconds = int(re.search(r'data-seconds-left="(\d+)"', question).group(1))
    assert 14 * 60 < seconds <= 15 * 60  # the timer counts the 15 minutes down
    exam = _only(app, ExamAttempt)
    # Seven minutes in, past the 5 everyone else has, the server still takes her answer.
    with app.extensions["trainer.store"].session() as s:
        s.execute(update(ExamAttempt).values(started_at=exam.started_at - timedelta(minutes=7),
                                             deadline=exam.deadline - timedelta(minutes=7)))
        s.commit()
    kept = post_form(ana, first, {"go": "stay", **BTN_RIGHT})
    assert kept.status_code == 303 and "late" not in kept.headers["Location"]
    bo_first = _start(bo, a, name="Bo").headers["Location"]
    assert 4 * 60 < int(re.search(r'data-seconds-left="(\d+)"', bo.get(bo_first).text).group(1)) <= 5 * 60


def test_extra_time_given_during_an_attempt_reaches_it(app, instructor):
    _class_id, code = _open_class(instructor)
    a = _only(app, ClassExam).id
    ana = _student(app, "ana@example.com", "Ana Lee", code)
    first = _start(ana, a).headers["Location"]
    post_form(instructor, f"/classroom/exams/{a}/students/{_account_id(app, 'ana@example.com')}", {"extra_minutes": "20"})
    seconds = int(re.search(r'data-seconds-left="(\d+)"', ana.get(first).text).group(1))
    assert 24 * 60 < seconds <= 25 * 60


def test_a_late_window_lets_one_student_start_after_the_class_close(app, instructor):
    _class_id, code = _open_class(instructor)
    a = _only(app, ClassExam).id
    ana = _student(app, "ana@example.com", "Ana Lee", code)
    bo = _student(app, "bo@example.com", "Bo", code)
    with app.extensions["trainer.store"].session() as s:
        s.execute(update(ClassExam).values(closes_at=now() - timedelta(minutes=1)))
        s.commit()
    ana_id = _account_id(app, "ana@example.com")
    early = post_form(instructor, f"/classroom/exams/{a}/students/{ana_id}",
                      {"late_closes": _local(now() - timedelta(hours=2))})
    assert early.status_code == 200 and "must close after the class" in early.text
    late = post_form(instructor, f"/classroom/exams/{a}/students/{ana_id}", {"late_closes": _local(now() + timedelta(days=1))})
    assert late.status_code == 303
    assert "kept the exam open for you" in ana.get("/exams/").text
    started = _start(ana, a)
    assert started.status_code == 303 and "/q/1" in started.headers["Location"]
    refused = post_form(bo, "/exams/", {"candidate_name": "Bo"}, to=f"/exams/assigned/{a}/start")
    assert refused.status_code == 200 and "This exam has closed" in refused.text
    with app.extensions["trainer.store"].session() as s:
        assert s.scalar(select(ExamAttempt.account_id)) == ana_id


# ------------------------------------------------------------------ members, attempts, joining


def test_a_removed_member_no_longer_sees_or_sits_the_class_exams_and_their_result_stays(app, instructor):
    class_id, code = _open_class(instructor)
    a = _only(app, ClassExam).id
    ana = _student(app, "ana@example.com", "Ana Lee", code)
    first = _start(ana, a).headers["Location"]
    post_form(ana, first, {"go": "stay", **BTN_RIGHT})
    post_form(ana, f"/exams/{first.split('/')[2]}/submit", {})
    assert "Remove" in instructor.get(f"/classroom/classes/{class_id}/").text
    removed = _post(instructor, f"/classroom/classes/{class_id}/members/{_account_id(app, 'ana@example.com')}/remove")
    assert removed.status_code == 303
    after = instructor.get(removed.headers["Location"]).text
    assert "Members (0)" in after
    # One tap removes: the page says what it did and how the student comes back.
    assert "The student was removed" in after and "join again with the invite link" in after
    assert "The student was removed" not in instructor.get(f"/classroom/classes/{class_id}/").text
    assert 'id="assigned-h"' not in ana.get("/exams/").text
    assert _start(ana, a).status_code == 404
    assert re.search(r'<th scope="row">Ana Lee', instructor.get(f"/classroom/exams/{a}/").text)


def test_the_instructor_opens_a_students_attempt_and_its_review_before_the_class_sees_answers(app, instructor):
    _class_id, code = _open_class(instructor)
    a = _only(app, ClassExam).id
    ana = _student(app, "ana@example.com", "Ana Lee", code)
    first = _start(ana, a).headers["Location"]
    exam_id = first.split("/")[2]
    running = instructor.get(f"/classroom/results/{exam_id}/")
    assert running.status_code == 200 and "in progress" in running.text
    post_form(ana, first, {"go": "stay", **BTN_TWO_WRONG})
    post_form(ana, f"/exams/{exam_id}/submit", {})
    assert 'id="review-waits"' in ana.get(f"/exams/{exam_id}/review").text  # the window is still open
    results = instructor.get(f"/classroom/exams/{a}/").text
    assert f'href="/classroom/results/{exam_id}/"' in results
    page = instructor.get(f"/classroom/results/{exam_id}/")
    assert page.status_code == 200 and "Question 1:" in page.text and "review-waits" not in page.text
    assert "1,800" in page.text and "2,400" in page.text  # what she gave, and what was right
    assert ana.get(f"/classroom/results/{exam_id}/").status_code == 404


def test_joining_says_which_class_and_whose_and_the_invite_has_a_qr_code(app, instructor):
    class_id, code = _class(instructor, title="發牌員一班")
    page = instructor.get(f"/classroom/classes/{class_id}/").text
    assert re.search(r'<figure class="qr" id="invite-qr"><svg', page)
    ana = app.test_client()
    sign_up(ana, "ana@example.com", name="Ana")
    offer = ana.get(f"/classes/join/{code}").text
    assert "Join 發牌員一班 by Ms T as Ana?" in offer
    joined = post_form(ana, f"/classes/join/{code}", {})
    assert joined.status_code == 303 and "joined=1" in joined.headers["Location"]
    confirmed = ana.get(joined.headers["Location"])
    assert confirmed.status_code == 200 and "You joined 發牌員一班 by Ms T" in confirmed.text
    assert "你已加入 Ms T 的「發牌員一班」" in ana.get(joined.headers["Location"] + "&lang=zh-Hant").text
    assert "你已加入 Ms T 的“發牌員一班”" in ana.get(joined.headers["Location"] + "&lang=zh-Hans").text


# ------------------------------------------------------------------ retakes apart


def test_self_study_and_assigned_attempts_use_separate_retake_counters(app, instructor):
    _class_id, code = _open_class(instructor, template="once")
    a = _only(app, ClassExam).id
    ana = _student(app, "ana@example.com", "Ana Lee", code)
    # Her one self-study attempt a day does not use up the class's attempt...
    practice = post_form(ana, "/exams/", {"candidate_name": "Ana Lee"}, to="/exams/once/start")
    assert practice.status_code == 303
    post_form(ana, f"/exams/{practice.headers['Location'].split('/')[2]}/submit", {})
    assigned = _start(ana, a)
    assert assigned.status_code == 303 and "/q/1" in assigned.headers["Location"]
    assert assigned.headers["Location"] != practice.headers["Location"]
    post_form(ana, f"/exams/{assigned.headers['Location'].split('/')[2]}/submit", {})
    # ...and both are now used: another of either is refused.
    again = _start(ana, a)
    assert again.status_code == 200 and "You have used the attempts" in again.text
    more = post_form(ana, "/exams/", {"candidate_name": "Ana Lee"}, to="/exams/once/start")
    assert more.status_code == 200 and "You have used the attempts" in more.text
    # The class exam's list counts its own attempt as its first.
    assigned_part = ana.get("/exams/").text.split('id="assigned-h"', 1)[1].split("</section>", 1)[0]
    assert "Attempt 1:" in assigned_part and "Attempt 2:" not in assigned_part


def test_an_assigned_attempt_does_not_use_up_self_study_retakes(s):
    account, learner = make_account(s, email="a@example.com", password="password1", name="A", instructor=False,
                                    learner_id=None)
    teacher, _l = make_account(s, email="t@example.com", password="password1", name="T", instructor=True,
                               learner_id=None)
    sc = classes.create(s, instructor_id=teacher.id, title="C")
    a = classes.assign(s, sc, template="once", opens_at=now() - timedelta(hours=1), closes_at=now() + timedelta(days=1),
                       time_zone="UTC")
    exams.start(s, ONE_A_DAY, learner_id=learner.id, account_id=account.id, name="A", refs=["x"], assignment_id=a.id)
    assert exams.standing(s, ONE_A_DAY, account.id).next_at is None
    assert exams.standing(s, ONE_A_DAY, account.id, assignment_id=a.id).next_at is not None
    second = exams.start(s, ONE_A_DAY, learner_id=learner.id, account_id=account.id, name="A", refs=["x"])
    assert second.attempt_number == 2  # numbers stay one per attempt across both


# ------------------------------------------------------------------ gradebook and student numbers


def _book(response):
    assert response.headers["Content-Type"].startswith("application/vnd.openxmlformats")
    return load_workbook(io.BytesIO(response.data))


def _csv(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(response.data.decode("utf-8-sig"))))


def _rows(ws) -> list[dict]:
    head = [c.value for c in ws[1]]
    return [dict(zip(head, [c.value for c in row])) for row in ws.iter_rows(min_row=2) if row[0].value is not None]


def test_the_class_gradebook_has_a_summary_a_sheet_per_question_and_the_raw_rows(app, instructor):
    class_id, code = _open_class(instructor, title="發牌員一班")
    assert _post(instructor, f"/classroom/classes/{class_id}/settings", {"ask_number": "1"}).status_code == 303
    a = _only(app, ClassExam).id
    students = []
    for email, name, number in (("li1@example.com", "李娜", "A001"), ("li2@example.com", "李娜", "A002"),
                                ("evil@example.com", '=HYPERLINK("x")', "=1+1"), ("b@example.com", "<b>x</b>", "B7")):
        client = app.test_client()
        sign_up(client, email, name=name)
        refused = post_form(client, f"/classes/join/{code}", {})
        assert refused.status_code == 200 and "Enter your student number" in refused.text
        assert post_form(client, f"/classes/join/{code}", {"student_number": number}).status_code == 303
        students.append((client, name))
    first_li, second_li = students[0][0], students[1][0]
    for client, answer in ((first_li, BTN_RIGHT), (second_li, BTN_TWO_WRONG)):
        first = _start(client, a, name="李娜").headers["Location"]
        post_form(client, first, {"go": "stay", **answer})
        post_form(client, f"/exams/{first.split('/')[2]}/submit", {})

    rows = _csv(instructor.get(f"/classroom/exams/{a}/results.csv"))
    li = {r["student_number"]: r for r in rows if r["student"] == "李娜"}
    assert li["A001"]["score"] == "1" and li["A001"]["percent"] == "50.0" and li["A002"]["score"] == "0"
    evil = next(r for r in rows if r["student_number"] == "'=1+1")
    assert evil["student"] == "'=HYPERLINK(\"x\")"  # the CSV's guard stays

    book = _book(instructor.get(f"/classroom/exams/{a}/results.xlsx"))
    assert book.sheetnames == ["summary", "Q1", "Q2", "results"]
    for ws in book.worksheets:
        assert ws.freeze_panes == "A2" and ws.auto_filter.ref and ws.auto_filter.ref.startswith("A1:")
        assert ws.column_dimensions["A"].width >= 6
    summary = _rows(book["summary"])
    by_number = {r["student_number"]: r for r in summary}
    assert by_number["A001"]["percent"] == 50.0 and by_number["A001"]["attempts"] == 1
    assert by_number["B7"]["attempts"] == 0 and by_number["B7"]["score"] is None
    ws = book["summary"]
    head = [c.value for c in ws[1]]
    row = next(r for r in ws.iter_rows(min_row=2) if r[head.index("student_number")].value == "A001")
    assert row[head.index("percent")].number_format == "0.0"
    assert row[head.index("finished_at")].is_date and row[head.index("finished_at")].number_format == "yyyy-mm-dd hh:mm:ss"
    assert row[head.index("time_taken")].number_format == "[h]:mm:ss"
    # Names and numbers that look like formulas or markup are text cells, as typed, no apostrophe.
    for value in ('=HYPERLINK("x")', "<b>x</b>", "=1+1"):
        found = [c for r in ws.iter_rows() for c in r if c.value == value]
        assert found and all(c.data_type == "s" for c in found), value
    assert not any(str(c.value).startswith("'") for r in ws.iter_rows() for c in r if c.value is not None)
    # A sheet per question: each attempt's answer in each column, then % right and the misses per column.
    q1 = book["Q1"]
    answered = _rows(q1)
    assert {r["student_number"] for r in answered if r["student"] == "李娜"} == {"A001", "A002"}
    footer = {r[0].value: r for r in q1.iter_rows() if r[0].value in ("% right", "times wrong")}
    head = [c.value for c in q1[1]]
    assert footer["% right"][head.index("right")].value == 50.0
    assert sum(c.value or 0 for c in footer["times wrong"][head.index("right") + 1:]) == 2  # BTN_TWO_WRONG's two
    raw = _rows(book["results"])
    assert {r["student_number"] for r in raw} == {"A001", "A002", "=1+1", "B7"}
    assert next(r for r in raw if r["student_number"] == "A001")["finished_at"].year >= 2026


def test_a_live_session_can_ask_for_a_student_number_and_every_export_shows_it(app, instructor):
    session_id, code, _page = _create(instructor, title="週二", ask_number="1")
    student = app.test_client()
    # The code says which session; its form then asks for the number.
    asked = post_form(student, f"/join/{code}", {"code": code, "name": "李娜"}, to="/join")
    assert asked.status_code == 200 and "Enter your student number" in asked.text and 'name="student_number"' in asked.text
    assert 'name="student_number"' in student.get(f"/join/{code}").text
    joined = post_form(student, f"/join/{code}", {"code": code, "name": "李娜", "student_number": "S-42"}, to="/join")
    assert joined.status_code == 303
    other = app.test_client()
    post_form(other, f"/join/{code}", {"code": code, "name": '=HYPERLINK("x")', "student_number": "S-43"}, to="/join")
    _act(instructor, session_id, "next")
    _answer(student, code, BTN_TWO_WRONG)
    _answer(other, code, BTN_RIGHT)
    with app.extensions["trainer.store"].session() as s:
        assert {st.student_number for st in s.scalars(select(LiveStudent))} == {"S-42", "S-43"}
    rows = _csv(instructor.get(f"/classroom/{session_id}/answers.csv"))
    assert {r["student_number"] for r in rows} == {"S-42", "S-43"}
    assert "'=HYPERLINK(\"x\")" in {r["student"] for r in rows}
    book = _book(instructor.get(f"/classroom/{session_id}/answers.xlsx"))
    assert book.sheetnames == ["summary", "Q1", "Q2", "answers"]
    summary = {r["student_number"]: r for r in _rows(book["summary"])}
    assert summary["S-42"]["right"] == 0 and summary["S-43"]["right"] == 1 and summary["S-43"]["percent"] == 50.0
    assert summary["S-43"]["student"] == '=HYPERLINK("x")'
    q1 = book["Q1"]
    head = [c.value for c in q1[1]]
    footer = {r[0].value: r for r in q1.iter_rows() if r[0].value in ("correct", "% right", "times wrong")}
    assert footer["% right"][head.index("right")].value == 50.0
    wrong = {head[i]: c.value for i, c in enumerate(footer["times wrong"]) if i > head.index("right") and c.value}
    assert sorted(wrong.values()) == [1, 1] and len(wrong) == 2
    raw = _rows(book["answers"])
    assert {r["student_number"] for r in raw} == {"S-42", "S-43"} and raw[0]["answered_at"].year >= 2026
    assert q1.freeze_panes == "A2" and q1.auto_filter.ref == f"A1:{q1.cell(1, len(head)).column_letter}3"
    # never on the projector
    assert "S-42" not in instructor.get(f"/classroom/{session_id}/projector").text


def test_a_control_character_in_a_new_form_gives_it_back_filled_in_and_changes_nothing(app, instructor):
    class_id, code = _open_class(instructor)
    a = _only(app, ClassExam).id
    _post(instructor, f"/classroom/classes/{class_id}/settings", {"ask_number": "1"})
    ana = app.test_client()
    sign_up(ana, "ana@example.com", name="Ana")
    refused = post_form(ana, f"/classes/join/{code}", {"student_number": "A\x0001"})
    assert refused.status_code == 200 and "cannot hold control characters" in refused.text
    assert 'value="A01"' in refused.text and _only(app, ClassMember) is None
    assert post_form(ana, f"/classes/join/{code}", {"student_number": "A01"}).status_code == 303
    ana_id = _account_id(app, "ana@example.com")
    terms = post_form(instructor, f"/classroom/exams/{a}/students/{ana_id}", {"extra_minutes": "1\x000"})
    assert terms.status_code == 200 and "cannot hold control characters" in terms.text and 'value="10"' in terms.text
    edit = post_form(instructor, f"/classroom/exams/{a}/edit", {"template": "mini", "opens": "x", "closes": "y",
                                                                "tz": "Asia/\x01Taipei"})
    assert edit.status_code == 200 and 'value="Asia/Taipei"' in edit.text and 'aria-invalid="true"' in edit.text
    with app.extensions["trainer.store"].session() as s:
        assert classes.allowance(s, s.get(ClassExam, a), ana_id) is None
        assert s.scalar(select(ClassMember.student_number)) == "A01"
