"""Self-study: record every graded drill answer, and the progress page built from them."""

from __future__ import annotations

import logging
import time
from typing import Any

from flask import Blueprint, Flask, Response, redirect, request, url_for
from markupsafe import Markup

from trainer.quiz import Answer, Feedback
from trainer.store import db, store
from trainer.store import progress as stats
from trainer.store.models import now

from . import identity, library
from .chart import accuracy_chart
from .library import Entry, topic_name
from .questions import marks_of, rules_of
from .render import render

log = logging.getLogger(__name__)

bp = Blueprint("progress", __name__, url_prefix="/progress")

MAX_DURATION_MS = 60 * 60 * 1000  # longer than this is a tab left open, not time spent


def init_app(app: Flask) -> None:
    app.before_request(stored_attempts)


def opened_at(sent: str | None) -> int | None:
    """When the answered form was opened (ms), from its ``opened`` field, if that is believable:
    an hour ago at most, not in the future. The learner could alter it, and so their own times only."""
    now_ms = int(time.time() * 1000)
    if sent and sent.isascii() and sent.isdigit() and len(sent) <= 15:
        opened = int(sent)
        if 0 <= now_ms - opened <= MAX_DURATION_MS:
            return opened
    return None


def record_attempt(entry: Entry, answer: Answer, feedback: Feedback | None, opened: int | None) -> None:
    """Hand a graded drill answer to the store's writer for this browser's learner (called by the
    drill; never fails it). The writer stores it moments later, in a batch (trainer/store/writer.py)."""
    if feedback is None:
        return  # input errors: nothing was graded
    duration = None if opened is None else int(time.time() * 1000) - opened
    store().attempts.submit(
        {
            "learner_id": identity.learner_id(create=True),
            "scenario_id": entry.id,
            "topics": list(entry.topics),
            "rules": rules_of(entry),
            "answers": {k: list(v) for k, v in answer.raw.items()},
            "marks": marks_of(feedback),
            "duration_ms": duration,
            "at": now(),
        }
    )


READ_ATTEMPTS = frozenset({"progress", "accounts"})  # blueprints that read attempts, or move them (signing in)


def stored_attempts() -> None:
    """Before a page reads or moves this learner's attempts: those handed over by this process are in."""
    if request.blueprint in READ_ATTEMPTS and not store().attempts.flush():
        log.warning("attempts still waiting to be stored: the page may miss the latest answers")


def _days() -> int:
    raw = request.args.get("days", "")
    return int(raw) if raw in {str(d) for d in stats.WINDOWS} else 30


@bp.get("/")
def show() -> Response:
    learner = identity.learner_id()
    days = _days()
    lib = library()
    context: dict[str, Any] = {
        "days": days,
        "windows": stats.WINDOWS,
        "user": identity.account(),
        "has_history": False,
    }
    if learner is not None and stats.attempt_count(db(), learner):
        topics, rules = stats.accuracy(db(), learner, days)
        missed = [lib.get(i) for i in stats.misses(db(), learner, days)]
        srs = stats.srs_enabled(db(), learner)
        context.update(
            has_history=True,
            topics=[(topic_name(a.key), a) for a in topics],
            rules=rules,
            misses=[e for e in missed if e is not None],
            streak=stats.streak(db(), learner),
            chart=Markup(accuracy_chart(stats.daily(db(), learner, days))),
            srs=srs,
            due=len(stats.due(db(), learner)) if srs else 0,
        )
    return render("progress/show.html", "progress/partials/_tables.html", **context)


@bp.post("/spaced-repetition")
def spaced_repetition() -> Response:
    learner = identity.learner_id(create=True)
    stats.set_spaced_repetition(db(), learner, request.form.get("enabled") == "yes")
    db().commit()
    return redirect(url_for("progress.show"), code=303)


@bp.get("/replay")
def replay() -> Response:
    """The most recent spot still missed (answer it right and it leaves the list)."""
    learner = identity.learner_id()
    lib = library()
    for scenario_id in stats.misses(db(), learner, 90) if learner else []:
        if lib.get(scenario_id) is not None:
            return redirect(url_for("drill.show", scenario_id=scenario_id))
    return redirect(url_for("progress.show"))


@bp.get("/review")
def review() -> Response:
    """The most overdue spot to review today."""
    learner = identity.learner_id()
    lib = library()
    for scenario_id in stats.due(db(), learner) if learner else []:
        if lib.get(scenario_id) is not None:
            return redirect(url_for("drill.show", scenario_id=scenario_id))
    return redirect(url_for("progress.show"))
