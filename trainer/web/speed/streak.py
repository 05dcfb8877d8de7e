"""Streaks at /streak: questions of climbing difficulty, no clock, and one miss ends the streak
(lichess's Puzzle Streak); a personal best per learner.

The questions are the speed drill's kinds (``speed.streak_question``) on the generator's five levels,
a level every few questions. Each page is a plain form, as a speed run's: it works without JavaScript.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from trainer import speed
from trainer.store import db
from trainer.store import streaks as store
from trainer.store.models import StreakRun
from trainer.web.core import identity
from trainer.web.core.errors import handle_http
from trainer.web.core.inputs import ControlInField
from trainer.web.core.render import render
from trainer.web.core.spot_refs import generated
from trainer.web.speed.views import ERRORS, _private, explained, prompt

bp = Blueprint("streak", __name__, url_prefix="/streak")


@bp.get("/")
def index() -> Response:
    learner = identity.learner_id()
    best = store.best(db(), learner) if learner else None
    recent = store.recent(db(), learner) if learner else []
    return _private(render("speed/streak_index.html", best=best, recent=recent, levels=len(speed.STREAK_LEVELS),
                           climb=speed.STREAK_CLIMB))


@bp.post("/start")
def start() -> Response:
    learner = identity.learner_id(create=True)
    run = store.start(db(), learner, seed=speed.new_seed())
    db().commit()
    return redirect(url_for("streak.run", run_id=run.id), code=303)


def _run(run_id: str) -> StreakRun:
    run = store.owned(db(), run_id, identity.learner_id())
    if run is None:
        abort(404, description=_("There is no streak of yours at this address."))
    return run


@bp.get("/<run_id>")
def run(run_id: str) -> Response:
    found = _run(run_id)
    if found.finished_at is not None:
        return _over(found)
    return _question(found)


@bp.post("/<run_id>")
def answer(run_id: str) -> Response:
    found = _run(run_id)
    if found.finished_at is not None:
        return _over(found)
    number = request.form.get("n", "").strip()
    if number != str(found.asked):
        return _question(found, notice=_("That question was answered already: here is the one you are on."))
    q = _asked(found)
    checked = speed.check(q, request.form.get("answer", ""))
    if checked.error:
        return _question(found, error=ERRORS[checked.error](q))
    if not store.count(db(), found, number=found.asked, right=checked.right):
        db().rollback()
        return _question(found, notice=_("That question was answered already: here is the one you are on."))
    db().commit()
    last = {"right": checked.right, "given": checked.given, **explained(q)}
    if not checked.right:
        return _over(found, last=last)
    return _question(found, last=last)


@bp.errorhandler(ControlInField)
def unreadable(exc: ControlInField) -> Response:
    """A control character in the answer: the same question again, with the reason."""
    run_id = (request.view_args or {}).get("run_id")
    if request.endpoint != "streak.answer" or not run_id:
        return handle_http(exc)
    try:
        found = _run(run_id)
    except HTTPException as other:
        return handle_http(other)
    if found.finished_at is not None:
        return _over(found)
    return _question(found, error=ControlInField.message())


def _asked(found: StreakRun) -> speed.Question:
    try:
        return speed.streak_question(found.seed, found.asked)
    except speed.SpeedError:
        abort(503, description=_("This question could not be shown. Start a new streak."))


def _question(found: StreakRun, *, last: dict | None = None, error: str | None = None,
              notice: str | None = None) -> Response:
    q = _asked(found)
    entry = generated(q.topic, q.level, q.seed, q.index)
    if entry is None:
        abort(503, description=_("This question could not be shown. Start a new streak."))
    return _private(render(
        "speed/streak.html",
        run=found,
        q=q,
        prompt=prompt(q),
        entry=entry,
        spot=entry.spot,
        last=last,
        error=error,
        notice=notice,
        best=store.best(db(), found.learner_id, but=found),
        typed=(request.form.get("answer", "") if error else ""),
    ))


def _over(found: StreakRun, *, last: dict | None = None) -> Response:
    earlier = store.best(db(), found.learner_id, but=found)
    missed = None
    if last is None and found.missed is not None:  # the page opened again: the miss, worked out
        missed = explained(speed.streak_question(found.seed, found.missed))
    return _private(render(
        "speed/streak_over.html",
        run=found,
        last=last,
        missed=missed,
        best=max(found.asked, earlier or 0),
        new_best=found.asked > 0 and (earlier is None or found.asked > earlier),
    ))
