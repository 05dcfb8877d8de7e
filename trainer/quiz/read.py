"""Reading what a learner typed, forgivingly: "1,400", "1 400", "１，４００".

No Flask here: the web layer hands in anything with ``getlist(name)``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from trainer.translations import DEFAULT
from trainer.translations import text as translated

from .model import Answer, Blank, Field, FieldKind, Form, Quiz

# Longer than any chip count a table can hold; stops absurd input before int().
_MAX_DIGITS = 12
_PLAIN = re.compile(r"[0-9]+")
_GROUPED = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+")
_DIGITS_AND_COMMAS = re.compile(r"[0-9,]+")
_DECIMAL = re.compile(r"[0-9,]*\.[0-9]*")
_NEGATIVE = ("-", "\u2212", "\u2013")  # hyphen-minus (full-width folds to it), minus sign, en dash


class InputError(ValueError):
    """A learner's entry that cannot be read; ``str()`` is the message to show."""


def parse_amount(text: str, *, limit: int | None = None, locale: str = DEFAULT) -> int | None:
    """Read a chip count the way people type it; ``None`` for an empty box.

    Full-width digits and commas from Chinese input methods fold to ASCII
    (NFKC); spaces anywhere and commas between groups of three digits are
    ignored. Messages are in ``locale``.
    """
    t = translated(locale)
    s = "".join(unicodedata.normalize("NFKC", text).split())
    if not s:
        return None
    if s.startswith(_NEGATIVE):
        raise InputError(t.gettext("Amounts can't be negative."))
    if _DECIMAL.fullmatch(s):
        raise InputError(t.gettext("Chips are whole numbers: leave out decimals."))
    if _PLAIN.fullmatch(s) or _GROUPED.fullmatch(s):
        digits = s.replace(",", "").lstrip("0") or "0"
    elif _DIGITS_AND_COMMAS.fullmatch(s):
        raise InputError(t.gettext("Put commas only between groups of three digits, like 1,400."))
    else:
        raise InputError(t.gettext("Enter a whole number of chips, like 1400 or 1,400."))
    if len(digits) > _MAX_DIGITS or (limit is not None and int(digits) > limit):
        if limit is None:
            raise InputError(t.gettext("That number is far too large."))
        # The limit (the largest stack, or every chip at the table) is not said: it is often the
        # very answer asked for, the largest raise-to of the biggest stack.
        raise InputError(t.gettext("That is more chips than anyone at this table has."))
    return int(digits)


def read_answer(quiz: Quiz, form: Form) -> Answer:
    raw: dict[str, tuple[str, ...]] = {}
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for field in quiz.fields():
        sent = tuple(str(v) for v in form.getlist(field.name))
        raw[field.name] = sent
        try:
            values[field.name] = _read_field(field, sent)
        except InputError as exc:
            errors[field.name] = str(exc)
    return Answer(raw=raw, values=values, errors=errors)


def _read_field(field: Field, sent: tuple[str, ...]) -> Any:
    t = translated(field.locale)
    first = sent[0] if sent else ""
    if field.kind is FieldKind.AMOUNT:
        value = parse_amount(first, limit=field.limit, locale=field.locale)
        if value is None:
            if field.blank is Blank.REQUIRED:
                raise InputError(t.gettext("Enter an amount (0 if there is none)."))
            if field.blank is Blank.ZERO:
                return 0
        return value
    if field.kind is FieldKind.YESNO:
        if first not in ("yes", "no"):
            raise InputError(t.gettext("Choose yes or no."))
        return first == "yes"
    keys = {key for key, _ in field.choices}
    if field.kind is FieldKind.CHOICE:
        if first not in keys:
            raise InputError(t.gettext("Choose one of the answers."))
        return first
    if not set(sent) <= keys:
        raise InputError(t.gettext("Tick only the boxes shown."))
    return frozenset(sent)
