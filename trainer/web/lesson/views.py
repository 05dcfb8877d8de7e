"""The card lesson: an introduction, five steps each graded like the drill, and a summary.

Nothing is stored: the lesson is practice before the first spot. Each step is a form that posts
(htmx swaps its answer in place); a first miss gives the drill's hints, a second miss or "Show me"
the answer with the reasons.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import NotFound

from trainer.library import Entry
from trainer.quiz import Answer, Feedback, grade, read_answer
from trainer.translations import text
from trainer.translations.engine import rule_text
from trainer.web.core import field_help, hints, i18n, identity, proxy
from trainer.web.core.csrf import CSRFError
from trainer.web.core.errors import handle_http
from trainer.web.core.inputs import ControlInField, cleaned_form
from trainer.web.core.libraries import library
from trainer.web.core.render import render

from . import steps
from .steps import STEPS, Step

bp = Blueprint("lesson", __name__, url_prefix="/lesson")


def _entry() -> Entry:
    entry = steps.lesson_entry(library())
    if entry is None:
        abort(404, description=_("The card lesson needs a spot with a short all-in, and none is loaded."))
    return entry


def _step(number: int) -> Step:
    found = steps.step(number)
    if found is None:
        abort(404, description=_("The card lesson has steps 1 to %(last)s.", last=len(STEPS)))
    return found


def _number(n: int) -> str:
    return text(i18n.current()).number(n)


def _common(entry: Entry) -> dict[str, Any]:
    return {
        "entry": entry,
        "spot": entry.spot,
        "pos": entry.quiz.to_act or "",
        "steps": STEPS,
        "total": len(STEPS),
    }


@bp.get("/")
def intro() -> Response:
    entry = _entry()
    return render("lesson/intro.html", **_common(entry), place="intro", card_columns=field_help.CARD,
                  first_url=url_for("lesson.show", number=1))


@bp.get("/done")
def done() -> Response:
    entry = _entry()
    card = entry.quiz.solution["card"]
    response = render("lesson/done.html", **_common(entry), place="done", filled=steps.card_so_far(None, card, _number))
    # The drill stops offering the lesson to this browser (a year, as the language and the deck).
    response.set_cookie(identity.LESSON_DONE, "1", max_age=365 * 24 * 3600, httponly=True, samesite="Lax",
                        secure=proxy.secure_cookies())
    return response


@bp.get("/<int:number>")
def show(number: int) -> Response:
    s = _step(number)
    return _page(_entry(), s)


@bp.post("/<int:number>")
def check(number: int) -> Response:
    s = _step(number)
    entry = _entry()
    quiz = steps.quiz_of(entry, s)
    answer = read_answer(quiz, request.form)
    if not answer.ok:
        return _page(entry, s, answer=answer, missed=request.form.get("missed") == "1")
    feedback = grade(quiz, answer)
    missed_before = request.form.get("missed") == "1"
    if feedback.all_right or missed_before or request.form.get("reveal") == "1":
        return _page(entry, s, answer=answer, feedback=feedback, finished=True)
    # A first miss: which fields, and what to look at again, not the values.
    return _page(entry, s, answer=answer, feedback=hints.hinted(feedback, quiz.steps, i18n.current()),
                 missed=True)


def _page(
    entry: Entry,
    s: Step,
    *,
    answer: Answer | None = None,
    feedback: Feedback | None = None,
    missed: bool = False,
    finished: bool = False,
    notice: str | None = None,
) -> Response:
    quiz = steps.quiz_of(entry, s)
    pos = quiz.to_act or ""
    card = quiz.solution["card"]
    focus = next((f.name for f in quiz.fields() if answer is not None and f.name in answer.errors), None)
    following = steps.step(s.number + 1)
    return render(
        "lesson/step.html",
        "lesson/partials/_answer.html",
        **_common(entry),
        current=s,
        place=s.number,
        quiz=quiz,
        fields=quiz.fields(),
        title=steps.title(s, pos),
        before=steps.before(s, pos),
        after=steps.after(s, pos, card, _number) if finished else [],
        reasons=_reasons(quiz.steps, s) if finished else [],
        filled=steps.card_so_far(s, card, _number),
        answer=answer,
        feedback=feedback,
        missed=missed,
        finished=finished,
        notice=notice,
        focus=focus,
        post_url=url_for("lesson.show", number=s.number),
        next_url=url_for("lesson.show", number=following.number) if following else url_for("lesson.done"),
        status_text=_status(answer, feedback, finished),
    )


def _reasons(derivation, s: Step) -> list[dict[str, Any]]:
    """The engine's own derivation of this step's column, each line with the rule that decides it."""
    locale = i18n.current()
    return [
        {"text": d.text, "rule": d.rule, "rule_title": rule_text(d.rule, locale).title if d.rule else None}
        for d in derivation
        if d.topic in s.topics
    ]


def _status(answer: Answer | None, feedback: Feedback | None, finished: bool) -> str:
    if answer is not None and not answer.ok:
        return _("Nothing was checked: fix the field marked ⚠.")
    if feedback is None:
        return ""
    if feedback.all_right:
        return _("Right.")
    return _("Here is the answer, with the reasons.") if finished else _("Not right yet: look at the hint and try again.")


def _again(make_answer) -> Response:
    """The step the refused form belongs to, shown again (a 404 page when there is no such step)."""
    s = steps.step((request.view_args or {}).get("number", 0))
    entry = steps.lesson_entry(library())
    if s is None or entry is None:
        return handle_http(NotFound())
    answer, notice = make_answer(read_answer(steps.quiz_of(entry, s), cleaned_form()))
    return _page(entry, s, answer=answer, notice=notice)


@bp.errorhandler(ControlInField)
def unreadable(exc: ControlInField) -> Response:
    """A control character in a field: the step again with the message there, nothing checked."""

    def answer(read: Answer) -> tuple[Answer, str | None]:
        errors = {exc.field: exc.message()} if exc.field in read.raw else {}
        return Answer(raw=read.raw, values={}, errors=errors), None if errors else exc.message()

    return _again(answer)


@bp.errorhandler(CSRFError)
def expired(exc: CSRFError) -> Response:
    """An expired form: the step again, filled in, with a fresh token; nothing checked."""
    notice = _("Your answer was not checked: this page had expired. Check it again.")
    return _again(lambda read: (Answer(raw=read.raw, values={}, errors={}), notice))
