"""Speed drill runs on SQLite and PostgreSQL: the server's clock, the tally, personal best, history, the pages."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from alembic import command
from sqlalchemy import inspect

from tests.store.helpers import migrated, post_form, sign_in, sign_up, token
from trainer import speed
from trainer.store import speed as runs
from trainer.store.models import Learner, SpeedRun

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_an_answer_counts_only_before_the_deadline_and_only_once(s):
    run = runs.start(s, "a" * 32, seed=5, seconds=180, at=T0)
    assert runs.count(s, run, number=0, right=True, at=T0 + timedelta(seconds=10)) is runs.Counted.RIGHT
    # the same question again (a resent form, a second tab): not counted twice
    assert runs.count(s, run, number=0, right=True, at=T0 + timedelta(seconds=11)) is runs.Counted.STALE
    assert (run.asked, run.right) == (1, 1)
    late = T0 + timedelta(seconds=180)
    assert runs.count(s, run, number=1, right=True, at=late) is runs.Counted.LATE
    assert (run.asked, run.right, run.score) == (1, 1, 1)
    assert run.finished_at == run.deadline  # closed as of its deadline, not of the late answer


def test_a_wrong_answer_costs_time_and_can_end_the_run(s):
    run = runs.start(s, "b" * 32, seed=5, seconds=30, at=T0)
    assert runs.count(s, run, number=0, right=False, at=T0 + timedelta(seconds=1)) is runs.Counted.WRONG
    assert run.deadline == T0 + timedelta(seconds=30) - runs.WRONG_PENALTY
    assert runs.seconds_left(run, at=T0 + timedelta(seconds=1)) == 19
    runs.count(s, run, number=1, right=True, at=T0 + timedelta(seconds=2))
    # 8 seconds left less 10 for this mistake: the run is over, the right answer before it still counts
    assert runs.count(s, run, number=2, right=False, at=T0 + timedelta(seconds=12)) is runs.Counted.WRONG
    assert not runs.is_open(run, at=T0 + timedelta(seconds=12))
    assert (run.score, run.wrong) == (1, 2)


def test_personal_best_and_history(s):
    learner = "c" * 32
    scores = [3, 7, 5]
    made = []
    for k, score in enumerate(scores):
        at = T0 + timedelta(hours=k)
        run = runs.start(s, learner, seed=k, seconds=60, at=at)
        for n in range(score):
            runs.count(s, run, number=n, right=True, at=at + timedelta(seconds=n))
        runs.close(s, run, at=at + timedelta(seconds=61))
        made.append(run)
    other = runs.start(s, "d" * 32, seed=9, seconds=60, at=T0)
    for n in range(20):
        runs.count(s, other, number=n, right=True, at=T0)
    runs.close(s, other, at=T0 + timedelta(minutes=5))
    assert runs.best(s, learner) == 7
    outcomes = [runs.result(s, r) for r in made]
    assert [(o.best, o.new_best) for o in outcomes] == [(3, True), (7, True), (7, False)]
    assert [r.score for r in runs.history(s, learner)] == [5, 7, 3]


def test_the_migration_makes_the_table_and_goes_back_down(store):
    at = migrated(store)

    at("0005_exam_trust", command.downgrade)
    with store.engine.connect() as connection:
        assert "speed_runs" not in inspect(connection).get_table_names()
    at("head", command.upgrade)
    with store.engine.connect() as connection:
        assert "speed_runs" in inspect(connection).get_table_names()


# ------------------------------------------------------------------ the pages


def _start(client) -> str:
    response = post_form(client, "/speed", {}, to="/speed/start")
    assert response.status_code == 303
    return response.headers["Location"]


def _run(app, url: str) -> SpeedRun:
    store = app.extensions["trainer.store"]
    with store.session() as session:
        return session.get(SpeedRun, url.rsplit("/", 1)[-1])


def _send(client, url: str, n: int, answer: str):
    page = client.get(url)
    return client.post(url, data={"csrf_token": token(page.text), "n": str(n), "answer": answer})


def _right_answer(app, url: str) -> tuple[int, str]:
    run = _run(app, url)
    return run.asked, speed.question(run.seed, run.asked).answer


def test_a_run_through_the_pages(app, client):
    home = client.get("/")
    assert 'href="/speed"' in home.text
    url = _start(client)
    page = client.get(url)
    assert page.status_code == 200 and "no-store" in page.headers["Cache-Control"]
    assert 'data-seconds-left="180"' in page.text and "speed.js" in page.text
    n, right = _right_answer(app, url)
    answered = _send(client, url, n, right)
    assert answered.status_code == 200
    assert "speed-last--right" in answered.text
    n, right = _right_answer(app, url)
    wrong = "ZZ" if not right.isdigit() else str(int(right) + 1)
    if not right.isdigit():  # a seat: tap another one of the seats shown
        wrong = next(seat for seat in speed.question(_run(app, url).seed, n).choices if seat != right)
    answered = _send(client, url, n, wrong)
    assert "speed-last--wrong" in answered.text and "the answer is" in answered.text
    run = _run(app, url)
    assert (run.asked, run.right, run.wrong) == (2, 1, 1)
    assert 'data-seconds-left="170"' in answered.text  # 180 less the penalty (the test is fast)


def test_an_answer_after_the_deadline_is_not_counted(app, client):
    url = _start(client)
    n, right = _right_answer(app, url)
    page = client.get(url)
    store = app.extensions["trainer.store"]
    with store.session() as session:  # the clock has run out while the question was open
        run = session.get(SpeedRun, url.rsplit("/", 1)[-1])
        run.deadline = datetime.now(UTC) - timedelta(seconds=1)
        session.commit()
    late = client.post(url, data={"csrf_token": token(page.text), "n": str(n), "answer": right})
    assert late.status_code == 200
    assert "not counted" in late.text and 'id="speed-final-score">0<' in late.text
    run = _run(app, url)
    assert (run.right, run.score) == (0, 0) and run.finished_at is not None
    assert client.get(url).status_code == 200 and "speed-final-score" in client.get(url).text


@pytest.mark.parametrize("typed, message", [
    ("abc", "Type a whole number of chips"),
    ("9" * 500, "far larger than any amount"),
    ("12\x0034", "control characters"),
    ("", "Type a number of chips"),
])
def test_bad_input_is_refused_with_a_reason_and_not_counted(app, client, typed, message):
    url = _start(client)
    run = _run(app, url)
    q = speed.question(run.seed, 0)
    if q.choices and "\x00" not in typed:  # an empty answer too: there are only seats to tap
        message = "Tap one of the seats shown"
    response = _send(client, url, 0, typed)
    assert response.status_code == 200, response.text
    assert message in response.text
    assert (_run(app, url).asked, _run(app, url).wrong) == (0, 0)


def _seeded(app, url: str, kind: str, number: int = 8) -> int:
    """Give the run a seed whose question ``number`` is of ``kind``, and put it at that question
    (a run opens with the easiest kinds: every kind is asked from question 6 on)."""
    seed = next(seed for seed in range(1, 1000) if speed.question(seed, number).kind == kind)
    store = app.extensions["trainer.store"]
    with store.session() as session:
        run = session.get(SpeedRun, url.rsplit("/", 1)[-1])
        run.seed, run.asked = seed, number
        session.commit()
    return number


@pytest.mark.parametrize("kind, typed, said, unsaid", [
    ("pot-limit", "", "Type a number of chips, then press Enter.", "seat"),
    ("pot-limit", "abc", "Type a whole number of chips, like 1400 or 1,400.", "digits only"),
    ("winner", "", "Tap one of the seats shown.", "Type a number"),
])
def test_an_unreadable_answer_is_told_only_what_this_question_can_take(app, client, kind, typed, said, unsaid):
    url = _start(client)
    number = _seeded(app, url, kind)
    error = re.search(r'<p class="field-error" id="speed-error">(.*?)</p>', _send(client, url, number, typed).text, re.S).group(1)
    assert said in error and unsaid not in error


def test_a_forged_question_number_is_not_counted(app, client):
    url = _start(client)
    for n in ("5", "-1", "x" * 10, "9" * 30):
        response = _send(client, url, n, "100")
        assert response.status_code == 200 and "answered already" in response.text
    assert _run(app, url).asked == 0


def test_someone_elses_run_is_not_found(app, client):
    url = _start(client)
    other = app.test_client()
    assert other.get(url).status_code == 404
    assert client.get("/speed/run/" + "0" * 32).status_code == 404
    # a NUL byte in an answer to a run that is not yours: still "not found", not a server error
    page = other.get("/speed")
    sent = other.post(url, data={"csrf_token": token(page.text), "n": "0", "answer": "1\x00"})
    assert sent.status_code == 404 and "no speed run of yours" in sent.text
    sent = other.post("/speed/start", data={"csrf_token": token(page.text), "x\x00": "1"})
    assert sent.status_code == 400 and "control character" in sent.text


def test_result_shows_new_best_and_history(app, client):
    url = _start(client)
    n, right = _right_answer(app, url)
    _send(client, url, n, right)
    store = app.extensions["trainer.store"]
    with store.session() as session:
        session.get(SpeedRun, url.rsplit("/", 1)[-1]).deadline = datetime.now(UTC) - timedelta(seconds=1)
        session.commit()
    result = client.get(url + "/result")
    assert "New best!" in result.text and 'id="speed-final-score">1<' in result.text
    second = _start(client)
    with store.session() as session:
        session.get(SpeedRun, second.rsplit("/", 1)[-1]).deadline = datetime.now(UTC) - timedelta(seconds=1)
        session.commit()
    result = client.get(second + "/result")
    assert "New best!" not in result.text and "Your best: 1" in result.text
    index = client.get("/speed")
    assert re.findall(r'<td class="num">(\d+)</td><td class="num">\d+</td>', index.text) == ["0", "1"]


def test_runs_follow_the_learner_into_an_account(app, client):
    url = _start(client)
    sign_up(app.test_client(), "ana@example.com")
    assert sign_in(client, "ana@example.com").status_code == 303
    store = app.extensions["trainer.store"]
    with store.session() as session:
        run = session.get(SpeedRun, url.rsplit("/", 1)[-1])
        assert session.get(Learner, run.learner_id).account_id is not None
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
def test_pages_in_three_languages(app, client, lang):
    client.get(f"/speed?lang={lang}")
    index = client.get("/speed")
    url = _start(client)
    page = client.get(url)
    assert index.status_code == page.status_code == 200
    if lang != "en":
        assert "Speed drill" not in index.text and "Start a run" not in index.text
        assert "Time left" not in page.text


def test_a_run_left_before_its_end_counts_for_no_best(s):
    """An abandoned run of two answers had set "Your best: 1"."""
    learner = "e" * 32
    left = runs.start(s, learner, seed=3, seconds=180, at=T0)
    runs.count(s, left, number=0, right=True, at=T0 + timedelta(seconds=5))
    runs.count(s, left, number=1, right=False, at=T0 + timedelta(seconds=10))
    runs.close_expired(s, learner, at=T0 + timedelta(hours=1))
    assert left.finished_at is not None and left.score is None
    assert runs.best(s, learner) is None and not runs.result(s, left).counted
    assert runs.history(s, learner) == [left]  # listed, without a score
    played = runs.start(s, learner, seed=4, seconds=180, at=T0 + timedelta(hours=2))
    runs.count(s, played, number=0, right=True, at=played.started_at + timedelta(seconds=150))
    runs.close_expired(s, learner, at=T0 + timedelta(hours=3))
    assert played.score == 1 and runs.best(s, learner) == 1 and runs.result(s, played).counted


def test_the_misses_are_kept_in_order(s):
    run = runs.start(s, "f" * 32, seed=3, seconds=180, at=T0)
    for n, right in enumerate((False, True, False)):
        runs.count(s, run, number=n, right=right, at=T0 + timedelta(seconds=n + 1))
    runs.count(s, run, number=2, right=False, at=T0 + timedelta(seconds=5))  # sent again: stale
    assert run.missed == [0, 2]


def test_the_result_lists_the_misses_with_their_worked_answers(app, client):
    url = _start(client)
    n, right = _right_answer(app, url)
    first = speed.question(_run(app, url).seed, n)
    wrong = str(int(right) + 1) if right.isdigit() else next(seat for seat in first.choices if seat != right)
    _send(client, url, n, wrong)
    n, right = _right_answer(app, url)
    _send(client, url, n, right)
    store = app.extensions["trainer.store"]
    with store.session() as session:
        session.get(SpeedRun, url.rsplit("/", 1)[-1]).deadline = datetime.now(UTC) - timedelta(seconds=1)
        session.commit()
    page = client.get(url + "/result").text
    misses = re.findall(r"<li><p>(.*?)</ul></li>", page.split('id="speed-misses"')[1].split("</ol>")[0], re.S)
    assert len(misses) == 1
    answer = first.answer if first.choices else f"{int(first.answer):,}"
    assert f"<strong>The answer is {answer}.</strong>" in misses[0]
    assert misses[0].count("<li>") >= 1  # the derivation, a line or two
    assert 'id="speed-not-counted"' not in page


def test_a_run_left_early_says_so_and_is_starred_in_the_history(app, client):
    url = _start(client)
    n, right = _right_answer(app, url)
    _send(client, url, n, right)
    store = app.extensions["trainer.store"]
    with store.session() as session:  # answered once, then left: its time ran out ten minutes ago
        run = session.get(SpeedRun, url.rsplit("/", 1)[-1])
        run.started_at, run.answered_at = run.started_at - timedelta(minutes=13), run.answered_at - timedelta(minutes=13)
        run.deadline = datetime.now(UTC) - timedelta(minutes=10)
        session.commit()
    index = client.get("/speed").text
    assert '1*</span>' in index and "* Left before its time was up: not counted towards your best." in index
    result = client.get(url + "/result").text
    assert 'id="speed-not-counted"' in result and "New best!" not in result and "Your best: 0" in result
