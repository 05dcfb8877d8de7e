"""PHH (``.phh``: one hand; ``.phhs``: several, one table each) -> ``HandRecord``.

PHH is TOML (the Poker Hand History standard, uoftcprg/phh-std): it is read
with the standard library's ``tomllib``, never evaluated. Players are listed
from the small blind to the button (heads-up: big blind, then button); an
action reads ``p3 cbr 7000`` (bet or raise to 7000), ``p3 cc`` (check or
call), ``p3 f`` (fold); ``d db Jc3d5c`` deals the board and so starts the
next street.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import dataclass

from trainer.engine import GameType, Street

from .model import HandError, HandRecord, Move, Refused, Verb

STREETS = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)
# PHH variant codes this importer reads: no-limit and fixed-limit Texas hold'em.
VARIANTS = {"NT": GameType.NO_LIMIT, "FT": GameType.FIXED_LIMIT}


@dataclass(frozen=True, kw_only=True)
class PhhHand:
    """One PHH hand's fields as written (the names PHH gives them)."""

    id: str
    line: int  # the hand's first line in its file
    variant: str
    ante_trimming: bool
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    min_bet: int | None
    small_bet: int | None
    big_bet: int | None
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]  # every action line, dealing included
    action_lines: tuple[int, ...]
    players: tuple[str, ...]


