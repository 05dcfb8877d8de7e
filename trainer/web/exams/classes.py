"""Classes of accounts and their assigned exams: the instructor's pages, joining by invite code,
and starting an assigned exam inside its window (enforced here, on the server's clock)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from flask import Blueprint, Response, abort, redirect, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, TooManyRequests

from trainer.store import classes as store
from trainer.store import db
from trainer.store import exams as exam_store
from trainer.store.learners import new_id
from trainer.store.models import ClassExam, ExamAttempt, SchoolClass, now
from trainer.web.core import exports, identity, limits, public
from trainer.web.core.errors import handle_http, said
from trainer.web.core.inputs import ControlInField, cleaned_form
from trainer.web.core.render import render
from trainer.web.live.views import index_page as live_home

from .assigned import shown, zone
from .sitting import CLASS_SPOTS, Candidate, draw, grade, read_candidate, refusal, refused_candidate, template_of, templates
from .views import index_page, start_page

bp = Blueprint("classes", __name__)

RESULT_COLUMNS = (
    "class", "exam", "student", "attempt", "score", "questions", "percent", "pass_mark", "passed",
    "started_at", "finished_at", "closed_by", "verification_code", "candidate_name", "candidate_number", "revoked_at",
)
# the assign form's fields; review "" is the template's own setting
FORM_FIELDS = ("template", "opens", "closes", "tz", "review")


# ------------------------------------------------------------------ helpers


def _mine(class_id: str) -> SchoolClass:
    found = store.of_instructor(db(), class_id, identity.account().id)
    if found is None:
        abort(404, description=_("There is no class of yours at this address."))
    return found


def _my_assignment(assignment_id: str) -> ClassExam:
    found = store.assignment_of_instructor(db(), assignment_id, identity.account().id)
    if found is None:
        abort(404, description=_("There is no exam of your classes at this address."))
    return found


def invite_url(school_class: SchoolClass) -> str:
    return public.base_url() + url_for("classes.join_page", code=store.format_code(school_class.code))


# ------------------------------------------------------------------ instructor


@bp.errorhandler(ControlInField)
def unreadable(exc: ControlInField) -> Response:
    """A control character in a field: the instructor's form again, filled in without it, the field
    marked; nothing made or assigned. Anyone else (and any other form) gets the plain refusal."""
    user = identity.account()
    form = cleaned_form()
    if request.endpoint == "classes.start" and user is not None:
        try:
            assignment, template = _assigned(request.view_args["assignment_id"])
        except HTTPException as other:
            return handle_http(other)
        return _start_page(assignment, template, refused_candidate(form, exc))
    if user is None or not user.is_instructor:
        return handle_http(exc)
    try:
        if request.endpoint == "classes.create":
            return live_home(class_error=exc.message(), class_title=form.get("class_title", "")[:200])
        if request.endpoint == "classes.assign":
            school_class = _mine(request.view_args["class_id"])
            typed = {k: form.get(k, "")[:80] for k in FORM_FIELDS}
            field = exc.field if exc.field in typed else "template"
            return _class_page(school_class, form=typed, errors={field: exc.message()})
    except HTTPException as other:  # not this instructor's class: that is the answer
        return handle_http(other)
    return handle_http(exc)


@bp.post("/classroom/classes/new")
@identity.instructor_required
def create() -> Response:
    title = request.form.get("class_title", "")[:200]
    try:
        made = store.create(db(), instructor_id=identity.account().id, title=title)
    except store.ClassesError as exc:
        db().rollback()
        return live_home(class_error=said(exc), class_title=title)
    db().commit()
    return redirect(url_for("classes.show", class_id=made.id), code=303)


def _last_zone(school_class: SchoolClass) -> str:
    done = store.assignments(db(), school_class)
    return done[0].time_zone if done else ""


def _blank_window(zone_name: str) -> dict[str, str]:
    start = now().astimezone(zone(zone_name or "UTC")).replace(second=0, microsecond=0)
    return {
        "template": "",
        "review": exam_store.REVIEW_AFTER_CLOSE,
        "opens": start.strftime("%Y-%m-%dT%H:%M"),
        "closes": (start + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M"),
        "tz": zone_name,
    }


def _assignable(school_class: SchoolClass) -> list[exam_store.ExamTemplate]:
    """The catalogue's exams, and this class's shared spots when it has some (never another class's)."""
    mine = template_of(CLASS_SPOTS + school_class.id)
    return [*templates().values(), *([mine] if mine is not None else [])]


def _class_page(school_class: SchoolClass, *, form: dict[str, str] | None = None, errors: dict[str, str] | None = None,
                status: int = 200) -> Response:
    exam_store.close_expired(db(), grade)
    db().commit()
    listed = []
    for a in store.assignments(db(), school_class):
        template = template_of(a.template)
        listed.append({
            "a": a,
            "title": _(template.title) if template else a.template,
            "state": store.window_state(a),
            "opens": shown(a.opens_at, a.time_zone),
            "closes": shown(a.closes_at, a.time_zone),
            "sat": len({e.account_id for e, _who in store.attempts(db(), a)}),
        })
    return render(
        "classroom/class.html",
        status=status,
        sc=school_class,
        code=store.format_code(school_class.code),
        invite=invite_url(school_class),
        members=store.members(db(), school_class),
        assignments=listed,
        templates=_assignable(school_class),
        form=form or _blank_window(_last_zone(school_class)),
        errors=errors or {},
    )


@bp.get("/classroom/classes/<class_id>/")
@identity.instructor_required
def show(class_id: str) -> Response:
    return _class_page(_mine(class_id))


def _local(raw: str, zone: ZoneInfo) -> datetime | None:
    """A ``datetime-local`` value (2026-12-01T14:00) in ``zone``, as an aware datetime."""
    try:
        typed = datetime.fromisoformat(raw.strip())
    except ValueError:
        return None
    if typed.tzinfo is not None:
        return None
    return typed.replace(tzinfo=zone)


def _storable(at: datetime) -> bool:
    """The time is kept in UTC: one that its zone's offset takes past year 1 or 9999 cannot be."""
    try:
        at.astimezone(UTC)
    except OverflowError:
        return False
    return True


@bp.post("/classroom/classes/<class_id>/assign")
@identity.instructor_required
def assign(class_id: str) -> Response:
    school_class = _mine(class_id)
    form = {k: request.form.get(k, "")[:80] for k in FORM_FIELDS}
    form["tz"] = form["tz"].strip() or "UTC"
    errors: dict[str, str] = {}
    if form["template"] not in {t.slug for t in _assignable(school_class)}:
        errors["template"] = _("Choose an exam.")
    if form["review"] and form["review"] not in exam_store.REVIEW_OPTIONS:
        errors["review"] = _("Choose when the review shows the answers.")
    zone = None
    if form["tz"] not in available_timezones() and form["tz"] != "UTC":
        errors["tz"] = _("Unknown time zone: give a name such as %(a)s or %(b)s.", a="Asia/Taipei", b="Europe/London")
    else:
        zone = ZoneInfo(form["tz"])
    opens = _local(form["opens"], zone) if zone else None
    closes = _local(form["closes"], zone) if zone else None
    if zone and opens is None:
        errors["opens"] = _("Give the opening date and time, for example 2026-12-01 14:00.")
    if zone and closes is None:
        errors["closes"] = _("Give the closing date and time, for example 2026-12-08 14:00.")
    for name, at in (("opens", opens), ("closes", closes)):
        if at is not None and not _storable(at):
            errors[name] = _("Give a date after the year 1 and before the year 9999.")
    if not errors:
        try:
            store.assign(db(), school_class, template=form["template"], opens_at=opens, closes_at=closes,
                         time_zone=form["tz"], review=form["review"] or None)
        except store.ClassesError as exc:
            db().rollback()
            errors["closes"] = said(exc)
    if errors:
        return _class_page(school_class, form=form, errors=errors)
    db().commit()
    return redirect(url_for("classes.show", class_id=school_class.id), code=303)


def result_rows(assignment: ClassExam) -> list[dict[str, Any]]:
    """Each attempt sat for the assigned exam, and each member who has not started it."""
    school_class = db().get(SchoolClass, assignment.class_id)
    template = template_of(assignment.template)
    seen = set()
    rows = []
    for exam, who in store.attempts(db(), assignment):
        seen.add(who.id)
        count = len(exam.questions)
        rows.append({
            "who": who, "exam": exam, "count": count,
            "percent": exam_store.percent(exam.score or 0, count) if exam.finished_at else None,
        })
    for who in store.members(db(), school_class):
        if who.id not in seen:
            rows.append({"who": who, "exam": None, "count": template.count if template else 0, "percent": None})
    rows.sort(key=lambda r: (r["who"].name, r["who"].id, r["exam"].attempt_number if r["exam"] else 0))
    return rows


@bp.get("/classroom/exams/<assignment_id>/")
@identity.instructor_required
def results(assignment_id: str) -> Response:
    assignment = _my_assignment(assignment_id)
    exam_store.close_expired(db(), grade)
    db().commit()
    template = template_of(assignment.template)
    return render(
        "classroom/class_exam.html",
        a=assignment,
        sc=db().get(SchoolClass, assignment.class_id),
        title=_(template.title) if template else assignment.template,
        state=store.window_state(assignment),
        rows=result_rows(assignment),
        shown=lambda at: shown(at, assignment.time_zone),
    )


@bp.get("/classroom/exams/<assignment_id>/results.<fmt>")
@identity.instructor_required
def export(assignment_id: str, fmt: str) -> Response:
    assignment = _my_assignment(assignment_id)
    if fmt not in exports.FORMATS:
        abort(404)
    exam_store.close_expired(db(), grade)
    db().commit()
    sc = db().get(SchoolClass, assignment.class_id)
    template = template_of(assignment.template)
    tz = zone(assignment.time_zone)
    title = _(template.title) if template else assignment.template

    def local(at: datetime | None) -> Any:
        return at.astimezone(tz) if at is not None else None

    table = []
    for r in result_rows(assignment):
        e = r["exam"]
        table.append([
            sc.title, title, r["who"].name,
            e.attempt_number if e else None,
            e.score if e and e.finished_at else None,
            r["count"],
            r["percent"],
            e.pass_mark if e else (template.pass_mark if template else None),
            (bool(e.passed) if e and e.finished_at else None),
            local(e.started_at) if e else None,
            local(e.finished_at) if e else None,
            e.closed_by if e else None,
            e.verify_code if e else None,
            e.name if e else None,
            e.candidate_number if e else None,
            local(e.revoked_at) if e else None,
        ])
    return exports.table(RESULT_COLUMNS, table, filename=f"class-{sc.code}-{assignment.template}-results", fmt=fmt,
                         sheet="results")


# ------------------------------------------------------------------ students


def _count_wrong_code() -> None:
    """A wrong invite code counts against the address, as a wrong live-session code does; over the
    limit wrong codes get 429. A right code always works: only wrong ones are counted or refused."""
    failures = limits.current().join_address
    if (wait := failures.over(limits.address())) is not None:
        raise TooManyRequests(description=limits.too_many_codes(), retry_after=wait)
    failures.failed()


@bp.get("/classes/join/<code>")
def join_page(code: str) -> Response:
    found = store.by_code(db(), code)
    if found is None:
        _count_wrong_code()
    return render(
        "classroom/class_join.html",
        status=200 if found is not None else 404,
        sc=found,
        code=store.format_code(store.normalize_code(code))[:9],
        user=identity.account(),
        member=found is not None and identity.account() is not None
        and store.is_member(db(), found.id, identity.account().id),
    )


@bp.post("/classes/join/<code>")
@identity.login_required
def join(code: str) -> Response:
    found = store.by_code(db(), code)
    if found is None:
        _count_wrong_code()
        abort(404, description=_("There is no class with this invite code. Check it with your instructor."))
    store.join(db(), found, identity.account().id)
    db().commit()
    return redirect(url_for("exams.index", joined=found.id), code=303)


def _assigned(assignment_id: str) -> tuple[ClassExam, exam_store.ExamTemplate]:
    assignment = store.for_member(db(), assignment_id, identity.account().id)
    if assignment is None:
        abort(404, description=_("This exam is not assigned to a class of yours."))
    template = template_of(assignment.template)
    if template is None:
        abort(404, description=_("There is no such exam."))
    return assignment, template


def _start_page(assignment: ClassExam, template: exam_store.ExamTemplate, candidate: Candidate | None = None) -> Response:
    return start_page(template, action=url_for("classes.start", assignment_id=assignment.id), candidate=candidate,
                      assignment=assignment)


@bp.get("/exams/assigned/<assignment_id>/start")
@identity.login_required
def start_form(assignment_id: str) -> Response:
    assignment, template = _assigned(assignment_id)
    running = exam_store.open_attempt(db(), template, identity.account().id, assignment_id=assignment.id)
    if running is not None:
        return redirect(url_for("exams.question", exam_id=running.id, number=1))
    try:
        store.check_window(assignment)
    except store.ClassesError as exc:
        return index_page(error=said(exc), error_slug="assigned-" + assignment.id)
    return _start_page(assignment, template)


@bp.post("/exams/assigned/<assignment_id>/start")
@identity.login_required
def start(assignment_id: str) -> Response:
    user = identity.account()
    assignment, template = _assigned(assignment_id)
    at = now()
    try:
        store.check_window(assignment, at)
    except store.ClassesError as exc:
        return index_page(error=said(exc), error_slug="assigned-" + assignment.id)
    running = exam_store.open_attempt(db(), template, user.id, at, assignment_id=assignment.id)
    if running is not None:
        return redirect(url_for("exams.question", exam_id=running.id, number=1), code=303)
    candidate = read_candidate(request.form)
    if not candidate.asked or candidate.errors:
        return _start_page(assignment, template, candidate if candidate.asked else None)
    exam_id = new_id()
    try:
        exam = exam_store.start(
            db(), template, exam_id=exam_id, learner_id=identity.learner_id(create=True), account_id=user.id,
            name=candidate.name, candidate_number=candidate.number, refs=draw(template, exam_id), at=at,
            assignment_id=assignment.id, closes_at=assignment.closes_at,
        )
    except exam_store.RetakeRefused as refused:
        db().rollback()
        return index_page(error=refusal(refused), error_slug="assigned-" + assignment.id)
    db().commit()
    return redirect(url_for("exams.question", exam_id=exam.id, number=1), code=303)


# ------------------------------------------------------------------ revoking a result


def _supervised(exam_id: str) -> ExamAttempt:
    """An attempt at an exam this instructor assigned; anyone else's is not found, as a class of theirs is."""
    found = store.supervised_attempt(db(), exam_id, identity.account().id)
    if found is None:
        abort(404, description=_("There is no result of your classes at this address."))
    return found


def _revoke_page(exam: ExamAttempt, *, error: str | None = None) -> Response:
    assignment = db().get(ClassExam, exam.assignment_id)
    template = template_of(assignment.template)
    return render(
        "classroom/revoke.html",
        exam=exam,
        a=assignment,
        sc=db().get(SchoolClass, assignment.class_id),
        title=_(template.title) if template else assignment.template,
        percent=exam_store.percent(exam.score or 0, len(exam.questions)),
        shown=lambda at: shown(at, assignment.time_zone),
        code=exam.verify_code or "",
        error=error,
    )


@bp.get("/classroom/results/<exam_id>/revoke")
@identity.instructor_required
def revoke_form(exam_id: str) -> Response:
    return _revoke_page(_supervised(exam_id))


@bp.post("/classroom/results/<exam_id>/revoke")
@identity.instructor_required
def revoke(exam_id: str) -> Response:
    """Withdraw a result sat in one of the instructor's classes: /verify says revoked, and when."""
    exam = _supervised(exam_id)
    exam_store.close_if_due(db(), exam, grade)
    if exam.finished_at is None:
        db().commit()
        return _revoke_page(exam, error=_("This attempt is still running: a result can be revoked once it is graded."))
    exam_store.revoke(db(), exam, by=identity.account().id)
    db().commit()
    return redirect(url_for("classes.results", assignment_id=exam.assignment_id, _anchor="results"), code=303)
