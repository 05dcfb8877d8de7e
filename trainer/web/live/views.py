"""Classroom drills: an instructor runs a session, students join with a code and a display name.

Everything lives in the database, so any app process serves any request:
students and the instructor's views poll (htmx) and see the same state.
A student's poll carries the version of what it shows, and gets 204 (htmx
swaps nothing) until the session moves on, so a half-typed answer is not
wiped every two seconds.
"""

from __future__ import annotations

import ipaddress
import random
import secrets
import threading
import uuid
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import segno
from cachetools import LRUCache, TTLCache
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from trainer import quick
from trainer.library import Entry
from trainer.quiz import Answer, read_answer
from trainer.quiz.model import FieldKind
from trainer.store import classes as class_store
from trainer.store import live as store
from trainer.store import db
from trainer.store.learners import clean_name
from trainer.store import spots as my_spots
from trainer.store.models import LiveSession, LiveStudent, now
from trainer.store.user_errors import N_
from trainer.web.core import exports, identity, limits, public
from trainer.web.core.csrf import CSRFError
from trainer.web.core.errors import handle_http, said
from trainer.web.core.inputs import ControlInField, cleaned_form
from trainer.web.core.libraries import library
from trainer.web.core.render import new_answer_id, render, wants_fragment
from trainer.web.core.spot_refs import (
    Typed,
    canonical,
    check,
    resolve,
    shown_of,
    typed_of,
)

from . import access, game
from . import feed as events

bp = Blueprint("live", __name__)

_REMOVED = N_("You were removed from this session: ask your instructor to let you back in.")
DEFAULT_COUNT = 10


# ------------------------------------------------------------------ helpers


def _question(cs: LiveSession, position: int) -> Entry:
    entry = resolve(cs.questions[position]) if 0 <= position < len(cs.questions) else None
    if entry is None:
        abort(404, description=_("This session has no such question."))
    return entry


def _base() -> str:
    return public.base_url()


def join_url(cs: LiveSession) -> str:
    return _base() + url_for("live.join_code", code=store.format_code(cs.code))


def _qr(url: str) -> Markup:
    # A viewBox and no fixed size, so the stylesheet sizes it: small on the control page, half a projector's height.
    return Markup(segno.make(url, error="m").svg_inline(scale=6, dark="#000", light="#fff", omitsize=True))


def _loopback(base: str) -> bool:
    host = urlsplit(base).hostname or ""
    return not current_app.config.get("PUBLIC_URL") and (host == "localhost" or _is_loopback(host))


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# ------------------------------------------------------------------ instructor


@bp.get("/classroom/")
@identity.instructor_required
def index() -> Response:
    return index_page()


def index_page(**extra: Any) -> Response:
    """The classroom home: quick starts, the new-session form, the classes, the sessions."""
    return render(
        "classroom/index.html",
        sessions=store.sessions_of(db(), identity.account().id),
        topics=list(library().topics.values()),
        form=_blank_form(),
        error=None,
        errors={},
        **{**_home_extras(), **extra},
    )


def _blank_form() -> dict:
    return {"title": "", "mode": "paced", "count": DEFAULT_COUNT, "minutes": 60, "ids": "", "topics": [],
            "level_from": 0, "level_to": 0, "style": "quick", "seconds": "", "anonymous": False, "ask_number": False,
            "keypad": False}


def _home_extras() -> dict[str, Any]:
    """What the classroom home shows beside the form: the quick starts, the classes with accounts."""
    lib = library()
    return {
        "levels": sorted({e.level for e in lib.entries.values() if e.level is not None}),
        "quick_count": DEFAULT_COUNT,  # never what a refused form carried
        # the classes of accounts this instructor teaches, and their own form
        "classes": class_store.classes_of(db(), identity.account().id),
        "class_error": None,
        "class_title": "",
    }


