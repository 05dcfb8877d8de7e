"""What the drill page shows of a spot: seats, board, pot and the action so far.

Everything is read from the engine's state (``hand.seats``, ``hand.history``,
``hand.pot``); this module only lays it out — where each seat sits on the
oval, how a card or an event reads — so the templates stay free of logic.
A spot is built once per language: every word in it comes from the message
catalogs (or, for streets and actions, from the engine's own terms).
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

from trainer.engine import Rules
from trainer.engine.messages import Message
from trainer.quiz import message_templates
from trainer.translations import DEFAULT, Text
from trainer.translations import text as translated

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
    rank: str  # "" for a card the spot does not name (drawn face down)
    symbol: str
    red: bool
    suit: str = ""  # c, d, h or s: a four-colour deck colours by it (deck.py)
    name: str  # "king of clubs", "梅花 K"

    @property
    def text(self) -> str:
        return f"{self.rank}{self.symbol}"

    @property
    def face_down(self) -> bool:
        return not self.rank


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
class Layout:
    """One way to draw the table: its coordinate system and where things sit in it.

    ``wide`` is the landscape oval of a desktop column. ``narrow`` is drawn for a
    phone at about one SVG unit per CSS pixel, so its text sizes (in the CSS) are
    what the learner reads: no text under 11 px at 360 px wide. A phone's oval
    stands upright, seats are spaced evenly along its rim (equal angles would crowd
    the wide boxes at the top and bottom), and the chips a seat has in front are
    written in its box, leaving the felt to the board and the pot.
    """

    name: str
    width: int
    table_rx: int
    table_ry: int
    seat_rx: int
    seat_ry: int
    seat_w: int
    seat_h: int
    card_w: int
    card_h: int
    card_gap: int
    board_y: int  # top of the board cards, from the centre
    pot_y: int  # baseline of the pot's amount, from the centre
    label_chars: int  # a seat's label is cut to this many characters
    even_arc: bool = False
    bets_in_seat: bool = False  # also the dealer button, drawn in the button's box
    bet_at: float = 0.66  # where a seat's chips sit: this fraction of the way from the centre to the rim
    dense: bool = False  # smaller seat boxes: a seat shows its stack as a number (the seat table says "behind")

    @property
    def cx(self) -> float:
        return self.width / 2

    @property
    def cy(self) -> float:
        return self.seat_ry + self.seat_h / 2 + 6

    @property
    def height(self) -> int:
        # The tag under the player to act (always at the bottom) needs room below the seat.
        return round(self.cy + self.seat_ry + self.seat_h / 2 + 34)


WIDE = Layout(
    name="wide", width=680, table_rx=222, table_ry=124, seat_rx=264, seat_ry=156,
    seat_w=140, seat_h=54, card_w=34, card_h=48, card_gap=5, board_y=-56, pot_y=30, label_chars=18,
)
NARROW = Layout(
    name="narrow", width=360, table_rx=112, table_ry=168, seat_rx=128, seat_ry=194,
    seat_w=100, seat_h=56, card_w=26, card_h=38, card_gap=3, board_y=-44, pot_y=24, label_chars=12,
    even_arc=True, bets_in_seat=True,
)
# The phone's drawing is sized to the seats it has, so that the card to fill in starts on a 360×740
# phone's first screen: two players sit above and below a short felt that still holds the board and
# the pot; three and more sit round a lying oval as wide as the phone, in smaller
# boxes (upright ovals of 56 px boxes were 420-540 px tall and pushed the first field off the screen).
NARROW_SHORT = replace(NARROW, table_ry=52, seat_ry=74)
NARROW_MANY = replace(NARROW, table_rx=108, table_ry=72, seat_rx=140, seat_ry=86, seat_w=80, seat_h=50,
                      board_y=-42, pot_y=22, label_chars=9, dense=True)
NARROW_FULL = replace(NARROW_MANY, table_ry=82, seat_ry=104, seat_w=70, label_chars=8)


@dataclass(frozen=True, kw_only=True)
class PlacedSeat:
    seat: SeatView
    x: float  # centre of the seat box
    y: float
    bet_x: float
    bet_y: float
    label: str  # cut to fit the layout's box
    bet_above: bool = False  # the amount is written above the chip, not below

    @property
    def bet_text_y(self) -> float:
        return self.bet_y - 14 if self.bet_above else self.bet_y + 27


@dataclass(frozen=True, kw_only=True)
class PlacedCard:
    card: CardView
    x: float
    y: float


@dataclass(frozen=True, kw_only=True)
class TableView:
    """The drawing of one spot in one layout."""

    layout: Layout
    seats: tuple[PlacedSeat, ...]
    board: tuple[PlacedCard, ...]
    button: tuple[float, float]
    pot_x: float
    pot_y: float


@dataclass(frozen=True, kw_only=True)
class Spot:
    street: str  # the street's name in the spot's language ("turn", "轉牌圈")
    game: str
    seats: tuple[SeatView, ...]
    board: tuple[CardView, ...]  # face down when the spot is past the flop but names no cards
    pot: int
    start_pot: int
    start: str  # the street the hand starts on, named in the spot's language
    to_act: str | None
    button_seat: str | None
    history: tuple[StreetView, ...]
    tables: tuple[TableView, ...]  # wide, narrow
    summary: str = ""  # one sentence for the drawing's title

    @property
    def board_named(self) -> bool:
        return any(not c.face_down for c in self.board)


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
        suit=suit if suit in SUITS else "",
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


# How many community cards each street has dealt.
DEALT = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}


def _seats(scenario: Any, hand: Any, t: Text, term: Callable[[str], str]) -> tuple[SeatView, ...]:
    _ = t.gettext
    names = dict(scenario.names or {})
    shown = scenario.hands if "winners" in (getattr(scenario, "ask", None) or ()) else {}
    return tuple(
        SeatView(
            position=seat.position,
            name=names.get(seat.position),
            stack=seat.stack,
            committed=seat.committed,
            folded=seat.folded,
            all_in=seat.all_in,
            to_act=seat.position == hand.to_act,
            button=seat.position == hand.button,
            status=(
                _("folded")
                if seat.folded
                else term("allin")
                if seat.all_in
                else _("%(amount)s behind", amount=t.number(seat.stack))
            ),
            cards=tuple(card_view(c, t) for c in shown.get(seat.position, ())) if not seat.folded else (),
        )
        for seat in hand.seats
    )


def _street_shown(street: str, cards: int) -> str:
    """The street the spot is on as the table shows it: betting that ended all-in before the river
    with the board run out to five cards is at the river ("preflop" above five cards misread it)."""
    return next((name for name, dealt in DEALT.items() if dealt == cards), street) if cards > DEALT.get(street, 0) else street


def _board(scenario: Any, hand: Any, t: Text) -> tuple[CardView, ...]:
    """The board as named, or as many cards face down as the street has dealt when the spot names none."""
    named = tuple(card_view(c, t) for c in (scenario.board or ()))
    if named:
        return named
    back = CardView(rank="", symbol="", red=False, name=t.gettext("a card the spot does not name"))
    return (back,) * DEALT.get(str(hand.street), 0)


def _history(hand: Any, t: Text, term: Callable[[str], str]) -> tuple[StreetView, ...]:
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
    return tuple(StreetView(street=term(s), events=tuple(ev)) for s, ev in streets.items())


def _rim(layout: Layout, n: int, hero: int) -> list[float]:
    """Angles of ``n`` seats, the player to act at the bottom, clockwise in seat order."""
    if not layout.even_arc:
        return [math.pi / 2 + (i - hero) * 2 * math.pi / n for i in range(n)]
    # Equal steps of arc length: the first sample at least every n-th length along the rim.
    angles, lengths = _arc(layout)
    total = lengths[-1]
    return [angles[bisect_left(lengths, ((i - hero) % n) * total / n)] for i in range(n)]


@functools.cache
def _arc(layout: Layout, samples: int = 720) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The rim sampled finely, once per layout: the angles, and the length of rim up to each."""
    angles = [math.pi / 2 + 2 * math.pi * k / samples for k in range(samples + 1)]
    lengths = [0.0]
    for a, b in zip(angles, angles[1:]):
        lengths.append(lengths[-1] + math.dist(_on(layout, a), _on(layout, b)))
    return tuple(angles), tuple(lengths)


