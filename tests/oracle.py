"""Differential testing of the engine against PokerKit 0.7.7, the test oracle.

Each hand is played side by side in PokerKit and in our engine. At every
decision the two must agree on whose turn it is and on the numbers a
learner reads: current total (①), committed (③), to add (④), stack, pot,
call amount, whether checking and betting/raising are allowed, and the
minimum and maximum raise-to. After the hand they must agree on the pots
(amounts and eligible players) and on the uncalled chips returned.

PokerKit is a test dependency only; the engine never imports it. The spots
where RULES.md ("Known differences from PokerKit 0.7.7") says PokerKit is
wrong are recognised explicitly and counted as skips by reason; anything
else that differs is a mismatch.

Two sources of hands:

- seeded random no-limit and pot-limit hands (``play_random``), 2-10
  players, many short stacks so that short all-ins are common, players
  who cannot pay the whole ante, and heads-up big blinds all-in for no
  more than the button's small blind (nobody left to play against);
- real hands in the PHH format (``replay_phh_dir``), replayed action by
  action as written.

Run the documented full check with ``python -m tests.oracle --hands N --seed S``
(``--hand K`` replays one random hand and prints its decisions).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields
from enum import StrEnum
from pathlib import Path

from pokerkit import Automation, NoLimitTexasHoldem, PotLimitPokerMixin, State
from pokerkit.notation import parse_action

from trainer.engine import (
    POSITIONS,
    Action,
    ActionKind,
    Game,
    GameType,
    Hand,
    IllegalActionError,
)
from trainer.importer.model import HandError
from trainer.importer.phh import read_phh
from trainer.playout import TABLES

# Seat order of the usual position sets by table size; PokerKit numbers its
# players in this order. Heads-up its player 0 posts the big blind (it
# reverses the forced bets) and player 1, the button, the small blind.
SEATS: dict[int, tuple[str, ...]] = {
    n: tuple(sorted(table, key=POSITIONS.index)) for n, table in TABLES.items()
}
STREETS = ("preflop", "flop", "turn", "river")

# Everything up to the showdown happens by itself, except bet collection:
# bets are collected by hand so that the chips PokerKit returns can be seen.
# The hand stops before the showdown (pushing chips would empty the pots).
ORACLE_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
)
# Enough to reach every decision (the benchmark).
BETTING_AUTOMATIONS = ORACLE_AUTOMATIONS + (Automation.BET_COLLECTION,)


class PotLimitTexasHoldem(PotLimitPokerMixin, NoLimitTexasHoldem):
    """PokerKit 0.7.7 has no pot-limit Texas hold'em class; the betting
    structure is a mixin, so this is the no-limit game with pot-limit betting."""


# ---------------------------------------------------------------------------
# Hands, moves and what a decision looks like


@dataclass(frozen=True, kw_only=True)
class Spec:
    """A hand before any action: the game and the stacks in seat order."""

    game_type: str  # "no-limit" | "pot-limit"
    blinds: tuple[int, int]
    stacks: tuple[int, ...]
    ante: int = 0
    bb_ante: int = 0
    straddles: tuple[int, ...] = ()

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS[len(self.stacks)]

    def describe(self) -> str:
        forced = f"blinds {self.blinds[0]}/{self.blinds[1]}"
        if self.ante:
            forced += f", ante {self.ante}"
        if self.bb_ante:
            forced += f", big-blind ante {self.bb_ante}"
        if self.straddles:
            forced += f", straddles {list(self.straddles)}"
        stacks = ", ".join(f"{p} {s}" for p, s in zip(self.seats, self.stacks))
        return f"{self.game_type}, {forced}; stacks {stacks}"


@dataclass(frozen=True, kw_only=True)
class Move:
    """One voluntary action; ``to`` is the street total of a bet or raise."""

    position: str
    kind: str  # fold | check | call | raise (a bet is a raise from 0)
    to: int | None = None

    def __str__(self) -> str:
        return f"{self.position} {self.kind}" + ("" if self.to is None else f" {self.to}")


@dataclass(frozen=True, kw_only=True)
class View:
    """What both sides must agree on at a decision."""

    street: str
    to_act: str
    current_total: int
    committed: int
    to_add: int
    stack: int
    pot: int
    check: bool
    call: int | None
    raise_kind: str | None  # "bet" or "raise" when allowed
    min_to: int | None
    max_to: int | None


RAISE_FIELDS = frozenset({"raise_kind", "min_to", "max_to"})


@dataclass(frozen=True, kw_only=True)
class Outcome:
    pots: tuple[tuple[int, tuple[str, ...]], ...]
    returned: tuple[tuple[str, int], ...]


def outcome(pots: Iterable[tuple[int, Iterable[str]]], returned: dict[str, int]) -> Outcome:
    return Outcome(
        pots=tuple((amount, tuple(sorted(who))) for amount, who in pots),
        returned=tuple(sorted((p, n) for p, n in returned.items() if n)),
    )


# ---------------------------------------------------------------------------
# PokerKit's side


@dataclass(frozen=True, kw_only=True)
class PokerKitConfig:
    """PokerKit's own description of a hand (what a PHH file says)."""

    pot_limit: bool
    ante_trimming: bool
    antes: tuple[int, ...] | int | dict[int, int]
    blinds_or_straddles: tuple[int, ...]
    min_bet: int
    stacks: tuple[int, ...]

    @classmethod
    def from_spec(cls, spec: Spec) -> PokerKitConfig:
        if spec.bb_ante:
            # PokerKit's big-blind ante is "player 1's ante"; heads-up it is
            # paid by player 0, who is the big blind there.
            antes: tuple[int, ...] | int | dict[int, int] = {1: spec.bb_ante}
        else:
            antes = spec.ante
        return cls(
            pot_limit=spec.game_type == "pot-limit",
            ante_trimming=not spec.bb_ante,
            antes=antes,
            blinds_or_straddles=spec.blinds + spec.straddles,
            min_bet=spec.blinds[1],
            stacks=spec.stacks,
        )

    def state(self, automations: tuple[Automation, ...]) -> State:
        game = PotLimitTexasHoldem if self.pot_limit else NoLimitTexasHoldem
        return game.create_state(
            automations,
            self.ante_trimming,
            self.antes,
            self.blinds_or_straddles,
            self.min_bet,
            self.stacks,
            len(self.stacks),
        )


