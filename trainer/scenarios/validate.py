"""A scenario file's values -> a validated ``Scenario``, replayed through the engine.

The format is a contract shared with other tools (SCENARIO-FORMAT.md):
every key it allows loads, anything else is an error that names the file,
the line, the key and what is wrong.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from pathlib import Path

from trainer.engine.reading import read
from trainer.engine.rulings import parse_said, rule
from trainer.engine import (
    POSITIONS,
    Declaration,
    ActionKind,
    BBAOrder,
    EngineError,
    Game,
    GameType,
    Hand,
    IllegalActionError,
    Reopen,
    Rules,
    Street,
)

from .errors import ScenarioError, _clip, _show
from .model import Localized, Scenario, ScenarioAction
from .read import _List, _Map

LOCALES = ("en", "zh-Hant", "zh-Hans")
QUESTION_KINDS = ("card", "options", "pot", "pots", "showdown", "winners", "ruling", "split")
VERBS = tuple(kind.value for kind in ActionKind)
ID_RE = re.compile(r"[a-z0-9][a-z0-9-]*\Z")
TOPIC_RE = re.compile(r"[a-z0-9-]+\Z")
CARD_RE = re.compile(r"[2-9TJQKA][cdhs]\Z")
AMOUNT_RE = re.compile(r"[0-9]{1,30}\Z")  # 30 digits: MAX_DIGITS, the bound on numbers in YAML
# The largest whole number a JSON reader that uses doubles (a browser) keeps
# exactly; `trainer solve --json` and the web app hand amounts to such readers.
MAX_AMOUNT = 2**53 - 1
TOO_LARGE = "is larger than 9007199254740991 (2^53 − 1), the most chips a JSON reader keeps exactly"

TOP_KEYS = (
    "id", "title", "explain", "topics", "level", "game", "start", "pot", "stacks",
    "names", "board", "hands", "actions", "ask", "expect",
    # extensions: rulings on chips and words, splitting pots
    "ruling", "winners", "chip",
    "source",
)
GAME_KEYS = ("type", "blinds", "ante", "bb_ante", "straddles", "bets", "rules")
RULE_KEYS = ("reopen", "bba", "limit_cap", "limit_cap_heads_up")
EXPECT_KEYS = (
    "street", "to_act", "card", "options", "pot", "pots", "returned", "showdown",
    "best_hands", "winners", "ruling", "split",
)
BEST_HAND_KEYS = ("cards", "category")
RULING_KEYS = ("said", "chips", "later", "by", "then")
CARD_KEYS = ("current_total", "last_full_increment", "committed", "acted", "to_add")
OPTION_KEYS = ("fold", "check", "call", "bet", "raise")
SHOWDOWN_KEYS = ("all_tabled", "first")
POT_KEYS = ("amount", "eligible")


class _Checker:
    """Reads one parsed file; every error names the file, the line and the key."""

    def __init__(self, file: str, doc: _Map):
        self.file = file
        self.doc = doc

    def fail(self, line: int | None, key: str | None, message: str) -> ScenarioError:
        return ScenarioError(self.file, line, key, f"{key}: {message}" if key else message)

    def keys(self, mapping: _Map, allowed: tuple[str, ...], prefix: str) -> None:
        for key in mapping:
            if key not in allowed:
                close = difflib.get_close_matches(str(key), allowed, n=1)
                hint = f'; did you mean "{close[0]}"?' if close else f" (allowed: {', '.join(allowed)})"
                name = f"{prefix}{key}"
                raise ScenarioError(self.file, mapping.key_lines[key], name, f'unknown key "{name}"{hint}')

    def bad_action(self, line: int, text: str, message: str) -> ScenarioError:
        return ScenarioError(self.file, line, "actions", f'"{_clip(text)}": {message}')

    def line_of(self, mapping: _Map, key: str) -> int:
        return mapping.key_lines.get(key, mapping.line)

    def mapping(self, parent: _Map, key: str, name: str, required: bool = False) -> _Map | None:
        if key not in parent:
            if required:
                raise self.fail(parent.line, name, "missing (it is required)")
            return None
        value = parent[key]
        if not isinstance(value, _Map):
            raise self.fail(self.line_of(parent, key), name, f"must be a mapping, got {_show(value)}")
        return value

    def integer(self, parent: _Map, key: str, name: str, minimum: int, default: int | None = None) -> int | None:
        if key not in parent:
            return default
        value = parent[key]
        if not _is_int(value) or value < minimum:
            what = "a whole number" + (f" ≥ {minimum}" if minimum > 0 else " ≥ 0")
            raise self.fail(self.line_of(parent, key), name, f"must be {what}, got {_show(value)}")
        if value > MAX_AMOUNT:
            raise self.fail(self.line_of(parent, key), name, f"{value} {TOO_LARGE}")
        return value

    def choice(self, parent: _Map, key: str, name: str, allowed: Iterable[str], default=None):
        if key not in parent:
            return default
        value = parent[key]
        allowed = tuple(allowed)
        if value not in allowed:
            raise self.fail(self.line_of(parent, key), name, f"must be one of {', '.join(allowed)}, got {_show(value)}")
        return value

    def int_list(self, parent: _Map, key: str, name: str, length: int | None = None) -> tuple[int, ...] | None:
        if key not in parent:
            return None
        value = parent[key]
        line = self.line_of(parent, key)
        ok = isinstance(value, list) and all(_is_int(v) and v > 0 for v in value)
        if not ok or (length is not None and len(value) != length):
            shape = f"a list of {length} whole numbers > 0" if length else "a list of whole numbers > 0"
            raise self.fail(line, name, f"must be {shape}, got {_show(value)}")
        for v in value:
            if v > MAX_AMOUNT:
                raise self.fail(line, name, f"{v} {TOO_LARGE}")
        return tuple(value)

    def localized(self, key: str) -> Localized | None:
        if key not in self.doc:
            return None
        value = self.doc[key]
        line = self.line_of(self.doc, key)
        if isinstance(value, str):
            if not value.strip():
                raise self.fail(line, key, "must not be empty")
            return Localized({"*": value})
        if not isinstance(value, _Map) or not value:
            raise self.fail(line, key, f"must be a text or a mapping of {', '.join(LOCALES)} to text")
        for locale, text in value.items():
            where = value.key_lines[locale]
            if locale not in LOCALES:
                raise self.fail(where, f"{key}.{locale}", f'unknown locale "{locale}"; use {", ".join(LOCALES)}')
            if not isinstance(text, str) or not text.strip():
                raise self.fail(where, f"{key}.{locale}", f"must be a non-empty text, got {_show(text)}")
        return Localized(value)

    # -- sections

    def game(self) -> Game:
        g = self.game_map = self.mapping(self.doc, "game", "game", required=True)
        self.keys(g, GAME_KEYS, "game.")
        if "type" not in g:
            raise self.fail(g.line, "game.type", "missing (no-limit, pot-limit or fixed-limit)")
        gtype = GameType(self.choice(g, "type", "game.type", (t.value for t in GameType)))
        if "blinds" not in g:
            raise self.fail(g.line, "game.blinds", "missing: write [small blind, big blind], e.g. [100, 200]")
        blinds = self.int_list(g, "blinds", "game.blinds", 2)
        if blinds[0] > blinds[1]:
            raise self.fail(self.line_of(g, "blinds"), "game.blinds", "the small blind cannot be larger than the big blind")
        straddles = self.int_list(g, "straddles", "game.straddles") or ()
        previous = blinds[1]
        for amount in straddles:
            if amount <= previous:
                raise self.fail(
                    self.line_of(g, "straddles"), "game.straddles",
                    f"each straddle must be larger than the bet before it ({amount} is not above {previous})",
                )
            previous = amount
        bets = self.int_list(g, "bets", "game.bets", 2)
        if bets is not None and gtype is not GameType.FIXED_LIMIT:
            raise self.fail(self.line_of(g, "bets"), "game.bets", "is only for fixed-limit games")
        return Game(
            type=gtype,
            blinds=blinds,
            ante=self.integer(g, "ante", "game.ante", 0, 0),
            bb_ante=self.integer(g, "bb_ante", "game.bb_ante", 0, 0),
            straddles=straddles,
            bets=bets,
            rules=self.rules(g, gtype),
        )

    def rules(self, g: _Map, gtype: GameType) -> Rules:
        r = self.mapping(g, "rules", "game.rules")
        if r is None:
            return Rules()
        self.keys(r, RULE_KEYS, "game.rules.")
        # an option the game type never reads would be silently ignored
        if gtype is GameType.FIXED_LIMIT and "reopen" in r:
            raise self.fail(
                r.key_lines["reopen"], "game.rules.reopen",
                "does not apply to fixed limit: there an all-in of at least half a bet reopens the betting (R-LIMIT, TDA24 47-B)",
            )
        if gtype is not GameType.FIXED_LIMIT:
            for key in ("limit_cap", "limit_cap_heads_up"):
                if key in r:
                    raise self.fail(r.key_lines[key], f"game.rules.{key}", f"is only for fixed-limit games (this game is {gtype})")
        heads_up = r.get("limit_cap_heads_up", True)
        if not isinstance(heads_up, bool):
            raise self.fail(self.line_of(r, "limit_cap_heads_up"), "game.rules.limit_cap_heads_up", f"must be true or false, got {_show(heads_up)}")
        return Rules(
            reopen=Reopen(self.choice(r, "reopen", "game.rules.reopen", (o.value for o in Reopen), "at-least")),
            bba=BBAOrder(self.choice(r, "bba", "game.rules.bba", (o.value for o in BBAOrder), "blind-first")),
            limit_cap=self.integer(r, "limit_cap", "game.rules.limit_cap", 1, 4),
            limit_cap_heads_up=heads_up,
        )

    def stacks(self, start: Street) -> dict[str, int]:
        s = self.mapping(self.doc, "stacks", "stacks", required=True)
        if len(s) < 2:
            raise self.fail(s.line, "stacks", "a hand needs at least two players")
        for pos, value in s.items():
            line = s.key_lines[pos]
            if pos not in POSITIONS:
                raise self.fail(line, f"stacks.{pos}", f'unknown position "{pos}"; positions are {", ".join(POSITIONS)}')
            if not _is_int(value) or value <= 0:
                raise self.fail(line, f"stacks.{pos}", f"must be a whole number of chips > 0, got {_show(value)}")
            if value > MAX_AMOUNT:
                raise self.fail(line, f"stacks.{pos}", f"{value} {TOO_LARGE}")
        if start is Street.PREFLOP:
            if "BB" not in s:
                raise self.fail(s.line, "stacks", "a hand starting preflop needs a BB")
            if "SB" not in s and len(s) != 2:
                raise self.fail(s.line, "stacks", "a hand starting preflop with three or more players needs an SB (with two, the seat that is not the BB is the button and posts the small blind)")
        return {pos: s[pos] for pos in sorted(s, key=POSITIONS.index)}

    def forced_bets(self, game: Game, start: Street, stacks: dict[str, int]) -> None:
        """Forced bets the hand would not post, and straddles with no seat to post them."""
        g = self.game_map
        if start is not Street.PREFLOP:
            for key, value, what in (("ante", game.ante, "antes are"), ("bb_ante", game.bb_ante, "the big-blind ante is"),
                                     ("straddles", game.straddles, "straddles are")):
                if value:
                    raise self.fail(
                        g.key_lines[key], f"game.{key}",
                        f"{what} posted before the preflop betting; this scenario starts on the {start}, "
                        f"so those chips are already in pot: count them there and leave game.{key} out",
                    )
            return
        if not game.straddles:
            return
        # any two seats are heads-up: one posts the small blind, the other the big blind
        order = sorted(stacks, key=POSITIONS.index)
        free = [] if len(stacks) == 2 else [p for p in order[order.index("BB") + 1:] if p != "SB"]
        if len(game.straddles) > len(free):
            if len(stacks) == 2:
                why = "heads-up nobody can straddle: the button posts the small blind, the other seat the big blind"
            elif not free:
                why = "no seat after the big blind is dealt in"
            else:
                why = f"only {len(free)} seat{'s' if len(free) > 1 else ''} after the big blind can straddle ({', '.join(free)})"
            count = len(game.straddles)
            raise self.fail(g.key_lines["straddles"], "game.straddles", f"{count} straddle{'s' if count > 1 else ''}, but {why}")
        # R-STRADDLE: a straddle is posted in full; the engine would post what the stack holds (an all-in)
        for i, (seat, amount) in enumerate(zip(free, game.straddles)):
            behind = stacks[seat] - min(game.ante, stacks[seat])
            if behind < amount:
                has = f"{seat} has {stacks[seat]}" + (f", {behind} after the ante of {game.ante}," if game.ante else "")
                raise self.fail(
                    g["straddles"].item_lines[i] or self.line_of(g, "straddles"), "game.straddles",
                    f"{has} and cannot cover the straddle of {amount}: a straddle is posted in full, "
                    f"so a player short of it may not straddle (R-STRADDLE)",
                )

    def table_total(self, pot: int, stacks: dict[str, int]) -> None:
        total = pot + sum(stacks.values())
        if total > MAX_AMOUNT:
            raise self.fail(self.line_of(self.doc, "stacks"), "stacks", f"the chips at the table (pot and stacks) add up to {total}, which {TOO_LARGE}")

    def chip(self, ask: tuple[str, ...]) -> int:
        """``chip``, the smallest chip in play (R-ODDCHIP): only for splitting pots, default 1."""
        if "chip" not in self.doc:
            return 1
        if "winners" not in self.doc and "winners" not in ask:
            raise self.fail(self.line_of(self.doc, "chip"), "chip", "is only used with winners")
        return self.integer(self.doc, "chip", "chip", 1, 1)

    def multiples(self, chip: int, game: Game, pot: int, stacks: dict[str, int], actions: list[ScenarioAction]) -> None:
        """R-ODDCHIP: on a table whose smallest chip is ``chip`` every amount is a number of those chips."""
        if chip == 1:
            return
        g = self.game_map
        amounts: list[tuple[int, int | None, str]] = []
        for key, values in (("blinds", game.blinds), ("ante", (game.ante,)), ("bb_ante", (game.bb_ante,)),
                            ("straddles", game.straddles), ("bets", game.bets or ())):
            lines = getattr(g.get(key), "item_lines", None) or [None] * len(values)
            amounts += [(v, line or self.line_of(g, key), f"game.{key}") for v, line in zip(values, lines)]
        amounts.append((pot, self.line_of(self.doc, "pot"), "pot"))
        amounts += [(v, self.doc["stacks"].key_lines[pos], f"stacks.{pos}") for pos, v in stacks.items()]
        why = f"is not a multiple of chip ({chip}): with no chip smaller than {chip} in play, it cannot be on the table (R-ODDCHIP)"
        for amount, line, name in amounts:
            if amount % chip:
                raise self.fail(line, name, f"{amount} {why}")
        for act in actions:
            if act.amount is not None and act.amount % chip:
                raise self.bad_action(act.line, act.text, f"{act.amount} {why}")

    def seat_map(self, key: str, stacks: dict[str, int]) -> _Map:
        m = self.mapping(self.doc, key, key)
        if m is None:
            return _Map()
        for pos in m:
            if pos not in stacks:
                raise self.fail(m.key_lines[pos], f"{key}.{pos}", f"{pos} is not in stacks")
        return m

    def cards(self, stacks: dict[str, int]) -> tuple[tuple[str, ...], dict[str, tuple[str, str]]]:
        seen: dict[str, str] = {}

        def card(value, line: int, name: str) -> str:
            if not isinstance(value, str) or not CARD_RE.match(value):
                raise self.fail(line, name, f"{_show(value)} is not a card; write rank then suit, e.g. Kc, 7d, Ts")
            if value in seen:
                raise self.fail(line, name, f"{value} is dealt twice (also in {seen[value]})")
            seen[value] = name
            return value

        board: tuple[str, ...] = ()
        if "board" in self.doc:
            b = self.doc["board"]
            line = self.line_of(self.doc, "board")
            if not isinstance(b, list) or len(b) not in (0, 3, 4, 5):
                raise self.fail(line, "board", f"must be a list of 3, 4 or 5 cards, got {_show(b)}")
            board = tuple(card(v, b.item_lines[i], "board") for i, v in enumerate(b))
        hands: dict[str, tuple[str, str]] = {}
        for pos, value in self.seat_map("hands", stacks).items():
            line = self.doc["hands"].key_lines[pos]
            if not isinstance(value, list) or len(value) != 2:
                raise self.fail(line, f"hands.{pos}", f"must be a list of two cards, got {_show(value)}")
            hands[pos] = (card(value[0], line, f"hands.{pos}"), card(value[1], line, f"hands.{pos}"))
        return board, hands

    def names(self, stacks: dict[str, int]) -> dict[str, str]:
        m = self.seat_map("names", stacks)
        for pos, value in m.items():
            if not isinstance(value, str) or not value.strip():
                raise self.fail(m.key_lines[pos], f"names.{pos}", f"must be a non-empty text, got {_show(value)}")
        return dict(m)

    def actions(self, start: Street, stacks: dict[str, int]) -> list[ScenarioAction]:
        if "actions" not in self.doc or self.doc["actions"] is None:
            return []
        value = self.doc["actions"]
        line = self.line_of(self.doc, "actions")
        groups: list[tuple[Street, _List]] = []
        if isinstance(value, _List):
            groups.append((start, value))
        elif isinstance(value, _Map):
            streets = list(Street)
            last = streets.index(start) - 1
            for name, items in value.items():
                where = value.key_lines[name]
                if name not in streets:
                    raise self.fail(where, f"actions.{name}", f'"{name}" is not a street; use {", ".join(streets)}')
                index = streets.index(Street(name))
                if index < streets.index(start):
                    raise self.fail(where, f"actions.{name}", f"the scenario starts on the {start}, so it has no {name} actions")
                if index <= last:
                    raise self.fail(where, f"actions.{name}", "streets must be listed in order")
                if not isinstance(items, _List):
                    raise self.fail(where, f"actions.{name}", f"must be a list of actions, got {_show(items)}")
                last = index
                groups.append((Street(name), items))
        else:
            raise self.fail(line, "actions", "must be a list of actions, or a mapping of street to a list of actions")
        parsed = []
        for street, items in groups:
            for i, text in enumerate(items):
                parsed.append(self.action(text, items.item_lines[i], street, stacks))
        return parsed

    def action(self, text, line: int, street: Street, stacks: dict[str, int]) -> ScenarioAction:
        example = '"CO raise 1400"'
        if not isinstance(text, str):
            raise self.fail(line, "actions", f"each action is a text like {example}, got {_show(text)}")
        words = text.split()
        if len(words) < 2 or len(words) > 3:
            raise self.bad_action(line, text, f'write <position> <verb> [amount], e.g. {example}')
        pos, verb = words[0], words[1]
        if pos not in POSITIONS:
            close = difflib.get_close_matches(pos, POSITIONS, n=1)
            hint = f'; did you mean "{close[0]}"?' if close else f" (positions: {', '.join(POSITIONS)})"
            raise self.bad_action(line, text, f'unknown position "{pos}"{hint}')
        if pos not in stacks:
            raise self.bad_action(line, text, f'{pos} is not in stacks (seated: {", ".join(stacks)})')
        if verb not in VERBS:
            close = difflib.get_close_matches(verb, VERBS, n=1)
            hint = f'; did you mean "{close[0]}"?' if close else ""
            raise self.bad_action(line, text, f'unknown verb "{verb}" (verbs: fold, check, call, bet N, raise N, allin){hint}')
        kind = ActionKind(verb)
        amount = None
        if kind in (ActionKind.BET, ActionKind.RAISE):
            if len(words) != 3:
                raise self.bad_action(line, text, f'{verb} needs the total to {verb} to, e.g. "{pos} {verb} 1400"')
            digits = words[2].isascii() and words[2].isdigit()
            if digits and len(words[2].lstrip("0")) > len(str(MAX_AMOUNT)):  # checked before int(): no 5,000-digit parse
                raise self.bad_action(line, text, f"the amount {TOO_LARGE}")
            if not AMOUNT_RE.match(words[2]) or not words[2].strip("0"):
                raise self.bad_action(line, text, f'"{_clip(words[2])}" is not a whole number of chips greater than 0')
            if int(words[2]) > MAX_AMOUNT:
                raise self.bad_action(line, text, f"the amount {TOO_LARGE}")
            amount = int(words[2])
        elif len(words) == 3:
            raise self.bad_action(line, text, f'{verb} takes no amount')
        return ScenarioAction(street=street, position=pos, kind=kind, amount=amount, text=text, line=line)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validated(doc, file: str) -> Scenario:
    """Validate and replay one scenario's values (from ``read``); raise ``ScenarioError`` on the first problem."""
    if not isinstance(doc, _Map):
        raise ScenarioError(file, getattr(doc, "line", None) or 1, None, "a scenario file must be a mapping of keys (id, game, stacks, ...)")
    c = _Checker(file, doc)
    c.keys(doc, TOP_KEYS, "")
    sid = doc.get("id", Path(file).stem)
    if not isinstance(sid, str) or not ID_RE.match(sid):
        line = c.line_of(doc, "id") if "id" in doc else 1
        raise c.fail(line, "id", f"{_show(sid)} is not a valid id: use lower-case letters, digits and -, e.g. turn-btn-short-all-in")
    title = c.localized("title") or Localized({"*": sid})
    explain = c.localized("explain")
    topics = _topics(c)
    level = c.integer(doc, "level", "level", 1)
    if level is not None and level > 5:
        raise c.fail(c.line_of(doc, "level"), "level", f"must be 1 to 5, got {level}")
    game = c.game()
    start = Street(c.choice(doc, "start", "start", (s.value for s in Street), "preflop"))
    if "pot" in doc and start is Street.PREFLOP:
        raise c.fail(c.line_of(doc, "pot"), "pot", "is only for a scenario with a later start (flop, turn or river)")
    if "pot" not in doc and start is not Street.PREFLOP:
        raise c.fail(c.line_of(doc, "start"), "pot", f"a scenario starting on the {start} needs pot: the chips already in the middle")
    pot = c.integer(doc, "pot", "pot", 0, 0)
    stacks = c.stacks(start)
    c.forced_bets(game, start, stacks)
    c.table_total(pot, stacks)
    names = c.names(stacks)
    board, hands = c.cards(stacks)
    ask = _ask(c)
    chip = c.chip(ask)
    expect = _expect(c, stacks)
    actions = c.actions(start, stacks)
    c.multiples(chip, game, pot, stacks, actions)
    hand = _replay(c, game, stacks, start, pot, actions)
    solution = hand.solve()
    if "ask" in doc:
        _answerable(c, hand, ask)
    elif hand.betting_over:
        # the contract's default, [card], has no answer once betting is over: ask what there is
        ask = ("pots", "showdown") if "showdown" in solution else ("pots",)
    declaration = _ruling(c, hand, ask, solution)
    if "winners" in ask:
        winners = _read_hands(c, hand, ask, solution, board, hands, chip)
    else:
        winners = _winners(c, hand, ask, solution, chip)
    return Scenario(
        id=sid, file=file, title=title, explain=explain, topics=topics, level=level, game=game,
        start=start, pot=pot, stacks=stacks, names=names, board=board, hands=hands,
        actions=tuple(actions), ask=ask, expect=expect, ruling=declaration, winners=winners, chip=chip,
        solution=solution, lines=dict(doc.key_lines), source=_source(c),
    )


