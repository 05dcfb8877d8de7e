"""Quick questions for a live class: one thing about a spot, answered with one tap.

A spot of the library is asked one thing the engine can answer: the speed
drill's kinds (how much to call, the minimum raise-to, the pot-limit
maximum, a side pot's size, who wins a pot; ``trainer.speed.ask``) and three
of its own, "may the player to act re-raise?" (R-REOPEN), "who shows
first?" (R-SHOWDOWN) and "call, or must they raise to 1,700?" (the player
states a total short of a full raise; R-HALF, ruled by
``trainer.engine.rulings.rule``). Which kind a spot is asked is chosen once, when the
session is made, and kept with it (``choose``); the question, its choices and
its answer are made from the spot again whenever they are needed
(``make``), never written down.

An amount is one of four to tap: the engine's and three that a common slip
gives (the current total instead of what is left to add, double the bet
instead of the last full increment, the pot without the call...), topped up
with neighbours a chip unit away, in increasing order with the right one at
a drawn place. A seat or yes/no is one of the seats in the pot, or yes and no.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from cachetools import LRUCache, cached

from . import speed
from .engine import EngineError
from .engine.rulings import Declaration, rule
from .scenarios import Scenario

AMOUNT_KINDS = ("to-call", "min-raise", "pot-limit", "side-pot")
KINDS = (*speed.ORDER, "can-raise", "shows-first", "call-or-raise")
# Asked only where a spot's topic teaches them ("yes" to most spots; a half raise is the rulings'
# topic): drawing them for any spot would also change what the sessions made before them ask.
TOPIC_ONLY = ("can-raise", "call-or-raise")
# How far into a full raise the stated total goes: under half is a call, half or more a full raise.
SHARES = (0.25, 0.4, 0.5, 0.6, 0.75)
# A spot's first topic says what it teaches: ask that first. Other clean kinds follow.
BY_TOPIC: dict[str, tuple[str, ...]] = {
    "min-raise": ("min-raise", "to-call"),
    "reopening": ("can-raise", "to-call"),
    "short-all-in": ("can-raise", "min-raise", "to-call"),
    "pot-limit": ("pot-limit",),
    "side-pots": ("side-pot", "winner"),
    "showdown": ("shows-first", "winner"),
    "hand-reading": ("winner",),
    "chips-and-words": ("call-or-raise", "to-call"),
}
CHOICES = 4  # amounts to tap


@dataclass(frozen=True, kw_only=True)
class Quick:
    """One quick question: what it asks (``kind``, about ``pot``), the engine's answer and what to tap."""

    kind: str
    pot: int
    answer: str  # whole chips as digits, a seat, or "yes"/"no"
    choices: tuple[str, ...]  # in the order shown
    why: dict  # the figures of the derivation (``trainer.speed``'s, and "can"/"min" or "first")

    @property
    def amounts(self) -> bool:
        return self.kind in AMOUNT_KINDS

    def check(self, tapped: str) -> bool | None:
        """Whether ``tapped`` is the answer; None when it is not one of the choices."""
        tapped = (tapped or "").strip()
        if tapped not in self.choices:
            return None
        return tapped == self.answer


def choose(scenario: Scenario, topics: tuple[str, ...], *, seed: str) -> tuple[str, int] | None:
    """(kind, pot) to ask about ``scenario``: its first topic's kinds first, then any clean one; None
    when the spot asks none of them cleanly (a full-card spot only)."""
    first = [k for t in topics[:1] for k in BY_TOPIC.get(t, ())]
    rest = [k for k in KINDS if k not in first and k not in TOPIC_ONLY]
    random.Random(seed).shuffle(rest)
    for kind in (*first, *rest):
        made = _asked(kind, scenario, random.Random(f"{seed}/{kind}"), None)
        if made is not None:
            return kind, made[0]
    return None


# Made again for every answer and every view of a question: a class asks the same few at once.
@cached(LRUCache(maxsize=1024), key=lambda ref, scenario, kind, pot: (ref, kind, pot), lock=threading.Lock())
def make(ref: str, scenario: Scenario, kind: str, pot: int) -> Quick | None:
    """The quick question ``kind`` (about ``pot``) on the spot ``ref`` (``scenario``), or None if
    the spot no longer asks it (the library changed under a session)."""
    made = _asked(kind, scenario, random.Random(f"quick/{ref}/{kind}"), pot)
    if made is None:
        return None
    pot, answer, choices, why = made
    if kind in AMOUNT_KINDS:
        choices = amounts(int(answer), _slips(kind, why), random.Random(f"quick/{ref}/{kind}/{pot}"))
    return Quick(kind=kind, pot=pot, answer=answer, choices=tuple(choices), why=why)


