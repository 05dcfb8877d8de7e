"""Hand reading: best five cards, categories and winners per pot (SCENARIO-FORMAT "Hand reading").

PokerKit 0.7.7's evaluator is the oracle (a test dependency, never the engine).
The default run compares 3,000 random deals (6,000 seven-card hands, 3,000
head-to-head comparisons, every category but the straight flush);
``-m slow`` compares 200,000 deals.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from pokerkit import StandardHighHand

from trainer.engine.messages import EngineError
from trainer.engine.reading import CATEGORIES, RANKS, best_hand
from trainer.scenarios import ScenarioError, load_text

DECK = [r + s for r in RANKS for s in "cdhs"]

# PokerKit's labels, in the contract's words
LABEL = {
    "High card": "high-card", "One pair": "one-pair", "Two pair": "two-pair",
    "Three of a kind": "three-of-a-kind", "Straight": "straight", "Flush": "flush",
    "Full house": "full-house", "Four of a kind": "four-of-a-kind", "Straight flush": "straight-flush",
}


def _oracle(hole, board):
    return StandardHighHand.from_game("".join(hole), "".join(board))


def _ranks(cards) -> list[str]:
    return sorted((str(c)[0] if isinstance(c, str) else c.rank.value for c in cards), key=RANKS.index)


@pytest.mark.parametrize("deals", [3_000, pytest.param(200_000, marks=pytest.mark.slow)])
def test_random_deals_agree_with_pokerkit_on_category_best_five_and_winner(deals):
    rng = random.Random(2026)
    categories = Counter()
    for _ in range(deals):
        cards = rng.sample(DECK, 9)
        a, b, board = cards[0:2], cards[2:4], cards[4:9]
        ours_a, ours_b = best_hand(a, board), best_hand(b, board)
        theirs_a, theirs_b = _oracle(a, board), _oracle(b, board)
        for ours, theirs, hole in ((ours_a, theirs_a, a), (ours_b, theirs_b, b)):
            assert ours.category == LABEL[theirs.entry.label.value], (hole, board)
            assert _ranks(ours.cards) == _ranks(theirs.cards), (hole, board, ours.cards, theirs.cards)
            assert set(ours.cards) <= set(hole) | set(board)
            categories[ours.category] += 1
        want = (theirs_a > theirs_b) - (theirs_a < theirs_b)
        got = (ours_a.score > ours_b.score) - (ours_a.score < ours_b.score)
        assert got == want, (a, b, board)
    # the deals reach every category but the rarest
    assert set(categories) >= set(CATEGORIES) - {"straight-flush"}


@pytest.mark.parametrize(
    "hole, board, cards, category",
    [
        # a wheel reads 5 4 3 2 A
        (("Ah", "2d"), ("3c", "4s", "5h", "Kd", "Jc"), ("5h", "4s", "3c", "2d", "Ah"), "straight"),
        # a steel wheel is a straight flush, read the same way
        (("As", "2s"), ("3s", "4s", "5s", "Kd", "Jc"), ("5s", "4s", "3s", "2s", "As"), "straight-flush"),
        # six to a straight: the highest five play
        (("6h", "7d"), ("2c", "3s", "4h", "5d", "Kc"), ("7d", "6h", "5d", "4h", "3s"), "straight"),
        # a royal flush is a straight-flush
        (("Ah", "Kh"), ("Qh", "Jh", "Th", "2c", "2d"), ("Ah", "Kh", "Qh", "Jh", "Th"), "straight-flush"),
        # six cards of a suit: the top five play
        (("Ah", "2h"), ("9h", "7h", "5h", "3h", "Kc"), ("Ah", "9h", "7h", "5h", "3h"), "flush"),
        # three pairs: the two highest play, the best remaining card kicks
        (("Qh", "Qd"), ("9c", "9s", "4h", "4d", "Kc"), ("Qh", "Qd", "9c", "9s", "Kc"), "two-pair"),
        # two sets of trips make a full house: the higher trips, then a pair of the lower
        (("8h", "8d"), ("8c", "5s", "5h", "5d", "Ac"), ("8h", "8d", "8c", "5s", "5h"), "full-house"),
        # quads with the best kicker from the board
        (("9h", "9d"), ("9c", "9s", "Kh", "2d", "3c"), ("9h", "9d", "9c", "9s", "Kh"), "four-of-a-kind"),
        # high card: the five highest, high to low
        (("Ah", "Jd"), ("9c", "7s", "5h", "3d", "2c"), ("Ah", "Jd", "9c", "7s", "5h"), "high-card"),
    ],
)
def test_best_five_in_reading_order(hole, board, cards, category):
    best = best_hand(hole, board)
    assert (best.cards, best.category) == (cards, category)


def test_the_board_plays_and_both_split():
    # seed 004: board 9 8 7 6 5, neither hand improves on it
    board = ("9c", "8d", "7s", "6h", "5c")
    a, b = best_hand(("Kh", "Kd"), board), best_hand(("Ac", "Qs"), board)
    assert a.cards == b.cards == board and a.category == "straight" and a.score == b.score


def test_a_kicker_beyond_the_fifth_card_does_not_play():
    # both play A A K Q J from the board; the sixth and seventh cards do not count
    board = ("Ah", "Ad", "Kc", "Qs", "Jh")
    a, b = best_hand(("3c", "2d"), board), best_hand(("9c", "8d"), board)
    assert a.score == b.score and a.cards == b.cards == ("Ah", "Ad", "Kc", "Qs", "Jh")


def test_a_counterfeited_two_pair_loses_to_the_board_kicker():
    # A's 3 3 pair is counterfeited by the board's two higher pairs: A plays K K Q Q J with the board's J,
    # B plays K K Q Q A with the ace: B wins
    board = ("Kh", "Kd", "Qc", "Qs", "Jh")
    a, b = best_hand(("3c", "3d"), board), best_hand(("Ac", "2d"), board)
    assert a.category == b.category == "two-pair"
    assert a.cards == ("Kh", "Kd", "Qc", "Qs", "Jh") and b.cards == ("Kh", "Kd", "Qc", "Qs", "Ac")
    assert b.score > a.score


def test_seed_002_two_pair_fifth_card_decides():
    board = ("Kc", "2s", "2d", "7d", "9h")
    co, bb = best_hand(("Kh", "Ac"), board), best_hand(("Kd", "Qc"), board)
    assert co.cards == ("Kh", "Kc", "2s", "2d", "Ac") and bb.cards == ("Kd", "Kc", "2s", "2d", "Qc")
    assert co.score > bb.score


def test_a_card_dealt_twice_is_an_error():
    with pytest.raises(EngineError):
        best_hand(("Ah", "Ah"), ("2c", "3d", "4s", "5h", "9c"))


# -------------------------------------------------------------- through the loader, as `trainer solve` does

SIDE_POTS = """\
id: side-pot-won-by-another
game: {type: no-limit, blinds: [50, 100]}
start: river
pot: 600
stacks: {SB: 300, BB: 2000, BTN: 2000}
board: [Ah, Kd, 7c, 7s, 2h]
hands: {SB: [Ac, Qd], BB: [Kh, Kc], BTN: [Qh, Js]}
actions: [SB allin, BB raise 1000, BTN call]
ask: [pots, winners, split]
"""


def test_side_pots_won_by_different_players():
    solution = load_text(SIDE_POTS, "side.yaml").solution
    # main pot 600 + 3 × 300 = 1500 (SB, BB, BTN); side 2 × 700 = 1400 (BB, BTN)
    assert solution["pots"] == [{"amount": 1500, "eligible": ["SB", "BB", "BTN"]},
                                {"amount": 1400, "eligible": ["BB", "BTN"]}]
    assert solution["best_hands"]["BB"] == {"cards": ["Kh", "Kc", "Kd", "7c", "7s"], "category": "full-house"}
    assert solution["best_hands"]["SB"]["category"] == "two-pair"
    assert solution["winners"] == [["BB"], ["BB"]]
    assert solution["split"] == [{"BB": 1500}, {"BB": 1400}]
    assert json.loads(json.dumps(solution)) == solution


def test_a_split_pot_gives_the_odd_chip_clockwise_from_the_button():
    text = """\
