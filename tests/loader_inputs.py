"""Inputs for fuzzing the scenario loader: mutated real files and YAML-ish text.

Used by tests/test_loader_fuzz.py (hypothesis draws the seeds) and by the
long run, benchmarks/fuzz_loader.py. Every input is bytes (read like a file)
or text (read like ``load_text`` is given it); the loader must answer each
with a ``Scenario`` or a ``ScenarioError``, nothing else.
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Values the issue named, and their neighbours: each replaces a value or is inserted as a line.
NASTY = (
    "&a [*a]", "&a {k: *a}", "2001-13-45", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "12:30:00",
    "9" * 5000, "-" + "9" * 40, "1" * 31, "1" * 30, "9007199254740993", "1_000", "0x1F", "0o17", "017",
    "0b101", "1:30", "190:20:30", "+12", "-0", ".inf", "-.Inf", ".nan", "1.5", "1e3", "1.0e+400",
    "!!bool maybe", "!!bool yes", "!!bool true", "!!float abc", "!!float 1.5", "!!timestamp abc",
    "!!timestamp 2001-12-14", "!!int abc", "!!int 0x10", "!!int ²", "!!int " + "7" * 4400, "!!null x",
    "!!str 12", "!!binary AAAA", "!!binary ===", "!!set {a, b}", "!!omap [a: 1]", "!!pairs [a: 1]",
    "!!python/object:os.system {}", "!!python/name:os.system", "!custom x", "!<tag:x> y", "! plain",
    "!!map [1]", "!!seq {a: 1}", "*undefined", "&x", "&x 5", "<<", "<<: {a: 1}", "=", "~", "null",
    "yes", "No", "on", "OFF", "y", "TRUE", "", '""', "''", '"\\x00"', '"\\ud800"', '"\\U0010FFFF"',
    "|\n  block\n", ">-\n  folded\n", "[", "]", "{", "}", "[a, b", "{a: 1", "? a\n: b", "- - -",
    "%YAML 1.1", "%TAG ! tag:x,2000:", "---", "...", "--- !!str", "\t", "#", "'unterminated", '"x',
    "x" * 5000, "'" + "é" * 2000 + "'", "CO raise " + "9" * 5000, "SB raise 1e3", "BB call 5",
)

ENCODINGS = ("utf-8-sig", "utf-16", "utf-16-le", "utf-32", "latin-1")


@lru_cache(maxsize=1)
def seeds() -> tuple[bytes, ...]:
    """Every real scenario file and every deliberately broken one."""
    folders = ("scenarios", "tests/scenarios", "fixtures")
    files = sorted(p for folder in folders for p in (REPO / folder).rglob("*.yaml") if p.is_file())
    return tuple(p.read_bytes() for p in files)


def deep(rng: random.Random) -> str:
    depth = rng.choice((31, 32, 33, 100, 999, 1000, 1001, 5000))
    if rng.random() < 0.5:
        return "[" * depth + "]" * depth
    if rng.random() < 0.5:
        return "{a: " * depth + "1" + "}" * depth
    return "".join(" " * i + "k:\n" for i in range(depth)) + " " * depth + "v\n"


def laughs(rng: random.Random) -> str:
    """A billion-laughs document: each anchor repeats the one before ``width`` times."""
    width = rng.choice((2, 9, 10, 30))
    levels = rng.choice((3, 5, 9))
    lines = ['a0: &a0 ["lol"]']
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    key = rng.choice(("id", "title", "stacks", "topics", "expect", "game", "actions"))
    lines.append(f"{key}: *a{levels - 1}")
    return "\n".join(lines) + "\n"


def alias_chain(rng: random.Random) -> str:
    """Anchors each nesting the one before: shallow where written, deep once aliases are expanded."""
    depth = rng.choice((8, 16, 30))
    lines = [f"a0: &a0 {'[' * depth}x{']' * depth}"]
    for i in range(1, rng.randint(2, 30)):
        lines.append(f"a{i}: &a{i} {'[' * depth}*a{i - 1}{']' * depth}")
    return "\n".join(lines) + "\n"


def scalar(rng: random.Random) -> str:
    if rng.random() < 0.8:
        return rng.choice(NASTY)
    return "".join(rng.choice("0123456789abc:-_.+~!&*[]{}#'\" \t\n") for _ in range(rng.randint(1, 12)))


def _replace_value(rng: random.Random, lines: list[str]) -> None:
    candidates = [i for i, line in enumerate(lines) if ": " in line or line.lstrip().startswith("- ")]
    if not candidates:
        return
    i = rng.choice(candidates)
    line = lines[i]
    cut = line.index(": ") + 2 if ": " in line else line.index("- ") + 2
    lines[i] = line[:cut] + scalar(rng)


def mutate_text(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(9)
        if op == 0:
            _replace_value(rng, lines)
        elif op == 1 and lines:
            lines.insert(rng.randrange(len(lines) + 1), f"{rng.choice(('id', 'title', 'level', 'x'))}: {scalar(rng)}")
        elif op == 2 and lines:
            del lines[rng.randrange(len(lines))]
        elif op == 3 and lines:
            i = rng.randrange(len(lines))
            lines[i:i] = [lines[i]] * rng.randint(1, 3)
        elif op == 4 and len(lines) > 1:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 5 and lines:
            i = rng.randrange(len(lines))
            line = lines[i]
            at = rng.randrange(len(line) + 1)
            lines[i] = line[:at] + rng.choice(("&a ", "*a", "!!str ", "!!int ", "[", "{", "'", '"', "\0", "\x07", "\ufeff", "\ud800", "\t", ": ", "- ", "#")) + line[at:]
        elif op == 6:
            lines.insert(0, laughs(rng) if rng.random() < 0.7 else alias_chain(rng))
        elif op == 7 and lines:
            i = rng.randrange(len(lines))
            lines[i] = lines[i].split(":")[0] + ": " + deep(rng)
        elif op == 8 and lines:
            i = rng.randrange(len(lines))
            lines[i] = " " * rng.randint(0, 6) + lines[i].lstrip()
    return "\n".join(lines)


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(5)
        at = rng.randrange(len(out) + 1)
        if op == 0 and out:
            out[min(at, len(out) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            out[at:at] = bytes([rng.randrange(256)])
        elif op == 2 and out:
            del out[at : at + rng.randint(1, 16)]
        elif op == 3:
            out[at:at] = rng.choice((b"\0", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\xff\xfe", b"\r", b"\x85"))
        elif op == 4 and out:
            start = rng.randrange(len(out))
            out[at:at] = out[start : start + rng.randint(1, 64)]
    return bytes(out)


def yamlish(rng: random.Random) -> str:
    """Text made of YAML's own pieces, keys of the format and nasty values."""
    keys = ("id", "title", "level", "game", "type", "blinds", "stacks", "SB", "BB", "actions", "expect", "en", "<<", "? x")
    out = []
    for _ in range(rng.randint(1, 12)):
        indent = " " * rng.choice((0, 0, 2, 4))
        piece = rng.randrange(4)
        if piece == 0:
            out.append(f"{indent}{rng.choice(keys)}: {scalar(rng)}")
        elif piece == 1:
            out.append(f"{indent}- {scalar(rng)}")
        elif piece == 2:
            out.append(f"{indent}{rng.choice(keys)}:")
        else:
            out.append(indent + scalar(rng))
    return "\n".join(out) + rng.choice(("\n", ""))