def _answerable(c: _Checker, hand: Hand, ask: tuple[str, ...]) -> None:
    """Each asked question must have an answer in this spot."""
    line = c.line_of(c.doc, "ask")
    for kind in ask:
        if kind in ("card", "options", "ruling") and hand.betting_over:
            raise c.fail(line, "ask", f"{kind} asks about the player to act, but betting is over after the last action")
        if kind in ("pots", "showdown", "winners", "split") and not hand.betting_over:
            raise c.fail(line, "ask", f"{kind} is answered once betting is over, and {hand.to_act} is still to act")
        if kind == "showdown" and sum(not s.folded for s in hand.seats) < 2:
            raise c.fail(line, "ask", "showdown needs two or more players left, but everyone else folded")


def _ruling(c: _Checker, hand: Hand, ask: tuple[str, ...], solution: dict) -> Declaration | None:
    r = c.mapping(c.doc, "ruling", "ruling")
    if r is None:
        if "ruling" in ask:
            raise c.fail(c.line_of(c.doc, "ask"), "ruling", "ask includes ruling, so the file needs a ruling: {said: ..., chips: [...]}")
        return None
    c.keys(r, RULING_KEYS, "ruling.")
    said = r.get("said")
    if _is_int(said):
        said = str(said)
    if said is not None:
        try:
            if not isinstance(said, str):
                raise ValueError
            parse_said(said)
        except ValueError:
            raise c.fail(c.line_of(r, "said"), "ruling.said", f"{_show(r.get('said'))} is not a declaration; use check, call, bet, raise, allin, fold, \"raise 1400\" or an amount") from None
    chips = c.int_list(r, "chips", "ruling.chips") or ()
    later = c.int_list(r, "later", "ruling.later") or ()
    if said is None and not chips:
        raise c.fail(r.line, "ruling", "give what the player said (said: ...), the chips they put forward (chips: [...]), or both")
    if hand.betting_over:
        raise c.fail(r.line, "ruling", "betting is over: there is no player to act to rule on")
    by = r.get("by")
    if by is not None and by not in hand.game_positions():
        raise c.fail(c.line_of(r, "by"), "ruling.by", f"{_show(by)} is not in stacks")
    then = []
    if "then" in r:
        items = r["then"]
        if not isinstance(items, _List):
            raise c.fail(c.line_of(r, "then"), "ruling.then", "must be a list of actions in turn, e.g. [UTG check]")
        then = [c.action(text, items.item_lines[i], hand.street, {p: 1 for p in hand.game_positions()}).action()
                for i, text in enumerate(items)]
    declaration = Declaration(said=said, chips=chips, later=later, by=by, then=tuple(then))
    try:
        solution["ruling"] = rule(hand, declaration).as_dict()
    except EngineError as exc:
        raise c.fail(r.line, "ruling", str(exc)) from None
    return declaration