id: board-plays-odd-chip
game: {type: no-limit, blinds: [1, 2]}
start: river
pot: 5
stacks: {SB: 100, BB: 100, BTN: 100}
board: [9c, 8d, 7s, 6h, 5c]
hands: {SB: [Kh, Kd], BB: [2c, 2d], BTN: [Ac, Qs]}
actions: [SB check, BB check, BTN check]
ask: [winners, split]
"""
    solution = load_text(text, "odd.yaml").solution
    assert solution["winners"] == [["SB", "BB", "BTN"]]
    assert solution["split"] == [{"SB": 2, "BB": 2, "BTN": 1}]


def test_folded_players_cards_are_ignored_and_needed_from_nobody():
    text = SIDE_POTS.replace("BTN call]", "BTN fold]").replace("BTN: [Qh, Js]}", "}")
    solution = load_text(text.replace("hands: {SB: [Ac, Qd], BB: [Kh, Kc], }", "hands: {SB: [Ac, Qd], BB: [Kh, Kc]}"), "f.yaml").solution
    assert set(solution["best_hands"]) == {"SB", "BB"}


@pytest.mark.parametrize(
    "change, key, words",
    [
        (("board: [Ah, Kd, 7c, 7s, 2h]", "board: [Ah, Kd, 7c, 7s]"), "board", "five board cards"),
        (("BTN: [Qh, Js]", "BTN: [Qh, Ah]"), "hands.BTN", "dealt twice"),
        (("hands: {SB: [Ac, Qd], BB: [Kh, Kc], BTN: [Qh, Js]}", "hands: {SB: [Ac, Qd], BB: [Kh, Kc]}"), "hands", "BTN"),
        (("ask: [pots, winners, split]", "ask: [pots, winners]\nwinners: [[BB], [BB]]"), "winners", "reads them from the cards"),
    ],
)
def test_bad_hand_reading_files_name_the_key(change, key, words):
    with pytest.raises(ScenarioError) as info:
        load_text(SIDE_POTS.replace(*change), "bad.yaml")
    assert info.value.key == key and words in str(info.value) and info.value.line


def test_random_multiway_deals_winners_agree_with_pokerkit():
    """Random all-in deals through the loader: each pot's winners are the eligible players PokerKit ranks best."""
    rng = random.Random(7)
    seats = ["SB", "BB", "UTG", "CO", "BTN"]
    compared = 0
    for n in range(400):
        players = seats[: rng.randint(2, 5)]
        if len(players) == 2:
            players = ["BB", "BTN"]
        cards = rng.sample(DECK, 5 + 2 * len(players))
        board, holes = cards[:5], {p: cards[5 + 2 * i: 7 + 2 * i] for i, p in enumerate(players)}
        stacks = {p: rng.choice([200, 500, 500, 1000, 3000]) for p in players}
        text = (
            f"id: deal-{n}\ngame: {{type: no-limit, blinds: [50, 100]}}\nstart: river\npot: 300\n"
            f"stacks: {{{', '.join(f'{p}: {s}' for p, s in stacks.items())}}}\n"
            f"board: [{', '.join(board)}]\n"
            f"hands: {{{', '.join(f'{p}: [{h[0]}, {h[1]}]' for p, h in holes.items())}}}\n"
            f"actions: [{', '.join(f'{p} allin' if i == 0 else f'{p} call' for i, p in enumerate(players))}]\n"
            "ask: [pots, winners]\n"
        )
        try:
            solution = load_text(text, f"deal-{n}.yaml").solution
        except ScenarioError:
            continue  # a call that is not legal in this random order (e.g. nothing left to call): skip
        oracle = {p: _oracle(holes[p], board) for p in players}
        for pot, won in zip(solution["pots"], solution["winners"]):
            best = max(oracle[p] for p in pot["eligible"])
            assert set(won) == {p for p in pot["eligible"] if oracle[p] == best}, text
        compared += 1
    assert compared >= 300


