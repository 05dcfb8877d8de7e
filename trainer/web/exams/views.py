"""Exam mode: a timed exam from a template, answers saved without feedback, one submission,
a result with a review, and a public verification page."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, abort, redirect, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.exceptions import HTTPException, TooManyRequests

from trainer.quiz import Answer
from trainer.store import db
from trainer.store import exams as store
from trainer.store.learners import MAX_NAME, clean_name, name_too_long, new_id
from trainer.store.models import ClassExam, ExamAttempt, now
from trainer.web.core import identity, limits, public
from trainer.web.core.errors import handle_http, said
from trainer.web.core.inputs import ControlInField, cleaned_form
from trainer.web.core.libraries import topic_name
from trainer.web.core.render import render
from trainer.web.core.spot_refs import check, typed_of

from .assigned import assigned_context
from .refs import pool_ids, resolve
from .sitting import Candidate, draw, grade, organisation, read_candidate, refusal, refused_candidate, template_of, templates

bp = Blueprint("exams", __name__)


def _exam(exam_id: str) -> ExamAttempt:
    """The learner's own exam, closed first if its time is up; anyone else's is not found."""
    exam = store.owned(db(), exam_id, identity.learner_id())
    if exam is None:
        abort(404, description=_("There is no exam of yours at this address."))
    if exam.finished_at is None and now() >= exam.deadline:
        store.close(db(), exam, grade, by="deadline")
        db().commit()
    return exam


def _no_store(response: Response) -> Response:
    # An exam page must not come back from the browser's cache after the exam has moved on.
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/exams/")
def index() -> Response:
    store.close_expired(db(), grade)
    db().commit()
    return index_page()


def index_page(*, error: str | None = None, error_slug: str | None = None, status: int = 200,
           typed_name: str | None = None) -> Response:
    learner = identity.learner_id()
    user = identity.account()
    standings = {}
    running: set[str] = set()  # templates whose Start button resumes an attempt (see start)
    assigned = []
    if user is not None:
        standings = {slug: store.standing(db(), t, user.id) for slug, t in templates().items()}
        running = {slug for slug, t in templates().items() if store.open_attempt(db(), t, user.id)}
        assigned = assigned_context(user.id)
    return render(
        "exam/index.html",
        status=status,
        templates=list(templates().values()),
        mine=store.of_learner(db(), learner) if learner else [],
        user=user,
        standings=standings,
        running=running,
        assigned=assigned,
        drawable={slug for slug, t in templates().items() if t.can_draw(pool_ids())},
        error=error,
        error_slug=error_slug,
        typed_name=typed_name,
        percent=store.percent,
    )


def _template(slug: str) -> store.ExamTemplate:
    template = templates().get(slug)
    if template is None:
        abort(404, description=_("There is no such exam."))
    return template


@bp.post("/exams/name")
@identity.login_required
def rename() -> Response:
    """The account's display name, the one its certificates carry; /verify shows a later change."""
    user = identity.account()
    assert user is not None
    name = clean_name(request.form.get("name", ""))
    if not name:
        return index_page(error=_("Enter your name as it should appear on the result (up to 80 characters)."), error_slug="")
    if len(name) > MAX_NAME:
        return index_page(error=said(name_too_long(name)), error_slug="", typed_name=name[:300])
    user.name = name
    db().commit()
    return redirect(url_for("exams.index"), code=303)


def start_page(template: store.ExamTemplate, *, action: str, candidate: Candidate | None = None,
               assignment: ClassExam | None = None) -> Response:
    """The page before an exam starts: what it is, under whom, and the name and candidate number
    to print on its result (the account's name filled in)."""
    user = identity.account()
    assert user is not None
    kind = None
    if assignment is not None:
        kind = store.assigned_by(db(), assignment.id)
    return _no_store(render(
        "exam/start.html",
        template=template,
        action=action,
        candidate=candidate or Candidate(name=user.name),
        standing=store.standing(db(), template, user.id),
        kind=kind,
        organisation=organisation(),
        max_name=MAX_NAME,
        max_number=store.MAX_CANDIDATE_NUMBER,
    ))


@bp.get("/exams/<slug>/start")
@identity.login_required
def start_form(slug: str) -> Response:
    template = _template(slug)
    running = store.open_attempt(db(), template, identity.account().id)
    if running is not None:
        return redirect(url_for("exams.question", exam_id=running.id, number=1))
    return start_page(template, action=url_for("exams.start", slug=slug))