class PokerKitSide:
    """A PokerKit state seen through our vocabulary."""

    def __init__(self, config: PokerKitConfig, seats: tuple[str, ...]) -> None:
        self.seats = seats
        self.state = config.state(ORACLE_AUTOMATIONS)
        self.returned: Counter[str] = Counter()
        self._folded_result: Outcome | None = None
        self._collect()

    def view(self) -> View | None:
        s = self.state
        i = s.actor_index
        if i is None:
            return None
        current = max(s.bets)
        can_raise = s.can_complete_bet_or_raise_to()
        return View(
            street=STREETS[s.street_index],
            to_act=self.seats[i],
            current_total=current,
            committed=s.bets[i],
            to_add=current - s.bets[i],
            stack=s.stacks[i],
            pot=s.total_pot_amount,
            check=s.checking_or_calling_amount == 0,
            call=s.checking_or_calling_amount or None,
            raise_kind=("raise" if current else "bet") if can_raise else None,
            min_to=s.min_completion_betting_or_raising_to_amount if can_raise else None,
            max_to=s.max_completion_betting_or_raising_to_amount if can_raise else None,
        )

    def apply(self, move: Move) -> None:
        s = self.state
        if move.kind == "fold":
            s.fold()
        elif move.kind in ("check", "call"):
            s.check_or_call()
        else:
            s.complete_bet_or_raise_to(move.to)
        self._collect()

    def apply_notation(self, line: str) -> None:
        parse_action(self.state, line)
        self._collect()

    def result(self) -> Outcome:
        if self._folded_result is not None:
            return self._folded_result
        pots = ((pot.amount, (self.seats[i] for i in pot.player_indices)) for pot in self.state.pots)
        return outcome(pots, self.returned)

    def _collect(self) -> None:
        s = self.state
        while s.can_collect_bets():
            before = list(s.bets)
            if sum(s.statuses) == 1:
                self._collect_folded(before)
            else:
                collected = s.collect_bets().bets
                for i, (bet, kept) in enumerate(zip(before, collected)):
                    self.returned[self.seats[i]] += bet - kept

    def _collect_folded(self, bets: list[int]) -> None:
        # When everyone else folds PokerKit hands the whole outstanding bet
        # back to the winner without splitting it into called and uncalled
        # parts; the uncalled part is what exceeds every other bet.
        s = self.state
        winner = s.statuses.index(True)
        uncalled = bets[winner] - max(b for i, b in enumerate(bets) if i != winner)
        self.returned[self.seats[winner]] += max(0, uncalled)
        pot = s.total_pot_amount - max(0, uncalled)
        self._folded_result = outcome([(pot, [self.seats[winner]])], self.returned)
        s.collect_bets()

    def full_increment(self) -> int:
        """PokerKit's idea of ②: the largest increment so far this street,
        never below the minimum bet."""
        s = self.state
        return max(s.completion_betting_or_raising_amount, s.street.min_completion_betting_or_raising_amount)


# ---------------------------------------------------------------------------
# Our engine's side