# -------------------------------------------------------------- the drill's "best five cards" question

BROADWAY = """\
id: broadway-either-king
game: {type: no-limit, blinds: [100, 200]}
start: river
pot: 1200
stacks: {BB: 20000, BTN: 20000}
board: [Kd, Ah, Qs, Jh, Td]
hands: {BB: [Kc, 2d], BTN: [9c, 9s]}
actions: [BB check, BTN check]
ask: [winners]
"""


def _graded(quiz, **typed):
    from werkzeug.datastructures import MultiDict

    from trainer.quiz import grade, read_answer

    right = {"hand_BB": "straight", "hand_BTN": "straight", "winners1": ["BB", "BTN"],
             "five_BB": ["Kc", "Ah", "Qs", "Jh", "Td"], "five_BTN": ["Kd", "Ah", "Qs", "Jh", "Td"]}
    form = MultiDict([(k, v) for k, vs in (right | typed).items() for v in ([vs] if isinstance(vs, str) else vs)])
    return {m.field.name: m.right for m in grade(quiz, read_answer(quiz, form)).marks}


def test_the_best_five_cards_are_asked_and_any_five_of_the_same_worth_are_right():
    from trainer.quiz import build_quiz

    quiz = build_quiz(load_text(BROADWAY, "broadway.yaml"), locale="en")
    five = {f.name: f for f in quiz.fields() if f.name.startswith("five_")}
    assert set(five) == {"five_BB", "five_BTN"}
    # the player's two cards, then the board, each named as a dealer reads it
    assert [label for _v, label in five["five_BB"].choices] == ["K♣", "2♦", "K♦", "A♥", "Q♠", "J♥", "10♦"]
    assert all(_graded(quiz).values())
    # BB's straight plays either king; the board plays for BTN, whose nines do not
    assert _graded(quiz, five_BB=["Kd", "Ah", "Qs", "Jh", "Td"])["five_BB"]
    assert not _graded(quiz, five_BB=["Kc", "Kd", "Ah", "Qs", "Jh"])["five_BB"]
    assert not _graded(quiz, five_BTN=["9c", "Ah", "Qs", "Jh", "Td"])["five_BTN"]
    assert not _graded(quiz, five_BB=["Kc", "Ah", "Qs", "Jh"])["five_BB"]  # four cards are not a hand