@bp.post("/exams/<slug>/start")
def start(slug: str) -> Response:
    template = _template(slug)
    user = identity.account()
    if user is None:
        return redirect(url_for("accounts.login", next=url_for("exams.index")), code=303)
    if not template.can_draw(pool_ids()):
        return index_page(error=_("This exam cannot be sat here: its pool of exam questions is missing."), error_slug=slug)
    running = store.open_attempt(db(), template, user.id)
    if running is not None:
        return redirect(url_for("exams.question", exam_id=running.id, number=1), code=303)
    candidate = read_candidate(request.form)
    if not candidate.asked or candidate.errors:
        return start_page(template, action=url_for("exams.start", slug=slug), candidate=candidate if candidate.asked else None)
    exam_id = new_id()
    refs = draw(template, exam_id)
    try:
        exam = store.start(
            db(), template, exam_id=exam_id, learner_id=identity.learner_id(create=True), account_id=user.id,
            name=candidate.name, candidate_number=candidate.number, refs=refs,
        )
    except store.RetakeRefused as refused:
        db().rollback()
        return index_page(error=refusal(refused), error_slug=slug)
    db().commit()
    return redirect(url_for("exams.question", exam_id=exam.id, number=1), code=303)


def _question_context(exam: ExamAttempt, number: int) -> dict[str, Any]:
    if not 1 <= number <= len(exam.questions):
        abort(404, description=_("This exam has no question %(n)s.", n=number))
    entry = resolve(exam.questions[number - 1])
    if entry is None:
        abort(404)
    saved = store.answers(db(), exam)
    return {
        "exam": exam,
        "number": number,
        "count": len(exam.questions),
        "entry": entry,
        "quiz": entry.quiz,
        "spot": entry.spot,
        "answered": {p + 1 for p in saved},
        "seconds_left": max(0, int((exam.deadline - now()).total_seconds())),
        "saved": saved.get(number - 1),
        # a dealer exam's written or table part, said when the exam has both
        "part": store.exam_part(exam.questions[number - 1])
        if len({store.exam_part(ref) for ref in exam.questions}) > 1 else None,
    }


@bp.get("/exams/<exam_id>/q/<int:number>")
def question(exam_id: str, number: int) -> Response:
    exam = _exam(exam_id)
    if exam.finished_at is not None:
        return redirect(url_for("exams.result", exam_id=exam.id))
    context = _question_context(exam, number)
    saved = context["saved"]
    answer = check(context["entry"], saved.answers)[0] if saved is not None else None
    # What was saved is shown again, without any mark: no feedback before the submission.
    if answer is not None:
        answer = type(answer)(raw=answer.raw, values={}, errors={})
    return _no_store(render("exam/question.html", answer=answer, **context))


@bp.post("/exams/<exam_id>/q/<int:number>")
def save(exam_id: str, number: int) -> Response:
    exam = _exam(exam_id)
    if exam.finished_at is not None:
        return redirect(url_for("exams.result", exam_id=exam.id, late=1), code=303)
    context = _question_context(exam, number)
    entry = context["entry"]
    typed = typed_of(entry, request.form)
    go = request.form.get("go", "")
    target = _target(go, number, len(exam.questions))
    # The question numbers and "Finish the exam…" submit the form too, so what was typed is kept;
    # a question left blank is left as it was (unanswered, or the answer saved before).
    moving = go == "finish" or _question_button(go, len(exam.questions))
    if moving and not any(v.strip() for values in typed.values() for v in values):
        return redirect(_target_url(exam, target), code=303)
    answer, _feedback = check(entry, typed)
    if not answer.ok:
        # Unreadable input is pointed out (that says nothing about right or wrong); nothing is saved.
        answer = type(answer)(raw=answer.raw, values={}, errors=answer.errors)
        return _no_store(render("exam/question.html", answer=answer, **context))
    try:
        store.save_answer(db(), exam, number - 1, typed)
    except store.ExamClosed:
        db().rollback()
        return redirect(url_for("exams.result", exam_id=exam.id, late=1), code=303)
    db().commit()
    return redirect(_target_url(exam, target), code=303)


def _target(go: str, number: int, count: int) -> int | str:
    """Where the answer form's button ``go`` sends the candidate from question ``number``: a
    question's number, or "finish" (the page that submits). "stay" and anything unknown stay."""
    if go in ("finish", "submit") or (go == "next" and number == count):
        return "finish"
    if go == "next":
        return number + 1
    if _question_button(go, count):
        return int(go[1:])
    return number


def _question_button(go: str, count: int) -> bool:
    """A question's number in the exam's navigation ("q3")."""
    return go.startswith("q") and go[1:].isdigit() and 1 <= int(go[1:]) <= count


