"""The drill: show a spot, grade an answer field by field."""

from __future__ import annotations

from flask import Blueprint, Response, abort, request, url_for

from trainer.quiz import Answer, Feedback, grade, read_answer

from . import library
from .csrf import CSRFError
from .library import Entry
from .render import render, wants_fragment

bp = Blueprint("drill", __name__, url_prefix="/drill")

EXPIRED = "Your answer was not checked: this page had expired. Check it again."


def _entry(scenario_id: str) -> Entry:
    entry = library().get(scenario_id)
    if entry is None:
        abort(404, description="There is no scenario with that name.")
    return entry


def _show(
    entry: Entry,
    *,
    answer: Answer | None = None,
    feedback: Feedback | None = None,
    notice: str | None = None,
    status: int = 200,
) -> Response:
    lib = library()
    topic = lib.topic(request.args.get("topic"))
    slug = topic.slug if topic is not None else None
    # Without an answer the page is the same for everyone: render it once.
    fresh = answer is None and feedback is None and notice is None
    return render(
        "drill.html",
        "partials/_answer.html",
        status=status,
        cache_key=(entry.id, slug) if fresh else None,
        entry=entry,
        topic=topic,
        quiz=entry.quiz,
        spot=entry.spot,
        answer=answer,
        feedback=feedback,
        notice=notice,
        focus=_focus(entry, answer, notice),
        next_entry=lib.next_after(entry, topic),
        post_url=url_for("drill.grade_answer", scenario_id=entry.id, topic=slug),
        again_url=url_for("drill.show", scenario_id=entry.id, topic=slug),
    )


def _focus(entry: Entry, answer: Answer | None, notice: str | None) -> str | None:
    """Which field gets ``autofocus``; the feedback heading has its own."""
    if notice:
        return "notice"
    if answer is not None:
        return next((f.name for f in entry.quiz.fields() if f.name in answer.errors), None)
    if wants_fragment():  # "Try again" swapped in a fresh form: start at its first field
        return next(iter(entry.quiz.fields())).name
    return None


@bp.get("/<scenario_id>")
def show(scenario_id: str) -> Response:
    return _show(_entry(scenario_id))


@bp.post("/<scenario_id>")
def grade_answer(scenario_id: str) -> Response:
    entry = _entry(scenario_id)
    answer = read_answer(entry.quiz, request.form)
    feedback = grade(entry.quiz, answer) if answer.ok else None
    return _show(entry, answer=answer, feedback=feedback)


@bp.errorhandler(CSRFError)
def expired(exc: CSRFError) -> Response:
    entry = _entry((request.view_args or {}).get("scenario_id", ""))
    typed = read_answer(entry.quiz, request.form)
    # Keep what the learner typed, but neither grade it nor judge it.
    return _show(entry, answer=Answer(raw=typed.raw, values={}, errors={}), notice=EXPIRED, status=400)
