"""Scenario files (YAML) -> validated ``Scenario`` objects.

The format is a contract shared with other tools (SCENARIO-FORMAT.md):
every key it allows loads, anything else is an error that names the file,
the line, the key and what is wrong. YAML is read with the safe loader
only (the C one when available); mappings are checked for duplicate keys
while the document is turned into Python values, so line numbers survive.
"""

from __future__ import annotations

import difflib
import multiprocessing
import os
import re
import signal
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .engine.reading import read
from .engine.rulings import parse_said, rule
from .engine import (
    POSITIONS,
    Declaration,
    Action,
    ActionKind,
    BBAOrder,
    EngineError,
    Game,
    GameType,
    Hand,
    IllegalActionError,
    Reopen,
    Rules,
    Step,
    Street,
)

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


class ScenarioError(ValueError):
    """A problem in a scenario file: ``str()`` is ``file:line: message``."""

    def __init__(self, file: str, line: int | None, key: str | None, message: str):
        self.file = file
        self.line = line
        self.key = key
        if len(message) > MAX_MESSAGE:  # whatever the file holds, a message stays readable
            message = message[: MAX_MESSAGE - 160] + " … " + message[-157:]
        self.message = message
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {message}")

    def __reduce__(self):
        return (ScenarioError, (self.file, self.line, self.key, self.message))


class Localized(dict):
    """Locale -> text. ``text()`` falls back to English, then to any text there is."""

    def text(self, locale: str = "en") -> str:
        for key in (locale, "en", "*"):
            if key in self:
                return self[key]
        return next(iter(self.values()), "")


@dataclass(frozen=True, kw_only=True)
class ScenarioAction:
    street: Street
    position: str
    kind: ActionKind
    amount: int | None
    text: str
    line: int

    def action(self) -> Action:
        return Action(position=self.position, kind=self.kind, amount=self.amount)


@dataclass(frozen=True, kw_only=True)
class Scenario:
    id: str
    file: str
    title: Localized
    explain: Localized | None
    topics: tuple[str, ...]
    level: int | None
    game: Game
    start: Street
    pot: int
    stacks: dict[str, int]
    names: dict[str, str]
    board: tuple[str, ...]
    hands: dict[str, tuple[str, str]]
    actions: tuple[ScenarioAction, ...]
    ask: tuple[str, ...]
    expect: dict | None
    ruling: Declaration | None = None
    winners: tuple[tuple[str, ...], ...] | None = None
    chip: int = 1
    solution: dict = field(repr=False)
    lines: dict[str, int] = field(repr=False, default_factory=dict)

    def hand(self) -> Hand:
        """A fresh hand with every action of the file applied."""
        hand = Hand(game=self.game, stacks=self.stacks, start=self.start, pot=self.pot)
        for act in self.actions:
            hand.apply(act.action())
        return hand

    def solve(self) -> dict:
        return {"id": self.id, "file": self.file, **self.solution}

    def derivation(self) -> list[Step]:
        """The engine's explanation of the spot, then of the ruling and the split when asked."""
        hand = self.hand()
        steps = hand.derivation()
        if self.ruling is not None:
            steps += rule(hand, self.ruling).steps
        if "winners" in self.ask:
            steps += read(hands=self.hands, board=self.board, pots=hand.result().pots,
                          order=[s.position for s in hand.seats]).steps
        if self.winners is not None:
            steps += hand.split([list(w) for w in self.winners], self.chip)[1]
        return steps

    def check_expect(self) -> list[ScenarioError]:
        """Every way the engine disagrees with the file's ``expect`` block."""
        if not self.expect:
            return []
        problems: list[ScenarioError] = []
        for path, want, got, line in _compare(self.expect, self.solution, "expect"):
            problems.append(
                ScenarioError(
                    self.file,
                    line,
                    path,
                    f"{path}: the file expects {_show(want)}, the engine says {_show(got)}",
                )
            )
        return problems


@dataclass(frozen=True, kw_only=True)
class LoadResult:
    scenarios: list[Scenario]
    errors: list[ScenarioError]
    in_order: list[Scenario | ScenarioError] = field(default_factory=list)  # both, in path order


# ---------------------------------------------------------------- YAML reading
#
# Every file ends, in bounded time and memory, in a Scenario or a
# ScenarioError naming the file and line: the text is measured and scanned
# before PyYAML sees it, and the node tree is turned into values by
# ``_Reader`` below, which bounds nesting, aliases, tags and digits.

