"""Rendered markup kept between requests, in bounded tables keyed by value.

Scenarios never change while the app runs, so a drill page without an answer
is the same for every learner but for the CSRF token and the time the form
was opened: it is rendered once with placeholders that each response fills
in. A graded form is built per answer, but the markup of one field depends
only on the spot, the field, what was typed into it and its verdict — and
learners type the same few things — so those pieces are kept too. A graded
answer's whole fragment is kept with a slot for each amount typed
(``AnswerSlots``): a class types many amounts with the same verdicts, and each
new one is filled into the kept markup instead of building its form again.

Three rules keep this safe:

- **Keyed by value.** A key names everything its markup depends on: the
  language, the spot's reference (``spot_refs.canonical``), the field's name,
  what was typed. Never ``id()`` of an object: generated spots are rebuilt
  after they leave their own table, and a dead object's address is reused by
  the next one.
- **Bounded.** Every table is a ``cachetools.LRUCache`` whose size is the
  bytes of what it holds (the markup's ``sys.getsizeof`` plus its key), with a
  budget in bytes and a cap on entries (``BUDGETS``); the least recently used
  entries go first. What is keyed by what a learner typed (a grade, a filled
  answer page) is kept the second time its key comes (``Doorkeeper``): an
  amount typed once does not push out the answers a class shares.
- **No request input in kept markup.** What a page shows from the request
  (the topic, the spot's address, the language links) comes from validated,
  canonical values that are part of the key; anything else the request sent
  never reaches a kept page.

The views build the pieces (``form``, ``marks``, ``steps``) and hand them to the
templates as markup: partials render data and do not call into the cache.
"""

from __future__ import annotations

import re
import secrets
import sys
import threading
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, replace
from functools import cached_property
from operator import itemgetter
from typing import Any

from cachetools import LRUCache
from flask import Flask, current_app
from markupsafe import Markup, escape

from trainer.web.core import deck, hints, i18n

EXTENSION = "trainer.cache"
MB = 1024 * 1024
_MISSING = object()


@dataclass(frozen=True)
class Budget:
    bytes: int
    entries: int


# Per process. A drill page is 12–25 KB (Chinese text takes two bytes a
# character), a form's frame 5–9 KB, a field 0.4–1 KB.
BUDGETS = {
    "pages": Budget(16 * MB, 4_000),  # drill pages and graded answers, per spot, topic, language and kind
    "forms": Budget(4 * MB, 2_000),  # answer-form frames, per spot and address
    "fields": Budget(4 * MB, 20_000),  # one field as typed and graded
    "pieces": Budget(2 * MB, 10_000),  # lines of the answer list, a spot's derivation
    "urls": Budget(1 * MB, 8_000),  # a spot's post, again and next addresses
    "first_tries": Budget(2 * MB, 20_000),  # (learner, spot) -> solved at the first try, once stored
    "rated": Budget(2 * MB, 20_000),  # (learner, spot) -> its first try is played as a rating game, once stored
    "grades": Budget(4 * MB, 2_000),  # what was typed -> the grade (an estimate: see GRADE_BYTES)
}
MAX_TYPED = 64  # a field with more typed into it is rendered but not kept
SEEN_ONCE = 20_000  # answers as typed remembered (by hash) until they come again: ~1.5 MB
GRADE_BYTES = 600  # per field: measured 390-490 bytes of Answer and Feedback objects with tracemalloc
# Bytes per entry besides the value and the key's characters: the key's tuple and
# string headers, the LRU's order and size records.
ENTRY_OVERHEAD = 240


def size_of(value: Any) -> int:
    """Bytes of a kept value made of strings, numbers and tuples (shared strings counted each time)."""
    if type(value) is str or type(value) is Markup:
        return sys.getsizeof(value)
    if isinstance(value, (tuple, list, frozenset)):
        return sys.getsizeof(value) + sum(size_of(v) for v in value)
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(size_of(k) + size_of(v) for k, v in value.items())
    return sys.getsizeof(value)


class Bounded(LRUCache):
    """cachetools' LRU cache, bounded by ``getsizeof`` bytes (``maxsize``) and also by entries."""

    def __init__(self, budget: Budget, getsizeof: Callable[[Any], int]) -> None:
        super().__init__(maxsize=budget.bytes, getsizeof=getsizeof)
        self.entries = budget.entries

    def __setitem__(self, key: Hashable, value: Any) -> None:
        if key not in self:
            while len(self) >= self.entries:
                self.popitem()
        super().__setitem__(key, value)


def amount_slot(field: Any, sent: tuple[str, ...]) -> bool:
    """Whether a field's markup keeps a slot for what was typed: an amount typed in one piece."""
    return field.kind == "amount" and len(sent) == 1 and sent[0] != ""