def _read_hands(c: _Checker, hand: Hand, ask: tuple[str, ...], solution: dict, board, hands, chip: int):
    """ask: [winners] — the engine reads the cards: best five per live player, winners per pot.

    Returns what ``_winners`` returns: the winners to split by (only when ``split`` is asked)."""
    line = c.line_of(c.doc, "ask")
    if "winners" in c.doc:
        raise c.fail(c.line_of(c.doc, "winners"), "winners",
                     "ask includes winners, so the engine reads them from the cards: remove the winners key "
                     "(it is for naming winners by hand, with ask: [split])")
    if len(board) != 5:
        where = c.line_of(c.doc, "board") if "board" in c.doc else line
        raise c.fail(where, "board", f"ask includes winners, so the file needs all five board cards, got {len(board)}")
    try:
        reading = read(hands=hands, board=board, pots=hand.result().pots, order=[s.position for s in hand.seats])
    except EngineError as exc:
        where = c.line_of(c.doc, "hands") if "hands" in c.doc else line
        raise c.fail(where, "hands", str(exc)) from None
    solution["best_hands"] = {pos: b.as_dict() for pos, b in reading.best_hands.items()}
    solution["winners"] = reading.winners
    if "split" not in ask:
        return None
    solution["split"] = hand.split(reading.winners, chip)[0]
    return tuple(tuple(w) for w in reading.winners)