MAX_FILE_BYTES = 1 << 20
"""A scenario file is a few hundred bytes; anything above 1 MiB is refused unread."""
MAX_DEPTH = 32
"""Lists and mappings inside one another; the format itself needs five."""
MAX_VALUES = 10_000
"""Values in the document once every alias (``*name``) is expanded."""
MAX_DIGITS = 30
"""Digits in one whole number (amounts have their own bounds in validation)."""
MAX_SHOWN = 60
"""Characters of a file's value echoed in a message."""
MAX_MESSAGE = 500
"""Characters of one message: the start and the end are kept."""

try:
    _BaseLoader = yaml.CSafeLoader
except AttributeError:  # PyYAML built without libyaml
    _BaseLoader = yaml.SafeLoader

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_FLOAT = "tag:yaml.org,2002:float"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_NUMBER = "tag:trainer,number"  # YAML 1.1 reads it as a number, but not as a plain decimal whole number

_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_DECIMAL = re.compile(r"[-+]?[0-9][0-9_]*")
_NUMERIC_START = frozenset("0123456789+-.")
_YAML11 = yaml.resolver.Resolver.yaml_implicit_resolvers

# What YAML allows in a stream (YAML 1.1, 5.1), a BOM only as the first character.
_NOT_TEXT = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


class _Resolving:
    """The safe loader, resolving plain scalars as the scenario format reads them.

    ``true``/``false`` are booleans and ``yes``/``no``/``on``/``off`` are text
    (the format's booleans are ``true`` and ``false``); dates are text;
    decimal digits are whole numbers; anything else YAML 1.1 would read as a
    number is tagged so that it can be refused with a message.
    """

    _composed = 0

    def resolve(self, kind, value, implicit):
        if kind is not yaml.ScalarNode:
            return super().resolve(kind, value, implicit)
        if not implicit[0]:
            return _STR
        if value in _BOOLS:
            return _BOOL
        if value in _NULLS:
            return _NULL
        if value[0] in _NUMERIC_START:
            if _DECIMAL.fullmatch(value):
                return _INT
            for tag, regexp in _YAML11.get(value[0], ()):
                if tag in (_INT, _FLOAT) and regexp.match(value):
                    return _NUMBER
        return _STR

    # Only the pure-Python composer calls this; libyaml bounds its own nesting (1,000).
    _depth = 0

    def compose_node(self, parent, index):
        self._composed += 1  # every node, aliases and tagged values too
        if self._composed > MAX_VALUES:
            raise _TooMany
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH + 1:
                mark = self.peek_event().start_mark
                raise yaml.composer.ComposerError(None, None, _too_deep(), mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _TooMany(Exception):
    """More values than ``MAX_VALUES`` while composing; the line is found afterwards."""


def _too_many() -> str:
    return f"more than {MAX_VALUES:,} values (keys, texts, numbers, lists, mappings; an alias *name counts as all it repeats)"


def _line_of_too_many(text: str) -> int | None:
    """The line of the first value past ``MAX_VALUES``, from the events alone (no nodes are built)."""
    loader = _BaseLoader(text)
    seen = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.NodeEvent):
                seen += 1
                if seen > MAX_VALUES:
                    return event.start_mark.line + 1
    except yaml.YAMLError:
        pass
    finally:
        loader.dispose()
    return None


def _too_deep() -> str:
    return f"lists and mappings are nested more than {MAX_DEPTH} deep"


class _Loader(_Resolving, _BaseLoader):
    def resolve(self, kind, value, implicit):
        # libyaml's composer asks here for every value without an explicit
        # tag, so composing stops as soon as the document holds too many.
        self._composed += 1
        if self._composed > MAX_VALUES:
            raise _TooMany
        return super().resolve(kind, value, implicit)


class _PythonLoader(_Resolving, yaml.SafeLoader):
    """The same without libyaml, as PyYAML runs where it was built without it."""


class _Map(dict):
    """A mapping that remembers the line of each key (1-based)."""

    line: int = 0
    key_lines: dict


class _List(list):
    line: int = 0
    item_lines: list