def one(rng: random.Random) -> bytes | str:
    """One input: mostly a mutated real file, sometimes generated text, as bytes or text."""
    kind = rng.random()
    base = rng.choice(seeds())
    if kind < 0.45:
        return mutate_text(rng, base.decode("utf-8", "replace"))
    if kind < 0.65:
        return mutate_bytes(rng, base)
    if kind < 0.75:
        return yamlish(rng)
    if kind < 0.82:
        other = rng.choice(seeds())
        return base[: rng.randrange(len(base) + 1)] + other[rng.randrange(len(other) + 1) :]
    if kind < 0.9:
        text = mutate_text(rng, base.decode("utf-8", "replace")) if rng.random() < 0.5 else base.decode("utf-8", "replace")
        encoding = rng.choice(ENCODINGS)
        try:
            return text.encode(encoding, "surrogatepass")
        except UnicodeEncodeError:
            return text.encode(encoding, "replace")
    if kind < 0.95:
        return laughs(rng) + base.decode("utf-8", "replace")
    return rng.choice(NASTY) + "\n" + base.decode("utf-8", "replace")


def load(data: bytes | str):
    """What ``trainer check`` does with one file: the Scenario and its expect check, or the ScenarioError."""
    from trainer.scenarios import ScenarioError, load_bytes, load_text

    try:
        scenario = load_bytes(data, "fuzz.yaml") if isinstance(data, bytes) else load_text(data, "fuzz.yaml")
    except ScenarioError as exc:
        return exc
    scenario.check_expect()
    return scenario