class EngineSide:
    def __init__(self, spec: Spec) -> None:
        game = Game(
            type=GameType(spec.game_type),
            blinds=spec.blinds,
            ante=spec.ante,
            bb_ante=spec.bb_ante,
            straddles=spec.straddles,
        )
        self.hand = Hand(game=game, stacks=dict(zip(spec.seats, spec.stacks)))

    def view(self) -> View | None:
        h = self.hand
        if h.to_act is None:
            return None
        card, opts = h.card(), h.options()
        seat = next(s for s in h.seats if s.position == h.to_act)
        bet_range = opts.bet or opts.raise_
        return View(
            street=str(h.street),
            to_act=h.to_act,
            current_total=card.current_total,
            committed=card.committed,
            to_add=card.to_add,
            stack=seat.stack,
            pot=h.pot,
            check=opts.check,
            call=opts.call,
            raise_kind=None if bet_range is None else ("bet" if opts.bet else "raise"),
            min_to=None if bet_range is None else bet_range.min,
            max_to=None if bet_range is None else bet_range.max,
        )

    def apply(self, move: Move) -> None:
        self.hand.apply(self.action(move))

    def action(self, move: Move) -> Action:
        if move.kind != "raise":
            return Action(position=move.position, kind=ActionKind(move.kind))
        kind = ActionKind.RAISE if self.hand.card().current_total else ActionKind.BET
        return Action(position=move.position, kind=kind, amount=move.to)

    def result(self) -> Outcome:
        r = self.hand.result()
        return outcome(((p.amount, p.eligible) for p in r.pots), r.returned)


# ---------------------------------------------------------------------------
# Known differences (RULES.md) and what to exempt


class HandKind(StrEnum):
    """Set-ups the harness makes sure it compares (counted in the summary)."""

    SHORT_ANTE = "a player short of the ante"
    COVERED_SHORT_BLIND = "a heads-up big blind all-in for no more than the small blind"
    TEN_HANDED = "10 players"


def hand_kinds(spec: Spec) -> list[HandKind]:
    kinds = []
    if spec.ante and min(spec.stacks) <= spec.ante:
        kinds.append(HandKind.SHORT_ANTE)
    bb_stack = spec.stacks[spec.seats.index("BB")]
    if bb_stack - spec.ante < spec.blinds[1] and _short_blind_covered(spec):
        kinds.append(HandKind.COVERED_SHORT_BLIND)
    if len(spec.seats) == 10:
        kinds.append(HandKind.TEN_HANDED)
    return kinds


class Reason(StrEnum):
    PREFLOP_SHORT_ALLIN = "1-preflop-short-allin-reopens"
    SHORT_BIG_BLIND = "2-short-allin-big-blind"
    BBA_ORDER = "3-bba-posting-order"
    FIXED_LIMIT = "4-fixed-limit"
    STRADDLE = "5-straddle"
    SUB_MINIMUM_OPENING_BET = "6-allin-first-bet-below-minimum"
    # Not (yet) in RULES.md: PokerKit behaviour found by this harness.
    ORACLE_SHORT_ALLIN_SUM = "pokerkit-short-allin-sum-reset"
    ORACLE_FORCED_CHECK = "pokerkit-forced-check"


REASON_TEXT = {
    Reason.PREFLOP_SHORT_ALLIN: (
        "preflop, the first raise was a short all-in: PokerKit treats it as full and lets "
        "players who already acted raise (TDA24 47 Ex 3, R-REOPEN)"
    ),
    Reason.SHORT_BIG_BLIND: "a short all-in big blind lowers PokerKit's price (R-SHORTBLIND)",
    Reason.BBA_ORDER: "big-blind ante the big blind cannot cover: PokerKit posts the ante first (R-ANTE)",
    Reason.FIXED_LIMIT: "fixed-limit short all-ins and caps (R-LIMIT)",
    Reason.STRADDLE: "straddles: PokerKit's min_bet sets both straddle and postflop minimum (R-STRADDLE)",
    Reason.SUB_MINIMUM_OPENING_BET: (
        "the first bet of the street was an all-in below the minimum bet: PokerKit lets players "
        "who acted raise (TDA24 47-A, R-REOPEN)"
    ),
    Reason.ORACLE_SHORT_ALLIN_SUM: (
        "NOT IN RULES.md: after consecutive short all-ins that add up to a full raise, a further "
        "short all-in makes PokerKit forbid a raise to a player who acted although they face at "
        "least a full raise (R-REOPEN: decide player by player)"
    ),
    Reason.ORACLE_FORCED_CHECK: (
        "NOT IN RULES.md's known differences: preflop, the big blind has matched and everyone "
        "else is all-in or folded: PokerKit asks the big blind to check (no raise is possible, "
        "R-NOOPPONENT); R-ROUNDEND asks nothing of a player with nobody left to play against, "
        "so our engine ends the betting"
    ),
}
ORACLE_REASONS = frozenset({Reason.ORACLE_SHORT_ALLIN_SUM, Reason.ORACLE_FORCED_CHECK})