def _decode(data: bytes, file: str) -> str:
    for bom, name in _BOMS:
        if data.startswith(bom):
            raise ScenarioError(file, 1, None, f"the file is {name} text (it starts with a {name} byte order mark): save it as UTF-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        byte = data[exc.start]
        raise ScenarioError(
            file, line, None, f"not UTF-8 text: the byte 0x{byte:02x} at column {column} is not UTF-8 (save the file as UTF-8)"
        ) from None


def _check_text(text: str, file: str) -> None:
    """Refuse what PyYAML would refuse without a line, and files too big to read."""
    if len(text) > MAX_FILE_BYTES // 4 and len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise ScenarioError(file, 1, None, f"the file is larger than {MAX_FILE_BYTES:,} bytes: a scenario is one spot")
    bad = _NOT_TEXT.search(text, 1 if text.startswith("\ufeff") else 0)
    if bad is None:
        return
    at = bad.start()
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    char = bad.group()
    if char == "\0":
        what = "a NUL byte (binary data?)"
    elif char == "\ufeff":
        what = "a byte order mark (U+FEFF) after the start of the file"
    elif "\ud800" <= char <= "\udfff":
        what = f"a lone surrogate (U+{ord(char):04X})"
    else:
        what = f"the control character U+{ord(char):04X}"
    raise ScenarioError(file, line, None, f"not a text file YAML can read: {what} at column {column}")


def _read_yaml(text: str, file: str):
    _check_text(text, file)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        return _Reader(file).read(node)
    except _TooMany:
        raise ScenarioError(file, _line_of_too_many(text), None, _too_many()) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise ScenarioError(file, line, None, f"not valid YAML: {exc.problem or exc.context or 'unreadable'}") from None
    except yaml.YAMLError as exc:
        raise ScenarioError(file, None, None, f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()


class _Reader:
    """Turns the node tree into plain values: mappings, lists, text, whole numbers, booleans and null.

    Aliases are shared nodes. ``size`` first counts, once per node, how many
    values each list and mapping expands to, refusing the tree if it holds
    more than ``MAX_VALUES``, nests deeper than ``MAX_DEPTH`` or has an alias
    inside its own anchor; only then are values built.
    """

    __slots__ = ("file", "sizes", "open")

    def __init__(self, file: str):
        self.file = file
        self.sizes: dict[int, tuple[int, int]] = {}
        self.open: set[int] = set()

    def fail(self, line: int, name: str, message: str) -> ScenarioError:
        return ScenarioError(self.file, line, name or None, f"{name}: {message}" if name else message)

    def read(self, node):
        line = node.start_mark.line + 1
        self.size(node, 1, "", line)
        return self.value(node, "", line)

    def size(self, node, depth: int, name: str, line: int) -> tuple[int, int]:
        """(values, height) of ``node`` once aliases are expanded: a scalar is (1, 0)."""
        if isinstance(node, yaml.ScalarNode):
            return 1, 0
        known = self.sizes.get(id(node))
        if known is not None:
            # an alias repeats the whole anchored tree here, however deep it already was
            if depth + known[1] - 1 > MAX_DEPTH:
                raise self.fail(line, name, _too_deep())
            return known
        if depth > MAX_DEPTH:
            raise self.fail(line, name, _too_deep())
        if id(node) in self.open:
            raise self.fail(line, name, "an alias (*name) refers to the list or mapping it is part of")
        self.open.add(id(node))
        total, height = 1, 0
        children = []  # scalars, most of the nodes, are counted here without a call
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                key_line = key_node.start_mark.line + 1
                if isinstance(key_node, yaml.ScalarNode):
                    total += 1
                    key = key_node.value
                else:
                    children.append(self.size(key_node, depth + 1, name, key_line))
                    key = "?"
                if isinstance(value_node, yaml.ScalarNode):
                    total += 1
                else:
                    children.append(self.size(value_node, depth + 1, f"{name}.{key}" if name else str(key), key_line))
        else:
            for item in node.value:
                if isinstance(item, yaml.ScalarNode):
                    total += 1
                else:
                    children.append(self.size(item, depth + 1, name, item.start_mark.line + 1))
        for values, below in children:
            total += values
            if below > height:
                height = below
        if total > MAX_VALUES:
            raise self.fail(line, name, _too_many())
        self.open.discard(id(node))
        self.sizes[id(node)] = known = (total, height + 1)
        return known

    def value(self, node, name: str, line: int):
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, name, line)
        if node.tag not in (_MAP, _SEQ):
            raise self.fail(line, name, f"not valid YAML for a scenario: the tag {_tag(node.tag)} is not allowed (lists and mappings are untagged)")
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, name)
        seq = _List()
        seq.line = node.start_mark.line + 1
        seq.item_lines = [item.start_mark.line + 1 for item in node.value]
        for item, item_line in zip(node.value, seq.item_lines):
            seq.append(self.value(item, name, item_line))
        return seq

    def mapping(self, node, name: str) -> _Map:
        out = _Map()
        out.line = node.start_mark.line + 1
        out.key_lines = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.fail(line, name, "a key must be a plain name, not a list or mapping")
            key = self.scalar(key_node, name, line)
            if key == "<<":
                raise ScenarioError(self.file, line, "<<", "merge keys (<<) are not part of the scenario format")
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                key = key_node.value
            if key in out:
                raise ScenarioError(
                    self.file, line, str(key), f'duplicate key "{_clip(str(key))}" (first on line {out.key_lines[key]})'
                )
            out[key] = self.value(value_node, f"{name}.{key}" if name else str(key), line)
            out.key_lines[key] = line
        return out

    def scalar(self, node, name: str, line: int):
        tag, text = node.tag, node.value
        if tag == _STR:
            return text
        if tag == _INT:
            if not _DECIMAL.fullmatch(text):
                raise self.fail(line, name, f"{_show(text)} is not a whole number: write decimal digits, e.g. 1400")
            digits = text.lstrip("+-").replace("_", "")
            if len(digits) > MAX_DIGITS:
                raise self.fail(line, name, f"a number of {len(digits):,} digits is too large (at most {MAX_DIGITS} digits)")
            return int(text[0] + digits if text[0] in "+-" else digits)
        if tag == _BOOL:
            if text not in _BOOLS:
                raise self.fail(line, name, f"{_show(text)} is not a boolean: write true or false")
            return _BOOLS[text]
        if tag == _NULL:
            if text not in _NULLS:
                raise self.fail(line, name, f"{_show(text)} is not null: write null, ~ or nothing")
            return None
        if tag in (_FLOAT, _NUMBER):
            raise self.fail(
                line, name, f"{_clip(text)} is not a whole number written in decimal digits: "
                'amounts are whole chips (quote it, e.g. "1.5", if it is text)'
            )
        raise self.fail(line, name, f"not valid YAML for a scenario: the tag {_tag(tag)} is not allowed (text, whole numbers, true and false only)")


