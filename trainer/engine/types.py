"""Value types shared by the engine and its callers.

Everything that crosses the engine's boundary is a frozen, keyword-only
dataclass or a ``StrEnum``; amounts are whole chips (``int``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

#: Seat names in their fixed clockwise order (SCENARIO-FORMAT.md, "Positions").
POSITIONS: tuple[str, ...] = ("SB", "BB", "UTG", "UTG+1", "UTG+2", "MP", "LJ", "HJ", "CO", "BTN")
SEAT_INDEX = {name: i for i, name in enumerate(POSITIONS)}


class GameType(StrEnum):
    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"


class Street(StrEnum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"

    @property
    def next(self) -> Street | None:
        """The street after this one, None after the river.

        >>> Street.FLOP.next, Street.RIVER.next
        (<Street.TURN: 'turn'>, None)
        """
        order = list(Street)
        i = order.index(self)
        return order[i + 1] if i + 1 < len(order) else None


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALLIN = "allin"


class Reopen(StrEnum):
    AT_LEAST = "at-least"  # TDA24 47-A: facing at least a full raise reopens
    EXCEED = "exceed"  # WSOP-T 96.a: short all-ins must add up to more than a full raise


class BBAOrder(StrEnum):
    BLIND_FIRST = "blind-first"  # TDA24 RP-11
    ANTE_FIRST = "ante-first"


@dataclass(frozen=True, kw_only=True)
class Rules:
    """The options of RULES.md "Engine defaults and options".

    >>> Rules(reopen="exceed").reopen
    <Reopen.EXCEED: 'exceed'>
    >>> Rules(reopen="sometimes")
    Traceback (most recent call last):
    ...
    ValueError: 'sometimes' is not a valid Reopen
    """

    reopen: Reopen = Reopen.AT_LEAST
    bba: BBAOrder = BBAOrder.BLIND_FIRST
    limit_cap: int = 4
    limit_cap_heads_up: bool = True

    def __post_init__(self) -> None:
        # accept the option names as plain strings ("exceed"); an unknown name raises ValueError
        object.__setattr__(self, "reopen", Reopen(self.reopen))
        object.__setattr__(self, "bba", BBAOrder(self.bba))
        if self.limit_cap < 1:
            raise ValueError("limit_cap must be at least 1")


@dataclass(frozen=True, kw_only=True)
class Game:
    """The game: betting structure, forced bets and the rule options.

    ``type`` accepts the contract's names ("no-limit", "pot-limit",
    "fixed-limit"); ``bets`` are fixed limit's small and big bet.

    >>> Game(type="pot-limit", blinds=(50, 100)).type
    <GameType.POT_LIMIT: 'pot-limit'>
    """

    type: GameType
    blinds: tuple[int, int]
    ante: int = 0
    bb_ante: int = 0
    straddles: tuple[int, ...] = ()
    bets: tuple[int, int] | None = None
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", GameType(self.type))

    @property
    def small_blind(self) -> int:
        """The small blind.

        >>> Game(type=GameType.NO_LIMIT, blinds=(50, 100)).small_blind
        50
        """
        return self.blinds[0]

    @property
    def big_blind(self) -> int:
        """The big blind.

        >>> Game(type=GameType.NO_LIMIT, blinds=(50, 100)).big_blind
        100
        """
        return self.blinds[1]

    @property
    def limit_bets(self) -> tuple[int, int]:
        """Fixed limit's small and big bet: ``bets``, else one and two big blinds.

        >>> Game(type=GameType.FIXED_LIMIT, blinds=(50, 100)).limit_bets
        (100, 200)
        """
        return self.bets or (self.big_blind, 2 * self.big_blind)

    def bet_size(self, street: Street) -> int:
        """Fixed-limit bet size: small bet preflop and flop, big bet turn and river.

        >>> Game(type=GameType.FIXED_LIMIT, blinds=(50, 100)).bet_size(Street.TURN)
        200
        """
        small, big = self.limit_bets
        return small if street in (Street.PREFLOP, Street.FLOP) else big


@dataclass(frozen=True, kw_only=True)
class Action:
    """What a player does; ``amount`` is the "to" total of a bet or raise.

    >>> str(Action(position="CO", kind=ActionKind.RAISE, amount=1400))
    'CO raise 1400'
    """

    position: str
    kind: ActionKind
    amount: int | None = None  # the "to" total for BET and RAISE

    def __str__(self) -> str:
        return f"{self.position} {self.kind}" + (f" {self.amount}" if self.amount is not None else "")


@dataclass(frozen=True, kw_only=True)
class Card:
    """The four-column card (RULES.md): ① ② ③ (+ acted) ④."""

    current_total: int
    last_full_increment: int
    committed: int
    acted: bool
    to_add: int



@dataclass(frozen=True, kw_only=True)
class Range:
    """The legal bet or raise-to totals, both ends included."""

    min: int
    max: int



@dataclass(frozen=True, kw_only=True)
class Options:
    """What the player to act may do: ``call`` is the amount to call, ``bet`` and ``raise_`` "to" ranges."""

    fold: bool
    check: bool
    call: int | None
    bet: Range | None
    raise_: Range | None


    def as_dict(self) -> dict:
        """The options as ``trainer solve --json`` writes them.

        >>> Options(fold=True, check=False, call=100, bet=None, raise_=Range(min=200, max=1000)).as_dict()
        {'fold': True, 'check': False, 'call': 100, 'bet': None, 'raise': {'min_to': 200, 'max_to': 1000}}
        """
        return {
            "fold": self.fold,
            "check": self.check,
            "call": self.call,
            "bet": None if self.bet is None else {"min": self.bet.min, "max": self.bet.max},
            "raise": None
            if self.raise_ is None
            else {"min_to": self.raise_.min, "max_to": self.raise_.max},
        }


@dataclass(frozen=True, kw_only=True)
class Seat:
    """One player's chips and state, as ``Hand.seats`` reports them."""

    position: str
    stack: int  # chips behind, not yet committed
    committed: int  # this street
    total: int  # live chips put in this hand (blinds and bets, not antes)
    folded: bool
    all_in: bool
    acted: bool


@dataclass(frozen=True, kw_only=True)
class Event:
    """One line of the action so far: forced bets and voluntary actions."""

    street: Street
    position: str
    kind: str  # ante small-blind big-blind straddle fold check call bet raise
    to: int  # the player's committed total on this street after the event (0 for antes)
    added: int  # chips put in by this event
    all_in: bool = False
    full: bool = True  # for bets and raises: a full bet/raise (False: a short all-in)



@dataclass(frozen=True, kw_only=True)
class Pot:
    """A main or side pot and the seats that can win it, in seat order."""

    amount: int
    eligible: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Showdown:
    """Who shows first (R-SHOWDOWN): ``all_tabled`` when someone is all-in, else ``first``."""

    all_tabled: bool
    first: str | None


@dataclass(frozen=True, kw_only=True)
class Result:
    """The end of betting: the pots (main first), chips returned uncalled, the showdown or None."""

    pots: tuple[Pot, ...]
    returned: dict[str, int]
    showdown: Showdown | None
