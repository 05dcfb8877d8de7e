"""Hand reading: each live player's best five cards, and who wins each pot.

Ranking seven cards is not a rule of betting, so it is not written here: the
maintained evaluator ``phevaluator`` ranks hands (docs/engine-notes.md says why
this one). What is ours is the teaching: which five cards play, in the order a
dealer reads them out, and which pot each player can win (R-SIDEPOTS), split
by R-ODDCHIP.

>>> best_hand(("Kh", "Qc"), ("Ks", "9d", "7c", "4h", "2s")).cards
('Kh', 'Ks', 'Qc', '9d', '7c')
>>> best_hand(("Ah", "2d"), ("3c", "4s", "5h", "Kd", "Kc")).category
'straight'
>>> best_hand(("Ah", "2d"), ("3c", "4s", "5h", "Kd", "Jc")).cards
('5h', '4s', '3c', '2d', 'Ah')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from phevaluator import evaluate_cards

from .messages import EngineError, Message, Step

RANKS = "23456789TJQKA"
SUITS = "cdhs"

#: Categories low to high, as the scenario contract names them.
CATEGORIES = (
    "high-card", "one-pair", "two-pair", "three-of-a-kind", "straight",
    "flush", "full-house", "four-of-a-kind", "straight-flush",
)
# phevaluator ranks the 7,462 distinct five-card values from 1 (a royal flush) to 7462 (7-5-4-3-2);
# each category is a block of that scale. These are the upper ends of the blocks, best category
# first, as the evaluator's C library lists them (``get_rank_category``).
_BLOCKS = (
    (10, "straight-flush"), (166, "four-of-a-kind"), (322, "full-house"), (1599, "flush"),
    (1609, "straight"), (2467, "three-of-a-kind"), (3325, "two-pair"), (6185, "one-pair"),
    (7462, "high-card"),
)
_WHEEL = {"A", "2", "3", "4", "5"}


@dataclass(frozen=True, kw_only=True)
class BestHand:
    """The five cards that play, in reading order, their category, and a score (higher wins)."""

    cards: tuple[str, ...]
    category: str
    score: int  # higher is better; equal scores split

    def as_dict(self) -> dict:
        """The best hand as the scenario contract writes it.

        >>> best_hand(("Kh", "Qc"), ("Ks", "9d", "7c", "4h", "2s")).as_dict()
        {'cards': ['Kh', 'Ks', 'Qc', '9d', '7c'], 'category': 'one-pair'}
        """
        return {"cards": list(self.cards), "category": self.category}


@dataclass(frozen=True, kw_only=True)
class Reading:
    """What hand reading answers once betting is over."""

    best_hands: dict[str, BestHand]
    winners: list[list[str]]
    steps: list[Step]


def _score(cards: Sequence[str]) -> int:
    return -evaluate_cards(*cards)


def _category(score: int) -> str:
    return next(name for top, name in _BLOCKS if -score <= top)


def best_hand(hole: Sequence[str], board: Sequence[str]) -> BestHand:
    """The best five of ``hole`` + ``board`` (five to seven cards), in reading order.

    Among five-card sets of equal value (they differ only in suits) the first
    one in hole-then-board order is shown, so a player's own cards are named
    before the board's.

    >>> board = ("Ks", "9d", "7c", "4h", "2s")
    >>> best_hand(("Ah", "Kd"), board).cards
    ('Kd', 'Ks', 'Ah', '9d', '7c')
    >>> best_hand(("Ah", "Kd"), board).score > best_hand(("Qc", "Qs"), board).score
    True
    >>> best_hand(("Ah", "Ah"), ("Ks", "9d", "7c"))
    Traceback (most recent call last):
    ...
    trainer.engine.messages.EngineError: a card is dealt twice
    """
    cards = tuple(hole) + tuple(board)
    if not 5 <= len(cards) <= 7:
        raise EngineError(f"a hand is read from five to seven cards, got {len(cards)}")
    if len(set(cards)) != len(cards):
        raise EngineError("a card is dealt twice")
    best = _score(cards)
    five = next(c for c in combinations(cards, 5) if _score(c) == best)
    category = _category(best)
    return BestHand(cards=_reading_order(five, category), category=category, score=best)


def best_fives(hole: Sequence[str], board: Sequence[str]) -> tuple[frozenset[str], ...]:
    """Every set of five cards worth the best hand of ``hole`` + ``board``: when two cards of a rank
    could play, either is right (the suits never matter), so a dealer may name any of these.

    >>> sorted(sorted(f) for f in best_fives(("9c", "2d"), ("9d", "9h", "Ks", "Qs", "Js")))
    [['9c', '9d', '9h', 'Ks', 'Qs']]
    >>> len(best_fives(("Kc", "2d"), ("Kd", "Ah", "Qs", "Jh", "Td")))  # A-K-Q-J-10 with either king
    2
    """
    cards = tuple(hole) + tuple(board)
    best = _score(cards)
    return tuple(frozenset(c) for c in combinations(cards, 5) if _score(c) == best)


def _reading_order(five: Sequence[str], category: str) -> tuple[str, ...]:
    """The cards that make the category first, bigger groups first, then kickers high to low."""
    ranks = [c[0] for c in five]
    if category in ("straight", "straight-flush") and set(ranks) == _WHEEL:
        return tuple(sorted(five, key=lambda c: -1 if c[0] == "A" else RANKS.index(c[0]), reverse=True))
    count = Counter(ranks)
    return tuple(sorted(five, key=lambda c: (count[c[0]], RANKS.index(c[0])), reverse=True))


def read(*, hands: Mapping[str, Sequence[str]], board: Sequence[str], pots: Sequence,
         order: Sequence[str]) -> Reading:
    """Best hands of the players who can win a pot, and each pot's winners (R-SIDEPOTS).

    ``pots`` are the engine's pots (main first, each with ``eligible``);
    ``order`` is the seat order clockwise from the button, for listing ties.
    The winners are what ``Hand.split`` takes.

    >>> from trainer.engine import Action, ActionKind, Game, GameType, Hand, Street
    >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
    ...             stacks={"BB": 1000, "BTN": 1000}, start=Street.FLOP, pot=100)
    >>> _ = hand.apply(Action(position="BB", kind=ActionKind.ALLIN))
    >>> _ = hand.apply(Action(position="BTN", kind=ActionKind.CALL))
    >>> reading = read(hands={"BB": ("Ah", "Kd"), "BTN": ("Qc", "Qs")}, board=("Ks", "9d", "7c", "4h", "2s"),
    ...                pots=hand.result().pots, order=hand.game_positions())
    >>> reading.winners, reading.best_hands["BTN"].category
    ([['BB']], 'one-pair')
    >>> str(reading.steps[-1])
    'Main pot: BB has the best hand of BB and BTN and wins it (R-SIDEPOTS).'
    """
    if len(board) != 5:
        raise EngineError(f"reading the hands needs the five board cards, got {len(board)}")
    live = [pos for pos in order if any(pos in pot.eligible for pot in pots)]
    missing = [pos for pos in live if pos not in hands]
    if missing:
        raise EngineError(f"the hole cards of {', '.join(missing)} are needed: they are still in the hand")
    best = {pos: best_hand(hands[pos], board) for pos in live}
    steps = [
        Step("winners", Message("read.best", {"pos": pos, "cards": " ".join(b.cards), "category": _term(b.category)}))
        for pos, b in best.items()
    ]
    winners: list[list[str]] = []
    for number, pot in enumerate(pots):
        eligible = [pos for pos in order if pos in pot.eligible]
        top = max(best[pos].score for pos in eligible)
        won = [pos for pos in eligible if best[pos].score == top]
        winners.append(won)
        name = Message("pot.main") if number == 0 else Message("pot.side", {"number": number})
        if len(eligible) == 1:
            steps.append(Step("winners", Message("read.alone", {"pot": name, "pos": won[0]}), "R-SIDEPOTS"))
        elif len(won) == 1:
            steps.append(Step("winners", Message("read.wins", {"pot": name, "pos": won[0], "players": eligible}), "R-SIDEPOTS"))
        else:
            steps.append(Step("winners", Message("read.tie", {"pot": name, "players": won}), "R-SIDEPOTS"))
    return Reading(best_hands=best, winners=winners, steps=steps)


def _term(category: str) -> Message:
    return Message("hand." + category, {})