def _tag(tag: str) -> str:
    if tag.startswith("tag:yaml.org,2002:"):
        return "!!" + tag[len("tag:yaml.org,2002:"):]
    return _clip(tag)


def _clip(text: str, limit: int = MAX_SHOWN) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"



# ------------------------------------------------------------------ validation


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

    def table_total(self, pot: int, stacks: dict[str, int]) -> None:
        total = pot + sum(stacks.values())
        if total > MAX_AMOUNT:
            raise self.fail(self.line_of(self.doc, "stacks"), "stacks", f"the chips at the table (pot and stacks) add up to {total}, which {TOO_LARGE}")

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


def _show(value) -> str:
    """A value as the file wrote it, at most ``MAX_SHOWN`` characters (however large the value)."""
    size = 0
    pieces = []
    for piece in _pieces(value):
        pieces.append(piece)
        size += len(piece)
        if size > MAX_SHOWN:
            return "".join(pieces)[: MAX_SHOWN - 1] + "…"
    return "".join(pieces)


def _pieces(value):
    if value is None:
        yield "null"
    elif isinstance(value, bool):
        yield "true" if value else "false"
    elif isinstance(value, str):
        yield f'"{value[:MAX_SHOWN]}"'
    elif isinstance(value, Mapping):
        yield "{"
        for i, (key, item) in enumerate(value.items()):
            yield f"{', ' if i else ''}{str(key)[:MAX_SHOWN]}: "
            yield from _pieces(item)
        yield "}"
    elif isinstance(value, list):
        yield "["
        for i, item in enumerate(value):
            if i:
                yield ", "
            yield from _pieces(item)
        yield "]"
    else:
        yield str(value)[:MAX_SHOWN]


# ---------------------------------------------------------------- loading


