"""What the drill page shows of a spot: seats, board, pot and the action so far.

Everything is read from the engine's state (``hand.seats``, ``hand.history``,
``hand.pot``); this module only lays it out — where each seat sits on the
oval, how a card or an event reads — so the templates stay free of logic.
A spot is built once per language: every word in it comes from the message
catalogs (or, for streets and actions, from the engine's own terms).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from trainer.engine import Rules
from trainer.engine.messages import Message
from trainer.quiz import message_templates
from trainer.translations import DEFAULT, Text
from trainer.translations import text as translated

from .i18n import current

# The SVG's coordinate system; CSS scales it to the page width.
WIDTH, HEIGHT = 680, 400
CX, CY = WIDTH / 2, HEIGHT / 2
TABLE_RX, TABLE_RY = 222, 124
SEAT_RX, SEAT_RY = 264, 160
SEAT_W, SEAT_H = 140, 54
BET_AT = 0.56  # fraction of the way from the centre to a seat
CARD_W, CARD_H, CARD_GAP = 38, 52, 6

SUITS = {"c": ("♣", False), "d": ("♦", True), "h": ("♥", True), "s": ("♠", False)}
RANKS = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}

# Events that set a street total ("to", 加到) worth showing.
TOTAL_KINDS = {"small-blind", "big-blind", "straddle", "call", "bet", "raise"}


def _suit_names(t: Text) -> dict[str, str]:
    _ = t.gettext
    return {"c": _("clubs"), "d": _("diamonds"), "h": _("hearts"), "s": _("spades")}


def _rank_names(t: Text) -> dict[str, str]:
    _ = t.gettext
    return {"T": _("ten"), "J": _("jack"), "Q": _("queen"), "K": _("king"), "A": _("ace")}


def _event_text(t: Text, kind: str, all_in: bool) -> str:
    _ = t.gettext
    if all_in:
        texts = {
            "small-blind": _("posts the small blind all-in"),
            "big-blind": _("posts the big blind all-in"),
            "straddle": _("straddles all-in"),
            "call": _("calls all-in"),
            "bet": _("bets all-in"),
            "raise": _("raises all-in"),
            "ante": _("posts the ante all-in"),
        }
    else:
        texts = {
            "ante": _("posts the ante"),
            "small-blind": _("posts the small blind"),
            "big-blind": _("posts the big blind"),
            "straddle": _("straddles"),
            "fold": _("folds"),
            "check": _("checks"),
            "call": _("calls"),
            "bet": _("bets"),
            "raise": _("raises"),
        }
    return texts.get(kind, kind)


def _game_name(t: Text, game_type: str) -> str:
    _ = t.gettext
    names = {"no-limit": _("No-limit"), "pot-limit": _("Pot-limit"), "fixed-limit": _("Fixed-limit")}
    return names.get(game_type, game_type)


@dataclass(frozen=True, kw_only=True)
class CardView:
    rank: str
    symbol: str
    red: bool
    name: str  # "king of clubs", "梅花 K"
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
    status: str  # "folded", "all-in", "9,000 behind" in the spot's language
    x: float  # centre of the seat box
    y: float
    bet_x: float
    bet_y: float
    cards: tuple[CardView, ...] = ()  # hole cards, shown when the spot asks to read the hands

    @property
    def label(self) -> str:
        return f"{self.position} · {self.name}" if self.name else self.position


@dataclass(frozen=True, kw_only=True)
class EventView:
    position: str
    text: str
    to: int | None
    added: int


@dataclass(frozen=True, kw_only=True)
class StreetView:
    street: str  # the street's name in the spot's language
    events: tuple[EventView, ...]


@dataclass(frozen=True, kw_only=True)
class Spot:
    street: str  # the street's name in the spot's language ("turn", "轉牌圈")
    game: str
    seats: tuple[SeatView, ...]
    board: tuple[CardView, ...]
    pot: int
    start_pot: int
    start: str  # the street the hand starts on, named in the spot's language
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
    summary: str = ""  # one sentence for the drawing's title


def card_view(code: str, t: Text | None = None) -> CardView:
    t = t or translated(DEFAULT)
    rank, suit = str(code)[:-1], str(code)[-1].lower()
    symbol, red = SUITS.get(suit, ("?", False))
    rank_name = _rank_names(t).get(rank.upper(), rank)
    suit_name = _suit_names(t).get(suit, suit)
    return CardView(
        rank=RANKS.get(rank.upper(), rank),
        symbol=symbol,
        red=red,
        name=t.gettext("%(rank)s of %(suit)s", rank=rank_name, suit=suit_name),
    )


def game_line(game: Any, t: Text | None = None) -> str:
    t = t or translated(DEFAULT)
    _, n = t.gettext, t.number
    parts = [
        _game_name(t, str(game.type)),
        _("blinds %(small)s/%(big)s", small=n(game.blinds[0]), big=n(game.blinds[1])),
    ]
    if game.ante:
        parts.append(_("ante %(amount)s", amount=n(game.ante)))
    if game.bb_ante:
        parts.append(_("big-blind ante %(amount)s", amount=n(game.bb_ante)))
    for i, amount in enumerate(game.straddles):
        if i == 0:
            parts.append(_("straddle %(amount)s", amount=n(amount)))
        else:
            parts.append(_("re-straddle %(amount)s", amount=n(amount)))
    if str(game.type) == "fixed-limit":
        small, big = game.bets or (game.blinds[1], 2 * game.blinds[1])
        parts.append(_("bets %(small)s/%(big)s", small=n(small), big=n(big)))
    default = Rules()
    for f in fields(default):
        value = getattr(game.rules, f.name)
        if value != getattr(default, f.name):
            parts.append(_rule_option(t, f.name, value))
    return " · ".join(parts)


def _rule_option(t: Text, name: str, value: Any) -> str:
    """A rule option that differs from the engine's default, in words (RULES.md "Engine defaults and options")."""
    _ = t.gettext
    if name == "reopen":
        return {
            "exceed": _("reopening: only more than a full raise reopens the betting"),
            "at-least": _("reopening: a full raise or more reopens the betting"),
        }.get(str(value), f"{name}: {value}")
    if name == "bba":
        return {
            "ante-first": _("the big-blind ante is posted before the big blind"),
            "blind-first": _("the big blind is posted before the big-blind ante"),
        }.get(str(value), f"{name}: {value}")
    if name == "limit_cap":
        return t.ngettext("cap: a bet and %(num)d raise", "cap: a bet and %(num)d raises", int(value))
    if name == "limit_cap_heads_up":
        return _("the cap applies heads-up too") if value else _("no cap heads-up")
    return _("rule option %(name)s: %(value)s", name=name.replace("_", " "), value=value)


