"""Reading a scenario file's YAML within bounds: text -> mappings and lists that remember their lines.

Every file ends, in bounded time and memory, in a Scenario or a
ScenarioError naming the file and line: the text is measured and scanned
before PyYAML sees it, and the node tree is turned into values by
``_Reader`` below, which bounds nesting, aliases, tags and digits.
YAML is read with the safe loader only (the C one when available);
mappings are checked for duplicate keys while the document is turned into
Python values, so line numbers survive.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import yaml

from .errors import ScenarioError, _clip, _show

MAX_FILE_BYTES = 1 << 20
"""A scenario file is a few hundred bytes; anything above 1 MiB is refused unread."""
MAX_DEPTH = 32
"""Lists and mappings inside one another; the format itself needs five."""
MAX_VALUES = 10_000
"""Values in the document once every alias (``*name``) is expanded."""
MAX_DIGITS = 30
"""Digits in one whole number (amounts have their own bounds in validation)."""

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


def read_bytes(data: bytes, file: str):
    """A YAML file's bytes -> mappings and lists that remember their lines (``line``,
    ``key_lines``), within the same bounds as a scenario: for other files of the project written
    in the same YAML (the exam catalogue)."""
    return _read_yaml(_decode(data, file), file)


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


def _from_values(document, file: str):
    """Python values -> the tree ``_read_yaml`` gives for their ``yaml.safe_dump``, with no lines.

    The same bounds hold (``MAX_DEPTH``, ``MAX_VALUES``, ``MAX_DIGITS``), and what
    a scenario cannot hold (a decimal number, an object) gets the reader's message.
    """
    reader = _Reader(file)
    count = 0

    def value(v, name: str, depth: int):
        nonlocal count
        count += 1
        if count > MAX_VALUES:
            raise reader.fail(None, name, _too_many())
        if v is None or isinstance(v, bool):
            return v
        if isinstance(v, str):
            return str.__str__(v)  # a plain text, as YAML gives back, even for a StrEnum
        if isinstance(v, int):
            digits = len(str(abs(v)))
            if digits > MAX_DIGITS:
                raise reader.fail(None, name, f"a number of {digits:,} digits is too large (at most {MAX_DIGITS} digits)")
            return int(v)
        if isinstance(v, float):
            raise reader.fail(
                None, name, f"{_clip(repr(v))} is not a whole number written in decimal digits: "
                'amounts are whole chips (quote it, e.g. "1.5", if it is text)'
            )
        if not isinstance(v, (Mapping, list, tuple)):
            raise reader.fail(None, name, f"a {_clip(type(v).__name__)} is not a value of the scenario format "
                              "(text, whole numbers, true, false, null, lists and mappings)")
        if depth > MAX_DEPTH:
            raise reader.fail(None, name, _too_deep())
        if isinstance(v, Mapping):
            out = _Map()
            out.line = None
            out.key_lines = {}
            for key, item in v.items():
                count += 1
                if not isinstance(key, (str, int)) or isinstance(key, bool):
                    raise reader.fail(None, name, f"a key must be a text or a whole number, got {_show(key)}")
                if key == "<<":
                    raise ScenarioError(file, None, "<<", "merge keys (<<) are not part of the scenario format")
                key = str.__str__(key) if isinstance(key, str) else int(key)
                out[key] = value(item, f"{name}.{key}" if name else str(key), depth + 1)
                out.key_lines[key] = None
            return out
        seq = _List()
        seq.line = None
        seq.item_lines = [None] * len(v)
        seq.extend(value(item, name, depth + 1) for item in v)
        return seq

    return value(document, "", 1)
