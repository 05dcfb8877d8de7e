"""The drill: show a spot, grade an answer field by field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, g, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.exceptions import NotFound

from trainer.quiz import Answer, Feedback, grade, read_answer

from . import library, questions
from .cache import cache
from .csrf import CSRFError
from .errors import handle_http
from .inputs import ControlInField, cleaned_form
from .library import Entry
from .progress import opened_at, record_attempt
from .render import render, wants_fragment

bp = Blueprint("drill", __name__, url_prefix="/drill")

MAX_TYPED_ANSWER = 256  # characters in all fields together


def _lookup(scenario_id: str) -> Entry | None:
    """A library spot by id, or a generated one by its reference ``gen:topic:level:seed:index``."""
    if scenario_id.startswith("gen:"):
        return questions.resolve(scenario_id)
    return library().get(scenario_id)


def _entry(scenario_id: str) -> Entry:
    entry = _lookup(scenario_id)
    if entry is None:
        abort(404, description=_("There is no scenario with that name."))
    return entry


def _show(
    entry: Entry,
    *,
    graded: Callable[[], tuple[Answer | None, Feedback | None]] | None = None,
    key: Any = None,
    notice: str | None = None,
    status: int = 200,
) -> Response:
    """The drill page or its answer fragment.

    ``graded`` reads and grades the answer; it runs only when the markup is
    not kept already. ``key`` names everything the markup depends on besides
    the spot and the topic (nothing for a fresh page; what was typed for a
    graded answer): the same key gives the same markup.
    """
    lib = library()
    topic = lib.topic(request.args.get("topic"))
    slug = topic.slug if topic is not None else None
    urls = cache().memo(("urls", entry.id, slug), lambda: _urls(lib, entry, topic))

    def context() -> dict[str, Any]:
        answer, feedback = graded() if graded is not None else (None, None)
        return {
            "answer": answer,
            "feedback": feedback,
            "focus": _focus(entry, answer, notice),
            "status_text": _status_text(answer, feedback, notice),
        }

    return render(
        "drill.html",
        "partials/_answer.html",
        status=status,
        cache_key=None if key is None else (entry.id, slug, key),
        context=context,
        entry=entry,
        topic=topic,
        quiz=entry.quiz,
        spot=entry.spot,
        notice=notice,
        **urls,
    )


def _urls(lib, entry: Entry, topic) -> dict[str, str]:
    slug = topic.slug if topic is not None else None
    ref = request.view_args["scenario_id"] if request.view_args else entry.id
    parts = questions.generated_parts(ref)
    if parts is not None:  # endless practice: the next spot is the next index of the same seed
        name, level, seed, index = parts
        following = f"gen:{name}:{level}:{seed}:{index + 1}"
    else:
        ref, following = entry.id, lib.next_after(entry, topic).id
    return {
        "post_url": url_for("drill.grade_answer", scenario_id=ref, topic=slug),
        "again_url": url_for("drill.show", scenario_id=ref, topic=slug),
        "next_url": url_for("drill.show", scenario_id=following, topic=slug),
    }


def _status_text(answer: Answer | None, feedback: Feedback | None, notice: str | None) -> str:
    """What the polite live region announces."""
    if feedback is not None:
        return _("%(right)s of %(total)s right.", right=feedback.right, total=feedback.total)
    if answer is not None and answer.errors:
        return ngettext(
            "%(num)d answer needs fixing; nothing was graded.",
            "%(num)d answers need fixing; nothing was graded.",
            len(answer.errors),
        )
    return notice or ""


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
    # Without an answer the page is the same for everyone.
    return _show(_entry(scenario_id), key="fresh")


@bp.post("/<scenario_id>")
def grade_answer(scenario_id: str) -> Response:
    entry = _entry(scenario_id)
    form = request.form
    # Grading is a pure function of what was typed, and a class types the same
    # few answers: for short answers the grade and the markup are kept, long
    # ones are graded every time. The attempt is recorded either way.
    typed = tuple(tuple(form.getlist(f.name)) for f in entry.quiz.fields())
    short = sum(len(v) for values in typed for v in values) <= MAX_TYPED_ANSWER

    def read_and_grade() -> tuple[Answer, Feedback | None]:
        answer = read_answer(entry.quiz, form)
        return answer, grade(entry.quiz, answer) if answer.ok else None

    answer, feedback = cache().grade((scenario_id, typed), read_and_grade) if short else read_and_grade()
    # The time taken counts from when the form was opened; the form sent back keeps that time.
    g.opened_at = opened_at(form.get("opened"))
    record_attempt(entry, answer, feedback, g.opened_at)

    def graded() -> tuple[Answer, Feedback | None]:
        return answer, feedback

    return _show(entry, graded=graded, key=("graded", typed) if short else None)


@bp.errorhandler(ControlInField)
def unreadable(exc: ControlInField) -> Response:
    """A control character in a field: the answer again, without it, neither graded nor recorded."""
    entry = _lookup((request.view_args or {}).get("scenario_id", ""))
    if entry is None:
        return handle_http(NotFound(_("There is no scenario with that name.")))
    read = read_answer(entry.quiz, cleaned_form())
    errors = {exc.field: exc.message()} if exc.field in read.raw else {}
    notice = None if errors else exc.message()
    return _show(entry, graded=lambda: (Answer(raw=read.raw, values={}, errors=errors), None), notice=notice)


@bp.errorhandler(CSRFError)
def expired(exc: CSRFError) -> Response:
    entry = _lookup((request.view_args or {}).get("scenario_id", ""))
    if entry is None:  # an unknown spot is a 404, token or not
        return handle_http(NotFound(_("There is no scenario with that name.")))
    typed = read_answer(entry.quiz, request.form)
    # Keep what the learner typed, but neither grade it nor judge it.
    return _show(entry, graded=lambda: (Answer(raw=typed.raw, values={}, errors={}), None), notice=_("Your answer was not checked: this page had expired. Check it again."), status=400)