def hand_skip_reason(spec: Spec) -> Reason | None:
    """Known differences that concern the whole hand (its forced bets)."""
    if spec.game_type == "fixed-limit":
        return Reason.FIXED_LIMIT
    if spec.straddles:
        return Reason.STRADDLE
    # Our engine posts a big-blind ante after the blind, PokerKit before it:
    # the order matters only when the big blind cannot cover both.
    bb_stack = spec.stacks[spec.seats.index("BB")]
    if spec.bb_ante and bb_stack < spec.blinds[1] + spec.bb_ante:
        return Reason.BBA_ORDER
    if bb_stack - spec.ante < spec.blinds[1] and not _short_blind_covered(spec):
        return Reason.SHORT_BIG_BLIND
    return None


def _short_blind_covered(spec: Spec) -> bool:
    """Heads-up, a big blind all-in for no more than the button's small blind
    lowers nobody's price: the button has nobody left to play against and
    betting is over on both sides (R-ROUNDEND)."""
    if len(spec.seats) != 2:
        return False
    sb, bb = spec.blinds
    posted = {seat: max(0, min(blind, stack - spec.ante))
              for seat, stack, blind in zip(spec.seats, spec.stacks, (bb, sb))}
    return posted["BB"] <= posted["BTN"]


def decision_exemption(pk: PokerKitSide, view: View, acted: set[str]) -> Reason | None:
    """Known differences at one decision: only the raise fields are exempt.

    Both concern a player who already acted and faces less than a full raise
    (④ < ②), with chips left to raise.
    """
    s = pk.state
    short_of_full = view.to_add < pk.full_increment() and view.stack > view.to_add
    if not short_of_full or view.to_act not in acted:
        return None
    # PokerKit's increment starts each street at 0, so an opening all-in
    # below the minimum bet becomes its "full" increment. While every
    # increment on the street is below the minimum bet, it reopens betting
    # for players who acted where TDA24 47-A does not.
    if 0 < s.completion_betting_or_raising_amount < s.street.min_completion_betting_or_raising_amount:
        return Reason.PREFLOP_SHORT_ALLIN if view.street == "preflop" else Reason.SUB_MINIMUM_OPENING_BET
    return None


def oracle_defect(pk: PokerKitSide, view: View) -> Reason | None:
    """PokerKit's running sum of short all-ins restarts once it reaches a full
    raise; a later short all-in then blocks every player who acted, even one
    who faces a full raise in total (④ ≥ ②) and may raise under R-REOPEN."""
    s = pk.state
    pending = sum(s.consecutive_short_all_in_amounts)
    if (
        s.consecutive_short_all_in_amounts
        and pending < s.completion_betting_or_raising_amount
        and s.actor_index in s.acted_player_indices
        and view.to_add >= pk.full_increment()
        and view.stack > view.to_add
    ):
        return Reason.ORACLE_SHORT_ALLIN_SUM
    return None


# ---------------------------------------------------------------------------
# Comparing


@dataclass(frozen=True, kw_only=True)
class Mismatch:
    source: str  # how to reproduce: seed and hand number, or the file
    spec: str
    moves: tuple[str, ...]
    field: str
    ours: object
    pokerkit: object

    def __str__(self) -> str:
        actions = ", ".join(self.moves) or "(no actions)"
        return (
            f"{self.source}: {self.spec}\n    actions: {actions}\n"
            f"    {self.field}: ours {self.ours!r} vs PokerKit {self.pokerkit!r}"
        )


Difference = tuple[str, object, object]  # field, ours, PokerKit's


def view_differences(ours: View | None, theirs: View | None, exempt: frozenset[str]) -> list[Difference]:
    if ours is None or theirs is None:
        if ours is theirs:
            return []
        return [("to_act", ours and ours.to_act, theirs and theirs.to_act)]
    return [
        (f.name, getattr(ours, f.name), getattr(theirs, f.name))
        for f in fields(View)
        if f.name not in exempt and getattr(ours, f.name) != getattr(theirs, f.name)
    ]


