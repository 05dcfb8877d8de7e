"""Larger bodies for the few views that take files, the rest of the app kept at ``MAX_CONTENT_LENGTH``.

An answer is a few hundred bytes, so the app refuses any body over 64 KB
before a view runs. A view that takes uploaded files (or a scenario typed in
a text area) is marked ``@uploads.takes("UPLOAD_MAX_BYTES")``: its requests
may carry up to that setting's bytes, read by Werkzeug's form parser (files
over 500 KB go to a temporary file, not memory). Anything larger is refused
with 413 before the body is read; the area shows that as its own form again
with the limit named (an ``errorhandler(413)`` of its blueprint).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, request
from flask_babel import gettext as _

ATTRIBUTE = "body_limit_setting"


def takes(setting: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a view (the function its route registers) as taking bodies up to ``app.config[setting]``."""

    def mark(view: Callable[..., Any]) -> Callable[..., Any]:
        setattr(view, ATTRIBUTE, setting)
        return view

    return mark


def limit_of(endpoint: str | None) -> int | None:
    """The most bytes a request to ``endpoint`` may send."""
    view = current_app.view_functions.get(endpoint) if endpoint else None
    setting = getattr(view, ATTRIBUTE, None)
    return current_app.config[setting if setting else "MAX_CONTENT_LENGTH"]


def too_large_notice() -> str:
    """What a refused body's page says: this request's limit, in megabytes."""
    megabytes = f"{(limit_of(request.endpoint) or 0) / 1_000_000:.0f}"
    return _("That was more than %(mb)s MB, so nothing was read or saved. Send fewer or smaller files.", mb=megabytes)


def _max_content_length(self) -> int | None:
    return limit_of(self.endpoint)


def _max_form_memory_size(self) -> int | None:
    # The text fields of a form (not its files) held in memory: a scenario typed in a text area.
    view = current_app.view_functions.get(self.endpoint) if self.endpoint else None
    return current_app.config[getattr(view, ATTRIBUTE)] if hasattr(view, ATTRIBUTE) else 500_000


def _max_form_parts(self) -> int | None:
    # A list of a few thousand ticked boxes (the spots an upload made) is more parts than Werkzeug's 1,000.
    view = current_app.view_functions.get(self.endpoint) if self.endpoint else None
    return 10_000 if hasattr(view, ATTRIBUTE) else 1_000


def init_app(app: Flask) -> None:
    base = app.request_class
    app.request_class = type(
        base.__name__,
        (base,),
        {"max_content_length": property(_max_content_length), "max_form_memory_size": property(_max_form_memory_size),
         "max_form_parts": property(_max_form_parts)},
    )
