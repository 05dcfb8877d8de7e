"""Comparing a file's ``expect`` block with the engine's solution, key by key."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import groupby

from trainer.engine import POSITIONS

from .read import _Map


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
    if path.startswith("expect.best_hands") and path.endswith(".cards"):
        if _suits_in_order(want) != _suits_in_order(got):
            yield path, want, got, line
        return
    if _plain(want) != _plain(got):
        yield path, want, got, line


def _suits_in_order(cards) -> object:
    """A best hand's cards with each rank's cards in one suit order: they may come in any (SCENARIO-FORMAT.md)."""
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        return _plain(cards)
    return [card for _, same_rank in groupby(cards, key=lambda c: c[:1]) for card in sorted(same_rank)]


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
