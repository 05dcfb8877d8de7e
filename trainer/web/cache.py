"""Rendered markup kept between requests.

Scenarios are loaded once and never change while the app runs, so a drill
page without an answer is the same for every learner but for the CSRF
token: it is rendered once with a placeholder that each response fills in.
A graded form is built per answer, but the markup of one field depends only
on the field, what was typed into it and its verdict — and learners type
the same few things — so those pieces are kept too, up to a bound.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app
from markupsafe import Markup

from . import csrf

EXTENSION = "trainer.cache"
MAX_FIELDS = 20_000  # about 10 MB of markup at most
MAX_TYPED = 64  # longer entries are rendered but not kept


class Cache:
    def __init__(self, app: Flask) -> None:
        self.env = app.jinja_env
        self.placeholder = "csrf-" + secrets.token_hex(16)
        self.pages: dict[Any, str] = {}
        self.fields: dict[Any, Markup] = {}

    def page(self, key: Any, render: Callable[[Callable[[], str]], str]) -> str:
        """``render`` gets the function templates call for the CSRF token."""
        body = self.pages.get(key)
        if body is None:
            body = render(lambda: self.placeholder)
            self.pages[key] = body
        return body.replace(self.placeholder, csrf.token())

    def field(self, field: Any, answer: Any, feedback: Any, focus: str | None) -> Markup:
        sent = answer.raw.get(field.name, ()) if answer else ()
        error = answer.errors.get(field.name) if answer else None
        mark = feedback.mark(field.name) if feedback else None
        # Field objects live as long as the app's library: their id is a stable key.
        key = (id(field), sent, error, None if mark is None else mark.right, focus == field.name)
        html = self.fields.get(key)
        if html is None:
            macro = self.env.get_template("partials/_fields.html").module.field
            html = Markup(macro(field, answer, feedback, focus))
            if sum(map(len, sent)) <= MAX_TYPED:
                if len(self.fields) >= MAX_FIELDS:
                    self.fields.clear()
                self.fields[key] = html
        return html


    def piece(self, key: Any, template: str, **context: Any) -> Markup:
        """A partial whose markup is fully named by ``key`` (the caller's promise)."""
        full = (template, key)
        html = self.fields.get(full)
        if html is None:
            html = Markup(self.env.get_template(template).render(**context))
            if len(self.fields) >= MAX_FIELDS:
                self.fields.clear()
            self.fields[full] = html
        return html


def cache() -> Cache:
    return current_app.extensions[EXTENSION]


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = Cache(app)
    app.jinja_env.globals["field_html"] = lambda *args: cache().field(*args)
    app.jinja_env.globals["kept"] = lambda key, template, **context: cache().piece(key, template, **context)
