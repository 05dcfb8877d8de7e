"""Hand-history text as the poker clients write it -> ``HandRecord``.

Read: PokerStars (and its Zoom tables), GGPoker, Winamax, Full Tilt, 888poker,
partypoker and Ignition/Bovada, which share one layout (a header, the seats,
the blinds, a line that starts the hole cards, then one action a line) with
words and amount styles of their own (``Site``). Amounts may carry a currency
sign, thousands commas or a decimal comma; a hand with cents is read in cents.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from trainer.engine import GameType, Street

from .model import HandError, HandRecord, Move, Refused, Verb


AMOUNT = r"(?P<{}>[$€£]?\s?\d(?:[\d.,]*\d)?\s?(?:€|[A-Z]{{3}})?)"


def _actions(all_in: str, raise_: str) -> dict[str, re.Pattern[str]]:
    return {
        "fold": re.compile(r"folds\s*$"),
        "check": re.compile(r"checks\s*$"),
        "call": re.compile(r"calls " + AMOUNT.format("added") + all_in),
        "bet": re.compile(r"bets " + AMOUNT.format("to") + all_in),
        "raise": re.compile(raise_ + all_in),
    }


# PokerStars, GGPoker, Winamax: "raises 20 to 40 and is all-in"
STARS_ACTIONS = _actions(r"(?P<allin> and is all-in)?\s*$", r"raises " + AMOUNT.format("by") + r" to " + AMOUNT.format("to"))
STARS_POSTS = re.compile(r"posts (?P<what>small blind|big blind|the ante|ante|straddle|small & big blinds|dead blind)\s+"
                         + AMOUNT.format("amount") + r"(?P<allin> and is all-in)?\s*$")
STARS_STAKES = re.compile(r"\((?:[^()/]*/)?(?P<small>[^()/]+)/(?P<big>[^()/]+?)(?:\s*-[^()]*)?(?:\s+[A-Z]{3})?\)")
# Full Tilt: "raises to 40, and is all in", "posts the small blind of $5", "antes 25"
TILT_ACTIONS = _actions(r"(?P<allin>,? and is all in)?\s*$", r"raises to " + AMOUNT.format("to"))
TILT_POSTS = re.compile(r"(?:posts (?:the )?(?P<what>small blind|big blind|dead blind|small & big blinds)(?: of)?|antes) "
                        + AMOUNT.format("amount") + r"(?P<allin>,? and is all in)?\s*$")
TILT_STAKES = re.compile(r" - (?P<small>[$€£]?[\d.,]+)/(?P<big>[$€£]?[\d.,]+) - ")
# 888poker: amounts in brackets, and a raise gives the chips it adds: "raises [$300]"
BRACKETED = r"\[\s*" + AMOUNT + r"\s*\]"
PACIFIC_ACTIONS = {
    "fold": re.compile(r"folds\s*$"),
    "check": re.compile(r"checks\s*$"),
    "call": re.compile(r"calls " + BRACKETED.format("added") + r"\s*$"),
    "bet": re.compile(r"bets " + BRACKETED.format("to") + r"\s*$"),
    "raise": re.compile(r"raises " + BRACKETED.format("added") + r"\s*$"),
}
PACIFIC_POSTS = re.compile(r"posts (?P<what>small blind|big blind|ante|dead blind)\s*" + BRACKETED.format("amount") + r"(?P<allin>)\.?\s*$")
# partypoker: as 888poker, and an all-in is a line of its own: "is all-In  [$97.58 USD]"
PARTY_ACTIONS = {**PACIFIC_ACTIONS, "allin": re.compile(r"is all-In\s+" + BRACKETED.format("added") + r"\s*$")}
PARTY_STAKES = re.compile(r"(?P<small>[$€£]?[\d.,]+)/(?P<big>[$€£]?[\d.,]+) (?:[A-Z]{3} )?(?:NL|PL|FL) ")
PACIFIC_STAKES = re.compile(r"(?P<small>[$€£]?[\d.,]+)/(?P<big>[$€£]?[\d.,]+) Blinds")
# Ignition/Bovada: players named by their seat ("Big Blind [ME]"), "Raises $0.15 to $0.15", "Call 20"
IGNITION_ACTIONS = {
    "fold": re.compile(r"Folds(?:\(timeout\))?\s*$"),
    "check": re.compile(r"Checks\s*$"),
    "call": re.compile(r"Calls? " + AMOUNT.format("added") + r"\s*$"),
    "bet": re.compile(r"Bets " + AMOUNT.format("to") + r"\s*$"),
    "raise": re.compile(r"Raises " + AMOUNT.format("by") + r" to " + AMOUNT.format("to") + r"\s*$"),
}
IGNITION_POSTS = re.compile(r"(?P<what>Small Blind|Big Blind|Ante chip) " + AMOUNT.format("amount") + r"(?P<allin>)\s*$",
                            re.IGNORECASE)
IGNITION_GAME = re.compile(r"HOLDEM\w*\s+(?P<limit>No Limit|Pot Limit|Limit)")
STARS_STREETS = re.compile(r"^\*\*\* ?(?P<name>[A-Z -]+?) ?\*\*\*")
PACIFIC_STREETS = re.compile(r"^\*\* (?:Dealing )?(?P<name>[A-Za-z ]+?) \*\*")


@dataclass(frozen=True)
class Site:
    name: str
    header: re.Pattern[str]  # group "id": the hand's number
    separator: str = ": "  # after the name: "name: folds" (PokerStars), "name folds" (Winamax), "name : Folds" (Ignition)
    actions: dict[str, re.Pattern[str]] = field(default_factory=lambda: STARS_ACTIONS)
    posts: re.Pattern[str] = STARS_POSTS
    stakes: re.Pattern[str] = STARS_STAKES
    streets: re.Pattern[str] = STARS_STREETS
    header_lines: int = 1  # the lines that name the game and the stakes
    game: re.Pattern[str] | None = None  # how the header names the game, when not as GAME reads it
    limit_stakes: bool = True  # in a fixed-limit game the stakes named are the bets, not the blinds


SITES = (
    Site("PokerStars", re.compile(r"^PokerStars (?:Zoom )?(?:Hand|Game) #(?P<id>\d+):")),
    Site("GGPoker", re.compile(r"^Poker Hand #(?P<id>[A-Z]*\d+):")),
    Site("Winamax", re.compile(r"^Winamax Poker - .*HandId: #(?P<id>[\d-]+)"), separator=" "),
    Site("Full Tilt Poker", re.compile(r"^Full Tilt Poker Game #(?P<id>\d+)"), separator=" ",
         actions=TILT_ACTIONS, posts=TILT_POSTS, stakes=TILT_STAKES),
    Site("888poker", re.compile(r"^\*{5} 888poker Hand History for Game (?P<id>\d+)"), separator=" ",
         actions=PACIFIC_ACTIONS, posts=PACIFIC_POSTS, stakes=PACIFIC_STAKES, streets=PACIFIC_STREETS,
         header_lines=2, limit_stakes=False),
    Site("partypoker", re.compile(r"^\*{5} Hand History [Ff]or Game (?P<id>\d+)"), separator=" ",
         actions=PARTY_ACTIONS, posts=PACIFIC_POSTS, stakes=PARTY_STAKES, streets=PACIFIC_STREETS, header_lines=2),
    Site("Ignition/Bovada", re.compile(r"^(?:Ignition|Bovada) Hand #(?P<id>\d+)"), separator=" : ",
         actions=IGNITION_ACTIONS, posts=IGNITION_POSTS, game=IGNITION_GAME),
)

GAME = re.compile(r"Hold'?em\s+(?P<limit>no limit|pot limit|limit)|(?P<short>NL|PL|FL|No Limit|Pot Limit|Fixed Limit|Limit) (?:Texas )?Hold'?em",
                  re.IGNORECASE)
OTHER_GAMES = re.compile(r"Omaha|Stud|Razz|Badugi|Draw|Courchevel|Short ?Deck|6\+", re.IGNORECASE)
LIMITS = {"no limit": GameType.NO_LIMIT, "nl": GameType.NO_LIMIT, "pot limit": GameType.POT_LIMIT,
          "pl": GameType.POT_LIMIT, "limit": GameType.FIXED_LIMIT, "fl": GameType.FIXED_LIMIT,
          "fixed limit": GameType.FIXED_LIMIT}
SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<chips>[^()]*)\)(?P<rest>.*)$")
STREETS = {"HOLE CARDS": Street.PREFLOP, "DOWN CARDS": Street.PREFLOP, "PRE-FLOP": Street.PREFLOP, "FLOP": Street.FLOP, "TURN": Street.TURN,
           "RIVER": Street.RIVER}
ENDS = ("SHOW DOWN", "SHOWDOWN", "SUMMARY")


def find_hands(lines: list[str]) -> list[tuple[Site, str, int, int]]:
    """Each hand's site, number, first and last line index (0-based, last exclusive)."""
    starts = []
    for i, line in enumerate(lines):
        for site in SITES:
            if m := site.header.match(line):
                starts.append((site, m["id"], i))
                break
    return [(site, hand, start, starts[k + 1][2] if k + 1 < len(starts) else len(lines))
            for k, (site, hand, start) in enumerate(starts)]