@bp.post("/classroom/new")
@identity.instructor_required
def create() -> Response:
    lib = library()
    form = _typed_session()
    error = None
    errors: dict[str, str] = {}  # field -> what is wrong with it, shown next to it
    ids = [_own_ref(line.strip()) for line in form["ids"].replace(",", "\n").splitlines() if line.strip()]
    if not ids and request.form.get("from") == "my-spots":
        # Nothing ticked on My spots: back to that list, saying so, the title and style kept.
        return redirect(url_for("authoring.index", none_ticked=1, title=form["title"], style=form["style"],
                                _anchor="notice"), code=303)
    unknown = [i for i in ids if _usable(i) is None]
    quick_style = form["style"] == "quick"
    seconds = _seconds(form["seconds"])
    if seconds is False:
        errors["seconds"] = _("A countdown is from %(low)s to %(high)s seconds, or none.", low=store.MIN_SECONDS,
                              high=store.MAX_SECONDS)
    if unknown:
        error = _("Not in the library: %(ids)s.", ids=", ".join(unknown[:5]))
    elif ids and quick_style and (no_quick := [i for i in ids if _ask_of(_usable(i)) is None]):
        error = _("These spots have no quick question: %(ids)s. Ask them with the full card.",
                  ids=", ".join(no_quick[:5]))
    elif ids:
        refs = ids
    else:
        count = _count(form["count"])
        if count is None:
            errors["count"] = _("Enter a whole number of questions from 1 to %(n)s.", n=store.MAX_QUESTIONS)
        low, high = form["level_from"] or 0, form["level_to"] or 99
        if low > high:
            errors["levels"] = _("Levels go from low to high: level %(low)s is above level %(high)s.", low=low,
                                 high=high)
        if not (form["topics"] or form["level_from"] or form["level_to"]):
            error = _("Choose topics, or list the spots to ask.")
        elif not errors:
            # A level range alone draws from every topic.
            refs = _draw(form["topics"] or list(lib.topics), count, levels=(low, high),
                         keep=(lambda e: _ask_of(e) is not None) if quick_style else None)
            if not refs:
                error = _("No spot of these topics is at levels %(low)s to %(high)s.", low=low, high=high)
    if error is None and not errors:
        deadline = now() + timedelta(minutes=max(1, form["minutes"])) if form["mode"] == "self" else None
        try:
            cs = store.create(
                db(),
                instructor_id=identity.account().id,
                title=form["title"],
                mode=form["mode"],
                refs=refs,
                deadline=deadline,
                style=form["style"],
                asks=[_ask_of(_usable(ref)) for ref in refs] if quick_style else None,
                seconds=seconds or None,
                anonymous=form["anonymous"],
                ask_number=form["ask_number"],
                keypad=form["keypad"],
            )
        except store.ClassError as exc:
            db().rollback()
            error = said(exc)
        else:
            db().commit()
            # fewer spots matched than were asked for: the control page says how many the session has
            short = {"asked": count} if not ids and len(refs) < count else {}
            return redirect(url_for("live.control", session_id=cs.id, **short), code=303)
    return _new_session_page(form, error, errors=errors)


def _own_ref(ref: str) -> str:
    """An instructor's spot named without its version (``my:<id>``) is its latest version."""
    if ref.startswith(my_spots.PREFIX) and ref.count(":") == 1:
        spot = my_spots.of_owner(db(), ref[len(my_spots.PREFIX):], identity.account().id)
        if spot is not None and spot.archived_at is None:
            return my_spots.ref(spot.id, spot.version)
    return ref


def _usable(ref: str) -> Entry | None:
    """A spot this instructor may put in a session: the library's, or one of their own spots."""
    if not ref.startswith(my_spots.PREFIX):
        return library().get(ref)
    parts = my_spots.ref_parts(ref)
    if parts is None or my_spots.owner_of(db(), parts[0]) != identity.account().id:
        return None
    return resolve(ref)


def _ask_of(entry: Entry | None) -> tuple[str, int] | None:
    """What a quick question asks of this spot (kind, pot), chosen by the engine once per spot."""
    return None if entry is None else quick.choose(entry.scenario, entry.topics, seed=entry.id)


def _seconds(raw: str) -> int | None | bool:
    """A countdown in seconds, None for none (blank or 0), False when it is no such countdown."""
    if not raw or raw == "0":
        return None
    value = _int(raw, -1)
    return value if store.MIN_SECONDS <= value <= store.MAX_SECONDS else False


def _count(raw: str) -> int | None:
    """How many questions to draw (the default when left blank), or None unless it is a whole number a
    session can have."""
    count = _int(raw, 0) if raw else DEFAULT_COUNT
    return count if 1 <= count <= store.MAX_QUESTIONS else None


def _typed_session(form=None) -> dict:
    """The new-session form as the instructor filled it in."""
    form = request.form if form is None else form
    return {
        "title": form.get("title", "")[:120],
        "mode": form.get("mode", "paced"),
        "count": form.get("count", "").strip()[:20],  # as typed, so a refused one comes back as it was
        "minutes": _int(form.get("minutes"), 60),
        "ids": "\n".join(form.getlist("ids"))[:5000],  # a list typed in one box, or spots ticked in My spots
        "topics": [t for t in form.getlist("topics") if t in library().topics],
        "level_from": _int(form.get("level_from"), 0),
        "level_to": _int(form.get("level_to"), 0),
        # A form without the choice (one from before quick questions, a script) gets the full card; the
        # page's form has quick questions ticked. A self-paced assignment is always the full card.
        "style": "quick" if form.get("style") == "quick" and form.get("mode", "paced") == "paced" else "card",
        "seconds": form.get("seconds", "").strip()[:6],
        "anonymous": form.get("anonymous") == "1",
        "ask_number": form.get("ask_number") == "1",
        "keypad": form.get("keypad") == "1",
    }


def _new_session_page(form: dict, error: str | None, status: int = 200, errors: dict | None = None) -> Response:
    return render(
        "classroom/index.html",
        status=status,
        sessions=store.sessions_of(db(), identity.account().id),
        topics=list(library().topics.values()),
        form=form,
        error=error,
        errors=errors or {},
        **_home_extras(),
    )


