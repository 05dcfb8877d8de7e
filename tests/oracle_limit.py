"""Differential testing of fixed limit against PokerKit 0.7.7's ``FixedLimitTexasHoldem``.

Seeded random fixed-limit hands (2-6 players, many short stacks, antes) are
played side by side in PokerKit and in our engine, as in ``tests/oracle.py``.
At every decision both must agree on whose turn it is and on the whole
``View``: ①, ③, ④, stack, pot, whether checking is allowed, the call amount,
whether a bet or raise is allowed and its amount (min and max raise-to are
the same number in fixed limit). At the end they must agree on the pots and
on the uncalled chips returned.

PokerKit's fixed-limit betting differs from R-LIMIT in ways RULES.md lists
under "Known differences" (fixed limit, classes (a)-(f)). A decision is
skipped only when the two sides differ there *and* the spot is one of those
classes, recognised from both states; it is counted by class. Any other
difference is a mismatch. After a skipped decision the hand goes on with a
move both sides accept (no raise where they disagree about raising).

Stacks always cover the blinds and antes plus at least one chip (a player
all-in for part of his ante is a separate piece of work on the engine).

Run the documented full check with ``python -m tests.oracle_limit --hands N --seed S``
(``--hand K`` replays one hand and prints its decisions).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from pokerkit import Automation, FixedLimitTexasHoldem, State

from tests.oracle import (
    ORACLE_AUTOMATIONS,
    RAISE_FIELDS,
    SEATS,
    STREETS,
    EngineSide,
    Mismatch,
    Move,
    PokerKitSide,
    Spec,
    View,
    _blind_of,
    _error,
    _random_stack,
    hand_rng,
    play_random_decisions as _play_until,
    view_differences,
)

GAME = "fixed-limit"


class Deviation(StrEnum):
    """RULES.md "Known differences", fixed limit: where PokerKit 0.7.7 departs from R-LIMIT."""

    POSTFLOP_CAP = "a-postflop-cap-at-four-bets"
    RAISE_OVER_SHORT_ALLIN = "b-raises-over-short-allin-instead-of-completing"
    SHORT_ALLIN_IN_CAP = "c-short-allin-counts-toward-cap"
    HALF_BET_NOT_REOPENED = "d-half-bet-allin-does-not-reopen"
    REOPENED_BY_SHORT_ALLIN = "e-limper-or-checker-raises-after-short-allin"
    LONE_PLAYER_CHECK = "f-lone-player-asked-to-check"


DEVIATION_TEXT = {
    Deviation.POSTFLOP_CAP: "postflop PokerKit caps at four bets in all; R-LIMIT allows a bet and four raises",
    Deviation.RAISE_OVER_SHORT_ALLIN: (
        "after an all-in under half a bet PokerKit raises to the all-in + one bet; "
        "R-LIMIT completes to the last full level + one bet"
    ),
    Deviation.SHORT_ALLIN_IN_CAP: "PokerKit counts an all-in under half a bet toward the cap; R-LIMIT does not",
    Deviation.HALF_BET_NOT_REOPENED: (
        "an all-in of at least half a bet reopens the betting (TDA24 47-B); PokerKit refuses the raise"
    ),
    Deviation.REOPENED_BY_SHORT_ALLIN: (
        "after an all-in under half a bet, a player who only checked or called faces less than half a bet: "
        "R-LIMIT allows call or fold, PokerKit a raise"
    ),
    Deviation.LONE_PLAYER_CHECK: (
        "only one player can still act and has matched everything: PokerKit asks for a check, "
        "our engine ends the betting"
    ),
}

# PokerKit's reasons for refusing a raise (ValueError texts of 0.7.7).
PK_CAPPED = "No more completion, betting, or raising is permitted."
PK_SHORT_ALLIN = ("Short all-in cannot be raised.", "cannot raise in face of a non-full all-in wager")


# ---------------------------------------------------------------------------
# PokerKit's fixed-limit game


@dataclass(frozen=True, kw_only=True)
class LimitConfig:
    """PokerKit's description of a fixed-limit hand: small bet = BB, big bet = 2 BB."""

    ante_trimming: bool
    antes: int | dict[int, int]
    blinds: tuple[int, int]
    small_bet: int
    big_bet: int
    stacks: tuple[int, ...]

    @classmethod
    def from_spec(cls, spec: Spec) -> LimitConfig:
        # PokerKit's big-blind ante is "player 1's ante" (see tests/oracle.py).
        antes: int | dict[int, int] = {1: spec.bb_ante} if spec.bb_ante else spec.ante
        return cls(
            ante_trimming=not spec.bb_ante,
            antes=antes,
            blinds=spec.blinds,
            small_bet=spec.blinds[1],
            big_bet=2 * spec.blinds[1],
            stacks=spec.stacks,
        )

    def state(self, automations: tuple[Automation, ...]) -> State:
        return FixedLimitTexasHoldem.create_state(
            automations,
            self.ante_trimming,
            self.antes,
            self.blinds,
            self.small_bet,
            self.big_bet,
            self.stacks,
            len(self.stacks),
        )


