"""Questions by reference: a library spot by its id, a generated one as ``gen:topic:level:seed:index``,
or an instructor's own spot as ``my:<id>:<version>`` (trainer.store.spots).

Exams and classroom sessions store references; the spot, its questions and
the engine's answers are rebuilt from them (generated spots are kept in a
bounded table, per spot and language: the same reference always gives the
same spot, so a spot that was let go is simply built again).
"""

from __future__ import annotations

import threading
from dataclasses import replace
from collections.abc import Mapping
from typing import Any

from cachetools import LRUCache, cached
from flask import current_app

from trainer.generate import GenerateError, generate
from trainer.library import Entry, entry_of
from trainer.quiz import Answer, Feedback, QuizError, grade, read_answer
from trainer.rule_coverage import rule_ids
from trainer.scenarios import ScenarioError, load_document, load_text
from trainer.store import db
from trainer.store import spots as my_spots
from trainer.web.core.libraries import library

# Generated spots kept per process, over all languages: a spot with its quiz and seat table
# measured 19-33 KB with tracemalloc, so about 16 MB.
GENERATED = 512


class Typed:
    """What was typed, stored as ``{field: [values]}``, read back like a form."""

    def __init__(self, values: Mapping[str, list[str]] | None) -> None:
        self.values = values or {}

    def getlist(self, key: str) -> list[str]:
        return list(self.values.get(key, ()))


class Sent(Typed):
    """A posted form read once into a dict of lists. A field left out (an unticked box, a form
    without "missed") is then a dict miss, not the KeyError that werkzeug's MultiDict raises and
    catches on every such lookup."""

    def __init__(self, form: Any) -> None:
        super().__init__(dict(form.lists()))

    def get(self, key: str, default: str | None = None) -> str | None:
        values = self.values.get(key)
        return values[0] if values else default


def resolve(ref: str) -> Entry | None:
    """The spot a reference names, whoever asks: a page that shows an instructor's spot (``my:``)
    to a person checks first that they may see it (``visible``)."""
    if ref.startswith("gen:"):
        parts = generated_parts(ref)
        return None if parts is None else _generated(*parts, _locale())
    if ref.startswith(my_spots.PREFIX):
        return _mine(ref)
    return library().get(ref)


def visible(ref: str, account_id: int | None) -> bool:
    """Whether the person may open this reference on their own: any library or generated spot; an
    instructor's spot for its owner and the members of the classes it is shared with."""
    parts = my_spots.ref_parts(ref)
    if parts is None:
        return not ref.startswith(my_spots.PREFIX)
    return my_spots.can_see(db(), parts[0], account_id)


# Versions never change, so an entry built once per version and language stays right.
_MINE: LRUCache = LRUCache(maxsize=GENERATED)
_MINE_LOCK = threading.Lock()


def _mine(ref: str) -> Entry | None:
    parts = my_spots.ref_parts(ref)
    if parts is None:
        return None
    key = (parts, _locale())
    with _MINE_LOCK:
        found = _MINE.get(key)
    if found is not None:
        return found
    text = my_spots.text_of(db(), *parts)
    if text is None:
        return None
    try:
        entry = replace(entry_of(load_text(text, my_spots.FILE), key[1]), id=ref)
    except (ScenarioError, QuizError):
        return None
    with _MINE_LOCK:
        _MINE[key] = entry
    return entry


def canonical(ref: str) -> str:
    """The one way to write a spot's reference: ``gen:min-raise:2:0007:0`` is ``gen:min-raise:2:7:0``.

    Addresses are built from this, never from the address a request came in by."""
    parts = generated_parts(ref)
    return ref if parts is None else "gen:{}:{}:{}:{}".format(*parts)


def _locale() -> str:
    try:
        from trainer.web.core.i18n import current
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


@cached(LRUCache(maxsize=GENERATED), lock=threading.Lock())
def _generated(topic: str, level: int, seed: int, index: int, locale: str, stakes: str | None = None,
               edition: int = 1) -> Entry | None:
    try:
        spot = generate(topic, level=level, seed=seed, start=index, stakes=stakes, edition=edition)[0]
        scenario = load_document(spot.document, f"{spot.id}.yaml")
        return entry_of(scenario, locale)
    except (ValueError, GenerateError, ScenarioError, QuizError):
        return None


def generated(topic: str, level: int, seed: int, index: int, stakes: str | None = None, *,
              edition: int = 1) -> Entry | None:
    """generate(topic, level, seed, stakes, edition) spot ``index`` in the request's language, whatever
    the seed (exams use seeds no ``gen:`` address accepts, and real stakes no ``gen:`` address names)."""
    return _generated(topic, level, seed, index, _locale(), stakes, edition)


def generated_parts(ref: str) -> tuple[str, int, int, int] | None:
    if not ref.startswith("gen:"):
        return None
    try:
        _, topic, level, seed, index = ref.split(":")
        return topic, _number(level), _number(seed), _number(index)
    except ValueError:
        return None


def rules_of(entry: Entry) -> list[str]:
    """The rule IDs the spot's questions exercise, read from the derivation the scenario keeps."""
    return sorted(rule_ids(entry.scenario))


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