@dataclass(frozen=True)
class Typed:
    """What a field's template reads of an answer, with a slot in place of the typed text."""

    raw: dict[str, tuple[str, ...]]
    errors: dict[str, str]


class Doorkeeper:
    """Which keys came once already: a table keyed by what a learner typed keeps a value the second
    time its key comes, not the first. A class types the same few answers, and those are kept as
    before (made once more, that is all); an answer typed once, as most amounts a class types at
    random are, is not kept, so it neither costs the keeping nor pushes a shared answer out.

    Bounded (``entries`` key hashes, the oldest forgotten first); a hash collision only keeps a
    value early, which is always right since every key names all its value depends on."""

    def __init__(self, entries: int) -> None:
        self.entries = entries
        self._hashes: dict[int, None] = {}
        self._lock = threading.Lock()

    def seen(self, key: Hashable) -> bool:
        """Whether ``key`` came before (since it was forgotten); remembers it if not."""
        digest = hash(key)
        with self._lock:
            if digest in self._hashes:
                return True
            if len(self._hashes) >= self.entries:
                del self._hashes[next(iter(self._hashes))]
            self._hashes[digest] = None
        return False


class Table:
    """One bounded LRU table: a budget of bytes, a cap on entries, a lock (waitress serves from threads)."""

    def __init__(self, name: str, budget: Budget) -> None:
        self.name = name
        self.budget = budget.bytes
        self.entries = budget.entries
        # The LRU sees (value, size): the size is measured once, when the value is put in.
        self._lru = Bounded(budget, getsizeof=itemgetter(1))
        self._lock = threading.Lock()

    def get(self, key: Hashable, default: Any = None) -> Any:
        with self._lock:
            found = self._lru.get(key)
        return default if found is None else found[0]

    def put(self, key: Hashable, value: Any, size: int | None = None) -> Any:
        """Keep ``value`` (and return it); one larger than an eighth of the budget is not kept."""
        # A key's repr is about as long as its characters, in one call (this runs on every miss).
        size = (size_of(value) if size is None else size) + len(repr(key)) + ENTRY_OVERHEAD
        if size <= self.budget // 8:
            with self._lock:
                self._lru[key] = (value, size)
        return value

    def kept(
        self,
        key: Hashable,
        make: Callable[[], Any],
        size: Callable[[Any], int] | None = None,
        *,
        second: Doorkeeper | None = None,
    ) -> Any:
        """``table[key]``, made on first use (two threads may both make it; either result is right).
        With ``second``, a value is kept only when its key comes the second time (see ``Doorkeeper``)."""
        value = self.get(key, _MISSING)
        if value is _MISSING:
            value = make()
            if second is None or second.seen(key):
                self.put(key, value, None if size is None else size(value))
        return value

    @property
    def bytes(self) -> int:
        return self._lru.currsize

    def __len__(self) -> int:
        return len(self._lru)

    def clear(self) -> None:
        with self._lock:
            self._lru.clear()


