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
