"""Quick questions on every library spot: the engine's answer is one of the choices, an amount question
offers four distinct amounts in increasing order, and the kinds the speed drill knows agree with its
own reading of the spot."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from trainer import quick, speed
from trainer.library import load_library

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def library():
    return load_library([str(REPO / "scenarios")])


def test_every_quick_question_of_the_library_has_its_answer_among_its_choices(library):
    kinds = Counter()
    for entry in library.entries.values():
        chosen = quick.choose(entry.scenario, entry.topics, seed=entry.id)
        if chosen is None:
            continue
        q = quick.make(entry.id, entry.scenario, *chosen)
        kinds[q.kind] += 1
        assert q.answer in q.choices and q.check(q.answer) is True, entry.id
        assert q.check("no such choice") is None
        if q.amounts:
            values = [int(c) for c in q.choices]
            assert len(values) == quick.CHOICES and values == sorted(set(values)) and min(values) > 0, entry.id
        if q.kind in speed.KINDS:
            assert q.answer == speed.answer_of(q.kind, entry.scenario, q.pot), entry.id
    assert set(kinds) == set(quick.KINDS)  # every kind is asked somewhere in the library


def test_a_spot_is_asked_what_its_first_topic_teaches_first(library):
    not_reopened = library.get("sb-not-reopened") or next(
        e for e in library.entries.values() if e.topics[:1] == ("reopening",))
    kind, _pot = quick.choose(not_reopened.scenario, not_reopened.topics, seed=not_reopened.id)
    assert kind in quick.BY_TOPIC["reopening"]


def test_call_or_must_raise_follows_the_half_raise_rule_both_ways(library):
    # "Call, or must raise to 1,700?" (issue 32): a stated total short of a full raise is a call under
    # half the last full increment, and binds the player to a full raise, to the minimum, from half on.
    answers = Counter()
    for entry in library.entries.values():
        if entry.topics[:1] != ("chips-and-words",):
            continue
        chosen = quick.choose(entry.scenario, entry.topics, seed=entry.id)
        if chosen is None or chosen[0] != "call-or-raise":
            continue
        q = quick.make(entry.id, entry.scenario, *chosen)
        w = q.why
        assert q.choices == ("call", "raise") and w["cur"] < w["said"] < w["min"], entry.id
        assert w["said"] - w["cur"] == w["over"] and w["cur"] + w["full"] == w["min"], entry.id
        assert q.answer == ("raise" if 2 * w["over"] >= w["full"] else "call"), entry.id
        answers[q.answer] += 1
    assert answers["call"] and answers["raise"], answers