def load_text(text: str, file: str) -> Scenario:
    """Parse, validate and replay one scenario; raise ``ScenarioError`` on the first problem."""
    doc = _read_yaml(text, file)
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
    expect = _expect(c, stacks)
    actions = c.actions(start, stacks)
    hand = _replay(c, game, stacks, start, pot, actions)
    solution = hand.solve()
    if "ask" in doc:
        _answerable(c, hand, ask)
    elif hand.betting_over:
        # the contract's default, [card], has no answer once betting is over: ask what there is
        ask = ("pots", "showdown") if "showdown" in solution else ("pots",)
    declaration = _ruling(c, hand, ask, solution)
    if "winners" in ask:
        winners, chip = _read_hands(c, hand, ask, solution, board, hands)
    else:
        winners, chip = _winners(c, hand, ask, solution)
    return Scenario(
        id=sid, file=file, title=title, explain=explain, topics=topics, level=level, game=game,
        start=start, pot=pot, stacks=stacks, names=names, board=board, hands=hands,
        actions=tuple(actions), ask=ask, expect=expect, ruling=declaration, winners=winners, chip=chip,
        solution=solution, lines=dict(doc.key_lines),
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


def _read_hands(c: _Checker, hand: Hand, ask: tuple[str, ...], solution: dict, board, hands):
    """ask: [winners] — the engine reads the cards: best five per live player, winners per pot.

    Returns what ``_winners`` returns: the winners to split by (only when ``split`` is asked) and the chip."""
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
        return None, 1
    chip = c.integer(c.doc, "chip", "chip", 1, 1)
    solution["split"] = hand.split(reading.winners, chip)[0]
    return tuple(tuple(w) for w in reading.winners), chip


def _winners(c: _Checker, hand: Hand, ask: tuple[str, ...], solution: dict):
    if "winners" not in c.doc:
        if "split" in ask:
            raise c.fail(c.line_of(c.doc, "ask"), "winners", "ask includes split, so the file needs winners: one list of positions per pot")
        if "chip" in c.doc:
            raise c.fail(c.line_of(c.doc, "chip"), "chip", "is only used with winners")
        return None, 1
    value = c.doc["winners"]
    line = c.line_of(c.doc, "winners")
    ok = isinstance(value, list) and all(isinstance(w, list) and w and all(isinstance(p, str) for p in w) for w in value)
    if not ok:
        raise c.fail(line, "winners", f"must be one list of positions per pot, main pot first, e.g. [[BB, BTN], [BTN]]; got {_show(value)}")
    chip = c.integer(c.doc, "chip", "chip", 1, 1)
    if not hand.betting_over:
        raise c.fail(line, "winners", f"betting is not over ({hand.to_act} is to act), so there are no pots to split yet")
    try:
        shares, _ = hand.split([list(w) for w in value], chip)
    except EngineError as exc:
        raise c.fail(line, "winners", str(exc)) from None
    solution["split"] = shares
    return tuple(tuple(w) for w in value), chip


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


def load_file(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        # O_NONBLOCK: opening a named pipe must not wait for a writer.
        with open(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise ScenarioError(str(path), 1, None, "not a regular file: a scenario is a text file")
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ScenarioError(str(path), None, None, f"cannot read the file: {exc.strerror}") from None
    return load_bytes(data, str(path))


def load_bytes(data: bytes, file: str) -> Scenario:
    """``load_text`` for a file's bytes: UTF-8 (a leading BOM is allowed), at most ``MAX_FILE_BYTES``."""
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError(file, 1, None, f"the file is larger than {MAX_FILE_BYTES:,} bytes: a scenario is one spot")
    return load_text(_decode(data, file), file)


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """Expand directories into their ``*.yaml`` files, in path order."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.yaml") if p.is_file()))
        else:
            files.append(path)
    return files


FILE_SECONDS = 10.0
"""In a loading process, a file that takes longer than this is reported instead of waited for."""


class _TookTooLong(Exception):
    pass


def _alarm(signum, frame):
    raise _TookTooLong


_timed = False  # set in loading processes, whose main thread is the one that loads


def _start_worker() -> None:
    global _timed
    signal.signal(signal.SIGALRM, _alarm)
    _timed = True


def _load_one(path: Path) -> Scenario | ScenarioError:
    """One file's Scenario or ScenarioError: whatever goes wrong stays with that file."""
    if not path.exists():
        return ScenarioError(str(path), None, None, "no such file or directory")
    try:
        if _timed:
            signal.setitimer(signal.ITIMER_REAL, FILE_SECONDS)
        try:
            return load_file(path)
        finally:
            if _timed:
                signal.setitimer(signal.ITIMER_REAL, 0)
    except ScenarioError as exc:
        return exc
    except _TookTooLong:
        return ScenarioError(str(path), 1, None, f"took longer than {FILE_SECONDS:g} s to load; nothing was read from it")
    except Exception as exc:  # a bug in the loader or the engine: report it with the file, keep loading the rest
        return ScenarioError(str(path), 1, None, f"the loader failed on this file ({type(exc).__name__}: {_clip(str(exc))}); please report it")


# Below this many files a second process costs more than it saves.
PARALLEL_FROM = 400


def _load_all(files: list[Path], workers: int | None) -> list[Scenario | ScenarioError]:
    if workers is None:
        workers = min(os.cpu_count() or 1, 4) if len(files) >= PARALLEL_FROM else 1
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return [_load_one(path) for path in files]
    try:
        with multiprocessing.get_context("fork").Pool(workers, initializer=_start_worker) as pool:
            chunks = max(1, len(files) // (workers * 8))
            # Each file is bounded by FILE_SECONDS; waiting longer than all of them means a worker was lost.
            budget = FILE_SECONDS * (len(files) // workers + chunks) + 60
            return pool.map_async(_load_one, files, chunksize=chunks).get(timeout=budget)
    except Exception:  # the pool itself failed (a result that would not pickle, a worker lost): load here
        return [_load_one(path) for path in files]


def load_paths(paths: Iterable[str | Path], *, workers: int | None = 1) -> LoadResult:
    """Load every file; one broken file never stops the others. Ids must be unique.

    ``workers=None`` picks a number of processes for large directories.
    """
    scenarios: list[Scenario] = []
    errors: list[ScenarioError] = []
    in_order: list[Scenario | ScenarioError] = []
    seen: dict[str, str] = {}
    for item in _load_all(scenario_files(paths), workers):
        if isinstance(item, Scenario) and item.id in seen:
            line = item.lines.get("id", 1)
            item = ScenarioError(item.file, line, "id", f'id "{item.id}" is already used by {seen[item.id]}')
        if isinstance(item, ScenarioError):
            errors.append(item)
        else:
            seen[item.id] = item.file
            scenarios.append(item)
        in_order.append(item)
    return LoadResult(scenarios=scenarios, errors=errors, in_order=in_order)


# ---------------------------------------------------------------- expect


def _compare(want, got, path: str, line: int | None = None):
    """Yield (path, expected, actual, line) for every disagreement, key by key."""
    depth = 2 if path.startswith("expect.best_hands") else 1  # a best hand may be expected by category alone
    if isinstance(want, _Map) and path.count(".") <= depth and not path.endswith(("returned", ".bet", ".raise")):
        for key, value in want.items():
            actual = got.get(key) if isinstance(got, Mapping) else None
            yield from _compare(value, actual, f"{path}.{key}", want.key_lines.get(key, line))
        return
    if path.endswith(".pots") and isinstance(want, list) and isinstance(got, list):
        want = [_pot_key(p) for p in want]
        got = [_pot_key(p) for p in got]
    if path.endswith(".winners") and isinstance(want, list) and isinstance(got, list):
        # a tie lists its winners in any order
        want = [_seat_sorted(w) for w in want]
        got = [_seat_sorted(w) for w in got]
    if _plain(want) != _plain(got):
        yield path, want, got, line


def _seat_sorted(players) -> object:
    if isinstance(players, list) and all(isinstance(p, str) for p in players):
        order = {p: i for i, p in enumerate(POSITIONS)}
        return sorted(players, key=lambda p: order.get(p, 99))
    return players


def _pot_key(pot) -> object:
    if isinstance(pot, Mapping) and isinstance(pot.get("eligible"), list):
        order = {p: i for i, p in enumerate(POSITIONS)}
        # a file may list anything there, lists and mappings too: those sort last
        return {**pot, "eligible": sorted(pot["eligible"], key=lambda p: order.get(p, 99) if isinstance(p, str) else 99)}
    return pot


def _plain(value):
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