@dataclass
class Summary:
    hands: int = 0
    decisions: int = 0
    skipped_hands: list[tuple[str, Reason]] = field(default_factory=list)  # (source, reason)
    exempt_decisions: Counter[str] = field(default_factory=Counter)
    short_allins: Counter[str] = field(default_factory=Counter)  # by street
    kinds: Counter[str] = field(default_factory=Counter)  # compared hands by HandKind
    mismatches: list[Mismatch] = field(default_factory=list)
    data_errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, other: Summary) -> None:
        self.hands += other.hands
        self.decisions += other.decisions
        self.skipped_hands.extend(other.skipped_hands)
        self.exempt_decisions.update(other.exempt_decisions)
        self.short_allins.update(other.short_allins)
        self.kinds.update(other.kinds)
        self.mismatches.extend(other.mismatches)
        self.data_errors.extend(other.data_errors)
        self.seconds += other.seconds

    @property
    def hand_skip_counts(self) -> Counter[str]:
        return Counter(reason for _, reason in self.skipped_hands)

    def report(self, title: str) -> str:
        known = {r: n for r, n in self.exempt_decisions.items() if r not in ORACLE_REASONS}
        other = {r: n for r, n in self.exempt_decisions.items() if r in ORACLE_REASONS}
        lines = [
            f"== {title}",
            f"hands compared: {self.hands}",
            f"decision points compared: {self.decisions}",
            "short all-ins played: " + ", ".join(f"{s} {self.short_allins[s]}" for s in STREETS),
            "hands compared with: " + ", ".join(f"{k} {self.kinds[k]}" for k in HandKind),
            f"mismatches: {len(self.mismatches)}",
            *(f"  {m}" for m in self.mismatches[:20]),
        ]
        if len(self.mismatches) > 20:
            lines.append(f"  ... and {len(self.mismatches) - 20} more")
        lines += _counts("hands skipped, known differences (RULES.md)", self.hand_skip_counts)
        lines += [f"    {source}: {reason}" for source, reason in self.skipped_hands[:20]]
        lines += _counts("decisions with the raise fields skipped, known differences (RULES.md)", known)
        lines += _counts("PokerKit differences NOT in RULES.md (decisions)", other)
        lines.append(f"data errors, hands skipped: {len(self.data_errors)}")
        lines += [f"  {e}" for e in self.data_errors]
        lines.append(f"time: {self.seconds:.1f} s")
        return "\n".join(lines)


def _counts(title: str, counts: dict[str, int]) -> list[str]:
    lines = [f"{title}: {sum(counts.values())}"]
    lines += [f"  {r}: {n}  -- {REASON_TEXT[Reason(r)]}" for r, n in sorted(counts.items())]
    return lines


# ---------------------------------------------------------------------------
# Playing one hand on both sides


class DataError(Exception):
    """A hand history action that neither side accepts."""


class Duel:
    """One hand played in PokerKit and in our engine at the same time."""

    def __init__(self, spec: Spec, source: str, config: PokerKitConfig | None = None) -> None:
        self.spec = spec
        self.source = source
        self.summary = Summary(hands=1, kinds=Counter(hand_kinds(spec)))
        self.moves: list[Move] = []
        self._acted: set[str] = set()
        self._street = "preflop"
        self.forced_check: str | None = None  # set once PokerKit's forced check was played
        self.pk = PokerKitSide(config or PokerKitConfig.from_spec(spec), spec.seats)
        self.ours = EngineSide(spec)

    def decision(self) -> View | None:
        """Compare the current decision; None when betting is over on both
        sides or the hand stopped on a mismatch."""
        theirs, ours = self.pk.view(), self.ours.view()
        if ours is None and _forced_check(theirs):
            self.summary.exempt_decisions[Reason.ORACLE_FORCED_CHECK] += 1
            self.pk.apply(Move(position=theirs.to_act, kind="check"))
            self.forced_check = theirs.to_act
            return self.decision()
        if theirs is not None and theirs.street != self._street:
            self._street, self._acted = theirs.street, set()
        reason = theirs and (decision_exemption(self.pk, theirs, self._acted) or oracle_defect(self.pk, theirs))
        exempt = RAISE_FIELDS if reason else frozenset()
        if self._record(view_differences(ours, theirs, exempt)):
            return None
        if ours is None:
            return None
        self.summary.decisions += 1
        if reason:
            self.summary.exempt_decisions[reason] += 1
        return ours

    def play(self, move: Move) -> bool:
        """Apply a move on both sides; False if they disagree about it."""
        return self._play(move, _error(self.ours.apply, move), _error(self.pk.apply, move))

    def play_notation(self, line: str, view: View | None) -> bool:
        """Apply a PHH action line as written; a line that neither side
        accepts is a data error in the file."""
        move = _phh_move(line, view, self.spec.seats)
        if view is None or view.to_act != move.position:
            waiting = "betting is over" if view is None else f"{view.to_act} is to act"
            raise DataError(f"{self.source}: {line!r} ({move.position}) is out of turn: {waiting}")
        ours_error = _error(self.ours.apply, move)
        theirs_error = _error(lambda _: self.pk.apply_notation(line), move)
        if ours_error and theirs_error:
            raise DataError(f"{self.source}: {line!r} is illegal (PokerKit: {theirs_error}; ours: {ours_error})")
        return self._play(move, ours_error, theirs_error)

    def _play(self, move: Move, ours_error: str | None, theirs_error: str | None) -> bool:
        self.moves.append(move)
        self._acted.add(move.position)
        if ours_error or theirs_error:
            return not self._record([("legal", ours_error or "accepted", theirs_error or "accepted")])
        last = self.ours.hand.history[-1]
        if last.kind in ("bet", "raise") and not last.full:
            self.summary.short_allins[str(last.street)] += 1
        return True

    def finish(self) -> None:
        ours, theirs = self.ours.result(), self.pk.result()
        self._record([(name, getattr(ours, name), getattr(theirs, name))
                      for name in ("pots", "returned") if getattr(ours, name) != getattr(theirs, name)])

    def _record(self, differences: list[Difference]) -> bool:
        for name, ours, theirs in differences:
            self.summary.mismatches.append(Mismatch(
                source=self.source, spec=self.spec.describe(), moves=tuple(map(str, self.moves)),
                field=name, ours=ours, pokerkit=theirs,
            ))
        return bool(differences)


