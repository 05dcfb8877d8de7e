"""The live session's event streams: a page of the session hears when it changed (trainer/web/live/feed.py)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app

from trainer.store import release_db
from trainer.web.core import identity

from . import access, feed

bp = Blueprint("live_events", __name__)


@bp.get("/classroom/<session_id>/events")
def instructor_events(session_id: str) -> Response:
    if identity.account() is None or not identity.account().is_instructor:
        return Response(status=204)  # EventSource stops; the page polls
    cs = access.mine(session_id)
    return _open(cs.id, feed.INSTRUCTOR_KINDS)


@bp.get("/c/<code>/events")
def student_events(code: str) -> Response:
    cs, _who = access.student(code)
    return _open(cs.id, feed.STUDENT_KINDS)


def _open(session_id: str, kinds: frozenset[str]) -> Response:
    config = current_app.config
    live = feed.feed()
    if live.stopping or live.open_streams() >= config["EVENTS_MAX_STREAMS"]:
        # 204 tells EventSource not to reconnect: this page polls instead, and no thread is held.
        return Response(status=204)
    release_db()  # a stream holds no database connection
    body = feed.stream(
        live, session_id, kinds, keepalive=config["EVENTS_KEEPALIVE"], lifetime=config["EVENTS_LIFETIME"],
        coalesce=config["EVENTS_COALESCE"],
        spread=config["EVENTS_SPREAD"] if kinds == feed.STUDENT_KINDS else 0.0,
    )
    return Response(
        body,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