# ---------------------------------------------------------------------------
# Results


@dataclass
class LimitSummary:
    hands: int = 0
    decisions: int = 0
    skipped: Counter[str] = field(default_factory=Counter)  # decisions, by deviation
    short_allins: Counter[str] = field(default_factory=Counter)  # under half a bet, by street
    half_allins: Counter[str] = field(default_factory=Counter)  # at least half a bet, short of a full one
    capped: Counter[str] = field(default_factory=Counter)  # decisions where our cap was reached
    after_half_allin: int = 0  # (e) spots where an all-in of half a bet or more followed the short one
    mismatches: list[Mismatch] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, other: LimitSummary) -> None:
        self.hands += other.hands
        self.decisions += other.decisions
        self.skipped.update(other.skipped)
        self.short_allins.update(other.short_allins)
        self.half_allins.update(other.half_allins)
        self.capped.update(other.capped)
        self.after_half_allin += other.after_half_allin
        self.mismatches.extend(other.mismatches)
        self.seconds += other.seconds

    def report(self, title: str) -> str:
        def by_street(counts: Counter[str]) -> str:
            return ", ".join(f"{s} {counts[s]}" for s in STREETS)

        lines = [
            f"== {title}",
            f"hands compared: {self.hands}",
            f"decision points compared: {self.decisions}",
            "all-ins under half a bet played: " + by_street(self.short_allins),
            "all-ins of half a bet or more, short of a full bet, played: " + by_street(self.half_allins),
            "decisions at the cap (no raise, R-LIMIT): " + by_street(self.capped),
            f"mismatches: {len(self.mismatches)}",
            *(f"  {m}" for m in self.mismatches[:20]),
        ]
        if len(self.mismatches) > 20:
            lines.append(f"  ... and {len(self.mismatches) - 20} more")
        lines.append(f"decisions skipped, known differences (RULES.md, fixed limit): {sum(self.skipped.values())}")
        lines += [f"  {d}: {self.skipped.get(d, 0)}  -- {DEVIATION_TEXT[d]}" for d in Deviation]
        lines.append(
            f"    of (e), {self.after_half_allin} where an all-in of half a bet or more came after the short one "
            "and still left this player facing less than half a bet"
        )
        lines.append(f"time: {self.seconds:.1f} s")
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# One hand on both sides