@bp.errorhandler(CSRFError)
def expired(exc: CSRFError) -> Response:
    """An expired new-session or join form comes back filled in, not as a bare error page."""
    if request.endpoint == "live.join":
        notice = _("This form had expired, so you have not joined yet. Your name is kept: join again.")
        return render(
            "classroom/join.html", status=400, code=request.form.get("code", "")[:40],
            name=request.form.get("name", "")[:100], error=notice,
        )
    user = identity.account()
    if request.endpoint != "live.create" or user is None or not user.is_instructor:
        return handle_http(exc)
    notice = _("This form had expired, so no session was made. What you typed is kept: create it again.")
    return _new_session_page(_typed_session(), notice, status=400)


@bp.errorhandler(ControlInField)
def unreadable(exc: ControlInField) -> Response:
    """A control character in a field: the form again, filled in without it; nothing made, joined or stored."""
    try:
        return _refused_form(exc)
    except HTTPException as other:  # no such session, say: that is the answer
        return handle_http(other)


def _refused_form(exc: ControlInField) -> Response:
    form = cleaned_form()
    if request.endpoint == "live.join":
        return render(
            "classroom/join.html", code=form.get("code", "")[:40], name=form.get("name", "")[:100], error=exc.message(),
            ask_number="student_number" in form, number=form.get("student_number", "")[:100],
        )
    user = identity.account()
    if request.endpoint == "live.create" and user is not None and user.is_instructor:
        return _new_session_page(_typed_session(form), exc.message())
    if request.endpoint == "live.answer":
        cs, who = access.student(request.view_args["code"])
        position = _int(form.get("position"), -1)
        if not 0 <= position < len(cs.questions):
            abort(404)
        if cs.style == "quick":
            return _answer_response(cs, who, position, {"notice": exc.message()})
        entry = _question(cs, position)
        read = check(entry, typed_of(entry, form))[0]
        shown = Answer(raw=read.raw, values={}, errors={exc.field: exc.message()} if exc.field in read.raw else {})
        extra = {"answer": shown, "answer_id": form.get("answer_id", ""), "entry": entry, "position": position,
                 "notice": exc.message()}
        return _answer_response(cs, who, position, extra)
    return handle_http(exc)


