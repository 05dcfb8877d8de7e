"""Rulings on chips and words (R-CHIPS): what a declaration or a push of chips counts as.

The dealer's question: the player to act said something and/or put chips
forward — is that a check, a call, a bet or a raise, and to how much?
The answer is an ``Action`` the hand accepts, plus the chips handed back.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass

from .hand import Hand
from .messages import EngineError, Message, Step
from .types import Action, ActionKind

SAID_RE = re.compile(r"\s*(?:(check|call|bet|raise|allin|fold)(?:\s+([0-9]+))?|([0-9]+))\s*\Z")


@dataclass(frozen=True, kw_only=True)
class Declaration:
    """What the player did: words (``said``), chips in one motion, chips in a second motion, and who.

    >>> Declaration(said="raise", chips=(500,)).said
    'raise'
    """

    said: str | None = None  # check | call | bet | raise | allin | fold, optionally with an amount, or an amount alone
    chips: tuple[int, ...] = ()  # put forward in one motion
    later: tuple[int, ...] = ()  # added in a second motion (R-STRING)
    by: str | None = None  # who acted; someone other than the player to act is out of turn (R-OOT)
    then: tuple[Action, ...] = ()  # out of turn: the actions in turn that bring the turn to ``by``


@dataclass(frozen=True, kw_only=True)
class Ruling:
    """What the dealer rules: the action it counts as, the total, the chips handed back, and why."""

    action: str  # check | call | bet | raise | fold | call-or-fold | free (out of turn, no longer bound)
    to: int | None  # the player's total on this street after the ruling
    returned: int  # put forward (both motions) minus what stays in front of the player, never below 0
    steps: tuple[Step, ...]

    def as_dict(self) -> dict:
        """The ruling as the scenario contract's ``ruling`` answer.

        >>> Ruling(action="call", to=100, returned=400, steps=()).as_dict()
        {'action': 'call', 'to': 100, 'returned': 400}
        """
        return {"action": self.action, "to": self.to, "returned": self.returned}


def parse_said(text: str) -> tuple[str | None, int | None]:
    """``"raise 1400"`` -> ("raise", 1400); ``"1400"`` -> (None, 1400); raises ValueError otherwise.

    >>> parse_said("raise 1400"), parse_said("1400"), parse_said("check")
    (('raise', 1400), (None, 1400), ('check', None))
    """
    match = SAID_RE.match(text)
    if not match:
        raise ValueError(text)
    verb, amount, bare = match.groups()
    if bare is not None:
        return None, int(bare)
    return verb, int(amount) if amount else None


def rule(hand: Hand, declaration: Declaration) -> Ruling:
    """What the player to act's words and chips count as (R-VERBAL … R-STRING).

    The answer is always one of the hand's own options (R-CHIPS): pot limit, pot
    1000, "all in" with 10,000 behind is a bet of the pot, and the rest goes back.

    >>> from trainer.engine import Game, GameType, Street
    >>> hand = Hand(game=Game(type=GameType.POT_LIMIT, blinds=(50, 100)),
    ...             stacks={"SB": 10000, "BB": 10000, "BTN": 10000}, start=Street.FLOP, pot=1000)
    >>> rule(hand, Declaration(said="allin")).as_dict()
    {'action': 'bet', 'to': 1000, 'returned': 9000}
    >>> rule(hand, Declaration(chips=(500, 500), later=(500,))).as_dict()
    {'action': 'bet', 'to': 1000, 'returned': 500}
    >>> [str(step) for step in rule(hand, Declaration(chips=(500, 500), later=(500,))).steps][0]
    'Chips added in a second motion (500) do not count: a bet or raise is one motion unless it was declared first, so they go back to the player (R-STRING).'
    """
    if hand.to_act is None:
        raise EngineError("betting is over: there is nobody to rule on")
    if declaration.by is not None and declaration.by != hand.to_act:
        return _out_of_turn(hand, declaration)
    return _Ruler(hand, declaration).decide()


def _out_of_turn(hand: Hand, d: Declaration) -> Ruling:
    """R-OOT: back the action up; it binds only if the action to that player does not change."""
    steps = [Step("ruling", Message("rule.oot", {"pos": d.by, "to_act": hand.to_act}), "R-OOT")]
    if d.by not in {s.position for s in hand.seats if not s.folded and not s.all_in}:
        raise EngineError(f"{d.by} is not a player who can still act")
    verb = parse_said(d.said)[0] if d.said else None
    forward = sum(d.chips) + sum(d.later)
    if verb == "fold":
        steps.append(Step("ruling", Message("rule.oot_fold", {"pos": d.by}), "R-OOT"))
        return Ruling(action="fold", to=None, returned=forward, steps=tuple(steps))
    before = hand.current_total
    later = copy.deepcopy(hand)
    for action in d.then:
        later.apply(action)
    if later.to_act != d.by:
        raise EngineError(f"the actions in turn must bring the turn to {d.by}; after them it is {later.to_act or 'nobody'}'s turn")
    if later.current_total != before:
        steps.append(Step("ruling", Message("rule.oot_changed", {"pos": d.by, "before": before, "after": later.current_total}), "R-OOT"))
        return Ruling(action="free", to=None, returned=forward, steps=tuple(steps))
    steps.append(Step("ruling", Message("rule.oot_binds", {"pos": d.by}), "R-OOT"))
    inner = _Ruler(later, Declaration(said=d.said, chips=d.chips, later=d.later)).decide()
    return Ruling(action=inner.action, to=inner.to, returned=inner.returned, steps=tuple(steps) + inner.steps)


# Steps of the engine's own derivation that say where the limits of a bet or raise come from.
_WHY_MAX = ("opt.max_pl", "opt.max_pl_bet", "opt.pl_full_blinds", "opt.limit_bet", "opt.limit_raise", "opt.max_stack")
_WHY_MIN = ("opt.min_bet", "opt.min_raise", "opt.limit_bet", "opt.limit_raise", "opt.allin_only")


class _Ruler:
    """Reads what the words and chips mean, then fits that into the options the hand offers.

    The reading (``by_word``, ``by_chips``, ``by_amount``) proposes an action and a total;
    ``result`` is the only way out, and it answers with what ``hand.options()`` allows:
    a bet or raise inside the legal range (the pot-limit maximum, the one fixed-limit bet,
    the stack), a call only when something is owed, else a check. Whatever the player put
    forward beyond what the ruling keeps goes back.
    """

    def __init__(self, hand: Hand, declaration: Declaration):
        self.hand = hand
        self.d = declaration
        self.pos = hand.to_act
        card = hand.card()
        seat = next(s for s in hand.seats if s.position == self.pos)
        self.current = card.current_total
        self.increment = card.last_full_increment
        self.committed = card.committed
        self.to_add = card.to_add
        self.all_in_to = seat.committed + seat.stack
        self.options = hand.options()
        self.wager = self.options.bet or self.options.raise_
        self.pushed = sum(declaration.chips)
        if any(not isinstance(c, int) or c <= 0 for c in (*declaration.chips, *declaration.later)):
            raise EngineError("every chip put forward must be worth a whole number of chips greater than 0")
        self.forward = self.pushed + sum(declaration.later)  # both motions: the second one goes back (R-STRING)
        if self.forward > seat.stack:
            raise EngineError(f"{self.pos} has only {seat.stack} behind but puts forward {self.forward}")
        self.steps: list[Step] = []
        self.over_stack = False

    @property
    def minimum(self) -> int:
        """The smallest bet or raise-to the hand allows now (what a bare "raise" binds to)."""
        return self.wager.min if self.wager is not None else self.current + self.increment

    def say(self, rule: str | None, id_: str, **params: object) -> None:
        self.steps.append(Step("ruling", Message(id_, params), rule))

    def why(self, ids: tuple[str, ...]) -> str | None:
        """Repeat the engine's own reasons for a limit; return the rule they cite."""
        found = [s for s in self.hand.derivation() if s.topic == "options" and s.message.id in ids]
        self.steps += [Step("ruling", s.message, s.rule) for s in found]
        return next((s.rule for s in found if s.rule), None)

    def result(self, action: str, to: int | None) -> Ruling:
        if action in ("bet", "raise"):
            action, to = self.fit_wager(action, to)
        if action == "call" and self.options.call is None:
            self.say("R-CHIPS", "rule.nothing_owed", pos=self.pos, amount=self.committed)
            action = "check"
        if action == "call":
            to = self.committed + self.options.call
        if action == "check":
            to = None
        if action in ("bet", "raise", "call") and to == self.all_in_to and (self.pushed or self.over_stack):
            self.say("R-MULTICHIP" if self.pushed else None, "rule.all_in", pos=self.pos, amount=to)
        kept = to - self.committed if to is not None else 0
        forward = self.forward
        if self.d.said is not None and parse_said(self.d.said)[0] == "allin" and not self.d.chips:
            forward = self.all_in_to - self.committed  # "all-in" said alone stands for every chip behind
        returned = max(0, forward - kept)
        if returned:
            self.say(None, "rule.returned", pos=self.pos, forward=forward, kept=kept, amount=returned)
        return Ruling(action=action, to=to, returned=returned, steps=tuple(self.steps))

    def fit_wager(self, action: str, to: int) -> tuple[str, int | None]:
        """A bet or raise to ``to``, made one the hand allows (R-POTLIMIT, R-LIMIT, the stack)."""
        if self.wager is None:
            self.say(None, "rule.no_raise", pos=self.pos)
            return ("call", self.current) if self.to_add else ("check", None)
        said = _said(action)
        if to > self.wager.max:
            if self.wager.max == self.all_in_to:
                self.over_stack = True  # more than the player has: all-in, which ``result`` says
                return action, self.all_in_to
            rule = self.why(_WHY_MAX)
            self.say(rule, "rule.over_max", pos=self.pos, said=said, amount=to, max=self.wager.max)
            return action, self.wager.max
        if to < self.wager.min:
            rule = self.why(_WHY_MIN)
            self.say(rule, "rule.under_min", pos=self.pos, said=said, amount=to, min=self.wager.min)
            return action, self.wager.min
        return action, to

    def decide(self) -> Ruling:
        if self.d.later:
            self.say("R-STRING", "rule.string", amount=sum(self.d.later))
        verb, amount = (None, None)
        if self.d.said is not None:
            verb, amount = parse_said(self.d.said)
        if verb is None and amount is not None:
            self.say("R-VERBAL", "rule.amount_alone", amount=amount)
            return self.by_amount(amount)
        if verb is not None:
            return self.by_word(verb, amount)
        if not self.d.chips:
            raise EngineError("a ruling needs something said or some chips put forward")
        return self.by_chips()

    # -- words first (R-VERBAL, R-INVALIDDECL)

    def by_word(self, verb: str, amount: int | None) -> Ruling:
        if verb == "fold":
            self.say("R-VERBAL", "rule.declared", pos=self.pos, said=_said("fold"))
            return Ruling(action="fold", to=None, returned=self.forward, steps=tuple(self.steps))
        if verb == "allin":
            self.say("R-VERBAL", "rule.declared", pos=self.pos, said=_said("allin"))
            kind = "call" if self.all_in_to <= self.current else "bet" if self.current == 0 else "raise"
            return self.result(kind, self.all_in_to)
        if verb == "check":
            if self.to_add:
                self.say("R-INVALIDDECL", "rule.check_facing_bet", pos=self.pos, amount=self.to_add)
                return Ruling(action="call-or-fold", to=None, returned=self.forward, steps=tuple(self.steps))
            self.say("R-VERBAL", "rule.declared", pos=self.pos, said=_said("check"))
            return self.result("check", None)
        if verb == "call":
            if not self.to_add:
                self.say("R-INVALIDDECL", "rule.call_is_check", pos=self.pos)
                return self.result("check", None)
            self.say("R-VERBAL", "rule.call_binds", pos=self.pos, amount=self.current)
            return self.result("call", self.current)
        # bet or raise
        kind = "bet" if self.current == 0 else "raise"
        if self.wager is None:  # no bet or raise is open to this player: the word binds to what is left
            self.say("R-VERBAL", "rule.declared", pos=self.pos, said=_said(kind))
            return self.result(kind, self.minimum)
        minimum = self.minimum
        one_chip = amount is None and len(self.d.chips) == 1
        if amount is not None:
            to = amount
        elif self.d.chips:
            to = self.committed + self.pushed
            if one_chip:
                self.say("R-OVERCHIP", "rule.raise_one_chip", pos=self.pos, chip=self.d.chips[0], amount=to)
        else:
            to = None  # no amount and no chips: the least the word binds to
        if to is None or to < minimum:
            self.why(_WHY_MIN)
            # a bare word binds to the least it can mean; a word that does not fit or a short amount is R-INVALIDDECL
            rule = "R-VERBAL" if to is None and verb == kind else "R-INVALIDDECL"
            self.say(rule, "rule.declared_min", pos=self.pos, said=_said(kind), amount=minimum)
            to = minimum
        elif not one_chip:
            self.say("R-VERBAL", "rule.declared_to", pos=self.pos, said=_said(kind), amount=to)
        return self.result(kind, to)

    # -- silent chips (R-OVERCHIP, R-MULTICHIP, R-HALF)

    def by_chips(self) -> Ruling:
        put = self.committed + self.pushed
        if self.pushed >= self.all_in_to - self.committed:
            self.say("R-MULTICHIP", "rule.last_chips", pos=self.pos)
            kind = "call" if self.all_in_to <= self.current else "bet" if self.current == 0 else "raise"
            return self.result(kind, self.all_in_to)
        if self.current == 0:
            if len(self.d.chips) == 1:
                self.say("R-OVERCHIP", "rule.chip_is_bet", pos=self.pos, amount=self.pushed)
            else:
                self.say("R-INVALIDDECL", "rule.chips_are_bet", pos=self.pos, amount=self.pushed)
            return self.result("bet", put)
        if len(self.d.chips) == 1 and not self.to_add:
            self.say("R-OVERCHIP", "rule.bb_chip")
            return self.result("check", None)
        if len(self.d.chips) == 1 and self.pushed > self.to_add:
            self.say("R-OVERCHIP", "rule.overchip_call", pos=self.pos, chip=self.pushed, amount=self.to_add)
            return self.result("call", self.current)
        if self.pushed <= self.to_add:
            exact = "rule.exact_call" if self.pushed == self.to_add else "rule.short_of_call"
            self.say("R-MULTICHIP", exact, pos=self.pos, amount=self.to_add)
            return self.result("call", self.current)
        smallest = min(self.d.chips)
        if self.pushed - smallest < self.to_add:
            self.say("R-MULTICHIP", "rule.every_chip_needed", pos=self.pos, chip=smallest, amount=self.to_add)
            return self.result("call", self.current)
        return self.by_amount(put)

    def by_amount(self, to: int) -> Ruling:
        """R-HALF: measure the increment over the current total against the last full increment."""
        if self.current == 0:
            return self.result("bet", to)
        increment = to - self.current
        if increment >= self.increment:
            self.say("R-HALF", "rule.full_raise", amount=to, increment=increment, full=self.increment)
            return self.result("raise", to)
        if 2 * increment >= self.increment:
            self.say("R-HALF", "rule.half_raise", increment=increment, full=self.increment, amount=self.minimum)
            return self.result("raise", self.minimum)
        self.say("R-HALF", "rule.under_half", increment=max(increment, 0), full=self.increment, amount=self.current)
        return self.result("call", self.current)


def _said(verb: str) -> Message:
    return Message(f"term.{verb}")


def ruling_action(hand: Hand, ruling: Ruling) -> Action | None:
    """The engine action a ruling stands for (None for call-or-fold), to ``apply`` to the hand.

    >>> from trainer.engine import Game, GameType
    >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
    ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
    >>> ruling = rule(hand, Declaration(chips=(500,)))  # one oversized chip facing a bet: a call
    >>> ruling.as_dict(), str(ruling_action(hand, ruling))
    ({'action': 'call', 'to': 100, 'returned': 400}, 'BTN call')
    """
    kinds = {"check": ActionKind.CHECK, "call": ActionKind.CALL, "fold": ActionKind.FOLD,
             "bet": ActionKind.BET, "raise": ActionKind.RAISE}
    if ruling.action not in kinds:
        return None
    amount = ruling.to if ruling.action in ("bet", "raise") else None
    return Action(position=hand.to_act, kind=kinds[ruling.action], amount=amount)