def _on(layout: Layout, a: float, rx: float | None = None, ry: float | None = None) -> tuple[float, float]:
    rx = layout.seat_rx if rx is None else rx
    ry = layout.seat_ry if ry is None else ry
    return layout.cx + rx * math.cos(a), layout.cy + ry * math.sin(a)


def _bet_above(a: float) -> bool:
    """Amounts go towards the centre, away from the seat's box; across the table, above the chip, clear of the board."""
    sin, cos = math.sin(a), math.cos(a)
    if sin < 0 and abs(cos) < 0.35:
        return True
    return sin > 0.2


def _button_angle(layout: Layout, angles: list[float], order: list[str], button: str | None, share: float = 0.3) -> float:
    """By the button's seat, a little before it (``share`` of the way to the seat before); where BTN
    would sit (after the last seat) when not in the hand."""
    n = len(angles)
    if button in order:
        i = order.index(button)
        return angles[i] - (angles[i] - angles[i - 1]) % (2 * math.pi) * share
    return angles[-1] + (angles[0] - angles[-1]) % (2 * math.pi) * 0.5 if n > 1 else angles[0] + math.pi


def _clear(box: tuple[float, float, float, float], others: list[tuple[float, float, float, float]]) -> bool:
    x, y, w, h = box
    return not any(x < ox + ow and ox < x + w and y < oy + oh and oy < y + h for ox, oy, ow, oh in others)