def _forced_check(view: View | None) -> bool:
    return view is not None and view.street == "preflop" and view.check and view.raise_kind is None


def _error(apply: Callable[[Move], None], move: Move) -> str | None:
    try:
        apply(move)
    except (ValueError, IllegalActionError) as e:
        return f"{type(e).__name__}: {e}"
    return None


def play_hand(spec: Spec, source: str, choose: Callable[[View], Move]) -> tuple[Summary, list[Move]]:
    """Play a hand to the end, asking ``choose`` for each move."""
    reason = hand_skip_reason(spec)
    if reason:
        return Summary(skipped_hands=[(source, reason)]), []
    duel = Duel(spec, source)
    while (view := duel.decision()) is not None:
        if not duel.play(choose(view)):
            return duel.summary, duel.moves
    if not duel.summary.mismatches:
        duel.finish()
    return duel.summary, duel.moves


# ---------------------------------------------------------------------------
# Random hands


BLIND_LEVELS = ((1, 2), (5, 10), (25, 50), (50, 100), (100, 200), (150, 300), (40000, 80000), (3, 5), (10, 10))
# PokerKit picks the heads-up opener by the larger blind, so equal blinds
# would make its big blind act first.
HEADS_UP_BLIND_LEVELS = tuple(level for level in BLIND_LEVELS if level[0] < level[1])


# Of the hands with antes, how many have players who cannot pay the whole
# ante (R-ANTE: they can win from each opponent only what they put in).
SHORT_ANTE_HANDS = 0.5
# Of the heads-up hands, how many have a big blind all-in for no more than
# the button's small blind (R-ROUNDEND: nobody left to play against).
COVERED_SHORT_BLIND_HANDS = 0.08


