"""The drill: show a spot, grade an answer field by field."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, abort, g, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.exceptions import NotFound

from trainer.library import Entry
from trainer.quiz import Answer, Feedback, Quiz, grade, read_answer
from trainer.store import db
from trainer.store.progress import later_step
from trainer.web.core import deck, hints, i18n, identity, spot_refs
from trainer.web.core.csrf import CSRFError
from trainer.web.core.errors import handle_http
from trainer.web.core.inputs import ControlInField, cleaned_form
from trainer.web.core.libraries import library, topic_name
from trainer.web.core.render import render, wants_fragment
from trainer.web.drill.progress import (
    answer_id_of,
    due_entries,
    first_try_of,
    offers_lesson,
    opened_at,
    rating_line,
    record_attempt,
)
from trainer.web.drill.review import review_of

bp = Blueprint("drill", __name__, url_prefix="/drill")

MAX_RETRY_SECONDS = 30  # between the page's attempts to send an answer that is not stored yet


def _lookup(scenario_id: str) -> Entry | None:
    """A library spot by id, or a generated one by its reference ``gen:topic:level:seed:index``."""
    if scenario_id.startswith("gen:"):
        return spot_refs.resolve(scenario_id)
    if scenario_id.startswith("my:"):  # an instructor's spot: its owner and the classes it is shared with
        user = identity.account()
        return spot_refs.resolve(scenario_id) if spot_refs.visible(scenario_id, user and user.id) else None
    return library().get(scenario_id)


def _entry(scenario_id: str) -> Entry:
    entry = _lookup(scenario_id)
    if entry is None:
        abort(404, description=_("There is no scenario with that name."))
    return entry


def _show(
    entry: Entry,
    *,
    answer: Answer | None = None,
    feedback: Feedback | None = None,
    notice: str | None = None,
    save: dict[str, Any] | None = None,
    status: int = 200,
    missed: str = "0",
    stage: int | None = None,
    done: bool = False,
    clean: bool = False,
    first_try: bool | None = None,
    lesson: bool = False,
) -> Response:
    """The drill page or its answer fragment.

    ``answer`` and ``feedback``: what was typed, and its grade (None: input errors, or nothing
    graded). ``save`` says whether a graded answer is stored, when that is news (see
    ``grade_answer``). ``missed``: "0", or "1" once the learner missed here (the form it sends back
    asks for the worked answer), or "hint" for a first miss: shown with hints and no derivation
    (``hints.py``), its form offering "Show answer".

    ``stage``: the step of the spot whose form is shown (``Quiz.stages``; 0: every question at once,
    as forms from before there were steps sent them; None: the first). ``done``: the graded answer
    finished the step before ``stage`` (right, or its worked answer shown): it is shown as that
    step's result, above a fresh form for ``stage``. ``clean``: every step so far was right at once.
    ``first_try``: this learner's first try at the spot, solved or missed (a page opened).
    """
    lib = library()
    topic = lib.topic(request.args.get("topic"))
    slug = topic.slug if topic is not None else None
    # In a review session "Next" is the next due spot; else the path goes on.
    reviewing = request.args.get("review") == "1"
    ref = _ref()
    urls = _urls(lib, entry, topic, ref, reviewing)
    stages = len(entry.quiz.stages)
    stage = (1 if stages > 1 else 0) if stage is None else stage
    quiz = entry.quiz.stage(stage) if stage else entry.quiz
    earlier = None
    if done:  # the step just finished is shown above a fresh form for the next one
        earlier, answer, feedback = feedback, None, None
    focus = _focus(quiz, answer, notice, fresh=done)
    response = render(
        "drill.html",
        "partials/_answer.html",
        status=status,
        entry=entry,
        topic=topic,
        quiz=quiz,
        spot=entry.spot,
        notice=notice,
        save=save,
        hinting=missed == "hint" and not done,
        missed="0" if done else missed,
        stage=stage,
        stages=stages,
        clean=clean,
        answer=answer,
        feedback=feedback,
        earlier=earlier,
        focus=focus,
        worked=_worked(feedback, last=stage in (0, stages)),
        earlier_worked=_worked(earlier, last=False),
        status_text=_saved_text(save) or _status_text(answer, feedback, notice, earlier, stage, stages),
        first_try=first_try,
        lesson_offer=lesson,
        rating_change=rating_line(),
        review=review_of(entry.id, reviewing=reviewing, graded=request.method == "POST"),
        back=url_for("drill.show", scenario_id=ref, topic=slug),
        # The language links point at this spot and topic, not at whatever the address carried.
        # A later step's page keeps its step, so switching language does not start the spot again.
        languages=i18n.language_links(path=urls["again_url"].partition("?")[0],
                                      args={"topic": slug, "step": str(stage) if stage > 1 else None}),
        decks=deck.links(args={"topic": slug}),
        **urls,
    )
    if stages > 1 and wants_fragment():
        # The address follows the step swapped in, so reloading the page keeps it (``show`` opens
        # ?step=N for a learner whose earlier step is stored) and "Clear and start again" drops it.
        again = urls["again_url"]
        response.headers["HX-Replace-Url"] = again if stage <= 1 else f"{again}{'&' if '?' in again else '?'}step={stage}"
    return response


def _ref() -> str:
    """This spot's reference, written the one canonical way: addresses are built from it, never
    from the address the request came in by."""
    return spot_refs.canonical((request.view_args or {}).get("scenario_id", ""))


def _worked(feedback: Feedback | None, *, last: bool) -> Feedback | None:
    """The engine's derivation and the teaching note to show with ``feedback``. A step of a spot
    before its last shows only the derivation of its own fields, and no note (the rest would answer
    the next step)."""
    if feedback is None or last:
        return feedback
    topics = {hints.step_topic(m.field.name) for m in feedback.marks} | {"to_act"}
    return replace(feedback, steps=tuple(s for s in feedback.steps if s.topic in topics), explain=None)


def _urls(lib, entry: Entry, topic, ref: str, reviewing: bool = False) -> dict[str, str]:
    slug = topic.slug if topic is not None else None
    review = "1" if reviewing else None
    note = ""
    parts = spot_refs.generated_parts(ref)
    if parts is not None:  # endless practice: the next spot is the next index of the same seed
        name, level, seed, index = parts
        next_url = url_for("drill.show", scenario_id=f"gen:{name}:{level}:{seed}:{index + 1}", topic=slug)
    elif ref.startswith("my:"):  # an instructor's spot: back to the list of the class's spots
        next_url = url_for("authoring.shared")
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
        "next_label": _next_due_label() if reviewing else _("Next spot"),
    }


def _next_due_label() -> str:
    """Where progress.review goes from this spot: the next due one, or (nothing else due) the home page."""
    if due_entries(but=_ref()):
        return _("Next due spot")
    return _("Nothing else is due: back to the start")


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


def _status_text(
    answer: Answer | None, feedback: Feedback | None, notice: str | None,
    earlier: Feedback | None = None, stage: int = 0, stages: int = 1,
) -> str:
    """What the polite live region announces."""
    if earlier is not None:
        return _("Step %(done)s of %(steps)s done: %(right)s of %(total)s right. Now step %(step)s.",
                 done=stage - 1, steps=stages, right=earlier.right, total=earlier.total, step=stage)
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


def _focus(quiz: Quiz, answer: Answer | None, notice: str | None, *, fresh: bool = False) -> str | None:
    """Which field gets ``autofocus``; the feedback heading has its own."""
    if notice:
        return "notice"
    if answer is not None:
        return next((f.name for f in quiz.fields() if f.name in answer.errors), None)
    if fresh or wants_fragment():  # the next step, or "Try again" swapped in a fresh form: its first field
        return next(iter(quiz.fields())).name
    return None


def _stage_of(entry: Entry, sent: str | None) -> int:
    """The step a form answers: its ``stage``, or 0 (every question) for a form without one."""
    stages = len(entry.quiz.stages)
    if stages > 1 and sent in {str(n) for n in range(1, stages + 1)}:
        return int(sent)
    return 0


@bp.get("/<scenario_id>")
def show(scenario_id: str) -> Response:
    entry = _entry(scenario_id)
    step = _stage_of(entry, request.args.get("step"))
    clean = _later_step(entry) if step > 1 else None
    first_try = first_try_of(entry)
    if clean is not None:
        # The spot again at a later step (the language switched): this learner's earlier step is
        # stored; it was clean if their first try at the spot is still undecided.
        return _show(entry, stage=step, clean=clean, first_try=first_try)
    return _show(entry, first_try=first_try, lesson=offers_lesson(first_try))


@bp.post("/<scenario_id>")
def grade_answer(scenario_id: str) -> Response:
    entry = _entry(scenario_id)
    form = spot_refs.Sent(request.form)
    # A spot is asked in steps (the card, then the rest), each graded on its own; a form from
    # before there were steps sends every field, and is graded whole.
    stage = _stage_of(entry, form.get("stage"))
    stages = len(entry.quiz.stages)
    if stage > 1 and _later_step(entry) is None:
        # A later step's form, though this learner has no earlier step of the spot stored: a form
        # made by hand (skipping the card made a spot "solved" and moved the rating) or kept from
        # another browser. The spot starts again at its first step.
        return _show(entry, notice=_("This spot starts with its first step: answer the card first."))
    quiz = entry.quiz.stage(stage) if stage else entry.quiz
    answer = read_answer(quiz, form)
    feedback = grade(quiz, answer) if answer.ok else None
    # The time taken counts from when the form was opened; the form sent back keeps that time.
    g.opened_at = opened_at(form.get("opened"))

    # A first miss gets hints, not the right values: the second miss, or "Show answer", the worked answer.
    missed_before = form.get("missed") == "1"
    hinting = feedback is not None and not feedback.all_right and not missed_before and form.get("reveal") != "1"
    # "hint": the form offers "Show answer"; "1": it says the learner missed here; "0": neither.
    missed = "hint" if hinting else "1" if missed_before else "0"
    # Every step before this one right at its first answer (the form of a later step says so).
    clean_before = stage <= 1 or form.get("clean") == "1"
    if feedback is None:  # input errors: nothing was graded, nothing is stored
        return _show(entry, answer=answer, missed=missed, stage=stage, clean=clean_before)
    shown = hints.hinted(feedback, quiz.steps, i18n.current()) if hinting else feedback
    last = stage in (0, stages)
    # A step is done when it is right, or its worked answer is shown: then the next step's form.
    advance = not last and not hinting
    clean = clean_before and feedback.all_right and not missed_before
    shows = {"stage": stage + 1, "done": True, "clean": clean} if advance else {"stage": stage, "clean": clean_before}
    # The answer is acknowledged only once it is committed. Until then the page says so and sends it
    # again under the id its form made, which the store keeps once however often it arrives.
    answer_id = answer_id_of(form.get("answer_id"))
    resend = form.get("resend")
    answered = opened_at(form.get("answered")) if resend else None
    # A right first step decides nothing yet (the spot's first try goes on in the next step): no
    # rating game, no review. A miss at the first step is reviewed then, so the last step of that
    # pass is not reviewed again; the last step of a clean pass is reviewed as the whole spot.
    decides = last or not feedback.all_right
    stored = record_attempt(
        entry, answer, feedback, g.opened_at, answer_id=answer_id, answered=answered,
        partial=not last, rate=decides, reviews=decides and (stage <= 1 or clean_before),
    )
    graded = {"answer": answer, "feedback": shown, "missed": missed, **shows}
    if stored:
        return _show(entry, save={"state": "saved"} if resend else None, **graded)
    tries = min(_int(resend) + 1, 99)
    pending = {
        "state": "pending",
        "answer_id": answer_id,
        "opened": "" if g.opened_at is None else g.opened_at,
        "answered": answered if answered is not None else int(time.time() * 1000),
        "tries": tries,
        "retry_in": min(2 ** (tries - 1), MAX_RETRY_SECONDS),
        "fields": [(name, values) for name, values in answer.raw.items()],
        "stage": stage,
        "clean": "1" if clean_before else "0",
    }
    return _show(entry, save=pending, **graded)


def _later_step(entry: Entry) -> bool | None:
    """None when this learner has no earlier step of the spot stored (it is stored before its page
    is acknowledged, so a learner on the spot's later step always has one); else whether every
    step so far was right at the first try (``later_step``)."""
    learner = identity.learner_id()
    if learner is None:
        return None
    found = later_step(db(), learner, entry.id)
    # The read ends here: on SQLite an open read would hold back the writer this answer waits for.
    db().commit()
    return found


def _int(text: str | None) -> int:
    return int(text) if text and text.isascii() and text.isdigit() and len(text) <= 3 else 0


@bp.errorhandler(ControlInField)
def unreadable(exc: ControlInField) -> Response:
    """A control character in a field: the answer again, without it, neither graded nor recorded."""
    entry = _lookup((request.view_args or {}).get("scenario_id", ""))
    if entry is None:
        return handle_http(NotFound(_("There is no scenario with that name.")))
    sent = cleaned_form()
    stage = _stage_of(entry, sent.get("stage"))
    read = read_answer(entry.quiz.stage(stage) if stage else entry.quiz, sent)
    errors = {exc.field: exc.message()} if exc.field in read.raw else {}
    notice = None if errors else exc.message()
    return _show(entry, answer=Answer(raw=read.raw, values={}, errors=errors), notice=notice,
                 stage=stage, clean=sent.get("clean") == "1")


@bp.errorhandler(CSRFError)
def expired(exc: CSRFError) -> Response:
    entry = _lookup((request.view_args or {}).get("scenario_id", ""))
    if entry is None:  # an unknown spot is a 404, token or not
        return handle_http(NotFound(_("There is no scenario with that name.")))
    stage = _stage_of(entry, request.form.get("stage"))
    typed = read_answer(entry.quiz.stage(stage) if stage else entry.quiz, request.form)
    # Keep what the learner typed, but neither grade it nor judge it.
    return _show(entry, answer=Answer(raw=typed.raw, values={}, errors={}),
                 notice=_("Your answer was not checked: this page had expired. Check it again."), status=400,
                 stage=stage, clean=request.form.get("clean") == "1")