def _winners(c: _Checker, hand: Hand, ask: tuple[str, ...], solution: dict, chip: int):
    if "winners" not in c.doc:
        if "split" in ask:
            raise c.fail(c.line_of(c.doc, "ask"), "winners", "ask includes split, so the file needs winners: one list of positions per pot")
        return None
    value = c.doc["winners"]
    line = c.line_of(c.doc, "winners")
    ok = isinstance(value, list) and all(isinstance(w, list) and w and all(isinstance(p, str) for p in w) for w in value)
    if not ok:
        raise c.fail(line, "winners", f"must be one list of positions per pot, main pot first, e.g. [[BB, BTN], [BTN]]; got {_show(value)}")
    if not hand.betting_over:
        raise c.fail(line, "winners", f"betting is not over ({hand.to_act} is to act), so there are no pots to split yet")
    try:
        shares, _ = hand.split([list(w) for w in value], chip)
    except EngineError as exc:
        raise c.fail(line, "winners", str(exc)) from None
    solution["split"] = shares
    return tuple(tuple(w) for w in value)


SOURCE_KEYS = ("file", "hand", "decision")


def _source(c: _Checker) -> str | dict | None:
    """Where the spot comes from: a text, or ``{file, hand, decision}`` for a spot made from a hand history."""
    if "source" not in c.doc:
        return None
    value = c.doc["source"]
    line = c.line_of(c.doc, "source")
    if isinstance(value, str) and value.strip():
        return value
    if not isinstance(value, _Map):
        raise c.fail(line, "source", f"must be a text or {{file: NAME, hand: ID, decision: N}}, got {_show(value)}")
    c.keys(value, SOURCE_KEYS, "source.")
    for key in SOURCE_KEYS:
        if key not in value:
            raise c.fail(line, f"source.{key}", "missing (a hand history's spot names file, hand and decision)")
    if not isinstance(value["file"], str) or not value["file"].strip():
        raise c.fail(value.key_lines["file"], "source.file", f"must be the file's name, got {_show(value['file'])}")
    if not (isinstance(value["hand"], str) and value["hand"].strip() or _is_int(value["hand"])):
        raise c.fail(value.key_lines["hand"], "source.hand", f"must be the hand's number as the site wrote it, got {_show(value['hand'])}")
    c.integer(value, "decision", "source.decision", 1)
    return {key: value[key] for key in SOURCE_KEYS}