def _target_url(exam: ExamAttempt, target: int | str) -> str:
    if target == "finish":
        return url_for("exams.confirm", exam_id=exam.id)
    return url_for("exams.question", exam_id=exam.id, number=target)


@bp.errorhandler(ControlInField)
def unreadable(exc: ControlInField) -> Response:
    """A control character in a field: the form again, filled in without it; nothing started or saved."""
    try:
        return _refused_form(exc)
    except HTTPException as other:  # not this learner's exam, say: that is the answer
        return handle_http(other)


def _refused_form(exc: ControlInField) -> Response:
    form = cleaned_form()
    args = request.view_args or {}
    if request.endpoint == "exams.start":
        template = _template(args["slug"])
        if identity.account() is None:
            return handle_http(exc)
        return start_page(template, action=url_for("exams.start", slug=args["slug"]),
                          candidate=refused_candidate(form, exc))
    if request.endpoint == "exams.rename":
        return index_page(error=exc.message(), error_slug="")
    if request.endpoint == "exams.save":
        exam = _exam(args["exam_id"])
        if exam.finished_at is not None:
            return redirect(url_for("exams.result", exam_id=exam.id, late=1), code=303)
        context = _question_context(exam, args["number"])
        read = check(context["entry"], typed_of(context["entry"], form))[0]
        # The message goes next to the field; a field not on the page (only a forged form has one)
        # puts it next to the first.
        field = exc.field if exc.field in read.raw else next(iter(read.raw), exc.field)
        answer = Answer(raw=read.raw, values={}, errors={field: exc.message()})
        return _no_store(render("exam/question.html", answer=answer, **context))
    return handle_http(exc)


@bp.get("/exams/<exam_id>/submit")
def confirm(exam_id: str) -> Response:
    exam = _exam(exam_id)
    if exam.finished_at is not None:
        return redirect(url_for("exams.result", exam_id=exam.id))
    saved = store.answers(db(), exam)
    missing = [n for n in range(1, len(exam.questions) + 1) if n - 1 not in saved]
    return _no_store(
        render(
            "exam/confirm.html",
            exam=exam,
            missing=missing,
            count=len(exam.questions),
            answers_wait=_review_waits_for(exam),
            seconds_left=max(0, int((exam.deadline - now()).total_seconds())),
        )
    )


@bp.post("/exams/<exam_id>/submit")
def submit(exam_id: str) -> Response:
    exam = _exam(exam_id)
    if exam.finished_at is None:
        store.close(db(), exam, grade, by="submit")
        db().commit()
    return redirect(url_for("exams.result", exam_id=exam.id), code=303)


def _graded(exam: ExamAttempt) -> tuple[list[dict[str, Any]], list[tuple[str, int, int]]]:
    """The review of a closed attempt, question by question, and how many were all right by topic
    (weakest first)."""
    saved = store.answers(db(), exam)
    review = []
    topics: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for position, ref in enumerate(exam.questions):
        entry = resolve(ref)
        if entry is None:
            continue
        row = saved.get(position)
        feedback = check(entry, row.answers)[1] if row is not None else None
        rows = []
        for field in entry.quiz.fields():
            mark = feedback.mark(field.name) if feedback is not None else None
            rows.append(
                {
                    "label": field.label,
                    "given": mark.given if mark is not None else None,
                    "correct": field.show(field.expected),
                    "right": bool(mark and mark.right),
                }
            )
        right = feedback is not None and feedback.all_right
        for slug in entry.topics[:1] or ("other",):
            topics[slug][0] += int(right)
            topics[slug][1] += 1
        review.append(
            {"number": position + 1, "entry": entry, "rows": rows, "right": right, "answered": row is not None}
        )
    breakdown = sorted(((topic_name(k), r, t) for k, (r, t) in topics.items()), key=lambda x: (x[1] / x[2], x[0]))
    return review, breakdown


def _template_review(exam: ExamAttempt) -> str:
    template = template_of(exam.template)
    return template.review if template else store.REVIEW_AFTER_CLOSE


def _answers_open_at(exam: ExamAttempt) -> datetime | None:
    """When this attempt's review shows the answers (docs/exams.md, "Review")."""
    return store.answers_open_at(db(), exam, _template_review(exam))


def _review_waits_for(exam: ExamAttempt) -> datetime | None:
    return store.review_waits_for(db(), exam, _template_review(exam))


