"""Speed drills: one-number questions on generated spots, answered against the clock.

A run is a seed; question ``n`` of the run is made from the generator's spots
(``trainer.generate``) for ``(seed, n)`` alone, and its answer is read from the
engine, never written down: the amount to call and the minimum raise-to from
``Hand.card()``/``Hand.options()``, the pot-limit maximum from ``options()``
(with the dealer's shortcut "3 × the last bet + the trail", which is the same
number), a side pot's size from ``Hand.result()``, and who wins a pot from
``engine.reading.read``. Each question also carries the figures of its
one-line derivation, which the page words in the learner's language.

>>> q = question(7, 0)
>>> q.kind in KINDS and q.answer == answer_of(q.kind, q.scenario, q.pot)
True
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from cachetools import LRUCache, cached

from .engine import EngineError, Hand
from .engine.reading import BestHand, read
from .generate import GenerateError, generate
from .scenarios import Scenario, ScenarioError, load_document

#: What a speed question asks, and the generator topic whose spots it asks it about.
KINDS: dict[str, str] = {
    "to-call": "min-raise",
    "min-raise": "min-raise",
    "pot-limit": "pot-limit",
    "side-pot": "side-pots",
    "winner": "hand-reading",
}
ORDER = tuple(KINDS)  # easiest first: a run opens with the first two and adds one every two questions
LEVELS = (1, 2, 3)
# A run starts easy and climbs: a level every CLIMB questions (level 1: two to four players), and
# the kinds come in by turns (a side pot or a showdown read is not the first thing asked).
CLIMB = 4
# A streak (one miss ends it, lichess's Puzzle Streak): every generator level, a level every
# STREAK_CLIMB questions.
STREAK_LEVELS = (1, 2, 3, 4, 5)
STREAK_CLIMB = 3
# spots tried for one question before the next kind is tried; spot k of question n is
# generate(topic, level, seed, n * TRIES + k), so two questions never share a spot
TRIES = 8
MAX_SEED = 2**31 - 1
# A run's answers are whole chips or a seat; more digits than this is no amount at a table.
MAX_DIGITS = 12


class SpeedError(ValueError):
    """No question could be made for this seed and number (the generator found no spot)."""


@dataclass(frozen=True, kw_only=True)
class Question:
    """Question ``number`` of the run with ``seed``: what it asks, about which spot, and its answer."""

    seed: int
    number: int
    kind: str
    topic: str
    level: int
    index: int  # the generator's spot index: generate(topic, level, seed, index)
    scenario: Scenario
    pot: int  # the pot asked about (side-pot, winner): 0 is the main pot
    answer: str  # whole chips as digits ("1400"), or a seat ("BTN")
    choices: tuple[str, ...]  # the seats to tap for "winner"; empty for amounts
    why: dict  # the figures of the one-line derivation, by kind (see ``_why``)

    @property
    def ref(self) -> str:
        """The generated spot's reference (``trainer.web.spot_refs``)."""
        return f"gen:{self.topic}:{self.level}:{self.seed}:{self.index}"


def new_seed(rng: random.Random | None = None) -> int:
    return (rng or random.SystemRandom()).randint(0, MAX_SEED)


# A question holds its scenario (a few KB): the runs going on at once ask for a few hundred.
@cached(LRUCache(maxsize=512), lock=threading.Lock())
def question(seed: int, number: int) -> Question:
    """Question ``number`` of a run: the same (seed, number) always gives the same question."""
    return _made(seed, number, *climb(number), salt="speed")


@cached(LRUCache(maxsize=256), lock=threading.Lock())
def streak_question(seed: int, number: int) -> Question:
    """Question ``number`` of a streak (``streak_climb``): the same (seed, number), the same question.

    >>> streak_question(7, 0).level, streak_question(7, 14).level
    (1, 5)
    """
    return _made(seed, number, *streak_climb(number), salt="streak")