def _topics(c: _Checker) -> tuple[str, ...]:
    if "topics" not in c.doc:
        return ()
    value = c.doc["topics"]
    line = c.line_of(c.doc, "topics")
    if not isinstance(value, list) or not all(isinstance(t, str) and TOPIC_RE.match(t) for t in value):
        raise c.fail(line, "topics", f"must be a list of tags made of a-z, 0-9 and -, got {_show(value)}")
    return tuple(value)


def _ask(c: _Checker) -> tuple[str, ...]:
    if "ask" not in c.doc:
        return ("card",)
    value = c.doc["ask"]
    line = c.line_of(c.doc, "ask")
    if not isinstance(value, list) or not value:
        raise c.fail(line, "ask", f"must be a list of question kinds ({', '.join(QUESTION_KINDS)})")
    for kind in value:
        if kind not in QUESTION_KINDS:
            raise c.fail(line, "ask", f"unknown question kind {_show(kind)}; use {', '.join(QUESTION_KINDS)}")
    if len(set(value)) != len(value):
        raise c.fail(line, "ask", "lists a question kind twice")
    return tuple(value)


def _expect(c: _Checker, stacks: dict[str, int]) -> dict | None:
    e = c.mapping(c.doc, "expect", "expect")
    if e is None:
        return None
    c.keys(e, EXPECT_KEYS, "expect.")
    for key, allowed in (("card", CARD_KEYS), ("options", OPTION_KEYS), ("showdown", SHOWDOWN_KEYS),
                         ("ruling", ("action", "to", "returned"))):
        if e.get(key) is not None:
            c.keys(c.mapping(e, key, f"expect.{key}"), allowed, f"expect.{key}.")
    options = e.get("options")
    if isinstance(options, _Map):
        for key, allowed in (("bet", ("min", "max")), ("raise", ("min_to", "max_to"))):
            if options.get(key) is not None:
                c.keys(c.mapping(options, key, f"expect.options.{key}"), allowed, f"expect.options.{key}.")
    pots = e.get("pots")
    if pots is not None:
        if not isinstance(pots, _List):
            raise c.fail(c.line_of(e, "pots"), "expect.pots", "must be a list of {amount: N, eligible: [positions]}")
        for i, pot in enumerate(pots):
            if not isinstance(pot, _Map):
                raise c.fail(pots.item_lines[i], "expect.pots", "each pot is {amount: N, eligible: [positions]}")
            c.keys(pot, POT_KEYS, "expect.pots.")
    if e.get("returned") is not None:
        c.mapping(e, "returned", "expect.returned")
    best = c.mapping(e, "best_hands", "expect.best_hands") if e.get("best_hands") is not None else None
    if best is not None:
        for pos in best:
            if best[pos] is not None:
                c.keys(c.mapping(best, pos, f"expect.best_hands.{pos}"), BEST_HAND_KEYS, "expect.best_hands.")
    return e


def _replay(c: _Checker, game: Game, stacks, start: Street, pot: int, actions: list[ScenarioAction]) -> Hand:
    try:
        hand = Hand(game=game, stacks=stacks, start=start, pot=pot)
    except EngineError as exc:
        raise c.fail(c.line_of(c.doc, "stacks"), "stacks", str(exc)) from None
    for act in actions:
        if hand.betting_over:
            raise c.bad_action(act.line, act.text, 'betting is over after the previous action; nobody is to act')
        if act.street != hand.street:
            if list(Street).index(act.street) < list(Street).index(hand.street):
                raise c.bad_action(act.line, act.text, f'the {act.street} betting is already over; this action belongs to the {hand.street} (list later streets under their own key, e.g. actions: {{flop: [...], turn: [...]}})')
            raise c.bad_action(act.line, act.text, f'the {hand.street} betting is not finished: {hand.to_act} is still to act')
        try:
            hand.apply(act.action())
        except IllegalActionError as exc:
            raise c.bad_action(act.line, act.text, exc.clause()) from None
    return hand
