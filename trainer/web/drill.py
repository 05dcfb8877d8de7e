"""The drill: show a spot, grade an answer field by field."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, g, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup
from werkzeug.exceptions import NotFound

from trainer.quiz import Answer, Feedback, grade, read_answer

from . import hints, i18n, library, spot_refs
from .cache import cache
from .csrf import CSRFError
from .errors import handle_http
from .inputs import ControlInField, cleaned_form
from .library import Entry, topic_name
from .progress import answer_id_of, opened_at, record_attempt, with_first_try, with_rating
from .render import render, wants_fragment

bp = Blueprint("drill", __name__, url_prefix="/drill")

# Where a graded answer's kept fragment takes this answer's form and answer list.
FORM_SLOT = "answer-form-" + secrets.token_hex(8)
MARKS_SLOT = "answer-marks-" + secrets.token_hex(8)


class Shape(tuple):
    """An answer's cache key by what its kept fragment shows besides the typed text: the fields'
    input errors (their messages never quote what was typed), or right or wrong field by field."""

MAX_TYPED_ANSWER = 256  # characters in all fields together
MAX_RETRY_SECONDS = 30  # between the page's attempts to send an answer that is not stored yet


def _lookup(scenario_id: str) -> Entry | None:
    """A library spot by id, or a generated one by its reference ``gen:topic:level:seed:index``."""
    if scenario_id.startswith("gen:"):
        return spot_refs.resolve(scenario_id)
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
    save: dict[str, Any] | None = None,
    status: int = 200,
    typed: Any = None,
    missed: str = "0",
) -> Response:
    """The drill page or its answer fragment.

    ``graded`` reads and grades the answer; it runs only when the markup is
    not kept already. ``key`` names everything the markup depends on besides
    the spot and the topic (nothing for a fresh page; what was typed for a
    graded answer): the same key gives the same markup. ``save`` says whether
    a graded answer is stored, when that is news (see ``grade_answer``).
    ``missed``: "0", or "1" once the learner missed here (the form it sends back
    asks for the worked answer), or "hint" for a first miss: shown with hints and
    no derivation (``hints.py``), its form offering "Show answer".
    """
    lib = library()
    topic = lib.topic(request.args.get("topic"))
    slug = topic.slug if topic is not None else None
    # In a review session "Next" is the next due spot; else the path goes on.
    reviewing = request.args.get("review") == "1"
    ref = _ref()
    urls = cache().memo((ref, slug, reviewing), lambda: _urls(lib, entry, topic, ref, reviewing))

    fill: dict[str, Callable[[], str]] = {}

    def context() -> dict[str, Any]:
        answer, feedback = graded() if graded is not None else (None, None)
        focus = _focus(entry, answer, notice)
        pieces = _pieces(ref, entry, urls, answer, feedback, focus, slug, missed=missed)
        if fill:  # kept per shape: the form and the answer list, which show what was typed, are slots
            pieces["answer_form"] = Markup(FORM_SLOT)
            if MARKS_SLOT in fill:
                pieces["marks"] = Markup(MARKS_SLOT)
        return {
            "answer": answer,
            "feedback": feedback,
            "focus": focus,
            "status_text": _saved_text(save) or _status_text(answer, feedback, notice),
            **pieces,
        }

    if isinstance(key, Shape):
        def form() -> str:
            answer, feedback = graded()
            return _form(ref, entry, urls, answer, feedback, _focus(entry, answer, notice), missed)

        fill = {FORM_SLOT: form}
        if key[:1] != ("errors",):  # graded: the answer list too
            fill[MARKS_SLOT] = lambda: cache().marks(graded()[1])

    return render(
        "drill.html",
        "partials/_answer.html",
        status=status,
        cache_key=None if key is None else (ref, slug, reviewing, missed, key),
        context=context,
        fill=fill,
        # The same answer sent again (a class types the same few) finds its whole fragment kept.
        filled_key=None if typed is None or not fill else (ref, slug, reviewing, missed, "graded", typed),
        entry=entry,
        topic=topic,
        quiz=entry.quiz,
        spot=entry.spot,
        notice=notice,
        save=save,
        hinting=missed == "hint",
        **urls,
    )


# ---- kept markup: everything below is built from the spot's canonical reference and the
# validated topic, never from the address the request came in by (see cache.py).


def _ref() -> str:
    """This spot's reference, written the one canonical way."""
    return spot_refs.canonical((request.view_args or {}).get("scenario_id", ""))


def _pieces(
    ref: str,
    entry: Entry,
    urls: dict[str, str],
    answer: Answer | None,
    feedback: Feedback | None,
    focus: str | None,
    slug: str | None,
    *,
    missed: str = "0",
) -> dict[str, Any]:
    """The markup the answer partials show, made (or found) here: partials only render it."""
    kept = cache()
    return {
        "answer_form": _form(ref, entry, urls, answer, feedback, focus, missed),
        "marks": kept.marks(feedback) if feedback is not None else None,
        "steps": kept.steps(ref, feedback) if feedback is not None and missed != "hint" else None,
        # The language links point at this spot and topic, not at whatever the address carried.
        "languages": i18n.language_links(path=urls["again_url"].partition("?")[0], args={"topic": slug}),
    }


def _form(
    ref: str,
    entry: Entry,
    urls: dict[str, str],
    answer: Answer | None,
    feedback: Feedback | None,
    focus: str | None,
    missed: str = "0",
) -> Markup:
    return cache().form(
        ref, "partials/_answer_form.html", answer, feedback, focus,
        quiz=entry.quiz, post_url=urls["post_url"], missed=missed,
    )


