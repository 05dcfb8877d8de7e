"""One hand of Texas Hold'em betting: forced bets, turns, legal options, pots.

Every amount the card and the options report is derived from the players'
state on demand; the only numbers kept between actions are the ones a
dealer keeps too: the last full increment and, in fixed limit, the last
full level and how many bets have been made.
"""

from __future__ import annotations

from dataclasses import dataclass

from .messages import EngineError, IllegalActionError, Message, Step
from .types import (
    POSITIONS,
    SEAT_INDEX,
    Action,
    ActionKind,
    BBAOrder,
    Card,
    Event,
    Game,
    GameType,
    Options,
    Pot,
    Range,
    Reopen,
    Result,
    Seat,
    Showdown,
    Street,
)


@dataclass(slots=True)
class _Player:
    position: str
    stack: int
    index: int = 0  # seat index in the hand
    committed: int = 0
    total: int = 0
    ante: int = 0  # own ante paid: dead money, but his own chips when the pots are cut (R-ANTE)
    folded: bool = False
    all_in: bool = False
    acted: bool = False
    last: str | None = None  # last voluntary action on this street
    seq: int = 0  # full bets/raises made on this street when the player last acted
    forced: str | None = None  # "small-blind" | "big-blind" | "straddle"
    nominal: int = 0  # the full forced amount due (a short poster is all-in for less)

    def put(self, amount: int) -> None:
        self.stack -= amount
        self.committed += amount
        self.total += amount
        if self.stack == 0:
            self.all_in = True


_FORCED = ("ante", "small-blind", "big-blind", "straddle")


def _collector(steps: list[Step]):
    def say(rule: str | None, id_: str, **params: object) -> None:
        for key, value in params.items():
            if isinstance(value, Street):
                params[key] = _term(value)
        steps.append(Step("options", Message(id_, params), rule))

    return say


def _m(id_: str, **params: object) -> Message:
    return Message(id_, params)


def _term(name: str) -> Message:
    return Message(f"term.{name}")


