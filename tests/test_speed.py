"""Speed drill questions: made from generated spots, answered by the engine, read leniently, checked strictly."""

from __future__ import annotations

from collections import Counter

import pytest
from pokerkit import StandardHighHand

from trainer import speed

SEEDS = (1, 2024, 99_999)
PER_SEED = 40


def _questions():
    for seed in SEEDS:
        for number in range(PER_SEED):
            yield speed.question(seed, number)


def test_every_kind_comes_up_and_questions_follow_the_seed():
    kinds = Counter(q.kind for q in _questions())
    assert set(kinds) == set(speed.KINDS), kinds
    again = speed.question.__wrapped__(SEEDS[0], 3)  # built afresh, not from the cache
    assert (again.ref, again.kind, again.pot, again.answer) == (lambda q: (q.ref, q.kind, q.pot, q.answer))(
        speed.question(SEEDS[0], 3))
    assert speed.question(1, 0).ref != speed.question(2, 0).ref


def test_answers_are_the_engines_solution_of_the_generated_spot():
    for q in _questions():
        solved = q.scenario.solution
        if q.kind == "to-call":
            assert q.answer == str(solved["options"]["call"]) == str(solved["card"]["to_add"])
        elif q.kind == "min-raise":
            assert q.answer == str(solved["options"]["raise"]["min_to"])
        elif q.kind == "pot-limit":
            opts = solved["options"]
            assert q.scenario.game.type == "pot-limit"
            assert q.answer == str(opts["raise"]["max_to"] if opts["raise"] else opts["bet"]["max"])
        elif q.kind == "side-pot":
            assert q.pot >= 1
            assert q.answer == str(solved["pots"][q.pot]["amount"])
        else:
            assert q.answer in q.choices and q.answer == solved["winners"][q.pot][0]
            assert len(solved["winners"][q.pot]) == 1


def test_who_wins_agrees_with_pokerkit():
    asked = [q for q in _questions() if q.kind == "winner"]
    assert asked
    board = "".join(asked[0].scenario.board)
    for q in asked:
        board = "".join(q.scenario.board)
        strength = {seat: StandardHighHand.from_game("".join(q.scenario.hands[seat]), board) for seat in q.choices}
        best = max(strength.values())
        assert [seat for seat, h in strength.items() if h == best] == [q.answer], q.ref


def test_derivations_add_up_to_the_answer():
    for q in _questions():
        w = q.why
        if q.kind == "to-call":
            assert w["cur"] - w["com"] == w["add"] == int(q.answer)
        elif q.kind == "min-raise":
            assert w["cur"] + w["inc"] == w["min"] == int(q.answer)
        elif q.kind == "pot-limit" and w["cur"]:
            # the formula and the dealer's shortcut give the same number
            assert w["pot"] + w["add"] == w["after"]
            assert w["cur"] + w["after"] == w["max"] == int(q.answer)
            assert 3 * w["cur"] + w["trail"] == w["max"] and w["trail"] >= 0
        elif q.kind == "pot-limit":
            assert w["pot"] == w["max"] == int(q.answer)
        elif q.kind == "side-pot":
            assert sum(chips for _, chips in w["parts"]) == int(q.answer)


def test_the_dealers_shortcut_on_a_textbook_spot():
    """Blinds 1/2, UTG may raise to 3 × 2 + 1 = 7; facing that, the big blind may raise to 3 × 7 + 1 = 22."""
    from trainer.scenarios import load_document

    doc = {"id": "pl", "game": {"type": "pot-limit", "blinds": [1, 2]},
           "stacks": {"UTG": 500, "BTN": 500, "SB": 500, "BB": 500}, "ask": ["options"]}
    rng = __import__("random").Random(0)
    first = speed._ask("pot-limit", load_document(doc, "pl.yaml"), rng)
    assert first[1] == "7" and first[3]["trail"] == 1
    doc["actions"] = {"preflop": ["UTG raise 7", "BTN fold", "SB fold"]}
    facing = speed._ask("pot-limit", load_document(doc, "pl.yaml"), rng)
    assert facing[1] == "22" and facing[3]["trail"] == 1 and facing[3]["after"] == 15


@pytest.mark.parametrize("typed, right, error", [
    ("1400", True, None), ("1,400", True, None), (" 1 400 ", True, None), ("１４００", True, None),
    ("1，400", True, None), ("1300", False, None), ("01400", True, None),
    ("", False, "empty"), ("abc", False, "number"), ("14.5", False, "number"), ("-1400", False, "number"),
    ("1e3", False, "number"), ("9" * 400, False, "huge"), ("14\x0000", False, "control"),
])
def test_amounts_are_read_leniently_and_refused_with_a_reason(typed, right, error):
    q = next(q for q in _questions() if not q.choices)
    q = speed.Question(**{**q.__dict__, "answer": "1400"})
    checked = speed.check(q, typed)
    assert (checked.right, checked.error) == (right, error)


def test_a_seat_must_be_one_of_the_choices():
    q = next(q for q in _questions() if q.choices)
    assert speed.check(q, q.answer.lower()).right
    assert speed.check(q, "XYZ").error == "seat"
    other = next(seat for seat in q.choices if seat != q.answer)
    assert speed.check(q, other) == speed.Checked(right=False, given=other)


def test_a_run_starts_easy_and_climbs():
    """The first question could be a six-player side pot: a run now opens at level 1 with the
    amount to call or the minimum raise, and adds a level every four questions, a kind every two."""
    for seed in (*SEEDS, *range(20)):
        first = speed.question(seed, 0)
        assert first.kind in ("to-call", "min-raise") and first.level == 1, first.ref
        assert len(first.scenario.hand().seats) <= 4
    levels = [speed.question(SEEDS[0], n).level for n in range(12)]
    assert levels == sorted(levels) and levels[0] == 1 and levels[-1] == 3
    late = Counter(speed.question(seed, n).kind for seed in SEEDS for n in range(8, PER_SEED))
    assert set(late) == set(speed.KINDS)