class LimitDuel:
    """One fixed-limit hand played in PokerKit and in our engine at the same time."""

    def __init__(self, spec: Spec, source: str, config: LimitConfig | None = None) -> None:
        self.spec = spec
        self.source = source
        self.summary = LimitSummary(hands=1)
        self.moves: list[Move] = []
        self.pk = PokerKitSide(config or LimitConfig.from_spec(spec), spec.seats)
        self.ours = EngineSide(spec)

    def decision(self) -> View | None:
        """Compare the current decision. Returns what the next move may be
        chosen from (our view, without a raise where the two sides disagree
        about it), or None when betting is over or the hand stopped on a
        mismatch."""
        theirs, ours = self.pk.view(), self.ours.view()
        if ours is None and theirs is not None and self._lone_player_check(theirs):
            self.summary.skipped[Deviation.LONE_PLAYER_CHECK] += 1
            self.pk.apply(Move(position=theirs.to_act, kind="check"))
            return self.decision()
        differences = view_differences(ours, theirs, frozenset())
        if differences and {name for name, _, _ in differences} <= RAISE_FIELDS:
            deviation = self.classify(ours, theirs)
            if deviation is not None:
                self.summary.skipped[deviation] += 1
                self.summary.decisions += 1
                return dataclasses.replace(ours, raise_kind=None, min_to=None, max_to=None)
        if self._record(differences) or ours is None:
            return None
        self.summary.decisions += 1
        if ours.raise_kind is None and "opt.limit_capped" in self._our_reasons():
            self.summary.capped[ours.street] += 1
        return ours

    def play(self, move: Move) -> bool:
        """Apply a move on both sides; False if they disagree about it."""
        self.moves.append(move)
        ours_error, theirs_error = _error(self.ours.apply, move), _error(self.pk.apply, move)
        if ours_error or theirs_error:
            return not self._record([("legal", ours_error or "accepted", theirs_error or "accepted")])
        last = self.ours.hand.history[-1]
        if last.kind in ("bet", "raise") and last.all_in:
            size = self.ours.hand.game.bet_size(last.street)
            if not last.full:
                self.summary.short_allins[str(last.street)] += 1
            elif last.to - self._level_before(len(self.ours.hand.history) - 1) < size:
                self.summary.half_allins[str(last.street)] += 1
        return True

    def finish(self) -> None:
        ours, theirs = self.ours.result(), self.pk.result()
        self._record([(name, getattr(ours, name), getattr(theirs, name))
                      for name in ("pots", "returned") if getattr(ours, name) != getattr(theirs, name)])

    # -- recognising the known differences

    def classify(self, ours: View, theirs: View) -> Deviation | None:
        """Which known difference explains a disagreement about raising, if any."""
        hand = self.ours.hand
        size = hand.game.bet_size(hand.street)
        wagers = self._street_wagers()
        shorts = [e for e in wagers if not e.full]
        if ours.raise_kind is not None and theirs.raise_kind is None:
            refusal = self._pokerkit_refusal()
            if refusal == PK_CAPPED:
                if ours.street != "preflop" and len(wagers) == 4 and not shorts:
                    return Deviation.POSTFLOP_CAP
                if shorts and len(wagers) == self.pk.state.completion_betting_or_raising_count:
                    return Deviation.SHORT_ALLIN_IN_CAP
                return None
            if (
                refusal is not None
                and any(text in refusal for text in PK_SHORT_ALLIN)
                and ours.to_add < size <= 2 * ours.to_add
                and "opt.limit_reopened" in self._our_reasons()
            ):
                return Deviation.HALF_BET_NOT_REOPENED
            return None
        if ours.raise_kind is None and theirs.raise_kind is not None:
            mine = [e for e in hand.history if e.street is hand.street and e.position == ours.to_act
                    and e.kind in ("check", "call", "bet", "raise")]
            if (
                mine and mine[-1].kind in ("check", "call")
                and 0 < 2 * ours.to_add < size
                and shorts
                and "opt.limit_not_reopened" in self._our_reasons()
            ):
                if wagers[-1].full:
                    # PokerKit measures the later all-in from the short one, so it
                    # reopens; we measure what this player faces (R-LIMIT, 47-B)
                    self.summary.after_half_allin += 1
                return Deviation.REOPENED_BY_SHORT_ALLIN
            return None
        if ours.raise_kind is not None and theirs.raise_kind is not None:
            all_in_to = ours.committed + ours.stack
            top = wagers[-1] if wagers else None
            if (
                top is not None and top.all_in and not top.full
                and ours.min_to == ours.max_to and theirs.min_to == theirs.max_to
                and theirs.min_to == min(all_in_to, ours.current_total + size)
                and ours.min_to < theirs.min_to
            ):
                return Deviation.RAISE_OVER_SHORT_ALLIN
        return None

    def _lone_player_check(self, theirs: View) -> bool:
        s = self.pk.state
        can_act = [i for i in range(len(s.stacks)) if s.statuses[i] and s.stacks[i]]
        return theirs.check and theirs.raise_kind is None and can_act == [s.actor_index]

    def _pokerkit_refusal(self) -> str | None:
        try:
            self.pk.state.verify_completion_betting_or_raising_to()
        except ValueError as e:
            return str(e)
        return None

    def _our_reasons(self) -> set[str]:
        return {step.message.id for step in self.ours.hand.derivation() if step.message is not None}

    def _street_wagers(self):
        hand = self.ours.hand
        return [e for e in hand.history if e.street is hand.street and e.kind in ("bet", "raise")]

    def _level_before(self, index: int) -> int:
        """The last full level on the street before history[index] (0 postflop,
        the big blind preflop: stacks always cover it)."""
        history = self.ours.hand.history
        street = history[index].street
        levels = [e.to for e in history[:index] if e.street is street
                  and (e.kind == "big-blind" or (e.kind in ("bet", "raise") and e.full))]
        return max(levels, default=0)

    def _record(self, differences) -> bool:
        for name, ours, theirs in differences:
            self.summary.mismatches.append(Mismatch(
                source=self.source, spec=self.spec.describe(), moves=tuple(map(str, self.moves)),
                field=name, ours=ours, pokerkit=theirs,
            ))
        return bool(differences)


