"""Explanations and errors as message IDs with parameters.

The engine never builds display strings directly: it returns ``Message``
objects that a renderer turns into text. ``render()`` gives English; other
languages supply their own templates for the same IDs. Numbers are written
as ``str()`` does, unless the templates say how (``Templates.number``):

>>> Message("cur.bet", {"pos": "SB", "amount": 29689}).render()
'SB bet 29689: the current total is 29689.'
>>> Message("cur.bet", {"pos": "SB", "amount": 29689}).render(Templates(EN, number="{:,}".format))
'SB bet 29,689: the current total is 29,689.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

EN: dict[str, str] = {
    # ① current total
    "cur.none": "Nobody has bet on the {street} yet: the current total is 0.",
    "cur.blind": "Preflop the big blind of {amount} is the bet to match: the current total is {amount}.",
    "cur.short_blind": (
        "{pos} is all-in for {posted}, short of the big blind: the price stays at the full "
        "big blind, so the current total is {amount}."
    ),
    "cur.straddle": "{pos} straddled to {amount}: a live straddle is a blind raise, so the current total is {amount}.",
    "cur.bet": "{pos} bet {amount}: the current total is {amount}.",
    "cur.raise": "{pos} raised to {amount}: the current total is {amount}.",
    "cur.allin": "{pos} went all-in to {amount}: the current total is {amount}.",
    # ② last full increment
    "inc.street": "At the start of the {street} the last full increment is the minimum bet, one big blind: {amount}.",
    "inc.blind": "Preflop the big blind counts as the opening bet: the last full increment is {amount}.",
    "inc.straddle": "{pos}'s straddle to {to} is the last full raise: the last full increment is {amount}.",
    "inc.bet": "{pos} bet {to}: the last full increment is {amount}.",
    "inc.raise": "{pos} raised to {to}, adding {amount}: the last full increment is {amount}.",
    "inc.short": (
        "{pos}'s all-in to {to} adds only {added}, less than a full {full}: a short all-in "
        "does not change the last full increment."
    ),
    "inc.limit": "In fixed limit every bet and raise on the {street} is one bet of {amount}.",
    "inc.limit_half": (
        "{pos}'s all-in to {to} is at least half a bet over {level}, so it counts as a full "
        "bet or raise: the next raise goes to {to} + {size}."
    ),
    "inc.limit_short": (
        "{pos}'s all-in to {to} is less than half a bet over {level}: it is not a full raise, "
        "and the next raise completes to {level} + {size}."
    ),
    # ③ committed and acted
    "com.none": "{pos} has put nothing in on the {street}.",
    "com.blind": "{pos} has {amount} in from the {blind}; posting a blind is not acting.",
    "com.in": "{pos} has put in {amount} on the {street}.",
    "com.acted": "{pos} has already acted on the {street} (last: {last}).",
    "com.not_acted": "{pos} has not acted on the {street} yet.",
    # ④ to add
    "add.formula": "To add = current total − committed = {current} − {committed} = {amount}.",
    "add.short_stack": "{pos} has only {stack} behind, so calling puts {pos} all-in for {stack}.",
    # options
    "opt.check": "Nothing to call: {pos} may check.",
    "opt.fold_free": (
        "Folding when a check is free is legal but non-standard and may be penalised in "
        "tournaments (TDA24 58, WSOP-T 84)."
    ),
    "opt.call": "{pos} may call {amount}.",
    "opt.no_chips": "{pos} has no chips left after calling, so no raise is possible.",
    "opt.not_acted": "{pos} has not acted on the {street} yet, so a raise is allowed.",
    "opt.reopened": (
        "{pos} already acted and now faces {amount}, at least a full raise of {full}: "
        "betting is reopened for {pos}."
    ),
    "opt.reopened_exceed": (
        "{pos} already acted and now faces {amount}, more than a full raise of {full}: "
        "betting is reopened for {pos}."
    ),
    "opt.reopened_full": "{pos} already acted, but a full raise has been made since: betting is reopened for {pos}.",
    "opt.not_reopened": (
        "{pos} already acted and now faces only {amount}, less than a full raise of {full}: "
        "short all-ins do not reopen the betting, so {pos} may only call or fold."
    ),
    "opt.not_reopened_exceed": (
        "{pos} already acted and now faces {amount}, which does not exceed a full raise of "
        "{full}: the betting is not reopened, so {pos} may only call or fold."
    ),
    "opt.limit_not_reopened": (
        "{pos} already acted and now faces only {amount}, less than half a bet of {size}: "
        "the betting is not reopened, so {pos} may only call or fold."
    ),
    "opt.limit_reopened": (
        "{pos} already acted and now faces {amount}, at least half a bet of {size}: "
        "betting is reopened for {pos}."
    ),
    "opt.no_opponent": (
        "No other player still in the hand has more than {current} in total, so nobody could "
        "call a raise: {pos} may only call or fold."
    ),
    "opt.no_opponent_bet": "Every other player still in the hand is all-in, so there is nobody to bet against.",
    "opt.min_bet": "The minimum bet is one big blind: {amount}.",
    "opt.min_raise": "Minimum raise-to = ① + ② = {current} + {increment} = {amount}.",
    "opt.max_nl": "No-limit: the most {pos} can make it is everything: {amount}.",
    "opt.max_pl_bet": "Pot-limit: the largest bet is the pot, {amount}.",
    "opt.max_pl": (
        "Pot-limit maximum raise-to = ① + (pot before this street {before} + chips in on this "
        "street {street_chips} + ④ {to_add}) = {current} + {pot} = {amount}."
    ),
    "opt.pl_full_blinds": "Preflop the pot is counted with full blinds even when a blind is short or dead (TDA24 54-B).",
    "opt.max_stack": "{pos} has {amount} in total, less than that: the maximum is all-in to {amount}.",
    "opt.allin_only": (
        "{pos} has {amount} in total, less than the minimum of {min}: the only bet or raise "
        "is all-in to {amount}."
    ),
    "opt.limit_bet": "Fixed limit: the bet is one bet of {amount}.",
    "opt.limit_raise": "Fixed limit: a raise goes to the last full level {level} plus one bet of {size} = {amount}.",
    "opt.limit_capped": "The betting is capped: a bet and {raises} raises have been made on the {street}.",
    "opt.limit_uncapped": "Only two players are left and this game has no cap heads-up.",
    "opt.over": "Betting is over: nobody is to act.",
    # who acts (R-ORDER) and the end of a round (R-ROUNDEND)
    "ord.preflop": "Preflop the action starts with the first player left of the {last}: {pos} acts first.",
    "ord.heads_up": (
        "Heads-up {pos}, the seat that is not the big blind, is the button: it posts the small blind "
        "and acts first preflop, last after the flop."
    ),
    "ord.heads_up_postflop": "Heads-up {button} is the button and acts last after the flop: the big blind, {pos}, acts first.",
    "ord.postflop": "After the flop the first player still in the hand clockwise from the button acts first: {pos}.",
    "ord.round_ended": "The {street} betting is over: everyone still in the hand has acted and matched the current total, so the {next} begins.",
    "ord.next": "{pos} is next: the first player clockwise who still has to act (folded and all-in players are skipped).",
    "opt.option": "Everyone has only called, but {pos} has not acted yet: the round ends only after {pos} checks or raises.",
    # the pot, pots and showdown
    "pot.antes": "Antes of {amount} are dead money: they are in the pot but never count as committed.",
    "pot.total": "The pot holds {amount}: everything put in this hand so far.",
    "res.returned": "Nobody matched the last {amount} that {pos} put in: it goes back to {pos} before the pots are made.",
    "res.main": "Main pot {amount}, which {players} can win.",
    "res.side": "Side pot {number}: {amount}, which {players} can win.",
    "res.layers": (
        "The pots are cut in layers at each all-in player's total, each player's own ante included; "
        "the big-blind ante and earlier dead money stay in the main pot."
    ),
    "res.nobody_left": (
        "Every other player still in the hand is all-in and {pos} has already put in at least as much "
        "as each of them: nobody is left to play against, so betting is over."
    ),
    "res.short_ante": (
        "{pos} is all-in for {amount} of an ante of {ante}: an ante counts as chips its player put in, "
        "so {pos} can win only {amount} from each player."
    ),
    "res.won": "Everyone else folded: {pos} wins without a showdown.",
    "res.all_tabled": "A player is all-in and the betting is complete: every hand is tabled at once.",
    "res.last_aggressor": "{pos} made the last bet or raise on the final street, so {pos} shows first.",
    "res.first_clockwise": "Nobody bet on the final street, so the first player still in the hand clockwise from the button, {pos}, shows first.",
    "res.split": "{pot} ({amount}) is split between {players} in {chip}-chip units: {shares}.",
    "res.single": "{pot} ({amount}) goes to {pos} alone.",
    "res.odd_chip": "The odd chip goes to {pos}, the first winner clockwise from the button.",
    "res.share": "{pos} {amount}",
    # hand reading (ask: [winners])
    "read.best": "{pos}'s best five cards: {cards}, {category}.",
    "read.wins": "{pot}: {pos} has the best hand of {players} and wins it.",
    "read.tie": "{pot}: {players} have hands of the same value (suits never break a tie) and split it.",
    "read.alone": "{pot}: only {pos} can win it.",
    "pot.main": "Main pot",
    "pot.side": "Side pot {number}",
    "hand.high-card": "high card",
    "hand.one-pair": "one pair",
    "hand.two-pair": "two pair",
    "hand.three-of-a-kind": "three of a kind",
    "hand.straight": "a straight",
    "hand.flush": "a flush",
    "hand.full-house": "a full house",
    "hand.four-of-a-kind": "four of a kind",
    "hand.straight-flush": "a straight flush",
    "list.and": "{head} and {last}",
    # rulings on chips and words (R-CHIPS)
    "rule.string": "Chips added in a second motion ({amount}) do not count: a bet or raise is one motion unless it was declared first, so they go back to the player.",
    "rule.amount_alone": "Declaring an amount alone ({amount}) is the same as pushing that amount.",
    "rule.declared": "{pos} declared {said}: a declaration in turn is binding.",
    "rule.check_facing_bet": "{pos} said check facing {amount} to call: that allows a call or a fold, not a raise.",
    "rule.call_is_check": "Facing no bet, \"call\" is a check.",
    "rule.call_binds": "{pos} said call: the declaration binds, so it is a call to {amount} and any extra chips go back.",
    "rule.raise_one_chip": "{pos} said raise and put in one {chip} chip with no amount: the raise is the most the chip allows, to {amount}.",
    "rule.declared_min": "{pos} declared {said}: it binds to at least the minimum, to {amount}.",
    "rule.declared_to": "{pos} declared {said} to {amount}.",
    "rule.last_chips": "{pos} put in their last chips: that is all-in either way.",
    "rule.all_in": "{pos} is all-in, to {amount}.",
    "rule.chip_is_bet": "Facing no bet, a single chip pushed silently is a bet of its full value: {amount}.",
    "rule.chips_are_bet": "Facing no bet, chips pushed silently are a bet: {amount}.",
    "rule.bb_chip": "At the big blind's option a single chip pushed silently is a check.",
    "rule.overchip_call": "Facing {amount} to call, a single oversized {chip} chip pushed silently is a call; the change goes back.",
    "rule.short_of_call": "The chips do not cover the {amount} to call: it is a call.",
    "rule.exact_call": "The chips are exactly the {amount} to call: it is a call.",
    "rule.every_chip_needed": "Without one of the smallest chips ({chip}) there would be less than the {amount} to call, so every chip is needed: it is a call.",
    "rule.full_raise": "A total of {amount} adds {increment}, at least the last full increment of {full}: a raise to {amount}.",
    "rule.half_raise": "Adding {increment} is at least half of the last full increment {full} but short of it: it must be made a full minimum raise, to {amount}.",
    "rule.under_half": "Adding only {increment}, less than half of the last full increment {full}, makes it a call to {amount}; the extra goes back.",
    "rule.oot": "{pos} acted out of turn (it was {to_act}'s turn): the action is backed up to {to_act}.",
    "rule.oot_fold": "An out-of-turn fold is binding: {pos} has folded.",
    "rule.oot_changed": "The action to {pos} changed (from {before} to {after}), so {pos} is no longer bound and may choose again.",
    "rule.oot_binds": "The action to {pos} did not change, so the out-of-turn action binds when the turn comes.",
    "rule.no_raise": "{pos} may not raise here, so it stands as a call (or a check).",
    "rule.nothing_owed": "{pos} already has {amount} in and owes nothing: with nothing to call it is not a call but a check, and the chips go back.",
    "rule.over_max": "A {said} to {amount} is more than {pos} may make it here: it stands as a {said} to {max}, the most allowed.",
    "rule.under_min": "A {said} to {amount} is less than {pos} may make it here: it stands as a {said} to {min}, the least allowed.",
    "rule.returned": "Of the {forward} put forward, {kept} stays in for {pos} and {amount} goes back.",
    # choices (used inside "legal")
    "choice.fold": "fold",
    "choice.check": "check",
    "choice.call": "call {amount}",
    "choice.call_allin": "call all-in for {amount}",
    "choice.bet": "bet {min}–{max}",
    "choice.bet_one": "bet {amount}",
    "choice.raise": "raise to {min}–{max}",
    "choice.raise_one": "raise to {amount}",
    "choice.bet_allin": "bet all-in {amount}",
    "choice.raise_allin": "raise all-in to {amount}",
    "legal": "{pos} may {choices}",
    "list.or": "{head}, or {last}",
    "list.or2": "{head} or {last}",
    "list.sep": ", ",
    # how a step names its rule, and how an error sentence is put together
    "with_rule": "{text} ({rule})",
    "err.clause": "{reason}; {legal}",
    "err.sentence": "{text}.",
    # terms used as parameters
    "term.preflop": "preflop",
    "term.flop": "flop",
    "term.turn": "turn",
    "term.river": "river",
    "term.small-blind": "small blind",
    "term.big-blind": "big blind",
    "term.straddle": "straddle",
    "term.fold": "fold",
    "term.check": "check",
    "term.call": "call",
    "term.bet": "bet",
    "term.raise": "raise",
    "term.allin": "all-in",
    # errors
    "err.over": "betting is over: nobody is to act",
    "err.unknown_seat": "{pos} is not in the hand",
    "err.turn": "it is {to_act}'s turn, not {pos}'s",
    "err.check": "{pos} cannot check: there is {amount} to call",
    "err.call": "{pos} has nothing to call; facing no bet a player checks",
    "err.bet_facing": "{pos} cannot bet: there is already a bet of {current} on the {street}, so this is a raise",
    "err.raise_no_bet": "{pos} cannot raise: nobody has bet on the {street}, so this is a bet",
    "err.amount": "the amount must be a whole number of chips greater than 0",
    "err.not_above": "a raise must go above the current total of {current}",
    "err.min_bet": "the minimum bet is {min}",
    "err.min_raise": "the minimum raise is to {min} (the last full raise added {increment})",
    "err.max_pl": "the pot-limit maximum is {max}",
    "err.stack": "{pos} has only {amount} in total",
    "err.limit": "in fixed limit this bet or raise is to exactly {amount}",
    "err.no_raise": "{pos} may not raise here",
}


class Templates(dict):
    """Templates for every message ID, and how this language writes a number (``number``).

    >>> Message("add.formula", {"current": 3000, "committed": 500, "amount": 2500}).render(Templates(EN, number="{:,}".format))
    'To add = current total − committed = 3,000 − 500 = 2,500.'
    """

    def __init__(self, templates: Mapping[str, str], number: Callable[[int], str] = str) -> None:
        super().__init__(templates)
        self.number = number


@dataclass(frozen=True)
class Message:
    """A message ID with parameters; parameters may themselves be messages or lists of them.

    A tuple of parameters lists alternatives, a list lists members:

    >>> str(Message("legal", {"pos": "BTN", "choices": (Message("choice.fold"), Message("choice.call", {"amount": 100}))}))
    'BTN may fold or call 100'
    >>> str(Message("read.tie", {"pot": Message("pot.main"), "players": ["BB", "BTN"]}))
    'Main pot: BB and BTN have hands of the same value (suits never break a tie) and split it.'
    """

    id: str
    params: Mapping[str, object] = field(default_factory=dict)

    def render(self, templates: Mapping[str, str] = EN) -> str:
        """The sentence in the language of ``templates`` (English by default).

        >>> Message("cur.raise", {"pos": "CO", "amount": 1400}).render()
        'CO raised to 1400: the current total is 1400.'
        >>> Message("cur.raise", {"pos": "CO", "amount": 1400}).render({"cur.raise": "{pos} 加注到 {amount}。"})
        'CO 加注到 1400。'
        """
        values = {key: _render_value(value, templates) for key, value in self.params.items()}
        return templates[self.id].format(**values)

    def __str__(self) -> str:
        return self.render()


def _render_value(value: object, templates: Mapping[str, str]) -> object:
    if isinstance(value, Message):
        return value.render(templates)
    if isinstance(value, int) and not isinstance(value, bool):
        return getattr(templates, "number", str)(value)
    if isinstance(value, (list, tuple)):
        parts = [str(_render_value(v, templates)) for v in value]
        if len(parts) < 2:
            return "".join(parts)
        # a tuple lists alternatives ("fold, call 100, or raise"), a list lists members ("BB and BTN")
        key = ("list.or2" if len(parts) == 2 else "list.or") if isinstance(value, tuple) else "list.and"
        return templates[key].format(head=templates["list.sep"].join(parts[:-1]), last=parts[-1])
    return value


@dataclass(frozen=True)
class Step:
    """One line of a derivation: which column it explains, the sentence, the deciding rule.

    >>> Step("options", Message("opt.check", {"pos": "BB"}), "R-ROUNDEND").render()
    'Nothing to call: BB may check (R-ROUNDEND).'
    """

    topic: str  # current_total | last_full_increment | committed | to_add | options
    message: Message
    rule: str | None = None

    def render(self, templates: Mapping[str, str] = EN) -> str:
        """The sentence with its rule ID inside it, before the full stop.

        >>> Step("current_total", Message("cur.bet", {"pos": "SB", "amount": 300})).render()
        'SB bet 300: the current total is 300.'
        >>> Step("last_full_increment", Message("inc.bet", {"pos": "BTN", "to": 300, "amount": 300}), "R-MINBET").render()
        'BTN bet 300: the last full increment is 300 (R-MINBET).'
        """
        text = self.message.render(templates)
        return _with_rule(text, self.rule, templates)

    def __str__(self) -> str:
        return self.render()


class EngineError(ValueError):
    """A hand that cannot be set up as described (bad stacks, seats or forced bets), or a question
    asked at the wrong time (the pots before betting is over). A ``ValueError``; ``str()`` says what is wrong."""


class IllegalActionError(EngineError):
    """An action that is not legal now. ``str()`` is a full sentence naming the rule.

    ``reason`` and ``legal`` are messages (to render in any language), ``rule`` the rule ID.

    >>> from trainer.engine import Action, ActionKind, Game, GameType, Hand
    >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
    ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
    >>> try:
    ...     hand.apply(Action(position="BTN", kind=ActionKind.CHECK))
    ... except IllegalActionError as error:
    ...     print(error.rule, "|", error.clause())
    R-INVALIDDECL | BTN cannot check: there is 100 to call (R-INVALIDDECL); BTN may fold, call 100, or raise to 200–1000
    """

    def __init__(self, reason: Message, rule: str | None, legal: Message | None):
        self.reason = reason
        self.rule = rule
        self.legal = legal
        super().__init__(self.sentence())

    def clause(self, templates: Mapping[str, str] = EN) -> str:
        """Lower-case clause for ``file:line: "action": <clause>`` error lines.

        >>> error = IllegalActionError(Message("err.min_bet", {"min": 200}), "R-MINBET", None)
        >>> error.clause()
        'the minimum bet is 200 (R-MINBET)'
        """
        text = _with_rule(self.reason.render(templates).rstrip(".。"), self.rule, templates)
        if self.legal is not None:
            text = templates["err.clause"].format(reason=text, legal=self.legal.render(templates))
        return text

    def sentence(self, templates: Mapping[str, str] = EN) -> str:
        """The clause as a sentence: ``str()`` of the error, in the language of ``templates``.

        >>> IllegalActionError(Message("err.min_bet", {"min": 200}), "R-MINBET", None).sentence()
        'The minimum bet is 200 (R-MINBET).'
        """
        text = self.clause(templates)
        return templates["err.sentence"].format(text=text[:1].upper() + text[1:])


def _with_rule(text: str, rule: str | None, templates: Mapping[str, str]) -> str:
    if not rule:
        return text
    # the rule ID goes inside the sentence: "... is 1400 (R-MINRAISE)." not "... is 1400. (R-MINRAISE)"
    stop = text[-1:] if text[-1:] in (".", "。") else ""
    return templates["with_rule"].format(text=text[: len(text) - len(stop)], rule=rule) + stop
