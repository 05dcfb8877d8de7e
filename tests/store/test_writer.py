"""The attempt writer: graded answers handed over by requests, stored in batches by one thread per process."""

from __future__ import annotations

import os
import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.exc import OperationalError

from trainer.store import progress
from trainer.store.learners import new_id
from trainer.store.models import Attempt, Learner, ReviewCard
from trainer.store.writer import BatchWriter, Outcome

AT = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)


def attempt(learner: str, scenario: str = "btn-faces-short-all-in", right: bool = True) -> dict:
    return {
        "learner_id": learner,
        "scenario_id": scenario,
        "topics": ["reopening"],
        "rules": ["R-REOPEN"],
        "answers": {"to_add": ["1,400"]},
        "marks": {"to_add": right, "legal": True},
        "duration_ms": 4000,
        "at": AT,
    }


def stored(store) -> int:
    with store.session() as s:
        return s.scalar(select(func.count()).select_from(Attempt))


def test_many_threads_hand_over_rows_and_each_is_stored_once(store):
    learners = [new_id() for _ in range(20)]

    def learner_answers(learner: str) -> None:
        for i in range(25):
            assert store.attempts.submit(attempt(learner, f"spot-{i}")).wait(10)

    threads = [threading.Thread(target=learner_answers, args=(who,)) for who in learners]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.attempts.flush()
    assert stored(store) == 500
    with store.session() as s:
        per_learner = dict(s.execute(select(Attempt.learner_id, func.count()).group_by(Attempt.learner_id)).all())
        assert per_learner == {who: 25 for who in learners}
        assert s.scalar(select(func.count()).select_from(Learner)) == 20  # made on their first answer
        # spaced repetition is on for new learners, and takes 20 new spots a day each
        assert s.scalar(select(func.count()).select_from(ReviewCard)) == 20 * 20


def test_a_batch_reviews_the_cards_of_learners_with_spaced_repetition_on(store):
    learner = new_id()
    with store.session() as s:
        progress.set_spaced_repetition(s, learner, True)
        s.commit()
    for right in (False, True, True):
        store.attempts.submit(attempt(learner, right=right))
    assert store.attempts.flush()
    with store.session() as s:
        [card] = s.scalars(select(ReviewCard).where(ReviewCard.learner_id == learner)).all()
        assert card.due.replace(tzinfo=UTC) > AT  # reviewed: due again later
        assert card.card["last_review"] is not None


def test_a_row_the_database_refuses_is_dropped_alone(store, caplog):
    learner = new_id()
    store.attempts.submit(attempt(learner, "before"))
    store.attempts.submit({**attempt(learner, "bad"), "answers": {"to_add": [object()]}})  # not JSON
    store.attempts.submit(attempt(learner, "after"))
    assert store.attempts.flush()
    with store.session() as s:
        assert sorted(s.scalars(select(Attempt.scenario_id))) == ["after", "before"]
    assert "refused and is not stored" in caplog.text


def test_a_lost_connection_is_retried_until_the_rows_are_in(store, caplog):
    failures = []

    def flaky(session, rows):
        if len(failures) < 3:
            failures.append(len(rows))
            raise OperationalError("INSERT", {}, Exception("server closed the connection unexpectedly"))
        progress.record_many(session, rows)

    writer = BatchWriter(store.session, flaky, name="attempts", backoff=(0.01, 0.02))
    try:
        for i in range(5):
            writer.submit(attempt(new_id(), f"spot-{i}"))
        assert writer.flush(timeout=10)
    finally:
        writer.close()
    assert len(failures) == 3 and stored(store) == 5
    assert "trying again" in caplog.text


def test_a_real_disconnection_on_postgresql_costs_nothing(store):
    if not store.url.startswith("postgresql"):
        pytest.skip("a PostgreSQL server ends connections; a SQLite file has none")
    store.engine.dispose()
    store.attempts.submit(attempt(new_id(), "first"))
    assert store.attempts.flush()
    with store.engine.connect() as connection:  # the one pooled connection, the writer's
        pid = connection.scalar(text("SELECT pg_backend_pid()"))
    other = create_engine(store.url)
    with other.connect() as connection:  # the server ends it, as a restart would
        assert connection.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    other.dispose()
    store.attempts.submit(attempt(new_id(), "second"))
    assert store.attempts.flush()
    assert stored(store) == 2