def _asked(kind: str, scenario: Scenario, rng: random.Random, pot: int | None):
    if kind in speed.KINDS:
        return speed.ask(kind, scenario, rng=rng, pot=pot)
    hand = scenario.played
    if kind == "can-raise":
        card, opts = hand.card(), hand.options()
        if card is None or not card.to_add or opts.call != card.to_add:
            return None
        seat = next(s for s in hand.seats if s.position == hand.to_act)
        if seat.stack <= card.to_add:
            return None  # all-in to call: no raise for want of chips, not of a reopened betting
        if opts.raise_ is None:
            if not card.acted:
                return None  # a cap of a limit game, say: not the reopening rule
            return 0, "no", ("yes", "no"), {"pos": hand.to_act, "can": False, "cur": card.current_total}
        return 0, "yes", ("yes", "no"), {"pos": hand.to_act, "can": True, "min": opts.raise_.min,
                                         "cur": card.current_total}
    if kind == "shows-first":
        if hand.to_act is not None:
            return None
        try:
            showdown = hand.result().showdown
        except EngineError:
            return None
        if showdown is None or showdown.all_tabled or showdown.first is None:
            return None
        live = tuple(s.position for s in hand.seats if not s.folded)
        return 0, showdown.first, live, {"first": showdown.first}
    if kind == "call-or-raise":
        return _call_or_raise(scenario, hand, rng)
    raise ValueError(f"unknown quick question kind {kind!r}")


def _call_or_raise(scenario: Scenario, hand, rng: random.Random):
    """The player to act, facing a bet, states a total between it and a full raise: the engine rules
    it a call (under half the last full increment) or a full raise to the minimum (half or more)."""
    card, opts = hand.card(), hand.options()
    if card is None or not card.to_add or opts.call != card.to_add or opts.raise_ is None:
        return None
    seat = next(s for s in hand.seats if s.position == hand.to_act)
    full = opts.raise_.min - card.current_total
    unit = max(int(scenario.game.blinds[0]), int(getattr(scenario, "chip", 1) or 1))
    if full < 2 * unit or seat.stack <= opts.raise_.min - card.committed:
        return None  # no room for an amount short of a full raise, or the raise would be all-in
    over = min(max(round(full * rng.choice(SHARES) / unit) * unit, unit), full - unit)
    said = card.current_total + over
    try:
        ruled = rule(hand, Declaration(said=str(said)))
    except EngineError:
        return None
    if ruled.action not in ("call", "raise"):
        return None
    return 0, ruled.action, ("call", "raise"), {
        "pos": hand.to_act, "said": said, "cur": card.current_total, "over": over, "full": full,
        "min": opts.raise_.min,
    }


def _slips(kind: str, why: dict) -> set[int]:
    """Amounts a common slip gives instead of the rule's."""
    cur, inc, com, add = (why.get(k, 0) for k in ("cur", "inc", "com", "add"))
    if kind == "to-call":
        return {cur, cur + com, add + inc, cur + inc}
    if kind == "min-raise":
        return {2 * cur, cur + add, cur + inc + com, 2 * cur + inc}
    if kind == "pot-limit":
        pot = why.get("pot", 0)
        return {pot, why.get("after", 0), pot + cur, 3 * cur, pot + 2 * cur}
    parts = [chips for _pos, chips in why.get("parts", ())]
    amount = why.get("amount", 0)
    return {amount - min(parts, default=0), amount + min(parts, default=0), amount + max(parts, default=0)}


def amounts(right: int, slips: set[int], rng: random.Random, n: int = CHOICES) -> list[int | str]:
    """``n`` amounts in increasing order, ``right`` among them at a drawn place, the others slips
    where there are some on that side, else neighbours a round step away.

    >>> amounts(400, {200, 600, 300}, random.Random(1))
    ['300', '400', '500', '600']
    """
    step = _step(right)
    wanted_below = rng.randrange(n)
    below = sorted({m for m in slips if 0 < m < right}, reverse=True)
    above = sorted({m for m in slips if m > right})
    for k in range(1, n):
        below += [right - k * step] if right - k * step > 0 and right - k * step not in below else []
        above += [right + k * step] if right + k * step not in above else []
    take_below = min(wanted_below, len(below))
    chosen = below[:take_below] + above[: n - 1 - take_below]
    return [str(v) for v in sorted({right, *chosen})]


def _step(value: int) -> int:
    """A round step near a quarter of ``value``: 1, 2, 5, 10, 20, 50..."""
    target = max(1, value // 4)
    step = 1
    while True:
        for m in (1, 2, 5):
            if step * m >= target:
                return step * m
        step *= 10
