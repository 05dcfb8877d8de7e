"""The exams' questions drawn fresh: rulings on chips and words generated from R-CHIPS with the
engine's answers, a dealer's questions of one to three answers, and how much two attempts share."""

from __future__ import annotations

from collections import Counter

import pytest

from trainer.engine.reading import read
from trainer.engine.rulings import Declaration, rule
from trainer.generate import generate
from trainer.library.exams import ExamTemplate, load_templates
from trainer.library.fresh import worst
from trainer.quiz import QuizError
from trainer.quiz.dealer import build_dealer_quiz, kind_of
from trainer.resources import folder
from trainer.scenarios import load_document

CATALOGUE, _problems = load_templates(folder("exams"))
EXAM_SEED = 2**62  # exam seeds lie above every drill seed
SEEDS = range(EXAM_SEED, EXAM_SEED + 40)


def _scenario(topic: str, seed: int, stakes: str | None, edition: int = 2):
    spot = generate(topic, level=3, seed=seed, stakes=stakes, edition=edition)[0]
    return load_document(spot.document, f"{spot.id}.yaml")


@pytest.mark.parametrize("stakes", ["100-200", "1000-2000", None])
@pytest.mark.parametrize("edition", [1, 2])
def test_every_generated_ruling_loads_and_its_answer_is_the_engines(stakes, edition):
    rules, actions = Counter(), Counter()
    for seed in SEEDS:
        scenario = _scenario("chips-and-words", seed, stakes, edition)
        said = scenario.ruling
        declared = Declaration(said=said.said, chips=tuple(said.chips), later=tuple(said.later))
        ruling = rule(scenario.hand(), declared)  # worked out again here, on a fresh hand
        quiz = build_dealer_quiz(scenario)
        expected = {f.name: f.expected for f in quiz.fields()}
        assert expected == {"ruling_action": ruling.action, "ruling_to": ruling.to, "ruling_returned": ruling.returned}
        rules.update({step.rule for step in scenario.derivation() if step.rule})
        actions[ruling.action] += 1
    assert {"R-VERBAL", "R-OVERCHIP", "R-HALF", "R-STRING", "R-INVALIDDECL"} <= set(rules), rules
    assert {"call", "raise"} <= set(actions)
    if edition == 2:  # every chip needed for the call: rare in the first edition, a kind of its own now
        assert rules["R-MULTICHIP"] >= 4, rules


def test_the_second_edition_rules_on_bets_and_several_chips_more_often():
    first, second = Counter(), Counter()
    for seed in range(EXAM_SEED, EXAM_SEED + 100):
        for edition, counted in ((1, first), (2, second)):
            scenario = _scenario("chips-and-words", seed, "100-200", edition)
            counted[scenario.solve()["ruling"]["action"]] += 1
            counted.update({step.rule for step in scenario.derivation() if step.rule == "R-MULTICHIP"})
    assert second["R-MULTICHIP"] > 2 * first["R-MULTICHIP"]
    assert second["bet"] > first["bet"]


def test_the_first_edition_still_gives_the_spots_stored_references_name():
    spot = generate("chips-and-words", level=3, seed=EXAM_SEED + 19, stakes="100-200")[0]
    assert spot.document["ruling"] == {"said": "1625"}
    assert spot.document["expect"]["ruling"] == {"action": "raise", "to": 1700, "returned": 0}


DEALER_TOPICS = sorted({topic for t in CATALOGUE if t.style == "dealer" for topic in t.weights})


@pytest.mark.parametrize("topic", DEALER_TOPICS)
def test_a_dealers_question_has_one_to_three_answers_all_the_engines(topic):
    built = 0
    for seed in range(EXAM_SEED, EXAM_SEED + 12):
        scenario = _scenario(topic, seed, "1000-2000")
        try:
            quiz = build_dealer_quiz(scenario, locale="zh-Hant")
        except QuizError:
            continue  # four pots, say: the exam takes the next spot of the seed
        built += 1
        fields = {f.name: f.expected for f in quiz.fields()}
        assert 1 <= len(fields) <= 3
        hand = scenario.played
        kind = kind_of(topic)
        if kind in ("price", "pot-limit", "ante"):
            options = hand.options()
            assert fields["call"] == options.call
            wager = options.bet or options.raise_
            if kind == "price":
                assert fields["min_to"] == (wager.min if wager else None)
            elif kind == "pot-limit":
                assert fields["max_to"] == (wager.max if wager else None)
            else:
                assert fields["pot"] == hand.pot
        elif kind == "pots":
            assert list(fields.values()) == [pot.amount for pot in hand.result().pots]
        elif kind == "returned":
            returned = hand.result().returned
            assert {fields["returned_to"]: fields["returned_amount"]} == {p: n for p, n in returned.items() if n}
        elif kind == "winners":
            pots = hand.result().pots
            won = read(hands=scenario.hands, board=scenario.board, pots=pots, order=[s.position for s in hand.seats])
            assert list(fields.values()) == [frozenset(w) for w in won.winners]
        elif kind == "split":
            shares = hand.split([list(w) for w in scenario.winners], scenario.chip)[0]
            assert any(fields == {f"split{i + 1}_{p}": n for p, n in pot.items()} for i, pot in enumerate(shares))
        elif kind == "showdown":
            assert len(fields) == 1
    assert built >= 6


# Volume: 8 pairs of attempts per template by default, 100 with `-m slow` (docs/testing.md).
@pytest.mark.parametrize("pairs", [8, pytest.param(100, marks=pytest.mark.slow)])
@pytest.mark.parametrize("template", CATALOGUE, ids=lambda t: t.slug)
def test_two_attempts_share_at_most_one_question_in_twenty(template, pairs):
    assert worst(template, pairs=pairs).fraction <= 1 / 20


def test_the_check_sees_a_pool_that_is_an_answer_key():
    # the first Chips and words: 4 of its 8 questions from a pool of 10 hand-written spots
    pooled = ExamTemplate(slug="pooled", title="Pooled", description="", count=8, minutes=10, pass_mark=75,
                          pool={"chips-and-words": 4}, weights={"chips-and-words": 1})
    pool = {"chips-and-words": [f"cw-{n}" for n in range(10)]}
    assert worst(pooled, pairs=10, pool=pool).fraction > 1 / 20


def test_the_dealer_templates_ask_the_written_part_first():
    from trainer.library.exams import exam_part

    full = next(t for t in CATALOGUE if t.slug == "dealer-full")
    parts = [exam_part(ref) for ref in full.draw(11)]
    assert parts == sorted(parts, key=lambda p: p == "table")
    assert Counter(parts) == {"rules": 25, "table": 15}
