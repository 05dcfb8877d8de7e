"""Who may see a live session: the instructor who runs it, and the students this browser joined it as."""

from __future__ import annotations

from typing import Any

from flask import abort, session
from flask_babel import gettext as _
from sqlalchemy import select

from trainer.store import live as store
from trainer.store import db
from trainer.store.models import LiveSession, LiveStudent
from trainer.web.core import identity

STUDENTS = "class"  # session cookie: {live session id: student id}
MAX_KEPT_CLASSES = 8


def mine(session_id: str) -> LiveSession:
    """The signed-in instructor's own session; anyone else's is not found."""
    user = identity.account()
    found = store.of_instructor(db(), session_id, user.id) if user is not None else None
    if found is None:
        abort(404, description=_("There is no session of yours at this address."))
    return found


def by_code(code: str) -> LiveSession:
    found = store.by_code(db(), code)
    if found is None:
        abort(404, description=_("There is no live session with this code."))
    return found


def me(cs: LiveSession) -> LiveStudent | None:
    kept = session.get(STUDENTS)
    student_id = kept.get(cs.id) if isinstance(kept, dict) else None
    return store.student(db(), cs, student_id if isinstance(student_id, str) else None)


def student(code: str) -> tuple[LiveSession, LiveStudent]:
    cs, who, _now = student_now(code)
    return cs, who


def student_now(code: str) -> tuple[LiveSession, LiveStudent, dict[str, Any]]:
    """The session, this browser's student in it and, as ``{"mine": answer}`` for the stage, the
    student's answer to the question shown now ({} where that is not known from the same query)."""
    kept = session.get(STUDENTS)
    ids = [v for v in kept.values() if isinstance(v, str)][:MAX_KEPT_CLASSES] if isinstance(kept, dict) else []
    cs, who, mine = store.with_student(db(), code, ids)
    now: dict[str, Any] = {"mine": mine} if who is not None else {}
    if cs is None:
        # An ended session is still shown to its students (their score), never to anyone else.
        cs = ended_for_me(code)
        who = me(cs) if cs is not None else None
    if cs is None or who is None:
        abort(404, description=_("Join the session first."))
    return cs, who, now


def ended_for_me(code: str) -> LiveSession | None:
    kept = session.get(STUDENTS)
    if not isinstance(kept, dict):
        return None
    normalized = store.normalize_code(code)
    return db().scalar(
        select(LiveSession).where(LiveSession.code == normalized, LiveSession.id.in_(list(kept)[:MAX_KEPT_CLASSES]))
    )