class Hand:
    """The betting state of one hand. Build it, then ``apply`` actions in turn.

    ``stacks`` names the seats dealt in (any of ``POSITIONS``, in any order);
    forced bets are posted at once. ``start`` and ``pot`` begin a hand on a
    later street with chips already in the middle. A setup that cannot be
    dealt raises ``EngineError`` with a sentence saying what is wrong.

    >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
    ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
    >>> hand.to_act, hand.street, hand.pot
    ('BTN', <Street.PREFLOP: 'preflop'>, 150)
    >>> Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)), stacks={"BB": 1000, "CO": 0})
    Traceback (most recent call last):
    ...
    trainer.engine.messages.EngineError: the stack of CO must be a whole number of chips greater than 0
    """

    def __init__(
        self,
        *,
        game: Game,
        stacks: dict[str, int],
        start: Street = Street.PREFLOP,
        pot: int = 0,
    ) -> None:
        _check_setup(game, stacks, start, pot)
        self.game = game
        self._limit = game.type is GameType.FIXED_LIMIT
        # R-ORDER: a hand dealt to exactly two players is heads-up whatever the
        # seats are called; the seat that is not the big blind is the button.
        # Seat order starts at the big blind, so the button is last after the
        # flop and the big blind first clockwise from it.
        self._heads_up = start is Street.PREFLOP and len(stacks) == 2
        if self._heads_up:
            self._order = ["BB", next(pos for pos in stacks if pos != "BB")]
        else:
            self._order = sorted(stacks, key=SEAT_INDEX.__getitem__)
        self._players = {pos: _Player(pos, stacks[pos], i) for i, pos in enumerate(self._order)}
        self._seats = list(self._players.values())  # the same players, in seat order
        self._dead = pot  # the big-blind ante and chips from streets before `start`: all main pot
        self._alone: str | None = None  # the player left with nobody to play against (R-ROUNDEND)
        self.history: list[Event] = []
        self._range_cache: tuple[tuple[int, str], Range | None] | None = None
        self._over = False
        self._to_act: str | None = None
        self._begin_street(start)
        if start is Street.PREFLOP:
            last_forced = self._post_forced_bets()
            self._continue_after(last_forced)
        else:
            self._to_act = self._next_needing_action(0)

    # ------------------------------------------------------------------ setup

    def _begin_street(self, street: Street) -> None:
        self.street = street
        for p in self._players.values():
            p.committed = 0
            p.acted = False
            p.last = None
            p.seq = 0
        self._top = 0  # the largest amount committed on this street
        self._nominal = 0  # preflop: the full blind or straddle everyone must match
        self._increment = self.game.bet_size(street) if self._limit else self.game.big_blind
        self._level = 0  # fixed limit: the last full level; raises go to level + bet size
        self._levels = 0  # fixed limit: full bets and raises made (for the cap)
        self._seq = 0  # full bets and raises made on this street
        self._setter: Event | None = None  # the action that set the current total
        self._full: tuple[Event, int] | None = None  # last full bet/raise and its increment
        self._shorts: list[tuple[Event, int]] = []  # short all-ins since then, with increments
        self._aggressor: str | None = None

    def _post_forced_bets(self) -> int:
        """Post antes, blinds and straddles; return the seat index of the last poster."""
        g = self.game
        if g.ante:
            for pos in self._order:
                self._post_ante(self._players[pos], g.ante, own=True)
        sb_pos = self._order[1] if self._heads_up else "SB"
        bb = self._players["BB"]
        if g.bb_ante and g.rules.bba is BBAOrder.ANTE_FIRST:
            self._post_ante(bb, g.bb_ante)
        self._post_blind(self._players[sb_pos], g.small_blind, "small-blind")
        self._post_blind(bb, g.big_blind, "big-blind")
        if g.bb_ante and g.rules.bba is BBAOrder.BLIND_FIRST:
            self._post_ante(bb, g.bb_ante)
        self._nominal = g.big_blind
        last = self._order.index("BB")
        for k, amount in enumerate(g.straddles, start=1):
            seat = self._order[last + 1] if last + 1 < len(self._order) else None
            if seat is None or seat in (sb_pos, "BB"):
                raise EngineError(f"straddle {k} ({amount}) needs a seat after the big blind that posts no blind")
            self._post_blind(self._players[seat], amount, "straddle")
            self._nominal = amount
            last += 1
        if g.straddles:
            event = self.history[-1]
            if self._limit:
                self._levels = len(g.straddles)
            else:
                self._increment = g.straddles[-1]
            self._full = (event, g.straddles[-1])
        if self._limit:
            self._level = self._nominal
            self._levels += 1  # the big blind counts as the preflop bet
        return last

    def _post_ante(self, p: _Player, amount: int, *, own: bool = False) -> None:
        """Post an ante: ``own`` for a player's own ante, else the big-blind ante paid for the table."""
        paid = min(amount, p.stack)
        if paid == 0:
            return
        p.stack -= paid
        if own:
            p.ante += paid
        else:
            self._dead += paid
        if p.stack == 0:
            p.all_in = True
        self.history.append(Event(street=self.street, position=p.position, kind="ante", to=0, added=paid, all_in=p.all_in))

    def _post_blind(self, p: _Player, amount: int, kind: str) -> None:
        paid = min(amount, p.stack)
        p.put(paid)
        self._top = max(self._top, p.committed)
        p.forced = kind
        p.nominal = amount
        event = Event(street=self.street, position=p.position, kind=kind, to=p.committed, added=paid, all_in=p.all_in)
        self.history.append(event)
        if p.committed >= self._current_raw():
            self._setter = event

    # ------------------------------------------------------------ derived state

    def _current_raw(self) -> int:
        return self._top

    @property
    def current_total(self) -> int:
        """① — preflop never below the full big blind or straddle (R-SHORTBLIND).

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)), stacks={"SB": 1000, "BB": 60, "BTN": 1000})
        >>> hand.current_total  # BB is all-in for 60: the price is still the full blind
        100
        """
        return self._nominal if self._nominal > self._top else self._top

    @property
    def button(self) -> str | None:
        """The button's seat: heads-up the seat that is not the big blind (R-ORDER),
        else BTN when dealt in.

        >>> from trainer.engine import Game, GameType
        >>> Hand(game=Game(type=GameType.NO_LIMIT, blinds=(1, 2)), stacks={"SB": 100, "BB": 100}).button
        'SB'
        """
        if self._heads_up:
            return self._order[1]
        return "BTN" if "BTN" in self._players else None

    def game_positions(self) -> tuple[str, ...]:
        """Every seat dealt in, in seat order (from the small blind; heads-up from the big blind).

        >>> Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)), stacks={"BTN": 1000, "SB": 1000, "BB": 1000}).game_positions()
        ('SB', 'BB', 'BTN')
        """
        return tuple(self._order)

    @property
    def to_act(self) -> str | None:
        """The seat whose turn it is, or None once betting is over (R-ORDER).

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
        >>> hand.to_act
        'BTN'
        >>> _ = hand.apply(Action(position="BTN", kind=ActionKind.FOLD))
        >>> hand.to_act
        'SB'
        """
        return self._to_act

    @property
    def betting_over(self) -> bool:
        """True once nobody is left to act on any street: the pots can be made (``result``).

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
        >>> for seat in ("BTN", "SB"):
        ...     _ = hand.apply(Action(position=seat, kind=ActionKind.FOLD))
        >>> hand.betting_over, hand.to_act
        (True, None)
        """
        return self._over

    @property
    def pot(self) -> int:
        """Every chip put in this hand: the starting pot, antes, blinds and bets, before any return.

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
        >>> _ = hand.apply(Action(position="BTN", kind=ActionKind.RAISE, amount=300))
        >>> hand.pot
        450
        """
        return self._dead + sum(p.total + p.ante for p in self._players.values())

    @property
    def seats(self) -> list[Seat]:
        """Each seat's chips and state, in seat order; ``total`` leaves out a player's own ante (R-ANTE).

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
        >>> hand.seats[0]
        Seat(position='SB', stack=950, committed=50, total=50, folded=False, all_in=False, acted=False)
        """
        return [
            Seat(
                position=p.position,
                stack=p.stack,
                committed=p.committed,
                total=p.total,
                folded=p.folded,
                all_in=p.all_in,
                acted=p.acted,
            )
            for p in self._players.values()
        ]

    def _live(self) -> list[_Player]:
        return [p for p in self._seats if not p.folded]

    def _next_needing_action(self, start: int) -> str | None:
        seats = self._seats
        n = len(seats)
        current = self.current_total
        for k in range(n):
            p = seats[(start + k) % n]
            if not p.folded and not p.all_in and (not p.acted or p.committed < current):
                return p.position
        return None

    # ------------------------------------------------------------------ card

    def card(self) -> Card | None:
        """The four-column card for the player to act, or None once betting is over.

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
        >>> _ = hand.apply(Action(position="BTN", kind=ActionKind.RAISE, amount=300))
        >>> hand.card()
        Card(current_total=300, last_full_increment=200, committed=50, acted=False, to_add=250)
        """
        if self._to_act is None:
            return None
        p = self._players[self._to_act]
        current = self.current_total
        return Card(
            current_total=current,
            last_full_increment=self._increment,
            committed=p.committed,
            acted=p.acted,
            to_add=current - p.committed,
        )

    def options(self) -> Options | None:
        """What the player to act may do; bet and raise ranges are "to" totals. None once betting is over.

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
        >>> hand.options()
        Options(fold=True, check=False, call=100, bet=None, raise_=Range(min=200, max=1000))
        """
        if self._to_act is None:
            return None
        return self._options(self._players[self._to_act], None)

    def _options(self, p: _Player, steps: list[Step] | None) -> Options:
        current = self.current_total
        to_add = current - p.committed
        wager = self._wager_range(p, steps)
        return Options(
            fold=True,
            check=to_add == 0,
            call=min(to_add, p.stack) if to_add > 0 else None,
            bet=wager if current == 0 else None,
            raise_=wager if current > 0 else None,
        )

    def _wager_range(self, p: _Player, steps: list[Step] | None) -> Range | None:
        """The legal bet or raise-to totals for ``p``, or None; ``steps`` collects the why."""
        if steps is None:
            # the same state asks twice (options, then apply): answer from the last look
            key = (len(self.history), p.position)
            if self._range_cache is not None and self._range_cache[0] == key:
                return self._range_cache[1]
            found = self._wager_range_explained(p, None)
            self._range_cache = (key, found)
            return found
        return self._wager_range_explained(p, steps)

    def _wager_range_explained(self, p: _Player, steps: list[Step] | None) -> Range | None:
        current = self.current_total
        to_add = current - p.committed
        # Nobody asked why (``steps`` is None): ``say`` is None and no step is built at all; this
        # runs at every decision, where even a call that does nothing costs (benchmarks/engine.py).
        say = None if steps is None else _collector(steps)
        if p.stack <= to_add:
            if say:
                say(None, "opt.no_chips", pos=p.position)
            return None
        for q in self._seats:
            if q is not p and not q.folded and q.committed + q.stack > current:
                break
        else:
            if say and current:
                say("R-NOOPPONENT", "opt.no_opponent", pos=p.position, current=current)
            elif say:
                say("R-NOOPPONENT", "opt.no_opponent_bet")
            return None
        if p.acted and not self._reopened(p, to_add, say):
            return None
        if say and not p.acted and current:
            say("R-REOPEN", "opt.not_acted", pos=p.position, street=self.street)
        all_in_to = p.committed + p.stack
        if self._limit:
            low = high = self._limit_target(p, say)
            if low is None:
                return None
        else:
            low = current + self._increment
            if say and current:
                say("R-MINRAISE", "opt.min_raise", current=current, increment=self._increment, amount=low)
            elif say:
                say("R-MINBET", "opt.min_bet", amount=low)
            high = self._pot_limit_max(p, say) if self.game.type is GameType.POT_LIMIT else all_in_to
            if say and high == all_in_to and self.game.type is GameType.NO_LIMIT:
                say(None, "opt.max_nl", pos=p.position, amount=high)
        if all_in_to < low:
            if say:
                say(None, "opt.allin_only", pos=p.position, amount=all_in_to, min=low)
            return Range(min=all_in_to, max=all_in_to)
        if all_in_to < high:
            if say:
                say(None, "opt.max_stack", pos=p.position, amount=all_in_to)
            high = all_in_to
        return Range(min=low, max=max(low, high))

    def _reopened(self, p: _Player, to_add: int, say) -> bool:
        if self._limit:
            size = self.game.bet_size(self.street)
            if 2 * to_add >= size:
                if say:
                    say("R-LIMIT", "opt.limit_reopened", pos=p.position, amount=to_add, size=size)
                return True
            if say:
                say("R-LIMIT", "opt.limit_not_reopened", pos=p.position, amount=to_add, size=size)
            return False
        full = self._increment
        if self.game.rules.reopen is Reopen.EXCEED:
            if p.seq != self._seq:
                if say:
                    say("R-REOPEN", "opt.reopened_full", pos=p.position)
                return True
            if to_add > full:
                if say:
                    say("R-REOPEN", "opt.reopened_exceed", pos=p.position, amount=to_add, full=full)
                return True
            if say:
                say("R-REOPEN", "opt.not_reopened_exceed", pos=p.position, amount=to_add, full=full)
            return False
        if to_add >= full:
            if say:
                say("R-REOPEN", "opt.reopened", pos=p.position, amount=to_add, full=full)
            return True
        if say:
            say("R-REOPEN", "opt.not_reopened", pos=p.position, amount=to_add, full=full)
        return False

    def _limit_target(self, p: _Player, say) -> int | None:
        size = self.game.bet_size(self.street)
        rules = self.game.rules
        uncapped = not rules.limit_cap_heads_up and len(self._live()) == 2
        if self._levels >= 1 + rules.limit_cap and not uncapped:
            if say:
                say("R-LIMIT", "opt.limit_capped", raises=rules.limit_cap, street=self.street)
            return None
        if say and self._levels >= 1 + rules.limit_cap:
            say("R-LIMIT", "opt.limit_uncapped")
        if self.current_total == 0:
            if say:
                say("R-LIMIT", "opt.limit_bet", amount=size)
            return size
        target = self._level + size
        if say:
            say("R-LIMIT", "opt.limit_raise", level=self._level, size=size, amount=target)
        return target

    def _pot_limit_max(self, p: _Player, say) -> int:
        current = self.current_total
        to_add = current - p.committed
        preflop = self.street is Street.PREFLOP
        street_chips = sum(
            max(q.committed, q.nominal) if preflop else q.committed for q in self._players.values()
        )
        before = self.pot - sum(q.committed for q in self._players.values())
        pot = before + street_chips + to_add
        high = current + pot
        if say and current:
            say(
                "R-POTLIMIT",
                "opt.max_pl",
                before=before,
                street_chips=street_chips,
                to_add=to_add,
                current=current,
                pot=pot,
                amount=high,
            )
        elif say:
            say("R-POTLIMIT", "opt.max_pl_bet", amount=high)
        if say and preflop and any(q.nominal > q.committed for q in self._players.values()):
            say("R-POTLIMIT", "opt.pl_full_blinds")
        return high

    # ------------------------------------------------------------ derivation

    def derivation(self) -> list[Step]:
        """Where each column of the card and each option comes from, step by step.

        Each ``Step`` names the column it explains and the rule that decides it;
        once betting is over the steps explain the pots and the showdown instead.

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
        >>> _ = hand.apply(Action(position="BTN", kind=ActionKind.RAISE, amount=300))
        >>> [str(step) for step in hand.derivation() if step.topic == "last_full_increment"]
        ['BTN raised to 300, adding 200: the last full increment is 200 (R-MINRAISE).']
        """
        if self._to_act is None:
            return self._explain_result()
        p = self._players[self._to_act]
        steps: list[Step] = []
        previous = self._previous_street()
        if previous is not None:
            steps.append(Step("to_act", _m("ord.round_ended", street=_term(previous), next=_term(self.street)), "R-ROUNDEND"))
        steps += [self._explain_order(p), self._explain_current()]
        steps += self._explain_increment()
        steps += self._explain_committed(p)
        current = self.current_total
        to_add = current - p.committed
        steps.append(
            Step("to_add", _m("add.formula", current=current, committed=p.committed, amount=to_add))
        )
        if p.stack <= to_add:
            steps.append(Step("to_add", _m("add.short_stack", pos=p.position, stack=p.stack)))
        if to_add == 0 and current and not p.acted:
            steps.append(Step("options", _m("opt.option", pos=p.position), "R-ROUNDEND"))
        if to_add == 0:
            steps.append(Step("options", _m("opt.check", pos=p.position)))
            steps.append(Step("options", _m("opt.fold_free"), None))
        else:
            steps.append(Step("options", _m("opt.call", pos=p.position, amount=min(to_add, p.stack))))
        self._options(p, steps)
        steps += self._explain_pot()
        return steps

    def _previous_street(self) -> Street | None:
        """The street just played out, when nobody has acted yet on this one."""
        if any(e.street is self.street and e.kind not in _FORCED for e in self.history):
            return None
        earlier = [e.street for e in self.history if e.street is not self.street and e.kind not in _FORCED]
        return earlier[-1] if earlier else None

    def _explain_order(self, p: _Player) -> Step:
        voluntary = [e for e in self.history if e.street is self.street and e.kind not in _FORCED]
        if voluntary:
            return Step("to_act", _m("ord.next", pos=p.position), "R-ORDER")
        if self.street is not Street.PREFLOP:
            if self._heads_up:
                return Step("to_act", _m("ord.heads_up_postflop", button=self._order[1], pos=p.position), "R-ORDER")
            return Step("to_act", _m("ord.postflop", pos=p.position), "R-ORDER")
        if self._heads_up:
            return Step("to_act", _m("ord.heads_up", pos=p.position), "R-ORDER")
        last = "straddle" if self.game.straddles else "big-blind"
        return Step("to_act", _m("ord.preflop", pos=p.position, last=_term(last)), "R-ORDER")

    def _explain_pot(self) -> list[Step]:
        steps = []
        antes = sum(e.added for e in self.history if e.kind == "ante")
        if antes:
            steps.append(Step("pot", _m("pot.antes", amount=antes), "R-ANTE"))
        steps.append(Step("pot", _m("pot.total", amount=self.pot)))
        return steps

    def _explain_result(self) -> list[Step]:
        result = self.result()
        steps = [Step("pots", _m("opt.over"))]
        if self._alone is not None:
            steps.append(Step("pots", _m("res.nobody_left", pos=self._alone), "R-ROUNDEND"))
        for pos, amount in result.returned.items():
            steps.append(Step("pots", _m("res.returned", pos=pos, amount=amount), "R-UNCALLED"))
        steps += [s for s in self._explain_pot() if s.rule]
        for p in self._live():
            if p.all_in and p.ante < self.game.ante:
                steps.append(Step("pots", _m("res.short_ante", pos=p.position, amount=p.ante, ante=self.game.ante), "R-ANTE"))
        if len(result.pots) > 1:
            steps.append(Step("pots", _m("res.layers"), "R-SIDEPOTS"))
        for number, pot in enumerate(result.pots):
            players = list(pot.eligible)
            if number == 0:
                steps.append(Step("pots", _m("res.main", amount=pot.amount, players=players), "R-SIDEPOTS"))
            else:
                steps.append(Step("pots", _m("res.side", number=number, amount=pot.amount, players=players), "R-SIDEPOTS"))
        showdown = result.showdown
        if showdown is None:
            steps.append(Step("showdown", _m("res.won", pos=self._live()[0].position)))
        elif showdown.all_tabled:
            steps.append(Step("showdown", _m("res.all_tabled"), "R-SHOWDOWN"))
        elif showdown.first == self._aggressor:
            steps.append(Step("showdown", _m("res.last_aggressor", pos=showdown.first), "R-SHOWDOWN"))
        else:
            steps.append(Step("showdown", _m("res.first_clockwise", pos=showdown.first), "R-SHOWDOWN"))
        return steps

    def split(self, winners: list[list[str]], chip: int = 1) -> tuple[list[dict[str, int]], list[Step]]:
        """R-ODDCHIP: split each pot among its winners; odd chips go clockwise from the button.

        ``winners`` lists each pot's winners, main pot first (as ``reading.read``
        gives them); ``chip`` is the smallest chip in play. Returns each pot's
        shares and the steps that explain them.

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        ...             stacks={"BB": 1000, "BTN": 1000}, start=Street.FLOP, pot=101)
        >>> _ = hand.apply(Action(position="BB", kind=ActionKind.ALLIN))
        >>> _ = hand.apply(Action(position="BTN", kind=ActionKind.CALL))
        >>> shares, steps = hand.split([["BB", "BTN"]])
        >>> shares
        [{'BB': 1051, 'BTN': 1050}]
        >>> str(steps[-1])
        'The odd chip goes to BB, the first winner clockwise from the button (R-ODDCHIP).'
        """
        pots = self.result().pots
        if len(winners) != len(pots):
            there = "there is 1 pot" if len(pots) == 1 else f"there are {len(pots)} pots"
            raise EngineError(f"{there} but winners are given for {_pots(len(winners))}")
        if chip <= 0:
            raise EngineError("the smallest chip must be at least 1")
        shares: list[dict[str, int]] = []
        steps: list[Step] = []
        for number, (pot, names) in enumerate(zip(pots, winners)):
            unknown = [n for n in names if n not in pot.eligible]
            if not names or unknown:
                raise EngineError(
                    f"pot {number} can be won only by {', '.join(pot.eligible)}"
                    + (f", not {', '.join(unknown)}" if unknown else "")
                )
            ordered = [pos for pos in self._order if pos in names]
            units, rest = divmod(pot.amount, chip)
            each, odd = divmod(units, len(ordered))
            share = {pos: each * chip for pos in ordered}
            for pos in ordered[:odd]:
                share[pos] += chip
            share[ordered[0]] += rest
            shares.append(share)
            name = _m("pot.main") if number == 0 else _m("pot.side", number=number)
            if len(ordered) == 1:  # nothing to split, and no odd chip to give
                steps.append(Step("split", _m("res.single", pot=name, amount=pot.amount, pos=ordered[0]), "R-ODDCHIP"))
                continue
            parts = [_m("res.share", pos=pos, amount=amount) for pos, amount in share.items()]
            steps.append(Step("split", _m("res.split", pot=name, amount=pot.amount, players=ordered, chip=chip, shares=parts), "R-ODDCHIP"))
            if odd or rest:
                steps.append(Step("split", _m("res.odd_chip", pos=ordered[0]), "R-ODDCHIP"))
        return shares, steps

    def _explain_current(self) -> Step:
        current = self.current_total
        street = _term(self.street)
        if current == 0:
            return Step("current_total", _m("cur.none", street=street))
        setter = self._setter
        if setter is None or setter.kind in ("small-blind", "big-blind"):
            bb = self._players["BB"]
            if bb.committed < self.game.big_blind:
                return Step(
                    "current_total",
                    _m("cur.short_blind", pos="BB", posted=bb.committed, amount=current),
                    "R-SHORTBLIND",
                )
            return Step("current_total", _m("cur.blind", amount=current))
        if setter.kind == "straddle":
            return Step("current_total", _m("cur.straddle", pos=setter.position, amount=current), "R-STRADDLE")
        kind = "allin" if setter.all_in else setter.kind
        return Step("current_total", _m(f"cur.{kind}", pos=setter.position, amount=setter.to))

    def _explain_increment(self) -> list[Step]:
        steps: list[Step] = []
        if self._limit:
            size = self.game.bet_size(self.street)
            steps.append(Step("last_full_increment", _m("inc.limit", street=_term(self.street), amount=size), "R-LIMIT"))
            if self._full is not None and self._full[0].all_in:
                event = self._full[0]
                steps.append(
                    Step(
                        "last_full_increment",
                        _m("inc.limit_half", pos=event.position, to=event.to, level=event.to - self._full[1], size=size),
                        "R-LIMIT",
                    )
                )
            for event, _ in self._shorts:
                steps.append(
                    Step(
                        "last_full_increment",
                        _m("inc.limit_short", pos=event.position, to=event.to, level=self._level, size=size),
                        "R-LIMIT",
                    )
                )
            return steps
        if self._full is None:
            if self.street is Street.PREFLOP:
                steps.append(Step("last_full_increment", _m("inc.blind", amount=self.game.big_blind), "R-MINRAISE"))
            else:
                steps.append(
                    Step("last_full_increment", _m("inc.street", street=_term(self.street), amount=self.game.big_blind), "R-MINBET")
                )
        else:
            event, inc = self._full
            if event.kind == "straddle":
                steps.append(Step("last_full_increment", _m("inc.straddle", pos=event.position, to=event.to, amount=inc), "R-STRADDLE"))
            elif event.kind == "bet":
                steps.append(Step("last_full_increment", _m("inc.bet", pos=event.position, to=event.to, amount=inc), "R-MINBET"))
            else:
                steps.append(Step("last_full_increment", _m("inc.raise", pos=event.position, to=event.to, amount=inc), "R-MINRAISE"))
        for event, inc in self._shorts:
            steps.append(
                Step(
                    "last_full_increment",
                    _m("inc.short", pos=event.position, to=event.to, added=inc, full=self._increment),
                    "R-SHORTALLIN",
                )
            )
        return steps

    def _explain_committed(self, p: _Player) -> list[Step]:
        street = _term(self.street)
        if p.committed == 0:
            first = _m("com.none", pos=p.position, street=street)
        elif not p.acted and p.forced:
            first = _m("com.blind", pos=p.position, amount=p.committed, blind=_term(p.forced))
        else:
            first = _m("com.in", pos=p.position, amount=p.committed, street=street)
        if p.acted:
            second = _m("com.acted", pos=p.position, street=street, last=_term(p.last or "check"))
        else:
            second = _m("com.not_acted", pos=p.position, street=street)
        return [Step("committed", first), Step("committed", second)]

    # ----------------------------------------------------------------- actions

    def legal(self, action: Action) -> bool:
        """Whether ``action`` may be made now; ``verify`` says why not.

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
        >>> hand.legal(Action(position="BTN", kind=ActionKind.RAISE, amount=150))
        False
        >>> hand.legal(Action(position="BTN", kind=ActionKind.RAISE, amount=200))
        True
        """
        try:
            self._resolve(action)
        except IllegalActionError:
            return False
        return True

    def verify(self, action: Action) -> None:
        """Raise ``IllegalActionError`` unless ``action`` is legal now.

        The error's text is a full sentence naming the rule and what is legal.

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
        >>> hand.verify(Action(position="BTN", kind=ActionKind.RAISE, amount=150))
        Traceback (most recent call last):
        ...
        trainer.engine.messages.IllegalActionError: The minimum raise is to 200 (the last full raise added 100) (R-MINRAISE); BTN may fold, call 100, or raise to 200–1000.
        """
        self._resolve(action)

    def apply(self, action: Action) -> Event:
        """Apply a legal action and move the turn on; return the recorded event.

        An illegal action raises ``IllegalActionError`` and changes nothing.
        ``ActionKind.ALLIN`` becomes the call, bet or raise it amounts to.

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
        >>> hand.apply(Action(position="BTN", kind=ActionKind.RAISE, amount=300))
        Event(street=<Street.PREFLOP: 'preflop'>, position='BTN', kind='raise', to=300, added=300, all_in=False, full=True)
        >>> hand.apply(Action(position="SB", kind=ActionKind.ALLIN)).kind
        'raise'
        """
        kind, to = self._resolve(action)
        p = self._players[action.position]
        current = self.current_total
        if kind is ActionKind.FOLD:
            p.folded = True
            event = Event(street=self.street, position=p.position, kind="fold", to=p.committed, added=0)
        elif kind is ActionKind.CHECK:
            event = Event(street=self.street, position=p.position, kind="check", to=p.committed, added=0)
        elif kind is ActionKind.CALL:
            added = min(current - p.committed, p.stack)
            p.put(added)
            self._top = max(self._top, p.committed)
            event = Event(street=self.street, position=p.position, kind="call", to=p.committed, added=added, all_in=p.all_in)
        else:
            event = self._wager(p, kind, to, current)
        p.acted = True
        p.last = event.kind
        p.seq = self._seq
        self.history.append(event)
        self._continue_after(p.index)
        return event

    def _wager(self, p: _Player, kind: ActionKind, to: int, current: int) -> Event:
        added = to - p.committed
        p.put(added)
        self._top = max(self._top, to)
        increment = to - current
        if self._limit:
            size = self.game.bet_size(self.street)
            full = 2 * (to - self._level) >= size
        else:
            full = increment >= self._increment
        event = Event(
            street=self.street, position=p.position, kind=str(kind), to=to, added=added, all_in=p.all_in, full=full
        )
        if full:
            if self._limit:
                self._full = (event, to - self._level)
                self._level = to
                self._levels += 1
            else:
                self._full = (event, increment)
                self._increment = increment
            self._seq += 1
            self._shorts = []
        else:
            self._shorts.append((event, increment))
        self._setter = event
        self._aggressor = p.position
        return event

    def _resolve(self, action: Action) -> tuple[ActionKind, int]:
        """Check ``action`` and return its normalised kind and "to" total."""
        if self._over:
            raise IllegalActionError(_m("err.over"), None, None)
        p = self._players.get(action.position)
        if p is None or p.folded:
            raise IllegalActionError(_m("err.unknown_seat", pos=action.position), None, self._legal())
        if action.position != self._to_act:
            raise IllegalActionError(
                _m("err.turn", to_act=self._to_act, pos=action.position), "R-ORDER", self._legal()
            )
        current = self.current_total
        to_add = current - p.committed
        kind = action.kind
        to = p.committed
        if kind is ActionKind.ALLIN:
            to = p.committed + p.stack
            kind = ActionKind.CALL if to <= current else ActionKind.BET if current == 0 else ActionKind.RAISE
        elif kind in (ActionKind.BET, ActionKind.RAISE):
            if action.amount is None or action.amount <= 0:
                raise IllegalActionError(_m("err.amount"), None, self._legal())
            to = action.amount
        if kind is ActionKind.FOLD:
            return kind, p.committed
        if kind is ActionKind.CHECK:
            if to_add:
                raise IllegalActionError(_m("err.check", pos=p.position, amount=min(to_add, p.stack)), "R-INVALIDDECL", self._legal())
            return kind, p.committed
        if kind is ActionKind.CALL:
            if not to_add:
                raise IllegalActionError(_m("err.call", pos=p.position), "R-INVALIDDECL", self._legal())
            return kind, p.committed + min(to_add, p.stack)
        if kind is ActionKind.BET and current:
            raise IllegalActionError(
                _m("err.bet_facing", pos=p.position, current=current, street=_term(self.street)), None, self._legal()
            )
        if kind is ActionKind.RAISE and not current:
            raise IllegalActionError(
                _m("err.raise_no_bet", pos=p.position, street=_term(self.street)), None, self._legal()
            )
        self._check_wager(p, kind, to, current)
        return kind, to

    def _check_wager(self, p: _Player, kind: ActionKind, to: int, current: int) -> None:
        if to > p.committed + p.stack:
            raise IllegalActionError(_m("err.stack", pos=p.position, amount=p.committed + p.stack), None, self._legal())
        if to <= current:
            raise IllegalActionError(_m("err.not_above", current=current), "R-MINRAISE", self._legal())
        allowed = self._wager_range(p, None)
        if allowed is None:
            why: list[Step] = []
            self._wager_range(p, why)
            reason = why[-1]
            raise IllegalActionError(reason.message, reason.rule, self._legal())
        if allowed.min <= to <= allowed.max:
            return
        if self._limit:
            raise IllegalActionError(_m("err.limit", amount=allowed.min), "R-LIMIT", self._legal())
        if to > allowed.max:
            raise IllegalActionError(_m("err.max_pl", max=allowed.max), "R-POTLIMIT", self._legal())
        if kind is ActionKind.BET:
            raise IllegalActionError(_m("err.min_bet", min=current + self._increment), "R-MINBET", self._legal())
        raise IllegalActionError(
            _m("err.min_raise", min=current + self._increment, increment=self._increment), "R-MINRAISE", self._legal()
        )

    def _legal(self) -> Message | None:
        """What the player to act may do, as one message ("CO may fold, call 1000, or ...")."""
        if self._to_act is None:
            return None
        options = self.options()
        p = self._players[self._to_act]
        choices = [_m("choice.fold")]
        if options.check:
            choices.append(_m("choice.check"))
        if options.call is not None:
            all_in = options.call == p.stack
            choices.append(_m("choice.call_allin" if all_in else "choice.call", amount=options.call))
        for rng, name in ((options.bet, "bet"), (options.raise_, "raise")):
            if rng is None:
                continue
            if rng.min == rng.max == p.committed + p.stack:
                choices.append(_m(f"choice.{name}_allin", amount=rng.min))
            elif rng.min == rng.max:
                choices.append(_m(f"choice.{name}_one", amount=rng.min))
            else:
                choices.append(_m(f"choice.{name}", min=rng.min, max=rng.max))
        return _m("legal", pos=self._to_act, choices=tuple(choices))

    # --------------------------------------------------------------- the turn

    def _continue_after(self, index: int) -> None:
        live = 0
        able: list[_Player] = []
        for p in self._seats:
            if not p.folded:
                live += 1
                if not p.all_in:
                    able.append(p)
        if live == 1:
            self._finish()
            return
        nxt = self._next_needing_action(index + 1)
        if nxt is not None and len(able) == 1 and self._nobody_to_play(able[0]):
            self._alone, nxt = nxt, None
        if nxt is None:
            self._end_street()
        else:
            self._to_act = nxt

    def _nobody_to_play(self, p: _Player) -> bool:
        """R-ROUNDEND: everyone else still in is all-in and ``p`` has put in at
        least the largest of their totals; the excess comes back (R-UNCALLED)."""
        mine = p.total + p.ante
        return all(q.total + q.ante <= mine for q in self._seats if q is not p and not q.folded)

    def _end_street(self) -> None:
        able = [p for p in self._live() if not p.all_in]
        if self.street is Street.RIVER or len(able) <= 1:
            self._finish()
            return
        self._begin_street(self.street.next)
        self._to_act = self._next_needing_action(0)

    def _finish(self) -> None:
        self._over = True
        self._to_act = None

    # ----------------------------------------------------------------- result

    def result(self) -> Result:
        """Returned chips, main and side pots, showdown order (R-UNCALLED, R-SIDEPOTS, R-SHOWDOWN).

        Only once betting is over; before that it raises ``EngineError``.

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
        >>> _ = hand.apply(Action(position="BTN", kind=ActionKind.RAISE, amount=400))
        >>> _ = hand.apply(Action(position="SB", kind=ActionKind.FOLD))
        >>> _ = hand.apply(Action(position="BB", kind=ActionKind.FOLD))
        >>> hand.result()
        Result(pots=(Pot(amount=250, eligible=('BTN',)),), returned={'BTN': 300}, showdown=None)
        """
        if not self._over:
            raise EngineError("the pots are made only once betting is over")
        # Table stakes: a player's own ante counts with his live chips, so a
        # player all-in for part of his ante caps the main pot there (R-ANTE).
        totals = {pos: p.total + p.ante for pos, p in self._players.items()}
        returned = _uncalled(totals)
        for pos, amount in returned.items():
            totals[pos] -= amount
        live = self._live()
        levels = sorted({totals[p.position] for p in live if p.all_in} | {max(totals.values())})
        pots: list[Pot] = []
        floor = 0
        for level in levels:
            amount = sum(min(t, level) - min(t, floor) for t in totals.values())
            eligible = tuple(p.position for p in live if totals[p.position] >= level)
            if not pots:
                amount += self._dead
            if pots and (not eligible or eligible == pots[-1].eligible):
                pots[-1] = Pot(amount=pots[-1].amount + amount, eligible=pots[-1].eligible)
            elif amount or not pots:
                pots.append(Pot(amount=amount, eligible=eligible))
            floor = level
        return Result(pots=tuple(pots), returned=returned, showdown=self._showdown(live))

    def _showdown(self, live: list[_Player]) -> Showdown | None:
        if len(live) < 2:
            return None
        if any(p.all_in for p in live):
            return Showdown(all_tabled=True, first=None)
        aggressor = self._aggressor
        if aggressor is not None and not self._players[aggressor].folded:
            return Showdown(all_tabled=False, first=aggressor)
        return Showdown(all_tabled=False, first=live[0].position)

    def solve(self) -> dict:
        """The answers in the shape of ``trainer solve --json`` (without id and file).

        >>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        ...             stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
        >>> hand.solve()["options"]
        {'fold': True, 'check': False, 'call': 100, 'bet': None, 'raise': {'min_to': 200, 'max_to': 1000}}
        """
        card = self.card()
        options = self.options()
        out: dict = {
            "street": str(self.street),
            "to_act": self._to_act,
            "card": None if card is None else {
                "current_total": card.current_total,
                "last_full_increment": card.last_full_increment,
                "committed": card.committed,
                "acted": card.acted,
                "to_add": card.to_add,
            },
            "options": None if options is None else options.as_dict(),
            "pot": self.pot,
        }
        if self._over:
            result = self.result()
            out["pots"] = [{"amount": pot.amount, "eligible": list(pot.eligible)} for pot in result.pots]
            out["returned"] = dict(result.returned)
            if result.showdown is not None:
                out["showdown"] = {"all_tabled": result.showdown.all_tabled, "first": result.showdown.first}
        return out