def _provenance(exam: ExamAttempt) -> dict[str, Any]:
    """Who issues the result and under whom it was sat, for the result, the certificate and /verify."""
    return {"organisation": organisation(), "kind": store.provenance(db(), exam)}


@bp.get("/exams/<exam_id>/result")
def result(exam_id: str) -> Response:
    exam = _exam(exam_id)
    if exam.finished_at is None:
        return redirect(url_for("exams.question", exam_id=exam.id, number=1))
    review, breakdown = _graded(exam)
    opens = _answers_open_at(exam)
    return _no_store(
        render(
            "exam/result.html",
            exam=exam,
            count=len(exam.questions),
            percent=store.percent(exam.score or 0, len(exam.questions)),
            used=_duration(exam.started_at, exam.finished_at),
            breakdown=breakdown,
            review=review,
            answers_open_at=opens,
            answers_shown=opens is not None and opens <= now(),
            late=bool(request.args.get("late")),
            window_closed=store.window_cut_short(exam),
            code=_shown_code(exam.verify_code or ""),
            verify_url=_verify_url(exam),
            review_url=public.base_url() + url_for("exams.review_page", exam_id=exam.id),
            **_provenance(exam),
        )
    )


@bp.get("/exams/<exam_id>/review")
def review_page(exam_id: str) -> Response:
    """The review on a page of its own, to print apart from the result's one or two pages."""
    exam = _exam(exam_id)
    if exam.finished_at is None:
        return redirect(url_for("exams.question", exam_id=exam.id, number=1))
    opens = _answers_open_at(exam)
    review, _breakdown = _graded(exam)
    return _no_store(
        render(
            "exam/review.html",
            exam=exam,
            review=review,
            answers_open_at=opens,
            answers_shown=opens is not None and opens <= now(),
        )
    )


def _verify_url(exam) -> str:
    """A result's /verify address, with its code written as the page shows it, at the site's public
    address: the same on the result, the certificate and its QR code."""
    return public.base_url() + url_for("exams.verify", code=_shown_code(exam.verify_code or ""))


def _duration(start: datetime, end: datetime) -> str:
    seconds = max(0, int((end - start).total_seconds()))
    return f"{seconds // 60}:{seconds % 60:02d}"


def _shown_code(code: str) -> str:
    return f"{code[:5]}-{code[5:]}" if len(code) == store.CODE_LENGTH else code


@bp.get("/exams/<exam_id>/certificate")
def certificate(exam_id: str) -> Response:
    """A printable certificate of a passed exam, with a QR code to its /verify address."""
    exam = _exam(exam_id)
    if exam.finished_at is None:
        return redirect(url_for("exams.question", exam_id=exam.id, number=1))
    if not exam.passed or exam.revoked_at is not None:
        return redirect(url_for("exams.result", exam_id=exam.id))
    paper = request.args.get("paper", "a4")
    verify_url = _verify_url(exam)
    return _no_store(
        render(
            "exam/certificate.html",
            exam=exam,
            paper=paper if paper in ("a4", "letter") else "a4",
            verify_url=verify_url,
            # an employer could not open a link to the candidate's or instructor's own machine
            verify_host=urlsplit(verify_url).netloc if public.loopback(verify_url) else None,
            qr=Markup(segno.make(verify_url, error="m").svg_inline(scale=4, dark="#000", light="#fff")),
            code=_shown_code(exam.verify_code or ""),
            percent=store.percent,
            **_provenance(exam),
        )
    )


@bp.get("/verify/")
def verify_form() -> Response:
    code = request.args.get("code", "").strip()
    if code:
        return redirect(url_for("exams.verify", code=store.normalize_code(code)[:32] or "-"))
    return render("exam/verify.html", exam=None, code="", looked=False, percent=store.percent,
                  organisation=organisation(), kind=None)


@bp.get("/verify/<code>")
def verify(code: str) -> Response:
    # Unknown codes count; over the limit every code is refused, a right one too, or the
    # answer would still tell a guesser which code is real.
    failures = limits.current().verify_address
    if (wait := failures.over(limits.address())) is not None:
        response = handle_http(TooManyRequests(description=limits.too_many_from_address()))
        response.headers["Retry-After"] = str(wait)
        return response
    store.close_expired(db(), grade)
    db().commit()
    exam = store.verified(db(), code)
    if exam is None:
        failures.failed()
    return render(
        "exam/verify.html",
        exam=exam,
        code=_shown_code(store.normalize_code(code)[:32]),
        looked=True,
        percent=store.percent,
        status=200 if exam is not None else 404,
        **(_provenance(exam) if exam is not None else {"organisation": organisation(), "kind": None}),
    )
