"""Codes people type or read out: a classroom session's join code, a class's invite code, an exam
result's verification code. Letters and digits that cannot be taken for one another (no 0/O,
1/I/L); typed in any case, with or without the dash, in ASCII or in the full-width forms a
phone's Chinese or Japanese keyboard types."""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_LENGTH = 8  # a session's join code and a class's invite code, shown as XXXX-XXXX

Row = TypeVar("Row")


def draw(length: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


# What a Chinese or Japanese keyboard types for a dash and NFKC still reads as a letter: the long-vowel mark.
_DASH_LETTERS = frozenset("ー")


def normalize(code: str) -> str:
    """``code`` as stored: full-width letters and digits as the ASCII they stand for (NFKC), upper
    case, without spaces and dashes of any width (－ ‐ – — ー, the ideographic space)."""
    folded = unicodedata.normalize("NFKC", code).upper()
    return "".join(c for c in folded if c.isalnum() and c not in _DASH_LETTERS)


def format_join(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def add_with_new_code(s: Session, make: Callable[[str], Row], length: int = JOIN_LENGTH) -> Row:
    """``make(code)``'s row added with a freshly drawn code, drawn again if another row has it
    (the column's unique constraint says so)."""
    while True:
        made = make(draw(length))
        try:
            with s.begin_nested():
                s.add(made)
            return made
        except IntegrityError:  # the same code drawn twice: draw again
            continue
