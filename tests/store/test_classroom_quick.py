"""Quick live sessions: one thing asked per spot and answered with one tap, graded by the engine and
stored once; the projector's bars per choice, "% right"; the game (countdown, points, leaderboard,
podium). On both databases."""

from __future__ import annotations

import csv
import io
import re
import uuid
from datetime import timedelta

import pytest

from trainer.store import live as classroom
from trainer.store.learners import sign_up as make_account

from tests.store.helpers import HTMX, post_form, sign_up, token

# seed001-min-raise asks the minimum raise-to (500); sb-not-reopened asks whether SB may re-raise (no)
MIN_RAISE, NOT_REOPENED = "seed001-min-raise", "sb-not-reopened"


def _create(client, **form):
    data = {"title": "Quick", "mode": "paced", "style": "quick", "ids": f"{MIN_RAISE}\n{NOT_REOPENED}", **form}
    response = post_form(client, "/classroom/", data, to="/classroom/new")
    assert response.status_code == 303, response.text
    session_id = response.headers["Location"].split("/")[2]
    page = client.get(f"/classroom/{session_id}/")
    code = re.search(r'id="join-code">([A-Z2-9]{4}-[A-Z2-9]{4})<', page.text).group(1)
    return session_id, code


def _join(app, code, name):
    student = app.test_client()
    response = post_form(student, f"/join/{code}", {"code": code, "name": name}, to="/join")
    assert response.status_code == 303, response.text
    return student


def _act(client, session_id, action, **data):
    page = client.get("/classroom/")
    return client.post(f"/classroom/{session_id}/{action}", data={"csrf_token": token(page.text), **data})


def _choices(page: str) -> list[str]:
    return re.findall(r'<button type="submit" name="answer" value="([^"]+)"', page)


def _tap(student, code, value, *, position=0, answer_id=None, headers=None):
    page = student.get(f"/c/{code}").text
    if answer_id is None:
        answer_id = re.search(r'name="answer_id" value="([0-9a-f]+)"', page).group(1)
    form = {"csrf_token": token(student.get("/join").text), "position": str(position), "answer": value,
            "answer_id": answer_id}
    return student.post(f"/c/{code}/answer", data=form, headers=headers or {})


@pytest.fixture
def instructor(app, client):
    sign_up(client, "teacher@example.com", name="Ms T", instructor=True)
    return client


def test_the_new_session_form_offers_quick_questions_first_and_the_full_card(instructor):
    page = instructor.get("/classroom/").text
    assert re.search(r'name="style" value="quick" checked', page)
    assert 'name="style" value="card"' in page and "Full card" in page
    assert 'name="seconds"' in page and 'name="anonymous"' in page


