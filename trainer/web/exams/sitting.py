"""Sitting an exam, self-study or assigned: the templates, drawing an attempt's questions, grading one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from flask import abort, current_app
from flask_babel import gettext as _

from trainer.library.exams import SpotListTemplate
from trainer.store import db
from trainer.store import exams as store
from trainer.store import spots as my_spots
from trainer.store.user_errors import N_
from trainer.store.learners import MAX_NAME, clean_name, name_too_long
from trainer.web.core.errors import said
from trainer.web.core.inputs import ControlInField
from trainer.web.core.i18n import when
from trainer.web.core.libraries import exam_templates
from trainer.web.core.spot_refs import check

from .refs import pool_ids, resolve


def templates() -> dict[str, store.ExamTemplate]:
    """The catalogue (exams/*.yaml) plus any templates in the ``EXAM_TEMPLATES`` setting, by slug."""
    extra = current_app.config.get("EXAM_TEMPLATES", ())
    return {t.slug: t for t in (*exam_templates(), *extra)}


CLASS_SPOTS = "my-spots:"  # + a class id: the spots its instructor shared with it, as an exam
MAX_CLASS_SPOTS = 40
MINUTES_PER_SPOT = 2


def template_of(slug: str) -> store.ExamTemplate | None:
    """The template an attempt or an assignment names: one of ``templates()``, or a class's shared
    spots (``my-spots:<class id>``, its spots as they are now; an attempt keeps the versions it drew)."""
    if not slug.startswith(CLASS_SPOTS):
        return templates().get(slug)
    class_id = slug[len(CLASS_SPOTS):]
    refs = tuple(my_spots.ref(s.id, s.version) for s in my_spots.shared_with_class(db(), class_id))[:MAX_CLASS_SPOTS]
    if not refs:
        return None
    return SpotListTemplate(
        slug=slug, title=N_("Spots from your instructor"),
        description=N_("The spots your instructor shared with this class, each once, in a drawn order."),
        count=len(refs), minutes=MINUTES_PER_SPOT * len(refs), pass_mark=80, refs=refs,
    )


def grade(ref: str, typed: dict[str, list[str]] | None) -> store.Graded:
    entry = resolve(ref)
    if entry is None:
        return store.Graded(marks={})
    fields = [f.name for f in entry.quiz.fields()]
    if typed is None:
        return store.Graded(marks={name: False for name in fields})
    _answer, feedback = check(entry, typed)
    if feedback is None:
        return store.Graded(marks={name: False for name in fields})
    return store.Graded(marks={m.field.name: m.right for m in feedback.marks})


def refusal(refused: store.RetakeRefused) -> str:
    if refused.until is None:
        return _("Another attempt at this exam was started at the same moment. Open your exams to continue it.")
    return _("You have used the attempts this exam allows for now. The next one opens %(when)s.", when=when(refused.until))


def draw(template: store.ExamTemplate, exam_id: str) -> list[str]:
    """The attempt's questions, from an HMAC of the app's secret and the attempt id; a generated
    spot that cannot be built is replaced by the next spot of its seed."""
    refs = template.draw(store.attempt_seed(current_app.secret_key or "", exam_id), pool_ids())
    usable = []
    for ref in refs:
        parts = store.exam_gen_parts(ref)
        dealer = store.is_dealer_ref(ref)
        tries = 0
        while resolve(ref) is None and parts is not None and tries < 20:
            tries += 1
            topic, level, seed, index, stakes = parts
            ref = store.exam_gen_ref(topic, level, seed, index + tries, stakes, dealer=dealer)
        if resolve(ref) is None:
            abort(500, description=f"exam template {template.slug}: question {ref} cannot be built")
        usable.append(ref)
    return usable


def organisation() -> str | None:
    """Who issues this installation's results (``TRAINER_ORGANISATION``); None: not named."""
    return current_app.config.get("ORGANISATION")


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """The name and candidate number typed on the page before an exam starts, and what is wrong with them."""

    name: str = ""
    number: str = ""
    errors: Mapping[str, str] = field(default_factory=dict)
    asked: bool = True  # False: the form had no name field (a start button from before it was asked)


def read_candidate(form: Mapping[str, str]) -> Candidate:
    """The name is required and printed as typed, spaces collapsed and format characters (bidi
    overrides) dropped; refused, not cut, when too long: a name cut short would be printed without
    the candidate knowing. The candidate number is optional."""
    if "candidate_name" not in form:
        return Candidate(asked=False)
    name = clean_name(form.get("candidate_name", ""))
    number = clean_name(form.get("candidate_number", ""))
    errors = {}
    if not name:
        errors["candidate_name"] = _("Enter your name as it should appear on the result and the certificate.")
    elif len(name) > MAX_NAME:
        errors["candidate_name"] = said(name_too_long(name))
    if len(number) > store.MAX_CANDIDATE_NUMBER:
        errors["candidate_number"] = _(
            "A candidate number can have up to %(n)s characters; this one has %(count)s.",
            n=store.MAX_CANDIDATE_NUMBER, count=len(number),
        )
    # What comes back in the form is bounded: a refused 60 KB name is not sent back whole.
    return Candidate(name=name[:300], number=number[:300], errors=errors)


def refused_candidate(form: Mapping[str, str], exc: ControlInField) -> Candidate:
    """The start form again after a control character: what was typed without it, the field marked."""
    field_name = exc.field if exc.field in ("candidate_name", "candidate_number") else "candidate_name"
    return Candidate(
        name=form.get("candidate_name", "")[:300], number=form.get("candidate_number", "")[:300],
        errors={field_name: exc.message()},
    )
