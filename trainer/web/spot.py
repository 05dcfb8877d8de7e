"""What the drill page shows of a spot: seats, board, pot and the action so far.

Everything is read from the engine's state (``hand.seats``, ``hand.history``,
``hand.pot``); this module only lays it out — where each seat sits on the
oval, how a card or an event reads — so the templates stay free of logic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from trainer.engine import Rules

# The SVG's coordinate system; CSS scales it to the page width.
WIDTH, HEIGHT = 680, 400
CX, CY = WIDTH / 2, HEIGHT / 2
TABLE_RX, TABLE_RY = 222, 124
SEAT_RX, SEAT_RY = 264, 160
SEAT_W, SEAT_H = 140, 54
BET_AT = 0.56  # fraction of the way from the centre to a seat
CARD_W, CARD_H, CARD_GAP = 38, 52, 6

SUITS = {
    "c": ("♣", "clubs", False),
    "d": ("♦", "diamonds", True),
    "h": ("♥", "hearts", True),
    "s": ("♠", "spades", False),
}
RANKS = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
RANK_NAMES = {"T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}

EVENT_TEXT = {
    "ante": "posts the ante",
    "small-blind": "posts the small blind",
    "big-blind": "posts the big blind",
    "straddle": "straddles",
    "fold": "folds",
    "check": "checks",
    "call": "calls",
    "bet": "bets",
    "raise": "raises",
}
# Events that set a street total ("to", 加到) worth showing.
TOTAL_KINDS = {"small-blind", "big-blind", "straddle", "call", "bet", "raise"}

GAME_NAMES = {"no-limit": "No-limit", "pot-limit": "Pot-limit", "fixed-limit": "Fixed-limit"}


@dataclass(frozen=True, kw_only=True)
class CardView:
    rank: str
    symbol: str
    red: bool
    name: str  # "king of clubs"
    x: float = 0
    y: float = 0

    @property
    def text(self) -> str:
        return f"{self.rank}{self.symbol}"


@dataclass(frozen=True, kw_only=True)
class SeatView:
    position: str
    name: str | None
    stack: int
    committed: int
    folded: bool
    all_in: bool
    to_act: bool
    button: bool
    x: float  # centre of the seat box
    y: float
    bet_x: float
    bet_y: float

    @property
    def label(self) -> str:
        return f"{self.position} · {self.name}" if self.name else self.position

    @property
    def status(self) -> str:
        if self.folded:
            return "folded"
        if self.all_in:
            return "all-in"
        return f"{self.stack:,} behind"


@dataclass(frozen=True, kw_only=True)
class EventView:
    position: str
    text: str
    to: int | None
    added: int


@dataclass(frozen=True, kw_only=True)
class StreetView:
    street: str
    events: tuple[EventView, ...]


@dataclass(frozen=True, kw_only=True)
class Spot:
    street: str
    game: str
    seats: tuple[SeatView, ...]
    board: tuple[CardView, ...]
    pot: int
    start_pot: int
    start: str
    to_act: str | None
    button: tuple[float, float] | None
    button_seat: str | None
    history: tuple[StreetView, ...]
    width: int = WIDTH
    height: int = HEIGHT
    seat_w: int = SEAT_W
    seat_h: int = SEAT_H
    card_w: int = CARD_W
    card_h: int = CARD_H
    cx: float = CX
    cy: float = CY
    table_rx: int = TABLE_RX
    table_ry: int = TABLE_RY

    @property
    def summary(self) -> str:
        who = f"{self.to_act} to act" if self.to_act else "betting is over"
        return f"{len(self.seats)} players on the {self.street}, pot {self.pot:,}, {who}"


def card_view(code: str) -> CardView:
    rank, suit = str(code)[:-1], str(code)[-1].lower()
    symbol, suit_name, red = SUITS.get(suit, ("?", suit, False))
    rank_name = RANK_NAMES.get(rank.upper(), rank)
    return CardView(rank=RANKS.get(rank.upper(), rank), symbol=symbol, red=red, name=f"{rank_name} of {suit_name}")


def game_line(game: Any) -> str:
    parts = [GAME_NAMES.get(str(game.type), str(game.type)), f"blinds {game.blinds[0]:,}/{game.blinds[1]:,}"]
    if game.ante:
        parts.append(f"ante {game.ante:,}")
    if game.bb_ante:
        parts.append(f"big-blind ante {game.bb_ante:,}")
    for i, amount in enumerate(game.straddles):
        parts.append(f"{'re-' * i}straddle {amount:,}")
    if str(game.type) == "fixed-limit":
        small, big = game.bets or (game.blinds[1], 2 * game.blinds[1])
        parts.append(f"bets {small:,}/{big:,}")
    default = Rules()
    for f in fields(default):
        value = getattr(game.rules, f.name)
        if value != getattr(default, f.name):
            parts.append(f"rule option {f.name.replace('_', ' ')}: {value}")
    return " · ".join(parts)


def _angle_step(n: int) -> float:
    return 2 * math.pi / n


def build_spot(scenario: Any) -> Spot:
    hand = scenario.hand()
    seats = hand.seats
    names = dict(scenario.names or {})
    to_act = hand.to_act
    n = len(seats)
    order = [s.position for s in seats]
    # The player to act sits at the bottom; seats follow clockwise in seat order.
    hero = order.index(to_act) if to_act in order else 0
    step = _angle_step(n)

    def angle(i: float) -> float:
        return math.pi / 2 + (i - hero) * step

    views = []
    for i, seat in enumerate(seats):
        a = angle(i)
        x, y = CX + SEAT_RX * math.cos(a), CY + SEAT_RY * math.sin(a)
        views.append(
            SeatView(
                position=seat.position,
                name=names.get(seat.position),
                stack=seat.stack,
                committed=seat.committed,
                folded=seat.folded,
                all_in=seat.all_in,
                to_act=seat.position == to_act,
                button=seat.position == "BTN",
                x=round(x, 1),
                y=round(y, 1),
                bet_x=round(CX + (x - CX) * BET_AT, 1),
                bet_y=round(CY + (y - CY) * BET_AT, 1),
            )
        )

    # The button sits by the BTN seat, or where BTN would sit when that player
    # is not in the hand: after the last seat, before the first (BTN is last in seat order).
    if "BTN" in order:
        a = angle(order.index("BTN")) - step * 0.28
        button_seat = "BTN"
    else:
        a = angle(n - 0.5)
        button_seat = None
    button = (round(CX + TABLE_RX * 0.86 * math.cos(a), 1), round(CY + TABLE_RY * 0.86 * math.sin(a), 1))

    cards = [card_view(c) for c in (scenario.board or ())]
    width = len(cards) * CARD_W + max(len(cards) - 1, 0) * CARD_GAP
    left = CX - width / 2
    board = tuple(
        CardView(rank=c.rank, symbol=c.symbol, red=c.red, name=c.name, x=left + i * (CARD_W + CARD_GAP), y=CY - 58)
        for i, c in enumerate(cards)
    )

    streets: dict[str, list[EventView]] = {}
    for event in hand.history:
        text = EVENT_TEXT.get(event.kind, event.kind)
        if event.all_in:
            text += " all-in"
        streets.setdefault(str(event.street), []).append(
            EventView(
                position=event.position,
                text=text,
                to=event.to if event.kind in TOTAL_KINDS else None,
                added=event.added,
            )
        )
    return Spot(
        street=str(hand.street),
        game=game_line(scenario.game),
        seats=tuple(views),
        board=board,
        pot=hand.pot,
        start_pot=int(scenario.pot or 0),
        start=str(scenario.start),
        to_act=to_act,
        button=button,
        button_seat=button_seat,
        history=tuple(StreetView(street=s, events=tuple(ev)) for s, ev in streets.items()),
    )