def test_a_quick_question_is_one_tap_on_four_amounts_graded_by_the_engine_and_stored_once(app, instructor):
    session_id, code = _create(instructor)
    ana, bo, cy = (_join(app, code, n) for n in ("Ana", "Bo", "Cy"))
    _act(instructor, session_id, "next")
    page = ana.get(f"/c/{code}").text
    assert "What is the minimum raise-to for" in page
    choices = _choices(page)
    assert len(choices) == 4 and "500" in choices and choices == sorted(choices, key=int)
    # the question and its buttons come before the table
    assert page.index('class="quick-form"') < page.index('class="quick-table"')

    answer_id = uuid.uuid4().hex
    first = _tap(ana, code, "500", answer_id=answer_id, headers=HTMX)
    assert first.status_code == 200 and "Answer received" in first.text
    again = _tap(ana, code, "500", answer_id=answer_id, headers=HTMX)  # a retry: the same row
    assert again.status_code == 200 and "Answer received" in again.text
    wrong = next(c for c in choices if c != "500")
    _tap(bo, code, wrong)
    refused = _tap(cy, code, "12345", headers=HTMX)  # not one of the choices: nothing stored
    assert refused.status_code == 200 and "Tap one of the answers shown." in refused.text
    control = _tap(cy, code, "500\x00", headers=HTMX)  # a control character: said, nothing stored
    assert control.status_code == 200 and "Answer received" not in control.text and 'name="answer"' in control.text

    live = instructor.get(f"/classroom/{session_id}/live").text
    assert "2 of 3 answered" in live
    projector = instructor.get(f"/classroom/{session_id}/projector").text
    assert len(re.findall(r'class="quick-bar quick-bar--\d', projector)) == 4 and "2 / 3" in projector
    assert "% right" not in projector  # not before the reveal

    _act(instructor, session_id, "reveal")
    projector = instructor.get(f"/classroom/{session_id}/projector").text
    assert "50% right" in projector and "quick-bar--right" in projector
    assert "Ana" in projector  # the leaderboard
    mine = ana.get(f"/c/{code}").text
    assert "Right!" in mine and "Place 1 of 3" in mine
    assert re.search(r"Right!\s+<strong>\+\d+</strong>", mine)  # "Right! +974", not "Right!+974"
    theirs = bo.get(f"/c/{code}").text
    assert "Not this time" in theirs and "Correct: 500" in theirs and "0 points" in theirs

    exported = instructor.get(f"/classroom/{session_id}/answers.csv")
    rows = list(csv.DictReader(io.StringIO(exported.data.decode("utf-8-sig"))))
    assert len(rows) == 2  # one answer each, one row each: Ana's retry stored nothing
    ana_row = next(r for r in rows if r["student"] == "Ana")
    assert (ana_row["answer"], ana_row["correct"], ana_row["right"]) == ("500", "500", "yes")


def test_a_yes_no_question_and_the_podium_at_the_end(app, instructor):
    session_id, code = _create(instructor, anonymous="1")
    ana, bo = _join(app, code, "Anastasia"), _join(app, code, "Bolesław")
    lobby = instructor.get(f"/classroom/{session_id}/projector").text
    assert "2 students have joined" in lobby and "Anastasia" not in lobby  # anonymous: no names, from the lobby on
    _act(instructor, session_id, "next")
    _tap(ana, code, "500")
    _act(instructor, session_id, "next")
    page = bo.get(f"/c/{code}").text
    assert "May SB re-raise?" in page and _choices(page) == ["yes", "no"]
    _tap(bo, code, "yes", position=1)
    _tap(ana, code, "yes", position=1)
    _act(instructor, session_id, "reveal")
    assert "R-REOPEN" in bo.get(f"/c/{code}").text
    projector = instructor.get(f"/classroom/{session_id}/projector").text
    assert "Anastasia" not in projector and "Bolesław" not in projector and "points" in projector  # anonymous: places and points only
    _act(instructor, session_id, "end", confirm="1")
    report = instructor.get(f"/classroom/{session_id}/report").text
    assert "Points" in report and "Place" in report
    end = ana.get(f"/c/{code}").text
    assert "Place 1 of 2" in end and "The questions you missed" in end and "May SB re-raise?" in end
    assert "Place 2 of 2" in bo.get(f"/c/{code}").text


def test_a_spot_with_no_quick_question_is_refused_in_quick_mode_and_drawing_skips_them(instructor):
    page = post_form(instructor, "/classroom/", {"title": "x", "mode": "paced", "style": "quick",
                                                  "ids": "uncalled-river"}, to="/classroom/new")
    assert page.status_code == 200 and "no quick question" in page.text and "uncalled-river" in page.text
    made = post_form(instructor, "/classroom/", {"title": "x", "mode": "paced", "style": "quick",
                                                  "topics": "side-pots", "count": "5"}, to="/classroom/new")
    assert made.status_code == 303
    control = instructor.get(made.location).text
    assert "Only 3 spots match" in control or "Only 2 spots match" in control


def test_a_countdown_outside_10_to_60_seconds_is_refused_next_to_its_field(instructor):
    page = post_form(instructor, "/classroom/", {"title": "x", "mode": "paced", "style": "quick",
                                                  "ids": MIN_RAISE, "seconds": "5"}, to="/classroom/new")
    assert page.status_code == 200 and "A countdown is from 10 to 60 seconds" in page.text
    assert 'id="f-seconds-error"' in page.text


