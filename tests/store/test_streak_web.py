"""The streak pages: climbing questions, one miss ends it, a personal best kept per learner."""

from __future__ import annotations

import re

import pytest

from trainer import speed
from trainer.store.models import StreakRun

from tests.store.helpers import post_form, token
from tests.test_vocabulary import punctuation_slips


def _start(client) -> str:
    started = post_form(client, "/streak/", {}, to="/streak/start")
    assert started.status_code == 303
    return started.headers["Location"]


def _run(app, url: str) -> StreakRun:
    with app.extensions["trainer.store"].session() as s:
        return s.get(StreakRun, url.rstrip("/").rsplit("/", 1)[1])


def _question(app, url: str) -> speed.Question:
    run = _run(app, url)
    return speed.streak_question(run.seed, run.asked)


def _wrong(q: speed.Question) -> str:
    if q.choices:
        return next(seat for seat in q.choices if seat != q.answer)
    return str(int(q.answer) + 1)


def _send(client, url: str, number: int, answer: str):
    page = client.get(url)
    return client.post(url, data={"csrf_token": token(page.text), "n": str(number), "answer": answer})


def test_a_streak_climbs_while_right_and_ends_at_the_first_miss_with_a_new_best(app, client):
    assert 'href="/streak/"' in client.get("/speed").text  # the second mode of the speed area
    url = _start(client)
    page = client.get(url)
    assert page.status_code == 200 and "no-store" in page.headers["Cache-Control"]
    assert "Level 1" in page.text and "question 1" in page.text
    for n in range(speed.STREAK_CLIMB):
        answered = _send(client, url, n, _question(app, url).answer)
        assert answered.status_code == 200 and "speed-last--right" in answered.text
    assert "Level 2" in answered.text  # a level up after STREAK_CLIMB right answers
    assert re.search(r'id="streak-count">3<', answered.text)
    q = _question(app, url)
    over = _send(client, url, speed.STREAK_CLIMB, _wrong(q))
    assert over.status_code == 200 and "Streak over" in over.text and "3 in a row" in over.text
    assert "A new personal best!" in over.text and "the answer is" in over.text
    # once over, nothing more counts, and the page says what ended it
    again = _send(client, url, speed.STREAK_CLIMB, q.answer)
    assert "Streak over" in again.text and _run(app, url).asked == 3
    assert "The question that ended it" in client.get(url).text
    assert "Your best streak: 3" in client.get("/streak/").text


def test_a_shorter_streak_keeps_the_best(app, client):
    url = _start(client)
    _send(client, url, 0, _question(app, url).answer)
    _send(client, url, 1, _wrong(_question(app, url)))
    url = _start(client)
    over = _send(client, url, 0, _wrong(_question(app, url)))
    assert "0 in a row" in over.text and "Your best streak: 1" in over.text and "new personal best" not in over.text


@pytest.mark.parametrize("typed", ["", "abc", "9" * 20])
def test_unreadable_input_is_refused_with_a_reason_and_ends_nothing(app, client, typed):
    url = _start(client)
    q = _question(app, url)
    if q.choices and typed:
        typed = "NOBODY"
    refused = _send(client, url, 0, typed)
    assert refused.status_code == 200 and 'class="field-error"' in refused.text
    run = _run(app, url)
    assert run.asked == 0 and run.finished_at is None


def test_a_resent_answer_is_not_counted_twice_and_a_stranger_finds_nothing(app, client):
    url = _start(client)
    right = _question(app, url).answer
    _send(client, url, 0, right)
    resent = _send(client, url, 0, right)
    assert "answered already" in resent.text and _run(app, url).asked == 1
    assert app.test_client().get(url).status_code == 404


def test_a_streak_speaks_chinese(app, client):
    client.get("/?lang=zh-Hant")
    url = _start(client)
    page = client.get(url).text
    assert "連對" in page and "等級 1" in page
    over = _send(client, url, 0, _wrong(_question(app, url))).text
    assert "連對結束" in over
    pages = {"index": client.get("/streak/").text, "question": page, "over": over, "again": client.get(url).text}
    assert {name: slips for name, html in pages.items() if (slips := punctuation_slips(html))} == {}