def _urls(lib, entry: Entry, topic, ref: str, reviewing: bool = False) -> dict[str, str]:
    slug = topic.slug if topic is not None else None
    review = "1" if reviewing else None
    note = ""
    parts = spot_refs.generated_parts(ref)
    if parts is not None:  # endless practice: the next spot is the next index of the same seed
        name, level, seed, index = parts
        next_url = url_for("drill.show", scenario_id=f"gen:{name}:{level}:{seed}:{index + 1}", topic=slug)
    else:
        ref = entry.id
        if topic is None:  # a spot opened on its own is walked in its first topic on the path
            topic = lib.topic(lib.home_topic(entry))
        step = lib.step_after(entry, topic)
        next_url = url_for("drill.show", scenario_id=step.entry.id, topic=step.topic)
        note = _step_note(lib, step)
    if reviewing:
        next_url, note = url_for("progress.review"), ""
    return {
        "post_url": url_for("drill.grade_answer", scenario_id=ref, topic=slug, review=review),
        "again_url": url_for("drill.show", scenario_id=ref, topic=slug, review=review),
        "next_url": next_url,
        "next_note": note,
        "next_label": _("Next due spot") if reviewing else _("Next spot"),
    }


def _step_note(lib, step) -> str:
    """What "Next" says when it leaves the level or the topic."""
    following = topic_name(step.topic) if step.topic else ""
    if step.change == "level":
        return _("Level %(done)s of this topic is done; next comes level %(level)s.", done=step.level,
                 level=step.entry.level)
    if step.change == "topic":
        return _("You have been through every spot of “%(done)s”. Next on the path: “%(topic)s”.",
                 done=topic_name(step.done), topic=following)
    if step.change == "end" and following:
        return _("That was the last spot of the path. Next: back to its start, “%(topic)s”.", topic=following)
    return ""


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


def _saved_text(save: dict[str, Any] | None) -> str | None:
    if save is None:
        return None
    if save["state"] == "saved":
        return _("Saved to your progress.")
    return _("Not saved yet — retrying…") if wants_fragment() else _("Not saved yet: your answer is graded, but the server could not store it just now. Send it again in a moment.")


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
    # Without an answer the page is the same for everyone (but for the line on the learner's first try).
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

    spot_typed = (spot_refs.canonical(scenario_id), typed)
    answer, feedback = cache().grade(spot_typed, read_and_grade, len(typed)) if short else read_and_grade()
    # The time taken counts from when the form was opened; the form sent back keeps that time.
    g.opened_at = opened_at(form.get("opened"))

    # A first miss gets hints, not the right values: the second miss, or "Show answer", the worked answer.
    missed_before = form.get("missed") == "1"
    hinting = feedback is not None and not feedback.all_right and not missed_before and form.get("reveal") != "1"
    # "hint": the form offers "Show answer"; "1": it says the learner missed here; "0": neither.
    missed = "hint" if hinting else "1" if missed_before else "0"
    shown: list[Feedback | None] = []

    def graded() -> tuple[Answer, Feedback | None]:
        """Only when markup is made: a kept fragment needs none of it."""
        if not shown:
            shown.append(hints.hinted(feedback, entry.quiz.steps, i18n.current()) if hinting else feedback)
        return answer, shown[0]

    # The fragment shows what was typed only in the form and the answer list: the rest is kept per
    # shape (the input errors, or the verdicts), those two filled in for each answer.
    if feedback is None:  # input errors: nothing was graded, nothing is stored
        errors = Shape(("errors", *sorted(answer.errors.items())))
        return _show(entry, graded=graded, key=errors, typed=typed if short else None, missed=missed)
    verdicts = Shape(m.right for m in feedback.marks)
    # The answer is acknowledged only once it is committed. Until then the page says so and sends it
    # again under the id its form made, which the store keeps once however often it arrives.
    answer_id = answer_id_of(form.get("answer_id"))
    resend = form.get("resend")
    answered = opened_at(form.get("answered")) if resend else None
    if record_attempt(entry, answer, feedback, g.opened_at, answer_id=answer_id, answered=answered):
        if not resend:
            return _show(entry, graded=graded, key=verdicts, typed=typed if short else None, missed=missed)
        return _show(entry, graded=graded, save={"state": "saved"}, missed=missed)
    tries = min(_int(resend) + 1, 99)
    pending = {
        "state": "pending",
        "answer_id": answer_id,
        "opened": "" if g.opened_at is None else g.opened_at,
        "answered": answered if answered is not None else int(time.time() * 1000),
        "tries": tries,
        "retry_in": min(2 ** (tries - 1), MAX_RETRY_SECONDS),
        "fields": [(name, values) for name, values in answer.raw.items()],
    }
    return _show(entry, graded=graded, save=pending, missed=missed)


@bp.after_request
def first_try_line(response: Response) -> Response:
    """A drill page, kept markup or not, says how this learner's first try at the spot went. Only a
    page opened: a graded one must not wait on the database once more (it may be away)."""
    if response.direct_passthrough or response.status_code >= 300 and response.status_code != 400:
        return response
    opened = request.method == "GET" and response.status_code == 200
    entry = _lookup((request.view_args or {}).get("scenario_id", "")) if opened else None
    return with_rating(with_first_try(response, entry))


def _int(text: str | None) -> int:
    return int(text) if text and text.isascii() and text.isdigit() and len(text) <= 3 else 0


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