def test_with_a_countdown_a_tap_after_the_end_is_refused_and_the_screens_say_time_is_up(app, instructor):
    from trainer.store.models import LiveSession

    session_id, code = _create(instructor, seconds="10")
    ana = _join(app, code, "Ana")
    _act(instructor, session_id, "next")
    page = ana.get(f"/c/{code}").text
    assert re.search(r'data-class-clock data-seconds-left="(10|9)"', page) and "class-clock--up" not in page
    with app.extensions["trainer.store"].session() as s:  # the question was shown 12 s ago
        cs = s.get(LiveSession, session_id)
        cs.shown_at = cs.shown_at - timedelta(seconds=12)
        s.commit()
    late = _tap(ana, code, "500", headers=HTMX)
    assert late.status_code == 200 and "This question is closed: your answer was not recorded." in late.text
    projector = instructor.get(f"/classroom/{session_id}/projector").text
    assert "class-clock class-clock--up" in projector and "0 / 1" in projector


def test_the_control_page_puts_next_reveal_and_end_first_and_folds_the_code_once_students_are_in(app, instructor):
    session_id, code = _create(instructor)
    before = instructor.get(f"/classroom/{session_id}/").text
    assert re.search(r'<details class="join-details" open>', before)  # nobody in yet: the code is shown
    _join(app, code, "Ana")
    page = instructor.get(f"/classroom/{session_id}/").text
    assert '<details class="join-details">' in page and code in page
    assert page.index("Start: show question 1") < page.index("End the session") < page.index('class="join-details"')
    _act(instructor, session_id, "next")
    page = instructor.get(f"/classroom/{session_id}/").text
    assert page.index("Reveal the answer") < page.index('class="join-details"')
    assert page.index("Next question") < page.index('class="join-details"')


def test_a_card_session_is_what_a_form_without_the_choice_makes(instructor, app):
    response = post_form(instructor, "/classroom/", {"title": "x", "mode": "paced", "ids": MIN_RAISE},
                         to="/classroom/new")
    code = re.search(r'id="join-code">([A-Z2-9]{4}-[A-Z2-9]{4})<', instructor.get(response.location).text).group(1)
    ana = _join(app, code, "Ana")
    _act(instructor, response.location.split("/")[2], "next")
    page = ana.get(f"/c/{code}").text
    assert "data-steps" in page and not _choices(page)


# ------------------------------------------------------------------ the store


@pytest.fixture
def teacher(s):
    account, _ = make_account(s, email="t@example.com", password="password1", name="T", instructor=True,
                              learner_id=None)
    s.commit()
    return account


def _quick(s, teacher, seconds=None):
    return classroom.create(s, instructor_id=teacher.id, title="q", mode="paced", refs=["a", "b"],
                            style="quick", asks=[["min-raise", 0], ["to-call", 0]], seconds=seconds)


def _answer(s, cs, who, right, at):
    return classroom.submit(s, cs, who, answer_id=uuid.uuid4().hex, position=cs.current, typed={"answer": ["1"]},
                            shown={"answer": "1"}, marks={"answer": right}, at=at,
                            points=classroom.points_for(cs, right, at))


def test_a_countdown_closes_the_question_and_fast_right_answers_score_more(s, teacher):
    cs = _quick(s, teacher, seconds=20)
    assert cs.style == "quick" and cs.asks == [["min-raise", 0], ["to-call", 0]]
    ana, bo, cy, di = (classroom.join(s, cs, n) for n in ("Ana", "Bo", "Cy", "Di"))
    classroom.advance(s, cs)
    s.commit()
    shown = cs.shown_at
    fast, _ = _answer(s, cs, ana, True, shown + timedelta(seconds=1))
    slow, _ = _answer(s, cs, bo, True, shown + timedelta(seconds=19))
    wrong, _ = _answer(s, cs, cy, False, shown + timedelta(seconds=2))
    assert fast.points > slow.points >= classroom.POINTS // 2 and wrong.points == 0
    with pytest.raises(classroom.ClassError):
        _answer(s, cs, di, True, shown + timedelta(seconds=25))  # time is up
    s.commit()
    places = classroom.standings(s, cs)
    assert [(p.name, p.place) for p in places] == [("Ana", 1), ("Bo", 2), ("Cy", 3), ("Di", 3)]