def _int(raw: str | None, default: int) -> int:
    raw = (raw or "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else default


def _draw(topics: list[str], count: int, *, levels: tuple[int, int] = (0, 99), keep=None) -> list[str]:
    """Spots from the chosen topics at levels ``levels`` (inclusive), taking turns between topics,
    easiest first within each (only those ``keep`` keeps, when given)."""
    lib = library()
    rng = random.Random(secrets.randbits(32))
    low, high = levels
    pools = []
    for slug in topics:
        entries = [e for e in lib.topics[slug].tagged if low <= (e.level or 0) <= high and (keep is None or keep(e))]
        rng.shuffle(entries)
        entries.sort(key=lambda e: e.level or 0)
        pools.append(entries)
    chosen: list[str] = []
    while len(chosen) < count and any(pools):
        for pool in pools:
            while pool and pool[0].id in chosen:
                pool.pop(0)
            if pool and len(chosen) < count:
                chosen.append(pool.pop(0).id)
    return chosen


def _live_context(cs: LiveSession) -> dict[str, Any]:
    context: dict[str, Any] = {
        "cs": cs,
        "students": store.students(db(), cs),
        "removed": [p for p in store.students(db(), cs, removed=True) if p.removed],
        "count": len(cs.questions),
    }
    if cs.mode == "paced" and cs.current >= 0:
        entry = _question(cs, cs.current)
        tally = store.tally(db(), cs, cs.current)
        if cs.style == "quick":
            q = game.question(cs, cs.current, entry)
            context.update(entry=entry, tally=tally, columns=[], quick=q, prompt=game.prompt(q),
                           bars=game.bars(q, tally, typed=game.keypad(cs, q)), percent=game.percent_right(tally),
                           worked=game.explained(q) if cs.revealed else None)
        else:
            context.update(entry=entry, tally=tally, columns=_columns(entry, tally, canonical(cs.questions[cs.current])))
    else:
        context.update(entry=None, tally=None, columns=[], progress=store.answered_counts(db(), cs))
    context.setdefault("quick", None)
    context.update(_clock(cs))
    if cs.style == "quick" and (cs.revealed or cs.state == "ended"):
        context["board"] = game.board(_standings(cs))
    return context


# The leaderboard after a reveal: a whole class fetches its stage at once, and no answer can change it
# until the next question (a removed student can: it is kept a few seconds only).
_STANDINGS: TTLCache = TTLCache(maxsize=256, ttl=5)
_STANDINGS_LOCK = threading.Lock()


def _standings(cs: LiveSession) -> list[store.Standing]:
    key = (cs.id, _session_version(cs))
    with _STANDINGS_LOCK:
        kept = _STANDINGS.get(key)
    if kept is None:
        kept = store.standings(db(), cs)
        if cs.revealed or cs.state == "ended":
            with _STANDINGS_LOCK:
                _STANDINGS[key] = kept
    return kept


def _clock(cs: LiveSession) -> dict[str, Any]:
    """The countdown of the question shown: seconds left (None: no countdown), and whether time is up."""
    closes = store.closes_at(cs) if cs.state == "live" and not cs.revealed else None
    if closes is None:
        return {"seconds_left": None, "time_up": False}
    left = max(0, int((closes - now()).total_seconds() + 0.999))
    return {"seconds_left": left, "time_up": left == 0}


# What a stored answer means, field by field: (spot reference, what was typed) -> ((field, value), ...).
# The same few answers come from the whole class, and the projector asks again every couple of seconds.
_VALUES: LRUCache = LRUCache(maxsize=20_000)
_VALUES_LOCK = threading.Lock()  # cachetools' caches are not thread-safe; gthread workers share them


def _values_of(entry: Entry, ref: str, typed: dict[str, list[str]]) -> dict[str, Any]:
    """Each field's value in a stored answer, read from what was typed (amounts as digits, choices by
    their keys), so it does not depend on the language the student answered in."""
    key = (ref, tuple(sorted((name, tuple(sent)) for name, sent in typed.items())))
    with _VALUES_LOCK:
        values = _VALUES.get(key)
    if values is None:
        values = tuple(read_answer(entry.quiz, Typed(typed)).values.items())
        with _VALUES_LOCK:
            _VALUES[key] = values
    return dict(values)


def _columns(entry: Entry, tally: store.Tally, ref: str) -> list[dict[str, Any]]:
    """One block per field of the card: the answers given, most common first, the right one marked.

    Answers are counted by value, so a phone in English and one in Chinese that answered the same
    are one row, shown in the viewer's language and marked right by the field itself."""
    fields = list(entry.quiz.fields())
    counts: dict[str, Counter] = {field.name: Counter() for field in fields}
    for typed, shown in tally.answers:
        values = _values_of(entry, ref, typed)
        for field in fields:
            if field.name in values:
                counts[field.name][(True, values[field.name])] += 1
            elif field.name in shown:  # not readable any more (should not happen): as it read to its student
                counts[field.name][(False, shown[field.name])] += 1
    columns = []
    for field in fields:
        correct = field.show(field.expected)
        # any five cards of the same worth are right, as the grading says
        right_texts = {correct} | {field.show(value) for value in field.accepts}
        rows: dict[str, dict[str, Any]] = {}
        for (read, value), n in counts[field.name].most_common():
            text = field.show(value) if read else value
            row = rows.setdefault(text, {"value": text, "count": 0, "right": False})
            row["count"] += n
            row["right"] = row["right"] or (field.right(value) if read else text in right_texts)
        columns.append(
            {
                "label": field.label,
                "correct": correct,
                "rows": sorted(rows.values(), key=lambda r: -r["count"]),
            }
        )
    return columns


@bp.get("/classroom/<session_id>/")
@identity.instructor_required
def control(session_id: str) -> Response:
    cs = access.mine(session_id)
    url = join_url(cs)
    base = _base()
    return render(
        "classroom/control.html",
        "classroom/partials/_live.html",
        join=url,
        join_page=base + url_for("live.join"),
        qr=_qr(url),
        code=store.format_code(cs.code),
        loopback=_loopback(base),
        other_host=None if public.trusted() else request.host[:80],
        asked=_int(request.args.get("asked"), 0),
        **_live_context(cs),
    )


@bp.get("/classroom/<session_id>/live")
@identity.instructor_required
def live(session_id: str) -> Response:
    cs = access.mine(session_id)
    return render("classroom/partials/_live.html", **_live_context(cs))


@bp.get("/classroom/<session_id>/end")
@identity.instructor_required
def confirm_end(session_id: str) -> Response:
    """Ending is asked once more: the button sits beside Next and Reveal, and it ends the class."""
    cs = access.mine(session_id)
    return render("classroom/end.html", cs=cs, students=store.students(db(), cs))


@bp.post("/classroom/<session_id>/<action>")
@identity.instructor_required
def act(session_id: str, action: str) -> Response:
    cs = access.mine(session_id)
    if action == "end" and request.form.get("confirm") != "1":  # a form from before the question
        return redirect(url_for("live.confirm_end", session_id=cs.id), code=303)
    steps = {"next": store.advance, "reveal": store.reveal, "end": store.end}
    if action == "remove":
        store.remove(db(), cs, request.form.get("student", ""))
    elif action == "readmit":
        store.readmit(db(), cs, request.form.get("student", ""))
    elif action in steps:
        try:
            steps[action](db(), cs)
        except store.ClassError:
            db().rollback()  # a double click on Next, say: the page shows where things are
    else:
        abort(404)
    db().commit()
    events.changed(cs.id, events.STATE)
    if action == "end":
        target = url_for("live.report", session_id=cs.id)
    elif request.form.get("back") == "projector":  # the projector's own buttons (and its keys N, R) stay on it
        target = url_for("live.projector", session_id=cs.id)
    else:
        target = url_for("live.control", session_id=cs.id)
    return redirect(target, code=303)


@bp.get("/classroom/<session_id>/projector")
@identity.instructor_required
def projector(session_id: str) -> Response:
    cs = access.mine(session_id)
    url = join_url(cs)
    return render(
        "classroom/projector.html",
        "classroom/partials/_projector.html",
        code=store.format_code(cs.code),
        join=url,
        join_page=_base() + url_for("live.join"),
        qr=_qr(url),
        **_live_context(cs),
    )


def _report_context(cs: LiveSession) -> dict[str, Any]:
    rows = store.all_answers(db(), cs)
    people = store.students(db(), cs)
    by_student: dict[str, dict[str, int]] = {
        p.id: {"answered": 0, "all_right": 0, "right": 0, "total": 0} for p in people
    }
    by_question = [{"answered": 0, "all_right": 0, "entry": resolve(ref)} for ref in cs.questions]
    for answer, who in rows:
        if who.removed:
            continue
        cell = by_student[who.id]
        cell["answered"] += 1
        cell["right"] += answer.right
        cell["total"] += answer.total
        cell["all_right"] += int(answer.right == answer.total)
        q = by_question[answer.position]
        q["answered"] += 1
        q["all_right"] += int(answer.right == answer.total)
    return {
        "cs": cs,
        "people": people,
        "by_student": by_student,
        "by_question": by_question,
        "count": len(cs.questions),
        # a quick session's game: each student's points and place
        "points": {st.student_id: st for st in store.standings(db(), cs)} if cs.style == "quick" else {},
    }


@bp.get("/classroom/<session_id>/report")
@identity.instructor_required
def report(session_id: str) -> Response:
    return render("classroom/report.html", **_report_context(access.mine(session_id)))


ANSWER_COLUMNS = (
    "session", "question", "spot", "student", "student_number", "removed", "field", "label", "answer", "correct",
    "right", "answered_at",
)
SUMMARY_COLUMNS = (
    "student", "student_number", "removed", "points", "right", "answered", "questions", "percent", "time_taken",
    "joined_at", "last_answer_at",
)


def _value(field: Any, value: Any) -> Any:
    """A field's value for a spreadsheet: an amount as a plain integer, anything else as it reads."""
    if field.kind is FieldKind.AMOUNT and isinstance(value, int):
        return value
    return field.show(value)


@dataclass(frozen=True, kw_only=True)
class _Given:
    """One column of one answer, as a spreadsheet shows it."""

    name: str
    label: str
    given: Any
    correct: Any
    right: bool


def _given_columns(cs: LiveSession, answer: Any) -> list[_Given]:
    """What a student answered in each column of the question (a quick question has one)."""
    entry = resolve(cs.questions[answer.position])
    if cs.style == "quick" and entry is not None:
        q = game.question(cs, answer.position, entry)
        given, correct = game.tapped(answer) or "", q.answer
        if q.amounts:
            given, correct = int(given) if given.isdigit() else given, int(correct)
        return [_Given(name=game.FIELD, label=game.prompt(q), given=given, correct=correct,
                       right=bool(answer.marks.get(game.FIELD)))]
    fields = {f.name: f for f in entry.quiz.fields()} if entry is not None else {}
    read = check(entry, answer.typed)[0] if entry is not None else None
    out = []
    for name, given in answer.answers.items():
        field = fields.get(name)
        if field is not None and read is not None and name in read.values:
            given = _value(field, read.values[name])
        out.append(_Given(name=name, label=field.label if field else "", given=given,
                          correct=_value(field, field.expected) if field else "", right=bool(answer.marks.get(name))))
    return out


def answer_rows(cs: LiveSession) -> list[list[Any]]:
    """One row per answer to one column of the card (a student's answer to a question gives a row
    per field), in the order of ``ANSWER_COLUMNS``."""
    rows = []
    for answer, who in store.all_answers(db(), cs):
        for g in _given_columns(cs, answer):
            rows.append([cs.title, answer.position + 1, cs.questions[answer.position], who.name, who.student_number,
                         who.removed, g.name, g.label, g.given, g.correct, g.right, answer.created_at])
    return rows


def _gradebook(cs: LiveSession) -> list[exports.Sheet]:
    """The summary (a row per student) and a sheet per question (each student's answer in each
    column; under the table the right answer, the share right and how often each column was wrong)."""
    answers = store.all_answers(db(), cs)
    count = len(cs.questions)
    mine: dict[str, list[Any]] = {}
    for answer, who in answers:
        mine.setdefault(who.id, []).append(answer)
    summary = []
    for who in store.students(db(), cs, removed=True):
        done = mine.get(who.id, [])
        right = sum(1 for a in done if a.total and a.right == a.total)
        last = max((a.created_at for a in done), default=None)
        summary.append([
            who.name, who.student_number, who.removed,
            sum(a.points or 0 for a in done) if cs.style == "quick" else None,
            right, len(done), count, _percent(right, count),
            last - who.joined_at if last is not None else None, who.joined_at, last,
        ])
    sheets = [exports.Sheet(title="summary", columns=SUMMARY_COLUMNS, rows=summary, percent=frozenset({"percent"}))]
    by_position: dict[int, list[tuple[Any, Any]]] = {}
    for answer, who in answers:
        by_position.setdefault(answer.position, []).append((answer, who))
    for position in range(count):
        given = [(answer, who, {g.name: g for g in _given_columns(cs, answer)}) for answer, who in by_position.get(position, [])]
        names: list[str] = []
        labels: dict[str, str] = {}
        correct: dict[str, Any] = {}
        for _a, _w, cols in given:
            for g in cols.values():
                if g.name not in labels:
                    names.append(g.name)
                    labels[g.name], correct[g.name] = g.label or g.name, g.correct
        right = sum(1 for a, _w, _c in given if a.total and a.right == a.total)
        extra = ("points",) if cs.style == "quick" else ()
        rows = [[who.name, who.student_number, a.total > 0 and a.right == a.total,
                 *[cols[n].given if n in cols else None for n in names],
                 *((a.points or 0,) if extra else ()), a.created_at] for a, who, cols in given]
        lead = [None, None, None]
        sheets.append(exports.Sheet(
            title=f"Q{position + 1}",
            columns=("student", "student_number", "right", *[labels[n] for n in names], *extra, "answered_at"),
            rows=rows,
            footer=[["correct", None, None, *[correct[n] for n in names]],
                    ["% right", None, _percent(right, len(given))],
                    ["times wrong", *lead[1:], *[sum(1 for _a, _w, c in given if n in c and not c[n].right)
                                                 for n in names]]],
        ))
    return sheets


def _percent(right: int, count: int) -> float:
    return round(100 * right / count, 1) if count else 0.0


@bp.get("/classroom/<session_id>/answers.<fmt>")
@identity.instructor_required
def export(session_id: str, fmt: str = "csv") -> Response:
    """The session's answers as a gradebook (.xlsx: summary, a sheet per question, the raw rows) or
    as the raw rows alone (CSV). Times are UTC."""
    cs = access.mine(session_id)
    if fmt not in exports.FORMATS:
        abort(404)
    return exports.book(
        _gradebook(cs) if fmt == "xlsx" else [],
        raw=exports.Sheet(title="answers", columns=ANSWER_COLUMNS, rows=answer_rows(cs)),
        filename=f"classroom-{cs.code}-answers", fmt=fmt,
    )


# ------------------------------------------------------------------ students


@bp.route("/join", methods=["GET", "POST"])
def join() -> Response:
    code = request.values.get("code", "")[:40]
    name = request.form.get("name", "")[:100]
    number = clean_name(request.form.get("student_number", ""))
    asked = False
    error = None
    if request.method == "GET":
        _with_learner()
    if request.method == "POST":
        cs = store.by_code(db(), code)
        if cs is None:
            # Only wrong codes count, and a right one always joins: a class behind one address
            # is not locked out by the few who mistype it.
            failures = limits.current().join_address
            if (wait := failures.over(limits.address())) is not None:
                response = render(
                    "classroom/join.html", status=429, code=code, name=name, error=limits.too_many_codes()
                )
                response.headers["Retry-After"] = str(wait)
                return response
            if store.by_code(db(), code, ended=True) is not None:  # a right code, only too late: not a guess
                error = _over_notice()
            else:
                failures.failed()
                error = _("There is no live session with this code. Check it with your instructor.")
        elif cs.ask_number and not number:
            # the code says which session: the form comes back with its number field
            asked = True
            error = _("Enter your student number: your instructor asks for it.")
        else:
            asked = cs.ask_number
            try:
                if (earlier := access.me(cs)) is not None and earlier.removed:
                    # this browser's student was removed: not back under a new name without the instructor
                    raise store.ClassError(_REMOVED)
                seat = store.take_seat(db(), cs, name, learner_id=identity.learner_id(create=True),
                                       student_number=number if cs.ask_number else None)
            except store.ClassError as exc:
                db().rollback()
                error = said(exc)
            else:
                db().commit()
                events.changed(cs.id, events.ANSWERS)
                kept = session.get(access.STUDENTS)
                kept = dict(kept) if isinstance(kept, dict) else {}
                while len(kept) >= access.MAX_KEPT_CLASSES:
                    kept.pop(next(iter(kept)))
                kept[cs.id] = seat.student.id
                session[access.STUDENTS] = kept
                # the play page says so: this browser already had a seat, now under the name just typed
                told = {"renamed": "1"} if seat.renamed_from is not None else {}
                return redirect(url_for("live.play", code=store.format_code(cs.code), **told), code=303)
    return render("classroom/join.html", code=code, name=name, error=error, ask_number=asked, number=number[:100])


@bp.get("/join/<code>")
def join_code(code: str) -> Response:
    _with_learner()
    shown = store.format_code(store.normalize_code(code))[:9]
    live = store.by_code(db(), code)
    if (live is not None and store.is_over(live)) or (live is None and store.by_code(db(), code, ended=True) is not None):
        # said before a name is typed: the form stays, blank, for the code of another class
        return render("classroom/join.html", code="", name="", error=_over_notice())
    return render("classroom/join.html", code=shown, name="", error=None,
                  ask_number=live is not None and live.ask_number)


def _over_notice() -> str:
    return _("This session is over: it takes no more students or answers. Ask your instructor for the code of the next one.")


def _with_learner() -> None:
    """Give the browser its learner id with the join form, so the cookie the form is posted with
    carries it: a join sent again after its response (and the cookie that set) was lost is then
    the same learner's, and gets its own student back rather than "that name is taken"."""
    identity.learner_id(create=True)


def _session_version(cs: LiveSession) -> str:
    return f"{cs.state}.{cs.current}.{int(cs.revealed)}"


def _version(cs: LiveSession, who: LiveStudent) -> str:
    return f"{_session_version(cs)}.{int(who.removed)}"


def _stage_context(cs: LiveSession, who: LiveStudent, **extra: Any) -> dict[str, Any]:
    context: dict[str, Any] = {
        "cs": cs,
        "who": who,
        "code": store.format_code(cs.code),
        "version": _version(cs, who),
        "count": len(cs.questions),
        "entry": None,
        "mine": None,
        "feedback": None,
        "answer": None,
        "answer_id": new_answer_id(),
        "notice": None,
        "over": store.is_over(cs),
    }
    context["quick"] = None
    if cs.mode == "paced" and cs.state == "live" and cs.current >= 0:
        entry = _question(cs, cs.current)
        mine = extra["mine"] if "mine" in extra else store.answer_of(db(), who, cs.current)
        context.update(entry=entry, mine=mine, position=cs.current)
        if cs.style == "quick":
            q = game.question(cs, cs.current, entry)
            context.update(quick=q, prompt=game.prompt(q), choices=game.choices(q), keypad=game.keypad(cs, q),
                           **_clock(cs))
            if cs.revealed:
                got = store.answers_of(db(), who)
                context.update(worked=game.explained(q), tapped=game.tapped(mine),
                               tapped_text=game.shown(q, game.tapped(mine) or ""),
                               board=game.board(_standings(cs), who.id), streak=game.streak(got, cs.current),
                               streak_before=game.streak(got, cs.current - 1))
        elif cs.revealed and mine is not None:
            context["feedback"] = _feedback_of(entry, mine)
    elif cs.mode == "self":
        context["answers"] = store.answers_of(db(), who)
    if cs.state == "ended" or store.is_over(cs):
        got = store.answers_of(db(), who)
        context["score"] = sum(1 for a in got.values() if a.right == a.total)
        if cs.style == "quick":
            context.update(board=game.board(_standings(cs), who.id), missed=_missed(cs, got),
                           longest=game.longest_streak(got, min(cs.current, len(cs.questions) - 1)))
    context.update(extra)
    return context


def _missed(cs: LiveSession, got: dict[int, Any]) -> list[dict[str, Any]]:
    """The questions a student got wrong or left (up to the one shown last), with their worked answers."""
    out = []
    for position in range(min(cs.current + 1, len(cs.questions))):
        answer = got.get(position)
        if answer is not None and answer.right == answer.total:
            continue
        entry = resolve(cs.questions[position])
        if entry is None:
            continue
        q = game.question(cs, position, entry)
        out.append({"number": position + 1, "given": game.shown(q, game.tapped(answer) or "") if answer else None,
                    **game.explained(q)})
    return out


def _show_stage(cs: LiveSession, who: LiveStudent, page: str, fragment: str | None = None, **extra: Any) -> Response:
    """A student's stage: waiting, the question, "answer received", or their marks once revealed."""
    if cs.mode == "paced" and cs.state == "live" and cs.current >= 0 and "mine" not in extra:
        extra["mine"] = store.answer_of(db(), who, cs.current)
    return render(page, fragment, **_stage_context(cs, who, **extra))


_STAGE = "classroom/partials/_stage.html"


def _feedback_of(entry: Entry, stored: Any) -> Any:
    return check(entry, stored.typed)[1]


@bp.get("/c/<code>")
def play(code: str) -> Response:
    cs, who = access.student(code)
    return render("classroom/play.html", **_stage_context(cs, who), renamed="renamed" in request.args)


@bp.get("/c/<code>/stage")
def stage(code: str) -> Response:
    shown = request.args.get("v")
    if shown is not None and shown == _known_version(code):
        return Response(status=204)  # the students' every-2-s poll, answered without the database
    # A changed stage is drawn in its turn (at most LIVE_RENDERS at once per process): the class's
    # fetches of a new question wait for each other, not the answers arriving meanwhile.
    with current_app.extensions[_TURNS]:
        return _changed_stage(code, shown)


_TURNS = "trainer.live_renders"


@bp.record_once
def _take_turns(state) -> None:
    # Made with the app, after trainer serve has let gevent patch threading: under gevent a waiting
    # fetch gives way to the others (trainer/web/serving/settings.py, prepare_master).
    state.app.extensions[_TURNS] = threading.BoundedSemaphore(state.app.config["LIVE_RENDERS"])


def _changed_stage(code: str, shown: str | None) -> Response:
    since = events.feed().since()
    cs, who, now = access.student_now(code)
    key = _KNOWN + store.normalize_code(code)
    if since is not None and cs.mode == "paced" and cs.state != "ended" and events.feed().known(key) is None:
        removed = frozenset(store.removed_ids(db(), cs))
        events.feed().keep(key, cs.id, (cs.id, _session_version(cs), removed), since)
    if shown == _version(cs, who):
        return Response(status=204)
    return _show_stage(cs, who, _STAGE, **now)


_KNOWN = "stage:"


def _known_version(code: str) -> str | None:
    """This browser's student's version of a live paced session, from what the process knows (or None)."""
    known = events.feed().known(_KNOWN + store.normalize_code(code))
    if known is None:
        return None
    session_id, version, removed = known
    kept = session.get(access.STUDENTS)
    student_id = kept.get(session_id) if isinstance(kept, dict) else None
    if not isinstance(student_id, str):
        return None
    return f"{version}.{int(student_id in removed)}"


@bp.post("/c/<code>/answer")
def answer(code: str) -> Response:
    cs, who = access.student(code)
    position = _int(request.form.get("position"), -1)
    if not 0 <= position < len(cs.questions):
        abort(404)
    entry = _question(cs, position)
    answer_id = request.form.get("answer_id", "")
    if cs.style == "quick":
        return _quick_answer(cs, who, position, entry, answer_id)
    typed = typed_of(entry, request.form)
    read, feedback = check(entry, typed)
    if feedback is None:
        # Unreadable: the form comes back with the messages, nothing stored (status 200 so htmx swaps it).
        extra = {"answer": read, "answer_id": answer_id, "entry": entry, "position": position}
        return _answer_response(cs, who, position, extra)
    return _stored(cs, who, position, answer_id=answer_id, typed=typed, shown=shown_of(feedback),
                   marks={m.field.name: m.right for m in feedback.marks})


def _stored(cs: LiveSession, who: LiveStudent, position: int, **answer: Any) -> Response:
    """Store a student's graded answer once under its answer id, tell the class's screens that answers
    came in (with the commit where the feed can), and show the stage with it."""
    try:
        stored, created = store.submit(db(), cs, who, position=position, **answer)
    except store.ClassError as exc:
        db().rollback()
        return _answer_response(cs, who, position, {"notice": said(exc)})
    told = created and events.with_commit(cs.id, events.ANSWERS)
    db().commit()
    if created and not told:
        events.changed(cs.id, events.ANSWERS)
    extra: dict[str, Any] = {"received": stored.id}
    if position == cs.current:
        extra["mine"] = stored  # just stored: the stage shows it without reading it back
    return _answer_response(cs, who, position, extra)


def _quick_answer(cs: LiveSession, who: LiveStudent, position: int, entry: Entry, answer_id: str) -> Response:
    """A tap on one of a quick question's choices: graded by the engine, stored once under its answer id,
    with points for a right one (more for a fast one)."""
    q = game.question(cs, position, entry)
    tapped = request.form.get(game.FIELD, "")[:40]
    if game.keypad(cs, q):
        tapped = game.typed_amount(tapped)
        if tapped is None:
            return _answer_response(cs, who, position, {"notice": _("Type the amount in chips, digits only.")})
        right = tapped == q.answer
    else:
        right = q.check(tapped)
    if right is None:
        return _answer_response(cs, who, position, {"notice": _("Tap one of the answers shown.")})
    at = now()
    return _stored(cs, who, position, answer_id=answer_id, typed={game.FIELD: [tapped]},
                   shown={game.FIELD: game.shown(q, tapped)}, marks={game.FIELD: right}, at=at,
                   points=store.points_for(cs, right, at))


def _answer_response(cs: LiveSession, who: LiveStudent, position: int, extra: dict[str, Any]) -> Response:
    if cs.mode == "self":
        if "received" in extra:
            if wants_fragment():
                return render("classroom/partials/_self_question.html", **_self_context(cs, who, position, extra))
            return redirect(
                url_for("live.self_question", code=store.format_code(cs.code), number=position + 1), code=303
            )
        return render(
            "classroom/self_question.html",
            "classroom/partials/_self_question.html",
            **_self_context(cs, who, position, extra),
        )
    if wants_fragment() or "answer" in extra or "notice" in extra:
        return _show_stage(cs, who, "classroom/play.html", _STAGE, **extra)
    return redirect(url_for("live.play", code=store.format_code(cs.code)), code=303)


def _self_context(
    cs: LiveSession, who: LiveStudent, position: int, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    entry = _question(cs, position)
    mine = store.answer_of(db(), who, position)
    context = {
        "cs": cs,
        "who": who,
        "code": store.format_code(cs.code),
        "entry": entry,
        "position": position,
        "number": position + 1,
        "count": len(cs.questions),
        "mine": mine,
        "feedback": _feedback_of(entry, mine) if mine is not None else None,
        "answer": None,
        "answer_id": uuid.uuid4().hex,
        "notice": None,
        "over": store.is_over(cs),
    }
    context.update(extra or {})
    return context


@bp.get("/c/<code>/q/<int:number>")
def self_question(code: str, number: int) -> Response:
    cs, who = access.student(code)
    if cs.mode != "self" or not 1 <= number <= len(cs.questions):
        abort(404)
    return render("classroom/self_question.html", **_self_context(cs, who, number - 1))