def random_spec(rng: random.Random) -> Spec:
    players = rng.choice((2, 2, 3, 4, 5, 6, 6, 7, 8, 9, 10))
    sb, bb = rng.choice(BLIND_LEVELS if players > 2 else HEADS_UP_BLIND_LEVELS)
    ante = bb_ante = 0
    forced = rng.random()
    if forced < 0.2:
        ante = max(1, bb // rng.choice((10, 8, 4)))
    elif forced < 0.35:
        bb_ante = rng.choice((bb, bb, bb + bb // 2, 2 * bb))
    seats = SEATS[players]
    # Round stacks make exact ties (an all-in of exactly a full raise, short
    # all-ins adding up to exactly one) common.
    unit = rng.choice((1, 1, sb, bb))
    stacks = [
        _random_stack(rng, bb, unit, floor=ante + _blind_of(seat, seats, sb, bb) + (bb_ante if seat == "BB" else 0))
        for seat in seats
    ]
    if ante and rng.random() < SHORT_ANTE_HANDS:
        # Short blinds stay out: a short big blind is a known difference, and
        # pot limit counts a short small blind as full (TDA24 54-B), PokerKit not.
        unblinded = [i for i, seat in enumerate(seats) if not _blind_of(seat, seats, sb, bb)] or [seats.index("BTN")]
        for i in rng.sample(unblinded, min(len(unblinded), rng.choice((1, 1, 2)))):
            stacks[i] = rng.randint(1, ante)
    if players == 2 and rng.random() < COVERED_SHORT_BLIND_HANDS:
        stacks[seats.index("BB")] = rng.randint(1, ante + min(sb, stacks[seats.index("BTN")] - ante) if ante else sb)
    game_type = "pot-limit" if rng.random() < 0.35 else "no-limit"
    return Spec(game_type=game_type, blinds=(sb, bb), stacks=tuple(stacks), ante=ante, bb_ante=bb_ante)


def _blind_of(seat: str, seats: tuple[str, ...], sb: int, bb: int) -> int:
    if seat == "BB":
        return bb
    small_blind_seat = "BTN" if len(seats) == 2 else "SB"
    return sb if seat == small_blind_seat else 0


def _random_stack(rng: random.Random, bb: int, unit: int, floor: int) -> int:
    """Many short stacks: about half the players have under 4 big blinds.
    Blinds and antes are always covered (short blinds are a known difference)."""
    depth = rng.random()
    if depth < 0.45:
        chips = rng.randint(1, 4 * bb)
    elif depth < 0.8:
        chips = rng.randint(4 * bb, 30 * bb)
    else:
        chips = rng.randint(30 * bb, 150 * bb)
    chips = max(chips, floor + 1)
    return chips + (-chips) % unit


def random_chooser(rng: random.Random) -> Callable[[View], Move]:
    def choose(view: View) -> Move:
        who = view.to_act
        r = rng.random()
        if view.min_to is not None and r < (0.3 if view.check else 0.22):
            return Move(position=who, kind="raise", to=_raise_amount(rng, view))
        if view.check:
            return Move(position=who, kind="check")
        return Move(position=who, kind="fold" if r > 0.75 else "call")

    return choose


def _raise_amount(rng: random.Random, view: View) -> int:
    low, high = view.min_to, view.max_to
    all_in = view.committed + view.stack
    pick = rng.random()
    if pick < 0.35:
        return low
    if pick < 0.55:
        return high
    if pick < 0.7 and all_in <= high:
        return all_in
    if pick < 0.85:
        # a whole number of full increments over the current total
        step = max(1, low - view.current_total)
        return min(high, low + step * int(3 * rng.random() ** 2))
    return low + int((high - low) * rng.random() ** 2)


def hand_rng(seed: int, number: int) -> random.Random:
    return random.Random(f"{seed}:{number}")


def play_random(hands: int, seed: int, first: int = 0) -> Summary:
    summary = Summary()
    start = time.perf_counter()
    for number in range(first, first + hands):
        rng = hand_rng(seed, number)
        result, _ = play_hand(random_spec(rng), f"seed {seed} hand {number}", random_chooser(rng))
        summary.add(result)
    summary.seconds = time.perf_counter() - start
    return summary


def play_random_decisions(decisions: int, seed: int, play=None) -> Summary:
    """Play random hands until at least ``decisions`` decisions were compared.

    ``play`` is a ``play_random`` (this module's by default; the fixed-limit oracle passes its own)."""
    play = play or play_random
    summary = play(0, seed)  # an empty summary of the kind ``play`` makes
    start = time.perf_counter()
    number = 0
    while summary.decisions < decisions:
        summary.add(play(1, seed, number))
        number += 1
    summary.seconds = time.perf_counter() - start
    return summary


def random_hands(hands: int, seed: int) -> Iterator[tuple[Spec, list[Move]]]:
    """Seeded random hands with their moves, as played in the differential run
    (for replaying elsewhere, e.g. the benchmark)."""
    for number in range(hands):
        rng = hand_rng(seed, number)
        spec = random_spec(rng)
        summary, moves = play_hand(spec, f"seed {seed} hand {number}", random_chooser(rng))
        if summary.hands and not summary.mismatches:
            yield spec, moves


# ---------------------------------------------------------------------------
# Real hands (PHH)


def phh_dir() -> Path:
    """The hand histories: beside the repository, or TRAINER_PHH_DIR."""
    if env := os.environ.get("TRAINER_PHH_DIR"):
        return Path(env)
    repo_root = Path(__file__).resolve().parent.parent
    return repo_root.parent / "shared" / "data" / "phh"


@dataclass(frozen=True, kw_only=True)
class PhhHand:
    name: str
    spec: Spec
    config: PokerKitConfig
    actions: tuple[str, ...]  # player actions only, as written


def load_phh(path: Path, name: str) -> PhhHand | None:
    """A no-limit hold'em hand, or None for other variants."""
    try:
        [hand] = read_phh(path.read_text(encoding="utf-8"), name)
    except (HandError, ValueError) as e:
        raise DataError(f"{name}: {e}") from None
    if hand.variant != "NT":
        return None
    config = PokerKitConfig(
        pot_limit=False,
        ante_trimming=hand.ante_trimming,
        antes=hand.antes,
        blinds_or_straddles=hand.blinds_or_straddles,
        min_bet=hand.min_bet,
        stacks=hand.starting_stacks,
    )
    actions = tuple(a for a in hand.actions if a.split()[1] in ("f", "cc", "cbr"))
    return PhhHand(name=name, spec=_phh_spec(config, name), config=config, actions=actions)


def _phh_spec(config: PokerKitConfig, name: str) -> Spec:
    forced = [b for b in config.blinds_or_straddles if b]
    antes = config.antes
    nonzero = {a for a in antes if a}
    ante = bb_ante = 0
    if len(nonzero) == 1 and sum(1 for a in antes if a) == len(antes):
        ante = nonzero.pop()
    elif nonzero:
        if sum(1 for a in antes if a) != 1 or not antes[1]:
            raise DataError(f"{name}: unsupported antes {list(antes)}")
        bb_ante = antes[1]
    if forced[:2] != sorted(forced[:2]) or config.min_bet != forced[1]:
        raise DataError(f"{name}: unsupported blinds {list(config.blinds_or_straddles)}, min bet {config.min_bet}")
    return Spec(
        game_type="no-limit",
        blinds=(forced[0], forced[1]),
        straddles=tuple(forced[2:]),
        stacks=config.stacks,
        ante=ante,
        bb_ante=bb_ante,
    )


def replay_phh(hand: PhhHand) -> Summary:
    reason = hand_skip_reason(hand.spec)
    if reason:
        return Summary(skipped_hands=[(hand.name, reason)])
    duel = Duel(hand.spec, hand.name, hand.config)
    try:
        for line in hand.actions:
            view = duel.decision()
            if view is None and duel.summary.mismatches:
                return duel.summary
            if view is None and duel.forced_check == _phh_move(line, None, hand.spec.seats).position:
                duel.forced_check = None  # the file records the check PokerKit asked for
                continue
            if not duel.play_notation(line, view):
                return duel.summary
        if duel.decision() is not None:
            raise DataError(f"{hand.name}: the actions end before betting is over")
    except DataError as e:
        return Summary(data_errors=[str(e)])
    if not duel.summary.mismatches:
        duel.finish()
    return duel.summary


def _phh_move(line: str, view: View | None, seats: tuple[str, ...]) -> Move:
    player, verb, *amount = line.split()
    position = seats[int(player[1:]) - 1]
    if verb == "f":
        return Move(position=position, kind="fold")
    if verb == "cc":
        return Move(position=position, kind="check" if view is not None and view.check else "call")
    return Move(position=position, kind="raise", to=int(amount[0]))


def replay_phh_dir(directory: Path) -> tuple[Summary, list[str]]:
    """Replay every no-limit hold'em hand below ``directory``; also returns
    the names of the hands replayed."""
    summary = Summary()
    replayed = []
    start = time.perf_counter()
    for path in sorted(directory.rglob("*.phh")):
        name = path.relative_to(directory).as_posix()
        try:
            hand = load_phh(path, name)
        except DataError as e:
            summary.data_errors.append(str(e))
            continue
        if hand is None:
            continue
        result = replay_phh(hand)
        summary.add(result)
        if result.hands:
            replayed.append(name)
    summary.seconds = time.perf_counter() - start
    return summary, replayed


# ---------------------------------------------------------------------------
# Command line


def show_hand(seed: int, number: int) -> None:
    """Print one random hand decision by decision (to study a mismatch)."""
    rng = hand_rng(seed, number)
    spec = random_spec(rng)
    print(spec.describe())
    choose = random_chooser(rng)

    def traced(view: View) -> Move:
        move = choose(view)
        print(f"  {view}\n    -> {move}")
        return move

    summary, _ = play_hand(spec, f"seed {seed} hand {number}", traced)
    print(summary.report(f"seed {seed} hand {number}"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.oracle", description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="random hands to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hand", type=int, help="replay one random hand verbosely")
    parser.add_argument("--no-phh", action="store_true", help="skip the real hand histories")
    args = parser.parse_args(argv)
    if args.hand is not None:
        show_hand(args.seed, args.hand)
        return 0
    random_summary = play_random(args.hands, args.seed)
    print(random_summary.report(f"random hands (seed {args.seed})"))
    failed = bool(random_summary.mismatches)
    directory = phh_dir()
    if args.no_phh:
        pass
    elif directory.is_dir():
        phh_summary, replayed = replay_phh_dir(directory)
        print(phh_summary.report(f"hand histories ({len(replayed)} no-limit hold'em hands)"))
        failed |= bool(phh_summary.mismatches)
    else:
        print(f"== hand histories: {directory} not found (set TRAINER_PHH_DIR)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