class Cache:
    def __init__(self, app: Flask) -> None:
        self.env = app.jinja_env
        # Per-response values in markup that is kept: render.py fills them in.
        self.placeholder = "csrf-" + secrets.token_hex(16)
        self.opened = "opened-" + secrets.token_hex(8)  # when the drill form was opened
        # Where kept markup shows what a learner typed: filled in, escaped, for each answer.
        self.typed = "typed-" + secrets.token_hex(8)
        self._slot = re.compile(re.escape(self.placeholder) + r"-slot-(\d+)-")
        # Where a graded answer's kept fragment takes this answer's text: "[f:name]" an amount in the
        # form, "[m:3]" what the fourth line of the answer list says was given.
        self.answer_slot = "answer-" + secrets.token_hex(8)
        self._answer_slot = re.compile(re.escape(self.answer_slot) + r"\[([fm]:\w+)\]")
        self._tables = {name: Table(name, budget) for name, budget in BUDGETS.items()}
        # Answers as typed: kept the second time they come (graded answers, their fragments).
        self.typed_once = Doorkeeper(SEEN_ONCE)
        self.pages, self.forms, self.fields, self.pieces, self.urls, self.grades, self.first_tries, self.rated = (
            self._tables[name]
            for name in ("pages", "forms", "fields", "pieces", "urls", "grades", "first_tries", "rated")
        )

    def tables(self) -> dict[str, Table]:
        return dict(self._tables)

    def page(self, key: Hashable, render: Callable[[Callable[[], str]], str], *, typed: bool = False) -> str:
        """A whole page, kept with the CSRF placeholder in it. ``render`` gets the
        function templates call for the CSRF token; ``key`` must name everything
        the page shows. ``typed``: the key holds what a learner typed, kept from its second time."""
        return self.pages.kept(
            ((i18n.current(), deck.current()), key),
            lambda: render(lambda: self.placeholder),
            second=self.typed_once if typed else None,
        )

    def answer_page(self, key: Hashable, make: Callable[[], str], slots: AnswerSlots) -> str:
        """A graded answer's whole fragment or page. ``make`` renders it with a slot for each amount
        typed (``slots``); that markup is kept split at its slots, under ``key`` and what was typed
        but the amounts, and each answer fills in its own. The page as filled is kept too, for the
        same answer sent again. ``key`` must name everything the markup depends on but what was
        typed. Both keys hold what was typed: they are kept from their second time."""
        scope = (i18n.current(), deck.current())
        exact = (scope, ("typed", key, slots.typed))
        page = self.pages.get(exact)
        if page is None:
            literals, names = self.pages.kept(
                (scope, ("slotted", key, slots.key)), lambda: self._split(make()), second=self.typed_once
            )
            filled = slots.values()
            out = [literals[0]]
            for name, literal in zip(names, literals[1:]):
                out += (filled[name], literal)
            page = "".join(out)
            if self.typed_once.seen(exact):
                self.pages.put(exact, page)
        return page

    def _split(self, html: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        parts = self._answer_slot.split(html)
        return tuple(parts[0::2]), tuple(parts[1::2])

    def answer_slots(self, fields: tuple[Any, ...], typed: tuple[tuple[str, ...], ...], answer: Any,
                     feedback: Any) -> AnswerSlots:
        return AnswerSlots(self.answer_slot, fields, typed, answer, feedback)

    def memo(self, key: Hashable, make: Callable[[], dict[str, str]]) -> dict[str, str]:
        """A spot's addresses (its post, again and next URLs), per spot and topic."""
        return self.urls.kept((i18n.current(), key), make)

    def grade(self, key: Hashable, make: Callable[[], Any], fields: int) -> Any:
        """A graded answer (``make`` reads and grades it) kept per spot and what was typed."""
        return self.grades.kept((i18n.current(), key), make, lambda _: GRADE_BYTES * fields, second=self.typed_once)

    def form(
        self, ref: str, template: str, answer: Any, feedback: Any, focus: str | None, **context: Any
    ) -> Markup:
        """The answer form of spot ``ref``. Its frame is rendered once per spot,
        template and ``context`` (plain values: the addresses the form posts to),
        with a slot wherever the template calls ``fields_html``; each answer only
        fills the slots with its fields. The CSRF token is left as the placeholder,
        for the page to fill in."""
        lang = i18n.current()
        key = (lang, ref, template, tuple(sorted((k, v) for k, v in context.items() if isinstance(v, str))))
        frame = self.forms.get(key)
        if frame is None:
            slots: list[tuple[Any, ...]] = []

            def slot(fields: Iterable[Any]) -> Markup:
                slots.append(tuple(fields))
                return Markup(f"{self.placeholder}-slot-{len(slots) - 1}-")

            html = self.env.get_template(template).render(
                fields_html=slot, csrf_token=lambda: self.placeholder, **context
            )
            parts = self._slot.split(html)
            # The slots keep only field names: the spot's fields are looked up in the quiz of each request.
            frame = (tuple(parts), tuple(tuple(f.name for f in fields) for fields in slots))
            self.forms.put(key, frame, size_of(frame))
        parts, slots = frame
        by_name = {f.name: f for f in context["quiz"].fields()}
        out = []
        for i, part in enumerate(parts):
            if i % 2:
                out.extend(self.field(ref, by_name[name], answer, feedback, focus, lang) for name in slots[int(part)])
            else:
                out.append(part)
        return Markup("".join(out))

    def field(
        self, ref: str, field: Any, answer: Any, feedback: Any, focus: str | None, lang: str | None = None
    ) -> Markup:
        """One field of spot ``ref`` as typed, judged and graded.

        An amount's markup is kept with a slot where the typed text goes, so that it is rendered once
        per spot, field and verdict however many different amounts a class types."""
        sent = answer.raw.get(field.name, ()) if answer else ()
        error = answer.errors.get(field.name) if answer else None
        mark = feedback.mark(field.name) if feedback else None
        # (An input error's message never quotes what was typed: the slot holds it there too.)
        slotted = amount_slot(field, sent)
        key = (
            lang or i18n.current(),
            ref,
            field.name,
            self.typed if slotted else sent,
            error,
            None if mark is None else mark.right,
            hints.is_hint(mark),
            focus == field.name,
        )
        html = self.fields.get(key)
        if html is None:
            macro = self.env.get_template("partials/_fields.html").module.field
            shown = Typed(raw={field.name: (self.typed,)}, errors=answer.errors) if slotted else answer
            html = Markup(macro(field, shown, feedback, focus))
            if slotted or sum(map(len, sent)) <= MAX_TYPED:
                self.fields.put(key, html)
        return Markup(html.replace(self.typed, escape(sent[0]))) if slotted else html

    def marks(self, feedback: Any) -> Markup:
        """The list of answers, one line per field, kept with a slot for what was typed."""
        item = "partials/_mark_item.html"
        lang = i18n.current()
        lines = []
        for m in feedback.marks:
            slotted = replace(m, given=self.typed)  # a hint stays a hint
            line = self.piece(
                (m.field.name, m.field.label, m.right, m.correct, hints.is_hint(m)),
                item,
                lang=lang,
                m=slotted,
            )
            lines.append(line.replace(self.typed, escape(m.given)))
        return Markup("".join(lines))

    def steps(self, ref: str, feedback: Any, *, stage: int = 0, last: bool = True) -> Markup:
        """The engine's derivation and the teaching note: they depend on the spot alone. A step of a
        spot before its last shows only the derivation of its own fields, and no note (the rest
        would answer the next step)."""
        if not last:
            topics = {hints.step_topic(m.field.name) for m in feedback.marks} | {"to_act"}
            feedback = replace(feedback, steps=tuple(s for s in feedback.steps if s.topic in topics), explain=None)
        return self.piece(("steps", ref, stage, last), "partials/_steps.html", feedback=feedback)

    def piece(self, key: Hashable, template: str, *, lang: str | None = None, **context: Any) -> Markup:
        """A partial whose markup is fully named by ``key`` (the caller's promise)."""
        return self.pieces.kept(
            (lang or i18n.current(), template, key), lambda: Markup(self.env.get_template(template).render(**context))
        )


class AnswerSlots:
    """A graded answer with what was typed taken out: its fragment is kept once per everything else.

    A class types many amounts with the same verdicts; the fragment is made once with a slot for
    each amount in the form (``marked``) and for what each line of the answer list says was given,
    and every answer fills in its own (``values``). ``key``: what was typed, the amounts left out."""

    def __init__(self, slot: str, fields: tuple[Any, ...], typed: tuple[tuple[str, ...], ...], answer: Any,
                 feedback: Any) -> None:
        # Only kept: an answer sent before finds its page kept under ``typed`` and needs nothing else.
        self.typed = typed
        self._fields = fields
        self._slot = slot
        self._answer = answer
        self._feedback = feedback

    @cached_property
    def _slotted(self) -> tuple[bool, ...]:
        return tuple(amount_slot(f, sent) for f, sent in zip(self._fields, self.typed))

    @cached_property
    def key(self) -> tuple[Any, ...]:
        return tuple(None if s else sent for s, sent in zip(self._slotted, self.typed))

    @cached_property
    def _names(self) -> tuple[str, ...]:
        return tuple(f.name for f, s in zip(self._fields, self._slotted) if s)

    def marked(self, answer: Any, feedback: Any) -> tuple[Any, Any]:
        """``answer`` and ``feedback`` (this answer's, as shown: hints and all) with slots for the text."""
        slot = self._slot
        answer = replace(answer, raw={**answer.raw, **{n: (f"{slot}[{_form_slot(n)}]",) for n in self._names}})
        if feedback is not None:
            marks = tuple(replace(m, given=f"{slot}[{_mark_slot(j)}]") for j, m in enumerate(feedback.marks))
            feedback = replace(feedback, marks=marks)
        return answer, feedback

    def values(self) -> dict[str, str]:
        """This answer's text for each slot, escaped."""
        raw = self._answer.raw
        out = {_form_slot(n): str(escape(raw[n][0])) for n in self._names}
        if self._feedback is not None:
            out.update((_mark_slot(j), str(escape(m.given))) for j, m in enumerate(self._feedback.marks))
        return out


def _form_slot(name: str) -> str:
    """The slot of an amount typed into field ``name`` (``Cache._answer_slot`` reads it)."""
    return f"f:{name}"


def _mark_slot(line: int) -> str:
    """The slot of what line ``line`` of the answer list says was given."""
    return f"m:{line}"


def cache() -> Cache:
    return current_app.extensions[EXTENSION]


def init_app(app: Flask) -> None:
    kept = app.extensions[EXTENSION] = Cache(app)
    app.jinja_env.globals["opened_at"] = lambda: kept.opened
