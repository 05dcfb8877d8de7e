"""Rendered markup kept between requests.

Scenarios are loaded once and never change while the app runs, so a drill
page without an answer is the same for every learner but for the CSRF
token: it is rendered once with a placeholder that each response fills in.
A graded form is built per answer, but the markup of one field depends only
on the field, what was typed into it and its verdict — and learners type
the same few things — so those pieces are kept too, up to a bound.

Every piece is in the request's language, so every key starts with it:
a page kept for a learner in Taipei is never served to one in Shanghai.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app
from markupsafe import Markup

from . import csrf, i18n

EXTENSION = "trainer.cache"
MAX_FIELDS = 20_000  # about 10 MB of markup at most
MAX_PAGES = 2_000  # pages and graded answers, about 40 MB at most
MAX_TYPED = 64  # longer entries are rendered but not kept
MAX_GRADES = 2_000  # graded answers (what was typed, its marks): kept apart, so new answers never evict pages


class Cache:
    def __init__(self, app: Flask) -> None:
        self.env = app.jinja_env
        self.placeholder = "csrf-" + secrets.token_hex(16)
        # When the drill form was opened: a per-response value in markup that is kept (render.py fills it in).
        self.opened = "opened-" + secrets.token_hex(8)
        self.pages: dict[Any, str] = {}
        self.fields: dict[Any, Markup] = {}
        self.forms: dict[Any, tuple[list[str], list[Any]]] = {}
        self.grades: dict[Any, Any] = {}
        self._slot = re.compile(re.escape(self.placeholder) + r"-slot-(\d+)-")

    def page(self, key: Any, render: Callable[[Callable[[], str]], str]) -> str:
        """``render`` gets the function templates call for the CSRF token."""
        key = (i18n.current(), "page", key)
        body = self.pages.get(key)
        if body is None:
            body = render(lambda: self.placeholder)
            if len(self.pages) >= MAX_PAGES:
                self.pages.clear()
            self.pages[key] = body
        return body.replace(self.placeholder, csrf.token())

    def field(self, field: Any, answer: Any, feedback: Any, focus: str | None) -> Markup:
        sent = answer.raw.get(field.name, ()) if answer else ()
        error = answer.errors.get(field.name) if answer else None
        mark = feedback.mark(field.name) if feedback else None
        # Field objects live as long as the app's library: their id is a stable key.
        key = (i18n.current(), id(field), sent, error, None if mark is None else mark.right, focus == field.name)
        html = self.fields.get(key)
        if html is None:
            macro = self.env.get_template("partials/_fields.html").module.field
            html = Markup(macro(field, answer, feedback, focus))
            if sum(map(len, sent)) <= MAX_TYPED:
                if len(self.fields) >= MAX_FIELDS:
                    self.fields.clear()
                self.fields[key] = html
        return html


    def form(
        self, template: str, key: Any, answer: Any, feedback: Any, focus: str | None, token: str, **context: Any
    ) -> Markup:
        """The answer form: its frame is rendered once per ``key`` (which must name
        ``context``), with a slot wherever the template calls ``fields_html``;
        each answer only fills the slots with its fields. ``token`` is what the
        calling template got from ``csrf_token()`` — itself a placeholder while a
        whole page is being cached."""
        key = (i18n.current(), template, key)
        frame = self.forms.get(key)
        if frame is None:
            slots: list[Any] = []

            def slot(fields: Any, *_: Any) -> Markup:
                slots.append(fields)
                return Markup(f"{self.placeholder}-slot-{len(slots) - 1}-")

            html = self.env.get_template(template).render(
                fields_html=slot, csrf_token=lambda: self.placeholder, **context
            )
            frame = (self._slot.split(html), slots)
            self.forms[key] = frame
        parts, slots = frame
        out = []
        for i, part in enumerate(parts):
            if i % 2:
                out.append(self.fields_html(slots[int(part)], answer, feedback, focus))
            else:
                out.append(part.replace(self.placeholder, token))
        return Markup("".join(out))

    # The pieces are Markup already: a plain join keeps them as they are.
    def fields_html(self, fields: Any, answer: Any, feedback: Any, focus: str | None) -> Markup:
        return Markup("".join([self.field(f, answer, feedback, focus) for f in fields]))

    def marks_html(self, feedback: Any) -> Markup:
        item = "partials/_mark_item.html"
        return Markup(
            "".join([self.piece((m.field.name, m.field.label, m.given, m.right, m.correct), item, m=m) for m in feedback.marks])
        )

    def memo(self, key: Any, make: Callable[[], Any]) -> Any:
        """A value computed once per key (URLs of a spot, and the like)."""
        return _kept(self.pages, MAX_PAGES, (i18n.current(), "memo", key), make)

    def grade(self, key: Any, make: Callable[[], Any]) -> Any:
        """A graded answer (``make`` reads and grades it) kept per spot and what was typed."""
        return _kept(self.grades, MAX_GRADES, (i18n.current(), key), make)

    def piece(self, key: Any, template: str, **context: Any) -> Markup:
        """A partial whose markup is fully named by ``key`` (the caller's promise)."""
        full = (i18n.current(), template, key)
        html = self.fields.get(full)
        if html is None:
            html = Markup(self.env.get_template(template).render(**context))
            if len(self.fields) >= MAX_FIELDS:
                self.fields.clear()
            self.fields[full] = html
        return html


def _kept(table: dict[Any, Any], limit: int, key: Any, make: Callable[[], Any]) -> Any:
    """``table[key]``, made on first use; a full table starts afresh."""
    value = table.get(key)
    if value is None:
        if len(table) >= limit:
            table.clear()
        value = table[key] = make()
    return value


def cache() -> Cache:
    return current_app.extensions[EXTENSION]


def init_app(app: Flask) -> None:
    kept = app.extensions[EXTENSION] = Cache(app)
    app.jinja_env.globals["fields_html"] = kept.fields_html
    app.jinja_env.globals["marks_html"] = kept.marks_html
    app.jinja_env.globals["form_html"] = kept.form
    app.jinja_env.globals["opened_at"] = lambda: kept.opened
    app.jinja_env.globals["kept"] = kept.piece