@pytest.mark.parametrize("locale", ["zh-Hant", "zh-Hans"])
def test_the_best_five_cards_question_is_in_the_learners_language(locale):
    from trainer.quiz import build_quiz

    quiz = build_quiz(load_text(BROADWAY, "broadway.yaml"), locale=locale)
    field = next(f for f in quiz.fields() if f.name == "five_BB")
    assert "BB" in field.label and not any(word in field.label for word in ("cards", "play"))


def test_a_split_asked_beside_the_winners_does_not_tell_who_won():
    """The split's fields were one per winner ("Main pot: won by BTN", "BTN gets"), on the same form
    that asks who wins: the exam's hand-reading questions gave their answer away. Asked beside the
    winners, every player who can win the pot has a share, 0 (or empty) for those who do not."""
    from pathlib import Path

    from trainer.quiz import Blank, build_quiz

    path = Path(__file__).resolve().parents[1] / "scenarios/exam-pool/hand-reading/exam-the-wheel-loses-to-seven-high.yaml"
    quiz = build_quiz(load_text(path.read_text(encoding="utf-8"), str(path)), locale="en")
    (split,) = [q for q in quiz.questions if q.kind == "split"]
    assert [g.legend for g in split.groups] == ["Main pot"]
    fields = {f.name: f.expected for f in split.fields}
    assert fields == {"split1_BB": 0, "split1_BTN": 28000}
    assert all(f.blank is Blank.ZERO for f in split.fields)  # empty is 0
    assert any(q.kind == "winners" for q in quiz.questions)  # who wins is still asked
