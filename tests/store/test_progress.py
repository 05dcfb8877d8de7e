"""Self-study figures: accuracy by topic and rule per window, streaks, misses, spaced repetition."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event, select

from trainer.store import Store, progress
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
    assert [(a.key, a.percent, a.spots) for a in topics] == [("reopening", 40, 2), ("min-raise", 90, 1)]

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


def test_a_spot_missed_at_step_two_stays_missed_when_only_step_one_is_answered_again(s):
    me = new_id()

    def step(right: bool, partial: bool, hours_ago: int) -> None:
        marks = {"f0": True, "f1": right}
        progress.record_many(s, [{
            "learner_id": me, "scenario_id": "a", "topics": [], "rules": [], "answers": {k: ["1"] for k in marks},
            "marks": marks, "duration_ms": 1000, "generated": None, "at": NOW - timedelta(hours=hours_ago),
            "answer_id": None, "rating": None, "partial": partial,
        }])

    step(True, True, 5)  # step 1 right
    step(False, False, 4)  # step 2 wrong: missed
    step(True, True, 3)  # step 1 again, right: decides nothing
    s.commit()
    assert progress.misses(s, me, 7, at=NOW) == ["a"]
    step(True, False, 2)  # step 2 right: no longer missed
    s.commit()
    assert progress.misses(s, me, 7, at=NOW) == []


def test_daily_counts_answers_all_right_not_fields(s):
    me = new_id()
    record(s, me, "a", [], [], 1, 2, NOW - timedelta(days=1))
    record(s, me, "a", [], [], 2, 2, NOW - timedelta(days=1, hours=1))
    record(s, me, "b", [], [], 9, 10, NOW - timedelta(days=1, hours=2))
    s.commit()
    days = progress.daily(s, me, 7, at=NOW)
    assert len(days) == 7 and days[-1].day == NOW.date()
    assert [(d.right, d.total) for d in days if d.total] == [(1, 3)]  # one answer of three had every field right
    assert round(days[-2].percent) == 33 and days[-1].percent is None


def test_spaced_repetition_is_on_for_a_new_learner_and_a_miss_comes_back_sooner(s):
    me = new_id()
    record(s, me, "missed", [], [], 1, 2, NOW)
    s.commit()
    assert progress.srs_enabled(s, me)
    record(s, me, "known", [], [], 2, 2, NOW)
    s.commit()
    cards = {c.scenario_id: c for c in s.scalars(select(ReviewCard))}
    assert set(cards) == {"missed", "known"}
    assert cards["missed"].due < cards["known"].due
    assert progress.due(s, me, at=NOW + timedelta(minutes=2)) == ["missed"]  # a learning step: minutes
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


def test_turning_review_on_makes_only_the_missed_spots_due(s):
    """Measured before: turning it on made every past spot due at once, right ones too."""
    me = new_id()
    progress.set_spaced_repetition(s, me, False)  # a learner who had it off
    for i in range(5):
        record(s, me, f"right{i}", [], [], 4, 4, NOW - timedelta(minutes=30 - i))
    record(s, me, "wrong", [], [], 3, 4, NOW - timedelta(minutes=20))
    record(s, me, "right0", [], [], 4, 4, NOW - timedelta(seconds=5))  # answered right seconds ago
    s.commit()
    progress.set_spaced_repetition(s, me, True)
    s.commit()
    assert progress.due(s, me, at=NOW) == ["wrong"]
    # the ones solved at the first try come back in days, not today
    assert not any(progress.due(s, me, at=NOW + timedelta(hours=h)) != ["wrong"] for h in (1, 6, 11))
    assert "right1" in progress.due(s, me, at=NOW + timedelta(days=30))


def test_a_right_review_takes_the_spot_off_the_queue(s):
    """Measured before: reviewing a due spot right left the count unchanged."""
    me = new_id()
    progress.set_spaced_repetition(s, me, True)
    for name in ("a", "b", "c"):
        record(s, me, name, [], [], 0, 3, NOW - timedelta(hours=2))
    s.commit()
    assert progress.due(s, me, at=NOW) == ["a", "b", "c"]
    record(s, me, "a", [], [], 3, 3, NOW)
    s.commit()
    assert progress.due(s, me, at=NOW + timedelta(seconds=30)) == ["b", "c"]
    record(s, me, "b", [], [], 1, 3, NOW + timedelta(minutes=1))  # missed again: back in the session
    s.commit()
    assert progress.due(s, me, at=NOW + timedelta(minutes=1, seconds=30)) == ["c"]
    assert progress.due(s, me, at=NOW + timedelta(minutes=5)) == ["c", "b"]  # most overdue first


def test_a_spot_is_solved_only_when_every_field_was_right_at_the_first_try(s):
    me = new_id()
    record(s, me, "a", ["min-raise"], [], 9, 10, NOW - timedelta(hours=3))  # nearly right: missed
    record(s, me, "a", ["min-raise"], [], 10, 10, NOW - timedelta(hours=2))  # right after seeing it: still missed
    record(s, me, "b", ["min-raise"], [], 10, 10, NOW - timedelta(hours=1))
    record(s, me, "c", ["reopening", "min-raise"], [], 0, 10, NOW - timedelta(hours=1))
    record(s, me, "old", ["reopening"], [], 10, 10, NOW - timedelta(days=40))
    s.commit()
    assert progress.first_tries(s, me) == {"a": False, "b": True, "c": False, "old": True}
    by_topic = {a.key: (a.solved, a.spots, a.percent) for a in progress.solved(s, me, 30, at=NOW)}
    assert by_topic == {"min-raise": (1, 3, 33), "reopening": (0, 1, 0)}
    assert progress.last_spot(s, me) == ("c", ["reopening", "min-raise"])


def first_try(s, learner, scenario, topics, marks, at):
    progress.record(s, learner_id=learner, scenario_id=scenario, topics=topics, rules=[],
                    answers={k: ["1"] for k in marks}, marks=marks, duration_ms=None, at=at)


def test_columns_say_which_part_of_the_card_is_missed_and_in_which_topics(s):
    me = new_id()
    card = {"current_total": True, "last_full_increment": True, "committed": True, "acted": True, "to_add": True,
            "legal": True, "call": True, "min_to": True, "max_to": True}
    first_try(s, me, "s1", ["short-all-in"], {**card, "last_full_increment": False, "min_to": False}, NOW)
    first_try(s, me, "s2", ["short-all-in"], {**card, "last_full_increment": False}, NOW)
    first_try(s, me, "m1", ["min-raise"], card, NOW)
    first_try(s, me, "m1", ["min-raise"], {**card, "to_add": False}, NOW)  # not a first try: left out
    first_try(s, me, "p1", ["side-pots"], {"pot1_amount": False, "pot1_eligible": True, "returned_BTN": True}, NOW)
    s.commit()
    found = {c.key: c for c in progress.columns(s, me, 7, at=NOW)}
    assert set(found) == {"current_total", "last_full_increment", "committed", "acted", "to_add", "options",
                          "pots", "returned"}
    assert (found["last_full_increment"].wrong, found["last_full_increment"].answered) == (2, 3)
    assert found["last_full_increment"].topics == (("short-all-in", 2, 2),)
    assert (found["options"].wrong, found["options"].answered) == (1, 3)  # min_to is one of the options
    assert found["to_add"].wrong == 0 and found["to_add"].topics == ()
    assert (found["pots"].wrong, found["pots"].answered) == (1, 1)
    ranked = [c.key for c in progress.columns(s, me, 7, at=NOW)]
    assert ranked[:3] == ["pots", "last_full_increment", "options"]


def test_the_spot_to_continue_from_is_the_last_one_the_library_knows(s):
    me = new_id()
    record(s, me, "library-spot", ["reopening"], [], 1, 1, NOW - timedelta(minutes=5))
    record(s, me, "generated-spot", ["reopening"], [], 1, 1, NOW)
    s.commit()
    assert progress.last_spot(s, me)[0] == "generated-spot"
    assert progress.last_spot(s, me, known=lambda sid: sid == "library-spot") == ("library-spot", ["reopening"])
    assert progress.last_spot(s, me, known=lambda sid: False) is None


def _cards(s, learner):
    s.expire_all()
    return {c.scenario_id: (c.due, {k: v for k, v in c.card.items() if k != "card_id"})
            for c in s.scalars(select(ReviewCard).where(ReviewCard.learner_id == learner))}


def test_a_batch_of_answers_reviews_each_card_as_one_answer_at_a_time_would(s):
    """The writer's batch reviews its cards in three statements (review_many); the cards come out as
    answering one by one makes them, with several answers to one spot in the same batch."""
    answers = [("a", False), ("b", True), ("a", True), ("c", True), ("a", True), ("b", False)]
    one, batch = new_id(), new_id()
    for who in (one, batch):
        progress.set_spaced_repetition(s, who, True)
        record(s, who, "b", [], [], 1, 1, NOW - timedelta(days=3))  # a card there before the batch
    s.commit()
    for k, (spot, right) in enumerate(answers):
        record(s, one, spot, [], [], int(right), 1, NOW + timedelta(minutes=k))
        s.commit()
    progress.record_many(s, [
        {"learner_id": batch, "scenario_id": spot, "topics": [], "rules": [], "answers": {"f0": ["1"]},
         "marks": {"f0": right}, "duration_ms": 5000, "at": NOW + timedelta(minutes=k)}
        for k, (spot, right) in enumerate(answers)
    ])
    s.commit()
    assert _cards(s, batch) == _cards(s, one) and set(_cards(s, one)) == {"a", "b", "c"}


def test_a_card_another_process_made_meanwhile_is_reviewed_on_top_of_not_over(store, database):
    """Two server processes, the same learner in two tabs: the other process stores the spot's first
    card between this batch's read of the cards and its insert. That card stays, and this batch's
    answer is reviewed on top of it (PostgreSQL; SQLite has one writer at a time)."""
    if database["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("SQLite lets one transaction write at a time: the race cannot happen there")
    me = new_id()
    with store.session() as s:
        progress.set_spaced_repetition(s, me, True)
        s.commit()
    other = Store(database["DATABASE_URL"], schema=database["DATABASE_SCHEMA"])
    raced = []

    def first_the_other_process(conn, cursor, statement, parameters, context, executemany):
        if statement.startswith("INSERT INTO review_cards") and not raced:
            raced.append(True)
            with other.session() as o:
                record(o, me, "spot", [], [], 1, 1, NOW)  # right at the first try: Easy, days away
                o.commit()

    event.listen(store.engine, "before_cursor_execute", first_the_other_process)
    try:
        with store.session() as s:
            record(s, me, "spot", [], [], 0, 1, NOW + timedelta(minutes=1))  # then a miss, here
            s.commit()
            assert raced
            [(due, card)] = _cards(s, me).values()
    finally:
        event.remove(store.engine, "before_cursor_execute", first_the_other_process)
        other.dispose()
    expected = progress._reviewed(progress._reviewed(None, True, NOW), False, NOW + timedelta(minutes=1))
    assert (due, card) == (expected.due, {k: v for k, v in expected.to_dict().items() if k != "card_id"})
    assert due < NOW + timedelta(hours=1)  # the miss brings the spot back within the hour, not in days


def test_turned_off_review_makes_no_cards_and_turned_on_again_schedules_what_was_missed(s):
    me = new_id()
    progress.set_spaced_repetition(s, me, False)
    record(s, me, "wrong", [], [], 0, 2, NOW - timedelta(hours=1))
    s.commit()
    assert s.scalar(select(ReviewCard)) is None and progress.due(s, me, at=NOW) == ["wrong"]  # waiting
    progress.set_spaced_repetition(s, me, True)
    s.commit()
    assert [c.scenario_id for c in s.scalars(select(ReviewCard))] == ["wrong"]
    assert progress.due(s, me, at=NOW) == ["wrong"]


def _answer_all(s, me, names, at, *, cap, right=True):
    progress.record_many(s, [
        {"learner_id": me, "scenario_id": name, "topics": [], "rules": [], "answers": {"f": ["1"]},
         "marks": {"f": right}, "duration_ms": 1000, "at": at + timedelta(seconds=i)}
        for i, name in enumerate(names)
    ], new_per_day=cap)
    s.commit()


def test_at_most_the_daily_cap_of_new_spots_enter_review_and_the_rest_wait_for_a_day_with_room(s):
    me = new_id()
    _answer_all(s, me, ["s0", "s1", "s2", "s3", "s4"], NOW, cap=3)
    assert sorted(s.scalars(select(ReviewCard.scenario_id))) == ["s0", "s1", "s2"]
    assert progress.new_today(s, me, at=NOW) == 3
    assert progress.comes_back(s, me, "s3") is None
    assert progress.due(s, me, at=NOW + timedelta(hours=1), new_per_day=3) == []  # no room left today
    tomorrow = NOW + timedelta(days=1)
    assert progress.new_today(s, me, at=tomorrow) == 0
    # the next day the waiting spots come up, first answered first, as many as there is room for
    assert progress.due(s, me, at=tomorrow, new_per_day=3) == ["s3", "s4"]
    assert progress.due(s, me, at=tomorrow, new_per_day=1) == ["s3"]
    assert progress.due(s, me, at=tomorrow, new_per_day=3, known=lambda sid: sid != "s3") == ["s4"]
    # answered in that day's review, a waiting spot gets its card and leaves the waiting list
    _answer_all(s, me, ["s3"], tomorrow, cap=3)
    assert progress.comes_back(s, me, "s3") > tomorrow + timedelta(days=1)
    assert progress.due(s, me, at=tomorrow + timedelta(minutes=5), new_per_day=3) == ["s4"]


def test_the_cap_counts_new_cards_only_reviews_of_known_spots_go_on(s):
    me = new_id()
    _answer_all(s, me, ["a", "b"], NOW, cap=2, right=False)
    before = {c.scenario_id: c.due for c in s.scalars(select(ReviewCard))}
    _answer_all(s, me, ["a", "b", "c"], NOW + timedelta(minutes=5), cap=2)  # "c" is new: no room for it
    after = {c.scenario_id: c.due for c in s.scalars(select(ReviewCard))}
    assert set(after) == {"a", "b"} and all(after[k] > before[k] for k in after)


def test_a_spot_whose_first_step_alone_was_answered_right_does_not_wait_for_review(s):
    """The spot is not decided yet (its next step is to come): it is the page's, not the review's."""
    me = new_id()
    progress.record_many(s, [{"learner_id": me, "scenario_id": "steps", "topics": [], "rules": [],
                              "answers": {"f": ["1"]}, "marks": {"f": True}, "duration_ms": 1000, "at": NOW,
                              "partial": True, "review": None}])
    s.commit()
    assert s.scalar(select(ReviewCard)) is None
    assert progress.due(s, me, at=NOW + timedelta(days=1)) == []