def test_a_session_is_the_full_card_unless_quick_is_asked_and_a_countdown_is_10_to_60_s(s, teacher):
    card = classroom.create(s, instructor_id=teacher.id, title="c", mode="paced", refs=["a"])
    s.commit()
    assert card.style == "card" and card.asks is None
    with pytest.raises(classroom.ClassError):
        classroom.create(s, instructor_id=teacher.id, title="q", mode="paced", refs=["a"], style="quick")
    with pytest.raises(classroom.ClassError):
        _quick(s, teacher, seconds=5)
    assert classroom.closes_at(_quick(s, teacher)) is None


def test_a_students_streak_of_right_answers_is_on_their_phone_after_each_reveal_and_at_the_end(app, instructor):
    # Kahoot's answer streak (issue 32: "no streaks"): shown, not counted in points (docs/classroom.md)
    session_id, code = _create(instructor, ids=f"{MIN_RAISE}\n{NOT_REOPENED}\n{MIN_RAISE}")
    ana, bo = _join(app, code, "Ana"), _join(app, code, "Bo")
    for position, (ana_taps, bo_taps) in enumerate((("500", "500"), ("no", "no"), ("500", "12345"))):
        _act(instructor, session_id, "next")
        _tap(ana, code, ana_taps, position=position)
        if position < 2:
            _tap(bo, code, bo_taps, position=position)  # Bo leaves the third one: that ends a streak too
        _act(instructor, session_id, "reveal")
        ana_page, bo_page = ana.get(f"/c/{code}").text, bo.get(f"/c/{code}").text
        if position == 0:
            assert 'id="streak"' not in ana_page  # one right is not yet a streak
        elif position == 1:
            assert "2 right in a row" in ana_page and "2 right in a row" in bo_page
        else:
            assert "3 right in a row" in ana_page
            assert "Your streak of 2 has ended." in bo_page and "right in a row" not in bo_page
    zh = ana.get(f"/c/{code}?lang=zh-Hant").text
    assert "連續答對 3 題" in zh
    _act(instructor, session_id, "end", confirm="1")
    assert "Your longest streak: 3 right in a row." in ana.get(f"/c/{code}?lang=en").text
    assert "Your longest streak: 2 right in a row." in bo.get(f"/c/{code}?lang=en").text


@pytest.fixture
def library_app(database, tmp_path):
    from pathlib import Path

    from tests.store.conftest import running_app

    yield from running_app(database, tmp_path, SCENARIO_DIRS=[str(Path(__file__).resolve().parents[2] / "scenarios")])


def test_call_or_must_raise_is_two_taps_graded_by_the_engines_ruling(library_app):
    # silent-1300-is-a-call: SB says 1,300 facing a bet; a half raise or more would bind a full raise
    teacher = library_app.test_client()
    sign_up(teacher, "rulings@example.com", name="Ms R", instructor=True)
    session_id, code = _create(teacher, ids="amount-alone-1400-is-a-call\nbig-blind-exactly-half-must-raise")
    ana = _join(library_app, code, "Ana")
    answers = []
    for position in range(2):
        _act(teacher, session_id, "next")
        page = ana.get(f"/c/{code}").text
        prompt = re.search(r'<legend class="quick-prompt" id="quick-prompt">([^<]+)</legend>', page).group(1)
        assert "and nothing more. Call, or must" in prompt and "raise to" in prompt, prompt
        assert _choices(page) == ["call", "raise"] and ">Call</button>" in page and ">Raise to " in page
        zh = ana.get(f"/c/{code}?lang=zh-Hant").text
        assert "跟注" in zh and "必須加到" in zh
        _tap(ana, code, "call", position=position)
        _act(teacher, session_id, "reveal")
        revealed = ana.get(f"/c/{code}?lang=en").text
        assert "R-HALF" in revealed
        assert ("Right!" in revealed) == ("Correct: Call" in revealed)  # tapped "call": right when it is one
        answers.append(re.search(r"Correct: (Call|Raise to [0-9,]+)", revealed).group(1))
    assert len(answers) == 2


