"""Speed drills at /speed: a timed run of one-number questions, the server keeping the time.

Each page is a plain form (Enter submits; a seat is a button to tap), so a run
works without JavaScript; ``static/speed.js`` only shows the countdown. The
answer to the previous question comes back with the next one.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, redirect, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from trainer import speed
from trainer.library.spot import card_view
from trainer.store import db
from trainer.store import speed as store
from trainer.store.models import SpeedRun
from trainer.translations import text
from trainer.translations.engine import engine_templates
from trainer.web.core import i18n, identity
from trainer.web.core.errors import handle_http
from trainer.web.core.inputs import ControlInField
from trainer.web.core.render import render
from trainer.web.core.spot_refs import generated

bp = Blueprint("speed", __name__)

# What an unreadable answer is told, by speed.check's error; only a "who wins" question has seats to tap
ERRORS = {
    "empty": lambda q: _("Tap one of the seats shown.") if q.choices else _("Type a number of chips, then press Enter."),
    "number": lambda q: _("Type a whole number of chips, like 1400 or 1,400."),
    "huge": lambda q: _("That number is far larger than any amount at this table: type the amount in chips."),
    "seat": lambda q: _("Tap one of the seats shown."),
    "control": lambda q: ControlInField.message(),
}


def _seconds() -> int:
    return current_app.config["SPEED_SECONDS"]


@bp.get("/speed")
def index() -> Response:
    learner = identity.learner_id()
    runs, best = [], None
    if learner:
        store.close_expired(db(), learner)
        db().commit()
        runs, best = store.history(db(), learner), store.best(db(), learner)
    return _private(render("speed/index.html", runs=runs, best=best, seconds=_seconds(),
                           penalty=int(store.WRONG_PENALTY.total_seconds())))


@bp.post("/speed/start")
def start() -> Response:
    learner = identity.learner_id(create=True)
    run = store.start(db(), learner, seed=speed.new_seed(), seconds=_seconds())
    db().commit()
    return redirect(url_for("speed.run", run_id=run.id), code=303)


def _run(run_id: str) -> SpeedRun:
    run = store.owned(db(), run_id, identity.learner_id())
    if run is None:
        abort(404, description=_("There is no speed run of yours at this address."))
    return run


@bp.get("/speed/run/<run_id>")
def run(run_id: str) -> Response:
    found = _run(run_id)
    if not store.is_open(found):
        return _over(found)
    return _question(found)


@bp.post("/speed/run/<run_id>")
def answer(run_id: str) -> Response:
    found = _run(run_id)
    number = _number(request.form.get("n", ""))
    if not store.is_open(found):
        return _over(found, late=number is not None)
    if number != found.asked:
        return _question(found, notice=_("That question was answered already: here is the one you are on."))
    try:
        q = speed.question(found.seed, number)
    except speed.SpeedError:
        return _question(found)  # says it could not be shown
    checked = speed.check(q, request.form.get("answer", ""))
    if checked.error:
        return _question(found, error=ERRORS[checked.error](q))
    counted = store.count(db(), found, number=number, right=checked.right)
    db().commit()
    if counted is store.Counted.LATE:
        return _over(found, late=True)
    if counted is store.Counted.STALE:
        return _question(found, notice=_("That question was answered already: here is the one you are on."))
    last = {"right": checked.right, "given": checked.given, **explained(q)}
    if not store.is_open(found):
        return _over(found, last=last)
    return _question(found, last=last)


@bp.errorhandler(ControlInField)
def unreadable(exc: ControlInField) -> Response:
    """A NUL byte or another control character in the answer: the same question again, with the reason."""
    run_id = (request.view_args or {}).get("run_id")
    if request.endpoint != "speed.answer" or not run_id:
        return handle_http(exc)
    try:
        found = _run(run_id)
    except HTTPException as other:  # not this learner's run: that is the answer
        return handle_http(other)
    if not store.is_open(found):
        return _over(found)
    return _question(found, error=ControlInField.message())


@bp.get("/speed/run/<run_id>/result")
def result(run_id: str) -> Response:
    found = _run(run_id)
    if store.is_open(found):
        return redirect(url_for("speed.run", run_id=found.id), code=303)
    return _over(found, late=request.args.get("late") == "1")


def _number(value: str) -> int | None:
    value = value.strip()
    if not (value.isascii() and value.isdigit()) or len(value) > 6:
        return None
    return int(value)


def _question(found: SpeedRun, *, last: dict | None = None, error: str | None = None,
              notice: str | None = None) -> Response:
    try:
        q = speed.question(found.seed, found.asked)
    except speed.SpeedError:  # five kinds of question, eight spots each, all without one: not seen yet
        q = None
    entry = None if q is None else generated(q.topic, q.level, q.seed, q.index)
    if q is None or entry is None:
        abort(503, description=_("This question could not be shown. Start a new run."))
    return _private(render(
        "speed/run.html",
        run=found,
        q=q,
        prompt=prompt(q),
        entry=entry,
        spot=entry.spot,
        last=last,
        error=error,
        notice=notice,
        seconds_left=store.seconds_left(found),
        typed=(request.form.get("answer", "") if error else ""),
    ))


def _over(found: SpeedRun, *, last: dict | None = None, late: bool = False) -> Response:
    if found.finished_at is None:
        store.close(db(), found)
        db().commit()
    outcome = store.result(db(), found)
    return _private(render(
        "speed/result.html",
        run=found,
        outcome=outcome,
        last=last,
        late=late,
        misses=[explained(speed.question(found.seed, n)) for n in found.missed or ()],
        runs=store.history(db(), found.learner_id),
    ))


def _private(response: Response) -> Response:
    # A run moves on with every answer: Back must not show a question from the browser's cache.
    response.headers["Cache-Control"] = "no-store"
    return response


def prompt(q: speed.Question) -> str:
    pos = q.why.get("pos", "")
    if q.kind == "to-call":
        return _("How many chips must %(pos)s add to call?", pos=pos)
    if q.kind == "min-raise":
        return _("What is the minimum raise-to for %(pos)s?", pos=pos)
    if q.kind == "pot-limit":
        if q.why["cur"]:
            return _("Pot-limit: what is the most %(pos)s may raise to?", pos=pos)
        return _("Pot-limit: what is the most %(pos)s may bet?", pos=pos)
    if q.kind == "side-pot":
        return _("How many chips are in side pot %(n)s?", n=q.pot)
    if q.pot == 0:
        return _("Who wins the main pot?")
    return _("Who wins side pot %(n)s?", n=q.pot)


def explained(q: speed.Question) -> dict[str, Any]:
    """The right answer as the page writes it, and the one-line derivation (two for pot-limit)."""
    locale = i18n.current()
    n = text(locale).number
    w = q.why
    shown = q.answer if q.choices else n(int(q.answer))
    lines: list[str] = []
    if q.kind == "to-call":
        lines.append(_("① current total %(cur)s − ③ %(pos)s has %(com)s in = %(add)s to call.",
                       cur=n(w["cur"]), pos=w["pos"], com=n(w["com"]), add=n(w["add"])))
    elif q.kind == "min-raise":
        lines.append(_("① current total %(cur)s + ② last full increment %(inc)s = %(min)s.",
                       cur=n(w["cur"]), inc=n(w["inc"]), min=n(w["min"])))
    elif q.kind == "pot-limit" and w["cur"]:
        lines.append(_("Formula: pot %(pot)s + the call %(add)s = %(after)s; raise to %(cur)s + %(after)s = %(max)s.",
                       pot=n(w["pot"]), add=n(w["add"]), after=n(w["after"]), cur=n(w["cur"]), max=n(w["max"])))
        lines.append(_("Dealer's shortcut: 3 × the last bet %(cur)s + the trail %(trail)s = %(max)s.",
                       cur=n(w["cur"]), trail=n(w["trail"]), max=n(w["max"])))
    elif q.kind == "pot-limit":
        lines.append(_("Nobody has bet yet: the most is the size of the pot, %(pot)s.", pot=n(w["pot"])))
    elif q.kind == "side-pot":
        parts = " + ".join(f"{pos} {n(chips)}" for pos, chips in w["parts"])
        lines.append(_("Side pot %(n)s: %(parts)s = %(amount)s.", n=q.pot, parts=parts, amount=n(w["amount"])))
    else:
        names = engine_templates(locale)
        t = text(locale)

        def hand(best: dict) -> str:
            return " ".join(card_view(c, t).text for c in best["cards"])

        lines.append(_("%(winner)s: %(cards)s (%(category)s) beats %(runner)s: %(runner_cards)s (%(runner_category)s).",
                       winner=w["winner"], cards=hand(w["best"]), category=names["hand." + w["best"]["category"]],
                       runner=w["runner"], runner_cards=hand(w["runner_best"]),
                       runner_category=names["hand." + w["runner_best"]["category"]]))
    return {"answer": shown, "lines": lines, "prompt": prompt(q)}
