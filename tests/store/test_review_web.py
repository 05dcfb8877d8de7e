"""Review like Anki on the web: on for a new learner (with a way off), "N left" in a review session,
when each graded answer comes back, and a daily cap on new spots."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import update

from trainer.store.models import ReviewCard, now

from tests.store.conftest import running_app
from tests.test_vocabulary import punctuation_slips
from tests.store.helpers import BTN, BTN_RIGHT, BTN_TWO_WRONG, HTMX, answer_drill, post_form, token
from tests.store.test_loop_web import MIN_RAISE, right_answer


def wrong_answer(app, scenario_id: str) -> dict:
    """A right answer but for its first field."""
    typed = right_answer(app, scenario_id)
    first = next(iter(typed))
    typed[first] = str(int(typed[first] or 0) + 1)
    return typed


def _flushed(app):
    assert app.extensions["trainer.store"].attempts.flush()


def _all_due_now(app) -> None:
    """Time passes: every card of the test's learner is due (an hour ago)."""
    _flushed(app)
    store = app.extensions["trainer.store"]
    with store.session() as s:
        s.execute(update(ReviewCard).values(due=now() - timedelta(hours=1)))
        s.commit()


def _miss_two(app, client) -> None:
    answer_drill(client, BTN, BTN_TWO_WRONG)
    answer_drill(client, MIN_RAISE, wrong_answer(app, MIN_RAISE))
    _all_due_now(app)


def test_a_review_session_says_how_many_spots_are_left(app, client):
    _miss_two(app, client)
    assert "Review: 2 due" in client.get("/").text
    opened = client.get("/progress/review")
    assert opened.status_code == 302 and "review=1" in opened.headers["Location"]
    page = client.get(opened.headers["Location"]).text
    assert "Review: 2 spots left" in page
    # the same spot outside a review says nothing of it
    assert "spots left" not in client.get(f"/drill/{BTN}").text


def test_a_graded_answer_in_a_review_says_when_the_spot_comes_back_and_what_is_left(app, client):
    _miss_two(app, client)
    right = post_form(client, f"/drill/{BTN}?review=1", BTN_RIGHT, headers=HTMX).text
    # right after a miss: the next learning step, as in Anki; the other spot is still due
    assert "Comes back in 10 minutes." in right and "1 left in this review" in right
    wrong = post_form(client, f"/drill/{MIN_RAISE}?review=1", wrong_answer(app, MIN_RAISE), headers=HTMX).text
    # missed again: back at the first learning step, out of the queue until then
    assert "Comes back in 1 minute." in wrong and "Nothing else is due now." in wrong


def test_a_spot_solved_at_the_first_try_comes_back_in_days(app, client):
    solved = answer_drill(client, MIN_RAISE, right_answer(app, MIN_RAISE)).text
    assert re.search(r"Comes back in (\d+ days|1 week|\d+ weeks)\.", solved)


@pytest.mark.parametrize(("lang", "back", "left"), [
    ("zh-Hant", "10 分鐘後再複習。", "本次複習還剩 1 題"),
    ("zh-Hans", "10分钟后再复习。", "本次复习还剩 1 题"),
])
def test_the_interval_and_the_count_are_said_in_chinese(app, client, lang, back, left):
    _miss_two(app, client)
    client.get(f"/?lang={lang}")
    due = client.get(f"/drill/{MIN_RAISE}?review=1").text
    right = post_form(client, f"/drill/{BTN}?review=1", BTN_RIGHT, headers=HTMX).text
    assert back in right and left in right
    assert punctuation_slips(right) == [] and punctuation_slips(due) == []


def test_a_miss_on_the_path_says_it_comes_back_within_minutes(client):
    missed = answer_drill(client, BTN, BTN_TWO_WRONG).text
    assert "Comes back in 1 minute." in missed
    assert "left in this review" not in missed  # not a review session


def test_review_is_turned_off_from_the_review_page_and_the_spot_stays_open(app, client):
    _miss_two(app, client)
    page = client.get(f"/drill/{BTN}?review=1").text
    assert "Turn spaced repetition off" in page
    off = client.post("/progress/spaced-repetition", data={"csrf_token": token(page), "enabled": "no",
                                                            "next": f"/drill/{BTN}"})
    assert off.status_code == 303 and off.headers["Location"] == f"/drill/{BTN}"
    assert "Review:" not in client.get("/").text
    assert "Turn spaced repetition on" in client.get("/progress/").text
    answered = answer_drill(client, MIN_RAISE, wrong_answer(app, MIN_RAISE)).text
    assert "Comes back" not in answered  # off: nothing is scheduled
    # an address elsewhere is not followed
    page = client.get("/progress/").text
    away = client.post("/progress/spaced-repetition", data={"csrf_token": token(page), "enabled": "yes",
                                                             "next": "//evil.example/"})
    assert away.headers["Location"] == "/progress/"


@pytest.fixture
def capped(database, tmp_path):
    yield from running_app(database, tmp_path, NEW_REVIEWS_PER_DAY=1)


def test_the_daily_cap_on_new_spots_is_said_where_it_bites(capped):
    client = capped.test_client()
    first = answer_drill(client, BTN, BTN_TWO_WRONG).text
    assert "Comes back in 1 minute." in first
    second = answer_drill(client, MIN_RAISE, wrong_answer(capped, MIN_RAISE)).text
    assert "Today’s 1 new spot for review is taken: this one joins your review on another day." in second
    progress = client.get("/progress/").text
    assert "New spots in your review today: 1 of 1." in progress


def test_an_endless_practice_spot_takes_no_place_in_the_review(app, client):
    """Such a spot got a card the review never serves, which now would take one of the day's new spots."""
    from sqlalchemy import func, select

    from tests.answers import typed_right
    from trainer.web.core import spot_refs

    spot = "gen:reopening:3:5:0"
    with app.test_request_context():
        typed = typed_right(spot_refs.resolve(spot).quiz)
    answered = answer_drill(client, spot, typed).text
    assert "All" in answered and "Comes back" not in answered
    _flushed(app)
    with app.extensions["trainer.store"].session() as s:
        assert s.scalar(select(func.count()).select_from(ReviewCard)) == 0
    assert "New spots in your review today: 0 of 20." in client.get("/progress/").text