def test_a_keypad_session_takes_an_amount_typed_on_the_number_pad(app, instructor):
    # issue 32: "four amounts to choose from, or a numeric keypad": the instructor's choice per session
    assert 'name="keypad" value="1"' in instructor.get("/classroom/").text
    session_id, code = _create(instructor, keypad="1")
    ana, bo, cy, di = (_join(app, code, n) for n in ("Ana", "Bo", "Cy", "Di"))
    _act(instructor, session_id, "next")
    page = ana.get(f"/c/{code}").text
    assert 'inputmode="numeric"' in page and 'id="quick-amount"' in page and _choices(page) == []
    assert "Type the amount in chips, digits only." in _tap(bo, code, "five hundred", headers=HTMX).text
    assert "Answer received" in _tap(ana, code, "500", headers=HTMX).text
    assert "Answer received" in _tap(bo, code, "５００", headers=HTMX).text  # full-width digits: the same amount
    _tap(cy, code, "1,234")  # an amount no button would have offered
    _act(instructor, session_id, "reveal")
    assert "Right!" in ana.get(f"/c/{code}").text and "Right!" in bo.get(f"/c/{code}").text
    assert "you answered 1,234" in cy.get(f"/c/{code}").text or "Not this time: you answered 1,234." in cy.get(f"/c/{code}").text
    projector = instructor.get(f"/classroom/{session_id}/projector").text
    assert "67% right" in projector and "Another amount" in projector
    assert len(re.findall(r'class="quick-bar quick-bar--\d', projector)) == 5
    _act(instructor, session_id, "next")  # a yes/no question: still two buttons to tap
    assert _choices(di.get(f"/c/{code}").text) == ["yes", "no"]


def test_the_table_under_a_quick_question_is_drawn_in_each_phones_own_language(app, instructor):
    # The class's phones share one drawing of the spot per language: a phone in English after one in
    # Chinese (and the reverse) still reads its own language, on the table and in the seats.
    session_id, code = _create(instructor)
    ana, bo = _join(app, code, "Ana"), _join(app, code, "Bo")
    _act(instructor, session_id, "next")
    for _round in range(2):
        zh = ana.get(f"/c/{code}?lang=zh-Hant").text
        en = bo.get(f"/c/{code}?lang=en").text
        hans = ana.get(f"/c/{code}?lang=zh-Hans").text
        assert "局面：" in zh and "輪到" in zh and "The spot:" not in zh
        assert "The spot:" in en and "to act" in en and "局面" not in en
        assert "轮到" in hans and "輪到" not in hans


def test_a_class_fetching_the_next_question_together_takes_turns_and_every_phone_gets_it(database, tmp_path):
    # One screen drawn at a time (LIVE_RENDERS=1): twelve phones asking at once all get the question,
    # and an answer sent meanwhile is taken.
    from concurrent.futures import ThreadPoolExecutor

    from tests.store.conftest import running_app

    for app in running_app(database, tmp_path, LIVE_RENDERS=1):
        teacher = app.test_client()
        sign_up(teacher, "turns@example.com", name="Ms T", instructor=True)
        session_id, code = _create(teacher)
        phones = [_join(app, code, f"P{n}") for n in range(12)]
        _act(teacher, session_id, "next")
        with ThreadPoolExecutor(max_workers=12) as pool:
            fetched = list(pool.map(lambda phone: phone.get(f"/c/{code}/stage", headers=HTMX), phones[1:]))
            sent = pool.submit(_tap, phones[0], code, "500", headers=HTMX)
        assert [r.status_code for r in fetched] == [200] * 11
        assert all("What is the minimum raise-to for" in r.text for r in fetched)
        assert "Answer received" in sent.result().text