def read_phh(text: str, file: str) -> list[PhhHand]:
    """The hands of a ``.phh`` or ``.phhs`` text; a text TOML cannot read raises ``HandError``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = _error_line(str(exc))
        raise HandError(Refused.UNREADABLE, line, f"not valid PHH (TOML): {exc}") from None
    lines = text.splitlines()
    if "variant" in data or not data:
        return [_hand(data, _stem(file), 1, lines)]
    hands = []
    for key, table in data.items():
        if not isinstance(table, dict):
            raise HandError(Refused.UNREADABLE, 1, f"a .phhs file holds one [table] per hand; {key!r} is not one")
        start = _find(lines, 0, (f"[{key}]", f'["{key}"]', f"['{key}']")) or 1
        hands.append(_hand(table, str(table.get("hand", key)), start, lines))
    return hands


def records(text: str, file: str) -> Iterator[HandRecord | HandError]:
    """Each hand of a PHH text as a record, or the error that refuses it."""
    try:
        hands = read_phh(text, file)
    except HandError as exc:
        yield exc
        return
    for hand in hands:
        try:
            yield record(hand, file)
        except HandError as exc:
            exc.hand = hand.id
            yield exc


def record(hand: PhhHand, file: str) -> HandRecord:
    game_type = VARIANTS.get(hand.variant)
    if game_type is None:
        raise HandError(Refused.OTHER_GAME, hand.line, f"variant {hand.variant!r} is not hold'em (this importer reads NT and FT)")
    n = len(hand.starting_stacks)
    if not 2 <= n <= 10:
        raise HandError(Refused.UNSUPPORTED, hand.line, f"{n} players: a table has 2 to 10")
    for name, values in (("antes", hand.antes), ("blinds_or_straddles", hand.blinds_or_straddles)):
        if len(values) != n:
            raise HandError(Refused.UNREADABLE, hand.line, f"{name} has {len(values)} entries for {n} players")
    forced = hand.blinds_or_straddles
    sb, bb = sorted(forced[:2])
    straddles = tuple(b for b in forced[2:] if b)
    if n == 2 and forced[2:] or any(forced[2 + i] == 0 for i in range(len(straddles))) or sb <= 0:
        raise HandError(Refused.UNSUPPORTED, hand.line, f"forced bets {list(forced)} are not two blinds and straddles in seat order")
    ante, bb_ante = _antes(hand, n)
    bets = None
    if game_type is GameType.NO_LIMIT and hand.min_bet != bb:
        raise HandError(Refused.UNSUPPORTED, hand.line, f"min_bet {hand.min_bet} differs from the big blind {bb}")
    if game_type is GameType.FIXED_LIMIT:
        bets = (hand.small_bet, hand.big_bet)
        if bets != (bb, 2 * bb):
            raise HandError(Refused.UNSUPPORTED, hand.line, f"limits {list(bets)} are not the big blind and twice it")
    players = hand.players if len(set(hand.players)) == n and all(hand.players) else tuple(f"p{i}" for i in range(1, n + 1))
    moves = tuple(_moves(hand, players))
    return HandRecord(
        file=file, hand=hand.id, line=hand.line, game_type=game_type, blinds=(sb, bb), ante=ante, bb_ante=bb_ante,
        straddles=straddles, players=players, stacks=dict(zip(players, hand.starting_stacks)), moves=moves,
        end_line=hand.action_lines[-1] if hand.action_lines else hand.line,
    )


def _antes(hand: PhhHand, n: int) -> tuple[int, int]:
    paying = [a for a in hand.antes if a]
    if not paying:
        return 0, 0
    if len(paying) == n and len(set(paying)) == 1:
        return paying[0], 0
    bb_index = 0 if n == 2 else 1
    if len(paying) == 1 and hand.antes[bb_index]:
        return 0, paying[0]
    raise HandError(Refused.UNSUPPORTED, hand.line, f"antes {list(hand.antes)} are neither one ante for all nor a big-blind ante")


def _moves(hand: PhhHand, players: tuple[str, ...]) -> Iterator[Move]:
    street = 0
    for text, line in zip(hand.actions, hand.action_lines):
        if len(text.split()) < 2:
            raise HandError(Refused.UNREADABLE, line, f"{text!r}: an action names a player and a verb, e.g. 'p3 cbr 7000'")
        actor, verb, *rest = text.split()
        if actor == "d":
            if verb == "db":
                street += 1
                if street >= len(STREETS):
                    raise HandError(Refused.RULES, line, f"{text!r}: a fifth round of board cards")
            continue
        if not (actor.startswith("p") and actor[1:].isdigit() and 1 <= int(actor[1:]) <= len(players)):
            raise HandError(Refused.UNREADABLE, line, f"{text!r}: no player {actor!r} (players are p1 to p{len(players)})")
        player = players[int(actor[1:]) - 1]
        if verb == "f":
            yield Move(street=STREETS[street], player=player, verb=Verb.FOLD, line=line)
        elif verb == "cc":
            yield Move(street=STREETS[street], player=player, verb=Verb.CHECK_OR_CALL, line=line)
        elif verb == "cbr":
            if not rest or not rest[0].isdigit():
                raise HandError(Refused.UNREADABLE, line, f"{text!r}: cbr needs a whole number of chips")
            yield Move(street=STREETS[street], player=player, verb=Verb.RAISE, to=int(rest[0]), line=line)
        elif verb in ("sm", "sd"):
            continue  # showing or mucking hole cards: no chips move
        else:
            raise HandError(Refused.UNREADABLE, line, f"{text!r}: unknown action {verb!r} (f, cc, cbr, sm)")


def _hand(data: dict, hand_id: str, start: int, lines: list[str]) -> PhhHand:
    # Only the hold'em variants read here must have the hold'em fields.
    required = data.get("variant") in VARIANTS

    def ints(key: str) -> tuple[int, ...]:
        value = data.get(key)
        if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value):
            return tuple(value)
        if not required:
            return ()
        raise HandError(Refused.UNREADABLE, _key_line(lines, start, key), f"{key} must be a list of whole numbers ≥ 0")

    def number(key: str) -> int | None:
        value = data.get(key)
        if value is None or isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
        if not required:
            return None
        raise HandError(Refused.UNREADABLE, _key_line(lines, start, key), f"{key} must be a whole number > 0")

    hand_id = str(data.get("hand", hand_id))
    variant = data.get("variant")
    if not isinstance(variant, str):
        raise HandError(Refused.UNREADABLE, start, "no variant: not a PHH hand", hand_id)
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise HandError(Refused.UNREADABLE, _key_line(lines, start, "actions"), "actions must be a list of strings", hand_id)
    players = data.get("players", [])
    try:
        return PhhHand(
            id=hand_id, line=start, variant=variant, ante_trimming=bool(data.get("ante_trimming_status", False)),
            antes=ints("antes"), blinds_or_straddles=ints("blinds_or_straddles"), min_bet=number("min_bet"),
            small_bet=number("small_bet"), big_bet=number("big_bet"), starting_stacks=ints("starting_stacks"),
            actions=tuple(actions), action_lines=tuple(_action_lines(lines, _key_line(lines, start, "actions"), actions)),
            players=tuple(str(p) for p in players) if isinstance(players, list) else (),
        )
    except HandError as exc:
        exc.hand = hand_id
        raise


def _action_lines(lines: list[str], first: int, actions: list[str]) -> Iterator[int]:
    """The line of each action: the actions are found in order from the ``actions`` key on."""
    at = first - 1
    for action in actions:
        # a bounded look ahead: an action written some other way costs no scan of the whole file
        found = _find(lines, at, (f"'{action}'", f'"{action}"'), stop=at + 1000)
        if found:
            at = found - 1
        yield at + 1


def _find(lines: list[str], start: int, needles: tuple[str, ...], stop: int | None = None) -> int | None:
    for i in range(start, min(len(lines), stop or len(lines))):
        if any(needle in lines[i] for needle in needles):
            return i + 1
    return None


def _key_line(lines: list[str], start: int, key: str) -> int:
    for i in range(start - 1, len(lines)):
        if lines[i].lstrip().startswith(key) and lines[i].lstrip()[len(key):].lstrip().startswith("="):
            return i + 1
    return start


def _error_line(message: str) -> int | None:
    # tomllib ends its messages with "(at line N, column M)"
    marker = "(at line "
    if marker in message:
        digits = message.split(marker, 1)[1].split(",", 1)[0].rstrip(")")
        if digits.isdigit():
            return int(digits)
    return None


def _stem(file: str) -> str:
    name = file.replace("\\", "/").rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0]
