"""Sitting an exam, self-study or assigned: the templates, drawing an attempt's questions, grading one."""

from __future__ import annotations

from flask import abort, current_app
from flask_babel import gettext as _

from trainer.store import exams as store
from trainer.web.core.i18n import when
from trainer.web.core.libraries import exam_templates
from trainer.web.core.spot_refs import check

from .refs import pool_ids, resolve


def templates() -> dict[str, store.ExamTemplate]:
    """The catalogue (exams/*.yaml) plus any templates in the ``EXAM_TEMPLATES`` setting, by slug."""
    extra = current_app.config.get("EXAM_TEMPLATES", ())
    return {t.slug: t for t in (*exam_templates(), *extra)}


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