def _uncalled(totals: dict[str, int]) -> dict[str, int]:
    """R-UNCALLED: the part of the largest contribution that nobody matched."""
    ranked = sorted(totals.items(), key=lambda item: item[1], reverse=True)
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        return {}
    return {ranked[0][0]: ranked[0][1] - ranked[1][1]}


def _pots(count: int) -> str:
    return "1 pot" if count == 1 else f"{count} pots"


def _check_setup(game: Game, stacks: dict[str, int], start: Street, pot: int) -> None:
    unknown = [pos for pos in stacks if pos not in SEAT_INDEX]
    if unknown:
        raise EngineError(f"unknown position {unknown[0]!r}; positions are {', '.join(POSITIONS)}")
    if len(stacks) < 2:
        raise EngineError("a hand needs at least two players")
    for pos, stack in stacks.items():
        if not isinstance(stack, int) or isinstance(stack, bool) or stack <= 0:
            raise EngineError(f"the stack of {pos} must be a whole number of chips greater than 0")
    sb, bb = game.blinds
    if not 0 < sb <= bb:
        raise EngineError("the blinds must be positive with the small blind no larger than the big blind")
    if pot < 0:
        raise EngineError("the pot cannot be negative")
    if start is Street.PREFLOP:
        if "BB" not in stacks:
            raise EngineError("a hand starting preflop needs a BB")
        if "SB" not in stacks and len(stacks) != 2:
            raise EngineError("a hand starting preflop with three or more players needs an SB (with two, the seat that is not the BB is the button and posts the small blind)")
    previous = bb
    for amount in game.straddles:
        if amount <= previous:
            raise EngineError(f"each straddle must be larger than the bet before it ({amount} is not above {previous})")
        previous = amount
