"""Questions by reference: a library spot by its id, or a generated one as ``gen:topic:level:seed:index``.

Exams and classroom sessions store references; the spot, its questions and
the engine's answers are rebuilt from them (generated spots are kept in a
bounded cache: the same reference always gives the same spot).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import yaml
from flask import current_app

from trainer.coverage import rule_ids
from trainer.generate import GenerateError, generate
from trainer.quiz import Answer, Feedback, QuizError, grade, read_answer
from trainer.scenarios import ScenarioError, load_text

from . import library
from .library import Entry, entry_of


class Typed:
    """What was typed, stored as ``{field: [values]}``, read back like a form."""

    def __init__(self, values: Mapping[str, list[str]] | None) -> None:
        self.values = values or {}

    def getlist(self, key: str) -> list[str]:
        return list(self.values.get(key, ()))


def resolve(ref: str) -> Entry | None:
    if ref.startswith("gen:"):
        return _generated(ref, _locale())
    return library().get(ref)


def _locale() -> str:
    try:
        from .i18n import current
    except ImportError:
        return current_app.config["LOCALE"]
    return current()


# A seed or an index fits the store's integer columns (and stays far below JSON's 2^53 − 1):
# a larger one in an address is no spot, not a row the database refuses later.
MAX_SEED = 2**31 - 1


def _number(text: str) -> int:
    """A seed, index or level as written in a reference: ASCII digits, at most ``MAX_SEED``."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(MAX_SEED)) or int(text) > MAX_SEED:
        raise ValueError(f"not a number from 0 to {MAX_SEED}: {text[:20]!r}")
    return int(text)


@lru_cache(maxsize=2048)
def _generated(ref: str, locale: str) -> Entry | None:
    try:
        topic, level, seed, index = generated_parts(ref)
        spot = generate(topic, level=level, seed=seed, start=index)[0]
        text = yaml.safe_dump(spot.document, sort_keys=False, allow_unicode=True)
        scenario = load_text(text, f"{spot.id}.yaml")
        return entry_of(scenario, locale)
    except (ValueError, GenerateError, ScenarioError, QuizError):
        return None


def generated_parts(ref: str) -> tuple[str, int, int, int] | None:
    if not ref.startswith("gen:"):
        return None
    _, topic, level, seed, index = ref.split(":")
    return topic, _number(level), _number(seed), _number(index)


_RULES: dict[tuple[str, str], tuple[str, ...]] = {}
_MAX_RULES = 8192


def rules_of(entry: Entry) -> list[str]:
    """The rule IDs the spot's questions exercise, measured from the engine's derivation."""
    key = (entry.id, str(entry.scenario.file))
    found = _RULES.get(key)
    if found is None:
        if len(_RULES) >= _MAX_RULES:
            _RULES.clear()
        found = _RULES[key] = tuple(sorted(rule_ids(entry.scenario)))
    return list(found)


def typed_of(entry: Entry, form: Any) -> dict[str, list[str]]:
    return {f.name: [str(v) for v in form.getlist(f.name)] for f in entry.quiz.fields()}


def check(entry: Entry, typed: Mapping[str, list[str]] | None) -> tuple[Answer, Feedback | None]:
    answer = read_answer(entry.quiz, Typed(typed))
    return answer, grade(entry.quiz, answer) if answer.ok else None


def marks_of(feedback: Feedback) -> dict[str, bool]:
    return {m.field.name: m.right for m in feedback.marks}


def shown_of(feedback: Feedback) -> dict[str, str]:
    """Each field's answer as a learner reads it ("1,400", "fold, call")."""
    return {m.field.name: m.given for m in feedback.marks}