def test_while_the_database_is_away_rows_wait_up_to_the_limit(store, caplog):
    gate = threading.Event()

    def away(session, rows):
        if not gate.is_set():
            raise OperationalError("INSERT", {}, Exception("could not connect to server"))
        progress.record_many(session, rows)

    writer = BatchWriter(store.session, away, name="attempts", limit=10, backoff=(0.01, 0.02))
    try:
        tickets = [writer.submit(attempt(new_id(), f"spot-{i}")) for i in range(12)]
        assert [t.outcome for t in tickets] == [Outcome.WAITING] * 10 + [Outcome.DROPPED] * 2
        assert writer.dropped == 2
        assert not tickets[0].wait(0.2)  # still away: not acknowledged
        assert writer.away  # requests may stop waiting early
        assert not writer.flush(timeout=0.2)
        assert "attempts not taken, 1 so far" in caplog.text
        gate.set()
        assert writer.flush(timeout=10)
        assert not writer.away
    finally:
        writer.close()
    assert stored(store) == 10


def test_close_stores_what_is_left(store):
    writer = BatchWriter(store.session, progress.record_many, name="attempts", gather=60)  # would wait a minute
    for i in range(7):
        writer.submit(attempt(new_id(), f"spot-{i}"))
    writer.close()
    assert stored(store) == 7


def test_close_gives_up_on_a_database_that_stays_away_and_says_so(store, caplog):
    def away(session, rows):
        raise OperationalError("INSERT", {}, Exception("could not connect to server"))

    writer = BatchWriter(store.session, away, name="attempts", backoff=(0.01, 0.02))
    writer.submit(attempt(new_id()))
    writer.close(timeout=2)
    assert "attempts not stored, 1: the database did not answer before the process stopped" in caplog.text


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forking server processes")
def test_a_forked_process_writes_with_a_thread_of_its_own(store):
    store.attempts.submit(attempt(new_id(), "parent"))
    assert store.attempts.flush()
    store.engine.dispose()  # as trainer serve does before it forks
    pid = os.fork()
    if pid == 0:  # the child: its own thread, its own connections
        code = 1
        try:
            for i in range(3):
                store.attempts.submit(attempt(new_id(), f"child-{i}"))
            store.attempts.close()
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert stored(store) == 4
    store.attempts.submit(attempt(new_id(), "parent again"))  # the parent's thread still works
    assert store.attempts.flush()
    assert stored(store) == 5


def test_a_ticket_says_stored_only_once_the_batch_is_committed(store):
    gate = threading.Event()

    def slow(session, rows):
        progress.record_many(session, rows)
        gate.wait(10)  # the transaction is open, not committed

    writer = BatchWriter(store.session, slow, name="attempts")
    try:
        ticket = writer.submit(attempt(new_id()))
        assert not ticket.wait(0.2) and ticket.outcome is Outcome.WAITING
        gate.set()
        assert ticket.wait(10) and ticket.outcome is Outcome.STORED
    finally:
        gate.set()
        writer.close()
    assert stored(store) == 1


def test_a_refused_row_is_not_acknowledged(store):
    good = store.attempts.submit(attempt(new_id(), "good"))
    bad = store.attempts.submit({**attempt(new_id(), "bad"), "answers": {"to_add": [object()]}})  # not JSON
    assert good.wait(10) and not bad.wait(10)
    assert bad.outcome is Outcome.REFUSED


def test_an_answer_sent_again_is_stored_once_and_reviewed_once(store):
    learner = new_id()
    with store.session() as s:
        progress.set_spaced_repetition(s, learner, True)
        s.commit()
    first = {**attempt(learner, right=False), "answer_id": "a" * 32}
    # twice in one batch, then again in a later one (the page resending it)
    assert all(t.wait(10) for t in [store.attempts.submit(first), store.attempts.submit(first)])
    assert store.attempts.submit(first).wait(10)
    other = {**attempt(learner, right=True), "answer_id": "b" * 32}
    assert store.attempts.submit(other).wait(10)
    with store.session() as s:
        assert sorted(s.scalars(select(Attempt.answer_id))) == ["a" * 32, "b" * 32]
    # the card saw two reviews (Again, then Good), not four: compare with a learner reviewed twice
    twice = new_id()
    with store.session() as s:
        progress.set_spaced_repetition(s, twice, True)
        s.commit()
    for right in (False, True):
        assert store.attempts.submit(attempt(twice, right=right)).wait(10)
    with store.session() as s:
        cards = {c.learner_id: {k: v for k, v in c.card.items() if k != "card_id"} for c in s.scalars(select(ReviewCard))}
    assert cards[learner] == cards[twice]
