"""Self-study figures: accuracy by topic and rule per window, streaks, misses, spaced repetition."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from trainer.store import progress
from trainer.store.learners import new_id
from trainer.store.models import Attempt, ReviewCard

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)


def record(s, learner, scenario, topics, rules, right, total, at):
    marks = {f"f{i}": i < right for i in range(total)}
    return progress.record(
        s,
        learner_id=learner,
        scenario_id=scenario,
        topics=topics,
        rules=rules,
        answers={k: ["1"] for k in marks},
        marks=marks,
        duration_ms=5000,
        at=at,
    )


def test_every_field_answered_and_its_mark_is_stored(s):
    learner = new_id()
    progress.record(
        s,
        learner_id=learner,
        scenario_id="btn-faces-short-all-in",
        topics=["reopening"],
        rules=["R-REOPEN"],
        answers={"to_add": ["1,400"], "legal": ["fold", "call"]},
        marks={"to_add": True, "legal": False},
        duration_ms=8300,
    )
    s.commit()
    row = s.scalar(select(Attempt))
    assert row.answers == {"to_add": ["1,400"], "legal": ["fold", "call"]}
    assert row.marks == {"to_add": True, "legal": False}
    assert (row.right, row.total, row.duration_ms) == (1, 2, 8300)
    assert row.created_at.tzinfo is not None


def test_accuracy_by_topic_and_rule_weakest_first_within_the_window(s):
    me = new_id()
    record(s, me, "a", ["min-raise"], ["R-MINRAISE"], 9, 10, NOW - timedelta(days=1))
    record(s, me, "b", ["reopening"], ["R-REOPEN", "R-SHORTALLIN"], 2, 10, NOW - timedelta(days=2))
    record(s, me, "c", ["reopening"], ["R-REOPEN"], 6, 10, NOW - timedelta(days=20))
    record(s, me, "d", ["ante"], ["R-ANTE"], 0, 10, NOW - timedelta(days=60))
    record(s, new_id(), "a", ["min-raise"], ["R-MINRAISE"], 0, 10, NOW)  # someone else
    s.commit()

    topics, rules = progress.accuracy(s, me, 7, at=NOW)
    assert [(a.key, a.right, a.total) for a in topics] == [("reopening", 2, 10), ("min-raise", 9, 10)]
    assert [a.key for a in rules] == ["R-REOPEN", "R-SHORTALLIN", "R-MINRAISE"]

    topics, _ = progress.accuracy(s, me, 30, at=NOW)
    assert [(a.key, a.percent, a.attempts) for a in topics] == [("reopening", 40, 2), ("min-raise", 90, 1)]

    topics, _ = progress.accuracy(s, me, 90, at=NOW)
    assert topics[0].key == "ante" and topics[0].percent == 0


def test_streak_counts_days_in_a_row_up_to_today_or_yesterday(s):
    me = new_id()
    for days_ago in (1, 2, 3, 5):
        record(s, me, "a", [], [], 1, 1, NOW - timedelta(days=days_ago))
    s.commit()
    assert progress.streak(s, me, at=NOW) == 3  # yesterday, and the two days before
    record(s, me, "a", [], [], 1, 1, NOW)
    s.commit()
    assert progress.streak(s, me, at=NOW) == 4
    assert progress.streak(s, new_id(), at=NOW) == 0


def test_a_spot_is_missed_until_its_latest_answer_is_all_right(s):
    me = new_id()
    record(s, me, "a", [], [], 3, 4, NOW - timedelta(hours=3))
    record(s, me, "b", [], [], 1, 4, NOW - timedelta(hours=2))
    record(s, me, "a", [], [], 4, 4, NOW - timedelta(hours=1))
    record(s, me, "c", [], [], 4, 4, NOW - timedelta(hours=1))
    s.commit()
    assert progress.misses(s, me, 7, at=NOW) == ["b"]


def test_daily_accuracy_has_one_entry_per_day(s):
    me = new_id()
    record(s, me, "a", [], [], 1, 2, NOW - timedelta(days=1))
    record(s, me, "a", [], [], 2, 2, NOW - timedelta(days=1, hours=1))
    s.commit()
    days = progress.daily(s, me, 7, at=NOW)
    assert len(days) == 7 and days[-1].day == NOW.date()
    assert [(d.right, d.total) for d in days if d.total] == [(3, 4)]
    assert days[-2].percent == 75 and days[-1].percent is None


def test_spaced_repetition_is_opt_in_and_a_miss_comes_back_sooner(s):
    me = new_id()
    record(s, me, "missed", [], [], 1, 2, NOW)
    s.commit()
    assert s.scalar(select(ReviewCard)) is None  # not on yet
    progress.set_spaced_repetition(s, me, True)  # history is scheduled when it is turned on
    s.commit()
    record(s, me, "known", [], [], 2, 2, NOW)
    s.commit()
    cards = {c.scenario_id: c for c in s.scalars(select(ReviewCard))}
    assert set(cards) == {"missed", "known"}
    assert cards["missed"].due < cards["known"].due
    assert progress.due(s, me, at=NOW) == ["missed", "known"]  # both are learning steps today
    assert progress.due(s, me, at=NOW - timedelta(days=1)) == []

    # Right answers push a spot further out each time.
    later = NOW
    for _ in range(3):
        later += timedelta(days=10)
        record(s, me, "known", [], [], 2, 2, later)
    s.commit()
    known = s.scalar(select(ReviewCard).where(ReviewCard.scenario_id == "known"))
    assert known.due > later + timedelta(days=3)
    assert "known" not in progress.due(s, me, at=later)
