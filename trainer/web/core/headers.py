"""Headers every area's pages share."""

from __future__ import annotations

from flask import Flask, Response, request

# Pages about one person: their account, progress, exams, classes and live sessions.
PRIVATE = frozenset({"accounts", "progress", "exams", "live", "speed", "classes", "live_events"})


def no_store(response: Response) -> Response:
    """A page about one person is kept by no cache: not a shared one (it would show it to the next
    person) and not the browser's (Back after signing out, or after an exam moved on, would show it)."""
    if request.blueprint in PRIVATE:
        response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    app.after_request(no_store)