def records(text: str, file: str) -> Iterator[HandRecord | HandError]:
    lines = text.splitlines()
    hands = find_hands(lines)
    if not hands:
        yield HandError(Refused.UNREADABLE, 1, "no hand found: this is neither PHH nor a hand history from "
                        + ", ".join(s.name for s in SITES))
        return
    first: dict[str, int] = {}
    for site, hand, start, end in hands:
        try:
            if hand in first:
                raise HandError(Refused.REPEAT, start + 1, f"hand {hand} was already written at line {first[hand]}")
            first[hand] = start + 1
            yield _Reader(site, file, hand, lines, start, end).record()
        except HandError as exc:
            exc.hand = hand
            yield exc


@dataclass
class _Raw:
    """A move before its amounts are turned into whole chips."""

    street: Street
    player: str
    verb: Verb
    to: Decimal | None
    added: Decimal | None
    all_in: bool
    line: int


@dataclass
class _Reader:
    site: Site
    file: str
    hand: str
    lines: list[str]
    start: int
    end: int
    amounts: list[Decimal] = field(default_factory=list)

    def record(self) -> HandRecord:
        header = " ".join(self.lines[self.start:min(self.end, self.start + self.site.header_lines)])
        game_type = self._game(header)
        seats = self._seats()
        names = sorted((name for _, name, _ in seats), key=len, reverse=True)
        posts: list[tuple[str, str, Decimal, bool, int]] = []
        raw: list[_Raw] = []
        street: Street | None = None
        last = self.start + 1
        for i in range(self.start + 1, self.end):
            line = _spaces(self.lines[i])
            if not line:
                continue
            last = i + 1
            if m := self.site.streets.match(line):
                name = m["name"].strip().upper()
                if name in ENDS:
                    break
                if name not in STREETS and ("FLOP" in name or "TURN" in name or "RIVER" in name):
                    name = next(k for k in ("FLOP", "TURN", "RIVER") if k in name)
                street = STREETS.get(name, street)
                continue
            said = self._split(line, names)
            if said is None:
                continue
            player, rest = said
            if street is None:
                if m := self.site.posts.match(rest):
                    posts.append((player, m["what"] or "ante", self._amount(m["amount"], i), bool(m["allin"]), i + 1))
                continue
            for verb, pattern in self.site.actions.items():
                if m := pattern.match(rest):
                    raw.append(_Raw(
                        street=street, player=player, verb=Verb(verb),
                        to=self._amount(m["to"], i) if "to" in pattern.groupindex else None,
                        added=self._amount(m["added"], i) if "added" in pattern.groupindex else None,
                        all_in=verb == "allin" or bool(m.groupdict().get("allin")), line=i + 1,
                    ))
                    break
        if street is None:
            raise HandError(Refused.TRUNCATED, last, "no *** HOLE CARDS *** line: the hand stops before the cards are "
                            "dealt, or its client writes in words this importer does not read")
        return self._build(game_type, header, seats, posts, raw, last)

    def _game(self, header: str) -> GameType:
        if other := OTHER_GAMES.search(header):
            raise HandError(Refused.OTHER_GAME, self.start + 1, f"{other[0]} is not Texas hold'em")
        m = (self.site.game or GAME).search(header)
        if m is None:
            raise HandError(Refused.UNSUPPORTED, self.start + 1, "the header names no hold'em game with its betting limit")
        if re.search(r"\bCap\b", header):
            raise HandError(Refused.UNSUPPORTED, self.start + 1, "capped no-limit (a cap on what each player may put in) is not in the rules taught")
        return LIMITS[(m["limit"] or m.groupdict().get("short")).lower()]

    def _seats(self) -> list[tuple[int, str, str]]:
        seats: list[tuple[int, str, str]] = []
        self.stacks: dict[str, Decimal] = {}
        for i in range(self.start + 1, self.end):
            line = self.lines[i].strip()
            if line.startswith("***"):
                break
            if m := SEAT.match(_spaces(line)):
                if len(seats) == 10:
                    raise HandError(Refused.UNSUPPORTED, i + 1, "more than 10 seats: a hold'em table has 2 to 10")
                # "$13.01 in chips", "1500 in chips, $0.50 bounty", "800€", "20000, 0.50€ bounty"
                chips = m["chips"].split(" in chips")[0].split(", ")[0]
                self.stacks[m["name"]] = self._amount(chips, i)
                seats.append((int(m["seat"]), m["name"], m["rest"]))
        if not seats:
            raise HandError(Refused.TRUNCATED, self.start + 1, "the hand has no seats")
        return seats

    def _split(self, line: str, names: list[str]) -> tuple[str, str] | None:
        for name in names:
            if line.startswith(name + self.site.separator):
                return name, line[len(name) + len(self.site.separator):]
        return None

    def _amount(self, text: str, i: int) -> Decimal:
        value = parse_amount(text)
        if value is None:
            raise HandError(Refused.UNREADABLE, i + 1, f"{text.strip()!r} is not an amount")
        self.amounts.append(value)
        return value

    def _build(self, game_type, header, seats, posts, raw: list[_Raw], last: int) -> HandRecord:
        acting = {r.player for r in raw} | {p[0] for p in posts}
        # Before the flop every player dealt in posts or acts (the big blind posts); a seated player
        # who does neither sat the hand out, whether or not the site says so.
        dealt = [(seat, name) for seat, name, _ in sorted(seats) if name in acting]
        by_kind: dict[str, list[tuple[str, Decimal, bool, int]]] = {}
        for player, what, amount, all_in, line in posts:
            what = {"the ante": "ante", "ante chip": "ante"}.get(what.lower(), what.lower())
            by_kind.setdefault(what, []).append((player, amount, all_in, line))
        for what in ("small & big blinds", "dead blind"):
            if what in by_kind:
                raise HandError(Refused.UNSUPPORTED, by_kind[what][0][3], f"a {what.replace('blinds', 'blind')} posted to come in: not in the rules taught")
        bigs, smalls = by_kind.get("big blind", []), by_kind.get("small blind", [])
        if len(bigs) != 1:
            line = bigs[1][3] if bigs else self.start + 1
            raise HandError(Refused.UNSUPPORTED, line, "two big blinds (a player posting to come in)" if bigs else "no big blind posted")
        if len(smalls) != 1:
            line = smalls[1][3] if smalls else bigs[0][3]
            raise HandError(Refused.UNSUPPORTED, line, "two small blinds" if smalls else "no small blind posted (a dead small blind)")
        order = [name for _, name in dealt]
        if len(order) < 2 or len(order) > 10:
            raise HandError(Refused.UNSUPPORTED, self.start + 1, f"{len(order)} players dealt in: a table has 2 to 10")
        bb, sb = bigs[0][0], smalls[0][0]
        for who in (bb, sb):
            if who not in order:
                raise HandError(Refused.RULES, self.start + 1, f"{who} posts a blind but has no seat")
        b = order.index(bb)
        order = order[b:] + order[:b]  # big blind first, clockwise
        if len(order) == 2:
            players = tuple(order)
            if sb != order[1]:
                raise HandError(Refused.UNSUPPORTED, smalls[0][3], f"heads-up, {sb} posts the small blind but is not the button")
        else:
            if sb != order[-1]:
                raise HandError(Refused.UNSUPPORTED, smalls[0][3], f"{sb} posts the small blind but does not sit right before the big blind")
            players = (order[-1], *order[:-1])
        straddles = by_kind.get("straddle", [])
        after_bb = players[2:] if len(players) > 2 else ()
        for k, (who, _, _, line) in enumerate(straddles):
            if k >= len(after_bb) or after_bb[k] != who:
                raise HandError(Refused.UNSUPPORTED, line, f"{who}'s straddle is not from the seat after the last blind or straddle")
        stakes = self.site.stakes.search(header)
        header_blinds = None
        if stakes:
            small, big = parse_amount(stakes["small"]), parse_amount(stakes["big"])
            if small is not None and big is not None:
                header_blinds = (small, big)
                self.amounts += [small, big]
        scale = _scale(self.amounts)

        def chips(value: Decimal) -> int:
            return int(value * scale)

        def blind(post, k: int) -> int:
            _, amount, all_in, line = post
            if not all_in:
                return chips(amount)
            if header_blinds is None or game_type is GameType.FIXED_LIMIT:
                raise HandError(Refused.UNSUPPORTED, line, "a blind posted all-in for less, and the header gives no blinds")
            return chips(header_blinds[k])

        antes = {who: amount for who, amount, _, _ in by_kind.get("ante", [])}
        ante = bb_ante = 0
        if antes:
            full = max(antes.values())
            if set(antes) == {bb} and len(order) > 2:
                bb_ante = chips(full)
            elif set(antes) == set(order):
                ante = chips(full)
                for who, amount in antes.items():
                    if amount != full and amount != self.stacks[who]:
                        raise HandError(Refused.RULES, self.start + 1, f"{who} posts an ante of {amount}, not {full}, and is not all-in")
            else:
                missing = sorted(set(order) - set(antes))
                raise HandError(Refused.UNSUPPORTED, self.start + 1, f"antes from some players only (not {', '.join(missing)})")
        game_bets = None
        if game_type is GameType.FIXED_LIMIT and header_blinds is not None and self.site.limit_stakes:
            game_bets = (chips(header_blinds[0]), chips(header_blinds[1]))
        blinds = (blind(smalls[0], 0), blind(bigs[0], 1))
        if game_bets is not None and game_bets != (blinds[1], 2 * blinds[1]):
            raise HandError(Refused.UNSUPPORTED, self.start + 1, f"limits {game_bets[0]}/{game_bets[1]} are not the big blind and twice it")
        moves = tuple(
            Move(street=r.street, player=r.player, verb=r.verb, to=None if r.to is None else chips(r.to),
                 added=None if r.added is None else chips(r.added), all_in=r.all_in, line=r.line)
            for r in raw
        )
        for move in moves:
            if move.player not in players:
                raise HandError(Refused.RULES, move.line, f"{move.player} acts but was not dealt in")
        return HandRecord(
            file=self.file, hand=self.hand, line=self.start + 1, game_type=game_type, blinds=blinds, ante=ante,
            bb_ante=bb_ante, straddles=tuple(chips(a) for _, a, _, _ in straddles), players=players,
            stacks={name: chips(self.stacks[name]) for name in players}, moves=moves, end_line=last,
        )


def _spaces(line: str) -> str:
    """One space between words: some clients pad a name ("Big Blind  [ME]") in one place and not another."""
    return " ".join(line.split())


def parse_amount(text: str) -> Decimal | None:
    """``$1,234.50``, ``1.234,50 €``, ``0,25€``, ``1500`` -> a Decimal; None if it is not an amount."""
    digits = re.sub(r"[^\d.,]", "", text)
    if not digits or not digits[0].isdigit():
        return None
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", digits):
        digits = digits.replace(",", "")
    elif re.fullmatch(r"\d{1,3}(\.\d{3})+(,\d+)?", digits):
        digits = digits.replace(".", "").replace(",", ".")
    elif re.fullmatch(r"\d+,\d{1,2}", digits):
        digits = digits.replace(",", ".")
    elif not re.fullmatch(r"\d+(\.\d+)?", digits):
        return None
    try:
        return Decimal(digits)
    except InvalidOperation:
        return None


def _scale(amounts: list[Decimal]) -> int:
    """Chips per unit: 100 for a hand in dollars and cents, 1 for tournament chips."""
    places = max((-a.normalize().as_tuple().exponent for a in amounts if a != a.to_integral_value()), default=0)
    return 10 ** min(places, 6)