def _made(seed: int, number: int, level: int, kinds: tuple[str, ...], *, salt: str) -> Question:
    rng = random.Random(f"{salt}/{seed}/{number}")
    first = rng.randrange(len(kinds))
    # the kinds open so far from a drawn one on, then the others if none of those found a spot
    tried = [kinds[(first + shift) % len(kinds)] for shift in range(len(kinds))] + [k for k in ORDER if k not in kinds]
    for kind in tried:
        for k in range(TRIES):
            index = number * TRIES + k
            try:
                spot = generate(KINDS[kind], level=level, seed=seed, start=index)[0]
                scenario = load_document(spot.document, f"{spot.id}.yaml")
            except (GenerateError, ScenarioError):
                continue
            made = _ask(kind, scenario, rng)
            if made is not None:
                pot, answer, choices, why = made
                return Question(seed=seed, number=number, kind=kind, topic=KINDS[kind], level=level, index=index,
                                scenario=scenario, pot=pot, answer=answer, choices=choices, why=why)
    raise SpeedError(f"no speed question for seed {seed}, number {number}")


def climb(number: int) -> tuple[int, tuple[str, ...]]:
    """The level and the kinds question ``number`` of a run draws from: level 1 and the two
    easiest kinds at first, a level every ``CLIMB`` questions, a kind every two.

    >>> climb(0), climb(4)[0], climb(8)
    ((1, ('to-call', 'min-raise')), 2, (3, ('to-call', 'min-raise', 'pot-limit', 'side-pot', 'winner')))
    """
    level = LEVELS[min(number // CLIMB, len(LEVELS) - 1)]
    return level, ORDER[:min(2 + number // 2, len(ORDER))]


def streak_climb(number: int) -> tuple[int, tuple[str, ...]]:
    """A streak climbs the generator's five levels, one every ``STREAK_CLIMB`` questions, with the
    kinds coming in as in a run: no clock, so the spots get harder instead of faster.

    >>> [streak_climb(n)[0] for n in (0, 2, 3, 6, 9, 12, 40)]
    [1, 1, 2, 3, 4, 5, 5]
    """
    level = STREAK_LEVELS[min(number // STREAK_CLIMB, len(STREAK_LEVELS) - 1)]
    return level, ORDER[:min(2 + number // 2, len(ORDER))]


def answer_of(kind: str, scenario: Scenario, pot: int = 0) -> str:
    """The engine's answer to a ``kind`` question on ``scenario`` (for ``pot``)."""
    hand = scenario.played
    if kind == "to-call":
        return str(hand.options().call)
    if kind == "min-raise":
        return str(hand.options().raise_.min)
    if kind == "pot-limit":
        opts = hand.options()
        return str((opts.raise_ or opts.bet).max)
    if kind == "side-pot":
        return str(hand.result().pots[pot].amount)
    if kind == "winner":
        return _reading(scenario, hand).winners[pot][0]
    raise ValueError(f"unknown speed question kind {kind!r}")


def ask(kind: str, scenario: Scenario, *, rng: random.Random, pot: int | None = None):
    """(pot, answer, choices, derivation figures) if ``scenario`` asks ``kind`` cleanly, else None;
    ``pot``: the pot a side-pot or winner question asks about (else drawn with ``rng``). Any spot
    will do, a library's too: one whose betting is not over has no pots to ask about."""
    if kind in ("side-pot", "winner") and scenario.played.to_act is not None:
        return None
    try:
        return _ask(kind, scenario, rng, pot)
    except EngineError:  # betting not over (a spot that stops before the end of a street)
        return None


def _ask(kind: str, scenario: Scenario, rng: random.Random, chosen: int | None = None):
    """(pot, answer, choices, derivation figures) if the spot asks ``kind`` cleanly, else None.

    Clean: the number is the rule's, not a stack's (a call or raise all-in for
    less teaches something else), and the derivation's figures add up to it.
    """
    hand = scenario.played
    if kind in ("to-call", "min-raise", "pot-limit"):
        if hand.to_act is None:
            return None
        card, opts = hand.card(), hand.options()
        seat = next(s for s in hand.seats if s.position == hand.to_act)
        reach = seat.committed + seat.stack  # the most the player can have in on this street
        figures = {"pos": hand.to_act, "cur": card.current_total, "inc": card.last_full_increment,
                   "com": card.committed, "add": card.to_add}
        if kind == "to-call":
            if not card.to_add or opts.call != card.to_add or card.to_add >= seat.stack:
                return None
            return 0, str(opts.call), (), figures
        if kind == "min-raise":
            r = opts.raise_
            if r is None or r.min != card.current_total + card.last_full_increment or r.min >= reach:
                return None
            return 0, str(r.min), (), {**figures, "min": r.min}
        wager = opts.raise_ or opts.bet
        if wager is None or wager.max >= reach or wager.min == wager.max:
            return None
        high = wager.max
        pot_after = hand.pot + card.to_add
        if card.current_total == 0:
            if high != hand.pot:
                return None
            return 0, str(high), (), {**figures, "pot": hand.pot, "max": high}
        # R-POTLIMIT: call first, then raise the pot. The dealer's shortcut says the same:
        # max = current + (pot + to_add) = 3 × current + (pot − current − committed), the trail.
        if high != card.current_total + pot_after:
            return None  # a short-posted blind counts in full: not a spot for the one-line sum
        trail = high - 3 * card.current_total
        return 0, str(high), (), {**figures, "pot": hand.pot, "after": pot_after, "max": high, "trail": trail}
    if kind == "side-pot":
        pots = hand.result().pots
        if len(pots) < 2:
            return None
        number = rng.randrange(1, len(pots)) if chosen is None else chosen
        if not 1 <= number < len(pots):
            return None
        layer = _layer(hand, number)
        if layer is None or sum(c for _, c in layer) != pots[number].amount:
            return None
        return number, str(pots[number].amount), (), {"parts": layer, "amount": pots[number].amount}
    if kind == "winner":
        pots = hand.result().pots
        reading = _reading(scenario, hand)
        single = [i for i, (pot, won) in enumerate(zip(pots, reading.winners)) if len(won) == 1 and len(pot.eligible) > 1]
        if not single:
            return None
        number = rng.choice(single) if chosen is None else chosen
        if number not in single:
            return None
        winner = reading.winners[number][0]
        order = [s.position for s in hand.seats]
        eligible = tuple(p for p in order if p in pots[number].eligible)
        runner = max((p for p in eligible if p != winner), key=lambda p: reading.best_hands[p].score)
        return number, winner, eligible, {
            "winner": winner, "best": _shown(reading.best_hands[winner]),
            "runner": runner, "runner_best": _shown(reading.best_hands[runner]),
        }
    raise ValueError(f"unknown speed question kind {kind!r}")


def _reading(scenario: Scenario, hand: Hand):
    return read(hands=scenario.hands, board=scenario.board, pots=hand.result().pots,
                order=[s.position for s in hand.seats])


def _shown(best: BestHand) -> dict:
    return {"cards": list(best.cards), "category": best.category}


def _layer(hand: Hand, number: int) -> list[tuple[str, int]] | None:
    """What each seat put into pot ``number`` (a side pot): the slice of its chips between two all-in levels."""
    seats = hand.seats
    levels = sorted({s.total for s in seats if s.all_in and not s.folded})
    tops = sorted({*levels, max(s.total for s in seats if not s.folded)})
    if number >= len(tops):
        return None
    low, high = tops[number - 1], tops[number]
    parts = [(s.position, min(s.total, high) - min(s.total, low)) for s in seats]
    return [(pos, chips) for pos, chips in parts if chips > 0]


@dataclass(frozen=True, kw_only=True)
class Checked:
    """An answer read and compared: ``error`` (a message ID of the page) when it could not be read."""

    right: bool
    given: str
    error: str | None = None


def check(q: Question, typed: str) -> Checked:
    """Compare what was typed or tapped with the engine's answer.

    Amounts may be written with group separators ("1,400", "1 400", "1，400")
    and full-width digits; anything else is no answer, with the reason.
    """
    text = (typed or "").strip()
    if "\x00" in text or any(not c.isprintable() for c in text):
        return Checked(right=False, given="", error="control")
    if not text:
        return Checked(right=False, given="", error="empty")
    if q.choices:
        seat = text.upper()
        if seat not in q.choices:
            return Checked(right=False, given=text[:20], error="seat")
        return Checked(right=seat == q.answer, given=seat)
    digits = "".join(c for c in text if c not in ",， _'\u00a0\u202f")
    digits = digits.translate({ord(f): ord("0") + i for i, f in enumerate("０１２３４５６７８９")})
    if not (digits.isascii() and digits.isdigit()):
        return Checked(right=False, given=text[:20], error="number")
    if len(digits) > MAX_DIGITS:
        return Checked(right=False, given=text[:20], error="huge")
    value = int(digits)
    return Checked(right=str(value) == q.answer, given=str(value))