def _angle_step(n: int) -> float:
    return 2 * math.pi / n


def build_spot(scenario: Any, locale: str | None = None) -> Spot:
    """The spot in ``locale``; by default in the language of the request being answered."""
    t = translated(locale or current())
    _ = t.gettext
    terms = message_templates(t.locale)

    def term(name: str) -> str:
        return Message(f"term.{name}").render(terms)

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

    shown = scenario.hands if "winners" in (getattr(scenario, "ask", None) or ()) else {}
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
                button=seat.position == hand.button,
                status=(
                    _("folded")
                    if seat.folded
                    else term("allin")
                    if seat.all_in
                    else _("%(amount)s behind", amount=t.number(seat.stack))
                ),
                x=round(x, 1),
                y=round(y, 1),
                bet_x=round(CX + (x - CX) * BET_AT, 1),
                bet_y=round(CY + (y - CY) * BET_AT, 1),
                cards=tuple(card_view(c, t) for c in shown.get(seat.position, ())) if not seat.folded else (),
            )
        )

    # The button sits by the button's seat (heads-up the seat that is not the big
    # blind), or where BTN would sit when that player is not in the hand: after
    # the last seat, before the first (BTN is last in seat order).
    if hand.button in order:
        a = angle(order.index(hand.button)) - step * 0.28
        button_seat = hand.button
    else:
        a = angle(n - 0.5)
        button_seat = None
    button = (round(CX + TABLE_RX * 0.86 * math.cos(a), 1), round(CY + TABLE_RY * 0.86 * math.sin(a), 1))

    cards = [card_view(c, t) for c in (scenario.board or ())]
    width = len(cards) * CARD_W + max(len(cards) - 1, 0) * CARD_GAP
    left = CX - width / 2
    board = tuple(
        CardView(rank=c.rank, symbol=c.symbol, red=c.red, name=c.name, x=left + i * (CARD_W + CARD_GAP), y=CY - 58)
        for i, c in enumerate(cards)
    )

    streets: dict[str, list[EventView]] = {}
    for event in hand.history:
        streets.setdefault(str(event.street), []).append(
            EventView(
                position=event.position,
                text=_event_text(t, str(event.kind), bool(event.all_in)),
                to=event.to if event.kind in TOTAL_KINDS else None,
                added=event.added,
            )
        )
    street = term(str(hand.street))
    pot = t.number(hand.pot)
    if to_act:
        summary = _(
            "%(players)s players on the %(street)s, pot %(pot)s, %(pos)s to act",
            players=n, street=street, pot=pot, pos=to_act,
        )
    else:
        summary = _(
            "%(players)s players on the %(street)s, pot %(pot)s, betting is over", players=n, street=street, pot=pot
        )
    return Spot(
        street=street,
        game=game_line(scenario.game, t),
        seats=tuple(views),
        board=board,
        pot=hand.pot,
        start_pot=int(scenario.pot or 0),
        start=term(str(scenario.start)),
        to_act=to_act,
        button=button,
        button_seat=button_seat,
        history=tuple(StreetView(street=term(s), events=tuple(ev)) for s, ev in streets.items()),
        summary=summary,
    )