def play_hand(spec: Spec, source: str, choose: Callable[[View], Move]) -> LimitSummary:
    duel = LimitDuel(spec, source)
    while (view := duel.decision()) is not None:
        if not duel.play(choose(view)):
            return duel.summary
    if not duel.summary.mismatches:
        duel.finish()
    return duel.summary


# ---------------------------------------------------------------------------
# Random hands

# (small blind, big blind); the bets are BB and 2 BB. Odd big blinds make
# "half a bet" fall between chips.
BLIND_LEVELS = ((1, 2), (2, 5), (5, 10), (10, 20), (25, 50), (50, 100), (3, 5), (15, 30), (10, 10))
# PokerKit picks the heads-up opener by the larger blind (tests/oracle.py).
HEADS_UP_BLIND_LEVELS = tuple(level for level in BLIND_LEVELS if level[0] < level[1])


def random_spec(rng: random.Random) -> Spec:
    players = rng.choice((2, 2, 3, 4, 4, 5, 6, 6))
    sb, bb = rng.choice(BLIND_LEVELS if players > 2 else HEADS_UP_BLIND_LEVELS)
    ante = bb_ante = 0
    forced = rng.random()
    if forced < 0.25:
        ante = max(1, bb // rng.choice((10, 5, 4, 2)))
    elif forced < 0.35:
        bb_ante = bb
    seats = SEATS[players]
    unit = rng.choice((1, 1, sb, bb))
    stacks = tuple(
        _random_stack(rng, bb, unit, floor=ante + _blind_of(seat, seats, sb, bb) + (bb_ante if seat == "BB" else 0))
        for seat in seats
    )
    return Spec(game_type=GAME, blinds=(sb, bb), stacks=stacks, ante=ante, bb_ante=bb_ante)


def random_chooser(rng: random.Random) -> Callable[[View], Move]:
    """Aggressive enough that caps and short all-ins are common."""
    aggression = rng.choice((0.2, 0.35, 0.5, 0.65))

    def choose(view: View) -> Move:
        who = view.to_act
        r = rng.random()
        if view.min_to is not None and r < aggression:
            return Move(position=who, kind="raise", to=view.min_to)
        if view.check:
            return Move(position=who, kind="check")
        return Move(position=who, kind="fold" if r > 0.85 else "call")

    return choose


def play_random(hands: int, seed: int, first: int = 0) -> LimitSummary:
    summary = LimitSummary()
    start = time.perf_counter()
    for number in range(first, first + hands):
        rng = hand_rng(seed, number)
        summary.add(play_hand(random_spec(rng), f"seed {seed} hand {number}", random_chooser(rng)))
    summary.seconds = time.perf_counter() - start
    return summary


def play_random_decisions(decisions: int, seed: int) -> LimitSummary:
    """Play random hands until at least ``decisions`` decisions were compared."""
    return _play_until(decisions, seed, play=play_random)


# ---------------------------------------------------------------------------
# Command line


def show_hand(seed: int, number: int) -> None:
    rng = hand_rng(seed, number)
    spec = random_spec(rng)
    print(spec.describe())
    choose = random_chooser(rng)

    def traced(view: View) -> Move:
        move = choose(view)
        print(f"  {view}\n    -> {move}")
        return move

    print(play_hand(spec, f"seed {seed} hand {number}", traced).report(f"seed {seed} hand {number}"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.oracle_limit", description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="random hands to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hand", type=int, help="replay one random hand verbosely")
    args = parser.parse_args(argv)
    if args.hand is not None:
        show_hand(args.seed, args.hand)
        return 0
    summary = play_random(args.hands, args.seed)
    print(summary.report(f"random fixed-limit hands (seed {args.seed})"))
    return 1 if summary.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