def _place_button(layout: Layout, angles: list[float], order: list[str], button: str | None,
                  placed: list[PlacedSeat]) -> tuple[float, float]:
    """The dealer button on the felt by its seat, moved along the rim where a bet (its chip and its
    amount, above or below) would sit under it: big amounts take room."""
    bets = [(p.bet_x - 20, p.bet_y - 25 if p.bet_above else p.bet_y - 9, 40, 34) for p in placed if p.seat.committed]
    first = None
    for share in (0.3, 0.5, 0.15, 0.7):
        bx, by = _on(layout, _button_angle(layout, angles, order, button, share), layout.table_rx * 0.76,
                     layout.table_ry * 0.76)
        first = first or (bx, by)
        if layout.bets_in_seat or _clear((bx - 12, by - 12, 24, 24), bets):
            return bx, by
    return first


def _lay_out(layout: Layout, seats: tuple[SeatView, ...], board: tuple[CardView, ...], button: str | None) -> TableView:
    order = [s.position for s in seats]
    hero = next((i for i, s in enumerate(seats) if s.to_act), 0)
    angles = _rim(layout, len(seats), hero)
    cx, cy = layout.cx, layout.cy
    placed = []
    for seat, a in zip(seats, angles):
        x, y = _on(layout, a)
        label = seat.label
        if len(label) > layout.label_chars:
            label = label[: layout.label_chars - 1] + "…"
        placed.append(
            PlacedSeat(
                seat=seat,
                x=round(x, 1),
                y=round(y, 1),
                bet_x=round(cx + layout.table_rx * layout.bet_at * math.cos(a), 1),
                bet_y=round(cy + layout.table_ry * layout.bet_at * math.sin(a), 1),
                label=label,
                bet_above=_bet_above(a),
            )
        )
    bx, by = _place_button(layout, angles, order, button, placed)
    step = layout.card_w + layout.card_gap
    left = cx - (len(board) * step - layout.card_gap) / 2
    cards = tuple(
        PlacedCard(card=c, x=round(left + i * step, 1), y=cy + layout.board_y) for i, c in enumerate(board)
    )
    return TableView(
        layout=layout,
        seats=tuple(placed),
        board=cards,
        button=(round(bx, 1), round(by, 1)),
        pot_x=cx,
        pot_y=cy + layout.pot_y,
    )


def _narrow(players: int) -> Layout:
    if players <= 2:
        return NARROW_SHORT
    return NARROW_FULL if players >= 9 else NARROW_MANY


def _summary(t: Text, players: int, street: str, pot: int, to_act: str | None) -> str:
    _ = t.gettext
    if to_act:
        return _(
            "%(players)s players on the %(street)s, pot %(pot)s, %(pos)s to act",
            players=players, street=street, pot=t.number(pot), pos=to_act,
        )
    return _(
        "%(players)s players on the %(street)s, pot %(pot)s, betting is over",
        players=players, street=street, pot=t.number(pot),
    )


def build_spot(scenario: Any, locale: str = DEFAULT) -> Spot:
    """The spot in ``locale``."""
    t = translated(locale)
    terms = message_templates(t.locale)

    def term(name: str) -> str:
        return Message(f"term.{name}").render(terms)

    hand = scenario.played
    seats = _seats(scenario, hand, t, term)
    board = _board(scenario, hand, t)
    street = term(_street_shown(str(hand.street), len(board)))
    return Spot(
        street=street,
        game=game_line(scenario.game, t),
        seats=seats,
        board=board,
        pot=hand.pot,
        start_pot=int(scenario.pot or 0),
        start=term(str(scenario.start)),
        to_act=hand.to_act,
        button_seat=hand.button if hand.button in {s.position for s in seats} else None,
        history=_history(hand, t, term),
        tables=tuple(_lay_out(layout, seats, board, hand.button) for layout in (WIDE, _narrow(len(seats)))),
        summary=_summary(t, len(seats), street, hand.pot, hand.to_act),
    )
