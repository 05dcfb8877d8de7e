"""Classes of accounts and their assigned exams: the instructor's pages, joining by invite code,
and starting an assigned exam inside its window (enforced here, on the server's clock)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

import segno
from flask import Blueprint, Response, abort, redirect, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.exceptions import HTTPException, TooManyRequests

from trainer.store import classes as store
from trainer.store import db
from trainer.store import exams as exam_store
from trainer.store.learners import clean_name, new_id
from trainer.store.models import Account, ClassExam, ExamAttempt, SchoolClass, now
from trainer.web.core import exports, identity, limits, public
from trainer.web.core.errors import handle_http, said
from trainer.web.core.inputs import ControlInField, cleaned_form
from trainer.web.core.render import render
from trainer.web.live.views import index_page as live_home

from .assigned import shown, zone
from .sitting import CLASS_SPOTS, Candidate, draw, grade, read_candidate, refusal, refused_candidate, template_of, templates
from .views import graded, index_page, start_page

bp = Blueprint("classes", __name__)

RESULT_COLUMNS = (
    "class", "exam", "student", "student_number", "attempt", "score", "questions", "percent", "pass_mark", "passed",
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
    if request.endpoint == "classes.join" and user is not None:
        code = request.view_args["code"]
        found = store.by_code(db(), code)
        if found is not None:
            return _join_page(found, code, number=form.get("student_number", "")[:300], error=exc.message())
    if user is None:
        return handle_http(exc)
    try:
        if request.endpoint == "classes.edit":
            typed = {k: form.get(k, "")[:80] for k in FORM_FIELDS}
            field = exc.field if exc.field in typed else "template"
            return _edit_page(_my_assignment(request.view_args["assignment_id"]), form=typed,
                              errors={field: exc.message()})
        if request.endpoint == "classes.set_terms":
            assignment = _my_assignment(request.view_args["assignment_id"])
            who = _member_of(assignment, request.view_args["account_id"])
            typed = {k: form.get(k, "")[:80] for k in ("extra_minutes", "late_closes")}
            field = exc.field if exc.field in typed else "extra_minutes"
            return _terms_page(assignment, who, form=typed, errors={field: exc.message()})
    except HTTPException as other:
        return handle_http(other)
    if not user.is_instructor:
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
                status: int = 200, removed: bool = False) -> Response:
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
        invite_qr=Markup(segno.make(invite_url(school_class), error="m").svg_inline(scale=4, dark="#000", light="#fff",
                                                                                      omitsize=True)),
        members=store.members(db(), school_class),
        numbers=store.numbers(db(), school_class),
        assignments=listed,
        templates=_assignable(school_class),
        form=form or _blank_window(_last_zone(school_class)),
        errors=errors or {},
        removed=removed,
    )


@bp.get("/classroom/classes/<class_id>/")
@identity.instructor_required
def show(class_id: str) -> Response:
    return _class_page(_mine(class_id), removed=request.args.get("removed") == "1")


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


def _read_window(school_class: SchoolClass) -> tuple[dict[str, str], dict[str, str], datetime | None, datetime | None]:
    """The assign (or edit) form as typed, what is wrong with it by field, and its window in UTC."""
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
    return form, errors, opens, closes


@bp.post("/classroom/classes/<class_id>/assign")
@identity.instructor_required
def assign(class_id: str) -> Response:
    school_class = _mine(class_id)
    form, errors, opens, closes = _read_window(school_class)
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


# ------------------------------------------------------------------ managing a class and its exams
#
# These answer 404 to anyone but the class's instructor, a student included: they are signed-in
# pages (login_required), and _mine / _my_assignment find nothing of anyone else's.


@bp.post("/classroom/classes/<class_id>/settings")
@identity.login_required
def settings(class_id: str) -> Response:
    school_class = _mine(class_id)
    school_class.ask_number = request.form.get("ask_number") == "1"
    db().commit()
    return redirect(url_for("classes.show", class_id=school_class.id, _anchor="members-h"), code=303)


@bp.post("/classroom/classes/<class_id>/members/<int:account_id>/remove")
@identity.login_required
def remove_member(class_id: str, account_id: int) -> Response:
    school_class = _mine(class_id)
    if not _account_number(account_id) or store.member(db(), school_class, account_id) is None:
        abort(404, description=_("There is no such member of this class."))
    store.remove_member(db(), school_class, account_id)
    db().commit()
    return redirect(url_for("classes.show", class_id=school_class.id, removed=1, _anchor="members-h"), code=303)


def _window_form(assignment: ClassExam) -> dict[str, str]:
    tz = zone(assignment.time_zone)
    return {
        "template": assignment.template,
        "review": assignment.review or "",
        "opens": assignment.opens_at.astimezone(tz).strftime("%Y-%m-%dT%H:%M"),
        "closes": assignment.closes_at.astimezone(tz).strftime("%Y-%m-%dT%H:%M"),
        "tz": assignment.time_zone,
    }


def _edit_page(assignment: ClassExam, *, form: dict[str, str] | None = None, errors: dict[str, str] | None = None,
               error: str | None = None) -> Response:
    template = template_of(assignment.template)
    school_class = db().get(SchoolClass, assignment.class_id)
    return render(
        "classroom/class_exam_edit.html",
        a=assignment,
        sc=school_class,
        title=_(template.title) if template else assignment.template,
        templates=_assignable(school_class),
        form=form or _window_form(assignment),
        errors=errors or {},
        error=error,
        started=store.started_count(db(), assignment),
    )


@bp.get("/classroom/exams/<assignment_id>/edit")
@identity.login_required
def edit_form(assignment_id: str) -> Response:
    return _edit_page(_my_assignment(assignment_id))


@bp.post("/classroom/exams/<assignment_id>/edit")
@identity.login_required
def edit(assignment_id: str) -> Response:
    assignment = _my_assignment(assignment_id)
    form, errors, opens, closes = _read_window(db().get(SchoolClass, assignment.class_id))
    if not errors:
        try:
            store.update_assignment(db(), assignment, template=form["template"], opens_at=opens, closes_at=closes,
                                    time_zone=form["tz"], review=form["review"] or None)
        except store.ClassesError as exc:
            db().rollback()
            errors["template" if form["template"] != assignment.template else "closes"] = said(exc)
    if errors:
        return _edit_page(assignment, form=form, errors=errors)
    db().commit()
    return redirect(url_for("classes.results", assignment_id=assignment.id), code=303)


@bp.post("/classroom/exams/<assignment_id>/extend")
@identity.login_required
def extend(assignment_id: str) -> Response:
    """The close a day later (the results page's one-button extension); running attempts keep going."""
    assignment = _my_assignment(assignment_id)
    closes = max(assignment.closes_at, now()) + timedelta(days=1)
    store.update_assignment(db(), assignment, template=assignment.template, opens_at=assignment.opens_at,
                            closes_at=closes, time_zone=assignment.time_zone, review=assignment.review)
    db().commit()
    return redirect(url_for("classes.results", assignment_id=assignment.id), code=303)


@bp.post("/classroom/exams/<assignment_id>/delete")
@identity.login_required
def delete(assignment_id: str) -> Response:
    assignment = _my_assignment(assignment_id)
    class_id = assignment.class_id
    try:
        store.delete_assignment(db(), assignment)
    except store.ClassesError as exc:
        db().rollback()
        return _edit_page(assignment, error=said(exc))
    db().commit()
    return redirect(url_for("classes.show", class_id=class_id, _anchor="assigned-h"), code=303)


def _account_number(account_id: int) -> bool:
    """An id the accounts.id column can hold (32 bits on PostgreSQL; SQLite's driver fails past 2⁶³)."""
    return 0 < account_id < 2**31


def _member_of(assignment: ClassExam, account_id: int) -> Any:
    who = store.member(db(), db().get(SchoolClass, assignment.class_id), account_id) if _account_number(account_id) else None
    if who is None:
        abort(404, description=_("There is no such member of this class."))
    return who


def _terms_page(assignment: ClassExam, who: Any, *, form: dict[str, str] | None = None,
                errors: dict[str, str] | None = None) -> Response:
    template = template_of(assignment.template)
    terms = store.allowance(db(), assignment, who.id)
    if form is None:
        late = terms.closes_at if terms is not None else None
        form = {
            "extra_minutes": str(terms.extra_minutes) if terms is not None else "0",
            "late_closes": late.astimezone(zone(assignment.time_zone)).strftime("%Y-%m-%dT%H:%M") if late else "",
        }
    mine = [e for e, person in store.attempts(db(), assignment) if person.id == who.id]
    return render(
        "classroom/class_exam_student.html",
        a=assignment,
        sc=db().get(SchoolClass, assignment.class_id),
        title=_(template.title) if template else assignment.template,
        minutes=template.minutes if template else 0,
        who=who,
        attempts=mine,
        percent=exam_store.exact_percent,
        shown=lambda at: shown(at, assignment.time_zone),
        form=form,
        errors=errors or {},
        saved=not errors and request.args.get("saved") == "1",
    )


@bp.get("/classroom/exams/<assignment_id>/students/<int:account_id>")
@identity.login_required
def student(assignment_id: str, account_id: int) -> Response:
    assignment = _my_assignment(assignment_id)
    return _terms_page(assignment, _member_of(assignment, account_id))


@bp.post("/classroom/exams/<assignment_id>/students/<int:account_id>")
@identity.login_required
def set_terms(assignment_id: str, account_id: int) -> Response:
    """One student's extra time and late window for this assigned exam."""
    assignment = _my_assignment(assignment_id)
    who = _member_of(assignment, account_id)
    form = {k: request.form.get(k, "").strip()[:80] for k in ("extra_minutes", "late_closes")}
    errors: dict[str, str] = {}
    extra = form["extra_minutes"] or "0"
    if not (extra.isascii() and extra.isdigit()) or int(extra) > store.MAX_EXTRA_MINUTES:
        errors["extra_minutes"] = _("Give the extra time in whole minutes, from 0 to %(n)s.", n=store.MAX_EXTRA_MINUTES)
    late = None
    if form["late_closes"]:
        late = _local(form["late_closes"], zone(assignment.time_zone))
        if late is None or not _storable(late):
            errors["late_closes"] = _("Give the closing date and time, for example 2026-12-08 14:00.")
            late = None
    if not errors:
        template = template_of(assignment.template)
        try:
            store.set_allowance(db(), assignment, who.id, extra_minutes=int(extra), closes_at=late,
                                minutes=template.minutes if template else 0)
        except store.ClassesError as exc:
            db().rollback()
            errors["late_closes"] = said(exc)
    if errors:
        return _terms_page(assignment, who, form=form, errors=errors)
    db().commit()
    return redirect(url_for("classes.student", assignment_id=assignment.id, account_id=who.id, saved=1), code=303)


def result_rows(assignment: ClassExam) -> list[dict[str, Any]]:
    """Each attempt sat for the assigned exam, and each member who has not started it. ``n`` counts
    a student's attempts at this assignment (their self-study attempts are not among them)."""
    school_class = db().get(SchoolClass, assignment.class_id)
    template = template_of(assignment.template)
    numbers = store.numbers(db(), school_class)
    terms = store.allowances(db(), assignment)
    seen: dict[int, int] = {}
    rows = []
    for exam, who in store.attempts(db(), assignment):
        seen[who.id] = seen.get(who.id, 0) + 1
        count = len(exam.questions)
        rows.append({
            "who": who, "exam": exam, "count": count, "n": seen[who.id], "number": numbers.get(who.id),
            "terms": terms.get(who.id),
            "percent": exam_store.exact_percent(exam.score or 0, count) if exam.finished_at else None,
        })
    for who in store.members(db(), school_class):
        if who.id not in seen:
            rows.append({"who": who, "exam": None, "count": template.count if template else 0, "n": None,
                         "number": numbers.get(who.id), "terms": terms.get(who.id), "percent": None})
    rows.sort(key=lambda r: (r["who"].name, r["who"].id, r["n"] or 0))
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


SUMMARY_COLUMNS = (
    "student", "student_number", "attempts", "score", "questions", "percent", "passed", "time_taken", "finished_at",
    "candidate_name", "extra_minutes", "late_close",
)


def _best(attempts: list[ExamAttempt]) -> ExamAttempt | None:
    """The attempt a gradebook counts: the highest score among those graded and not revoked (the
    earlier of two equal ones)."""
    graded_ = [e for e in attempts if e.finished_at is not None and e.revoked_at is None]
    return max(graded_, key=lambda e: (e.score or 0, -e.finished_at.timestamp()), default=None)


def _question_sheets(rows: list[dict[str, Any]]) -> list[exports.Sheet]:
    """A sheet per question number: each graded attempt's spot, whether it was all right, and the
    answer given in each column of the card; under the table, the share all right and how often
    each column was wrong. Every attempt draws its own spots, so a column is a label of the card."""
    by_position: dict[int, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    for r in rows:
        e = r["exam"]
        if e is None or e.finished_at is None:
            continue
        for q in graded(e)[0]:
            by_position.setdefault(q["number"], []).append((r, q))
    sheets = []
    for number in sorted(by_position):
        answered = by_position[number]
        labels: list[str] = []
        for _r, q in answered:
            labels += [x["label"] for x in q["rows"] if x["label"] not in labels]
        wrong = dict.fromkeys(labels, 0)
        table = []
        for r, q in answered:
            given = {x["label"]: x for x in q["rows"]}
            for label, x in given.items():
                wrong[label] += not x["right"]
            table.append([r["who"].name, r["number"], r["n"], r["exam"].questions[number - 1], q["right"],
                          *[given[label]["given"] if label in given else None for label in labels]])
        right = sum(1 for _r, q in answered if q["right"])
        sheets.append(exports.Sheet(
            title=f"Q{number}",
            columns=("student", "student_number", "attempt", "spot", "right", *labels),
            rows=table,
            footer=[["% right", None, None, None, exam_store.exact_percent(right, len(answered))],
                    ["times wrong", None, None, None, len(answered) - right, *[wrong[label] for label in labels]]],
        ))
    return sheets


@bp.get("/classroom/exams/<assignment_id>/results.<fmt>")
@identity.instructor_required
def export(assignment_id: str, fmt: str) -> Response:
    """The results as a gradebook (.xlsx: a summary row per student, a sheet per question, the raw
    rows) or as the raw rows alone (CSV)."""
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

    rows = result_rows(assignment)
    raw = []
    for r in rows:
        e = r["exam"]
        raw.append([
            sc.title, title, r["who"].name, r["number"],
            r["n"],
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
    summary = []
    people: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        people.setdefault(r["who"].id, []).append(r)
    for mine in people.values():
        first = mine[0]
        sat = [r["exam"] for r in mine if r["exam"] is not None]
        best = _best(sat)
        terms = first["terms"]
        summary.append([
            first["who"].name, first["number"], len(sat),
            best.score if best else None, len(best.questions) if best else first["count"],
            exam_store.exact_percent(best.score or 0, len(best.questions)) if best else None,
            bool(best.passed) if best else None,
            best.finished_at - best.started_at if best else None,
            local(best.finished_at) if best else None,
            best.name if best else None,
            terms.extra_minutes if terms else None,
            local(terms.closes_at) if terms else None,
        ])
    sheets = [
        exports.Sheet(title="summary", columns=SUMMARY_COLUMNS, rows=summary, percent=frozenset({"percent"})),
        *(_question_sheets(rows) if fmt == "xlsx" else []),
    ]
    return exports.book(
        sheets, raw=exports.Sheet(title="results", columns=RESULT_COLUMNS, rows=raw, percent=frozenset({"percent"})),
        filename=f"class-{sc.code}-{assignment.template}-results", fmt=fmt,
    )


# ------------------------------------------------------------------ students


def _count_wrong_code() -> None:
    """A wrong invite code counts against the address, as a wrong live-session code does; over the
    limit wrong codes get 429. A right code always works: only wrong ones are counted or refused."""
    failures = limits.current().join_address
    if (wait := failures.over(limits.address())) is not None:
        raise TooManyRequests(description=limits.too_many_codes(), retry_after=wait)
    failures.failed()


def _join_page(found: SchoolClass | None, code: str, *, number: str = "", error: str | None = None,
               joined: bool = False) -> Response:
    user = identity.account()
    return render(
        "classroom/class_join.html",
        status=200 if found is not None else 404,
        sc=found,
        code=store.format_code(store.normalize_code(code))[:9],
        user=user,
        member=found is not None and user is not None and store.is_member(db(), found.id, user.id),
        instructor=db().get(Account, found.instructor_id).name if found is not None else "",
        number=number,
        error=error,
        joined=joined,
        max_number=store.MAX_NUMBER,
    )


@bp.get("/classes/join/<code>")
def join_page(code: str) -> Response:
    found = store.by_code(db(), code)
    if found is None:
        _count_wrong_code()
    return _join_page(found, code, joined=request.args.get("joined") == "1")


@bp.post("/classes/join/<code>")
@identity.login_required
def join(code: str) -> Response:
    found = store.by_code(db(), code)
    if found is None:
        _count_wrong_code()
        abort(404, description=_("There is no class with this invite code. Check it with your instructor."))
    number = None
    if found.ask_number:
        number = clean_name(request.form.get("student_number", ""))
        if not number:
            return _join_page(found, code, error=_("Enter your student number: your instructor asks for it."))
        if len(number) > store.MAX_NUMBER:
            return _join_page(found, code, number=number[:300], error=_(
                "A student number can have up to %(n)s characters; this one has %(count)s.",
                n=store.MAX_NUMBER, count=len(number)))
    store.join(db(), found, identity.account().id, student_number=number)
    db().commit()
    # the confirmation: which class, whose
    return redirect(url_for("classes.join_page", code=store.format_code(found.code), joined=1), code=303)


def _assigned(assignment_id: str) -> tuple[ClassExam, exam_store.ExamTemplate]:
    assignment = store.for_member(db(), assignment_id, identity.account().id)
    if assignment is None:
        abort(404, description=_("This exam is not assigned to a class of yours."))
    template = template_of(assignment.template)
    if template is None:
        abort(404, description=_("There is no such exam."))
    return assignment, template


def _closes_for_me(assignment: ClassExam):
    return store.closes_for(assignment, store.allowance(db(), assignment, identity.account().id))


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
        store.check_window(assignment, closes_at=_closes_for_me(assignment))
    except store.ClassesError as exc:
        return index_page(error=said(exc), error_slug="assigned-" + assignment.id)
    return _start_page(assignment, template)


@bp.post("/exams/assigned/<assignment_id>/start")
@identity.login_required
def start(assignment_id: str) -> Response:
    user = identity.account()
    assignment, template = _assigned(assignment_id)
    at = now()
    terms = store.allowance(db(), assignment, user.id)
    closes = store.closes_for(assignment, terms)
    try:
        store.check_window(assignment, at, closes_at=closes)
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
            assignment_id=assignment.id, closes_at=closes, extra_minutes=terms.extra_minutes if terms else 0,
        )
    except exam_store.RetakeRefused as refused:
        db().rollback()
        return index_page(error=refusal(refused), error_slug="assigned-" + assignment.id)
    db().commit()
    return redirect(url_for("exams.question", exam_id=exam.id, number=1), code=303)


# ------------------------------------------------------------------ revoking a result


def _supervised(exam_id: str) -> ExamAttempt:
    """An attempt at an exam this instructor assigned; anyone else's is not found, as a class of theirs is."""
    user = identity.account()
    found = store.supervised_attempt(db(), exam_id, user.id) if user is not None else None
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


@bp.get("/classroom/results/<exam_id>/")
@identity.login_required
def attempt(exam_id: str) -> Response:
    """One student's attempt as its instructor sees it: the facts, then every question with the
    answers given and the right ones (the instructor sees them before the class's review opens)."""
    exam = _supervised(exam_id)
    exam_store.close_if_due(db(), exam, grade)
    db().commit()
    assignment = db().get(ClassExam, exam.assignment_id)
    template = template_of(assignment.template)
    review, breakdown = graded(exam) if exam.finished_at is not None else ([], [])
    return render(
        "classroom/attempt.html",
        exam=exam,
        a=assignment,
        sc=db().get(SchoolClass, assignment.class_id),
        who=db().get(Account, exam.account_id),
        title=_(template.title) if template else assignment.template,
        percent=exam_store.exact_percent(exam.score or 0, len(exam.questions)),
        count=len(exam.questions),
        shown=lambda at: shown(at, assignment.time_zone),
        review=review,
        breakdown=breakdown,
        answers_shown=True,
        answers_open_at=None,
        given_heading=_("The student's answer"),
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
