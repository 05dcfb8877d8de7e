"""Self-study: record every graded drill answer, and the progress page built from them."""

from __future__ import annotations

import logging
import secrets
import time
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, current_app, g, redirect, request, url_for
from flask_babel import format_decimal
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy.exc import DBAPIError

from trainer.generate import level_of
from trainer.library import Entry
from trainer.quiz import Answer, Feedback
from trainer.store import db, ratings, store
from trainer.store import progress as stats
from trainer.store.models import now
from trainer.web.core import identity
from trainer.web.core.chart import accuracy_chart, rating_chart
from trainer.web.core.libraries import library, topic_name
from trainer.web.core.render import render
from trainer.web.core.spot_refs import marks_of, rules_of

log = logging.getLogger(__name__)

bp = Blueprint("progress", __name__, url_prefix="/progress")

MAX_DURATION_MS = 60 * 60 * 1000  # longer than this is a tab left open, not time spent
AWAY_WAIT = 0.1  # seconds an answer waits for its commit while the writer finds the database away


def opened_at(sent: str | None) -> int | None:
    """When the answered form was opened (ms), from its ``opened`` field, if that is believable:
    an hour ago at most, not in the future. The learner could alter it, and so their own times only."""
    now_ms = int(time.time() * 1000)
    if sent and sent.isascii() and sent.isdigit() and len(sent) <= 15:
        opened = int(sent)
        if 0 <= now_ms - opened <= MAX_DURATION_MS:
            return opened
    return None


def answer_id_of(sent: str | None) -> str:
    """The id the drill form made for its answer, or a new one (a form from before there were ids)."""
    if sent and len(sent) == 32 and sent.isascii() and all(c in "0123456789abcdef" for c in sent):
        return sent
    return secrets.token_hex(16)


def record_attempt(
    entry: Entry,
    answer: Answer,
    feedback: Feedback,
    opened: int | None,
    *,
    answer_id: str,
    answered: int | None = None,
    partial: bool = False,
    rate: bool = True,
    reviews: bool = True,
    review_right: bool | None = None,
) -> bool:
    """Store a graded drill answer for this browser's learner; True once it is committed.

    A step of a spot before its last (``partial``) is stored with that step's fields. ``rate``: the
    answer may decide the learner's first try at the spot (any answer but a right first step), so
    it may be a rating game. ``reviews``: spaced repetition hears of it, as ``review_right`` (by
default whether every field was right).

    The row joins the writer's next batch (trainer/store/writer.py) and this request waits for that
    transaction, up to ``SAVE_WAIT`` seconds: False means not stored yet, and the page offers to
    send it again under the same ``answer_id``, which is stored once. ``answered`` (ms) is when it
    was first graded, for an answer sent again."""
    answered_ms = answered if answered is not None else int(time.time() * 1000)
    learner = identity.learner_id(create=True)
    duration = None if opened is None or opened > answered_ms else answered_ms - opened
    # A generated spot is not reviewed: the review serves the library's spots (``due_entries``), and
    # a card it can never serve would take a place of the day's new cards.
    reviews = reviews and library().get(entry.id) is not None
    if not reviews:
        extra = {"review": None}
    elif review_right is not None:
        extra = {"review": review_right}
    else:
        extra = {}
    ticket = store().attempts.submit(
        {
            **extra,
            "answer_id": answer_id,
            "learner_id": learner,
            "scenario_id": entry.id,
            "topics": _walked_first(entry),
            "rules": rules_of(entry),
            "answers": {k: list(v) for k, v in answer.raw.items()},
            "marks": marks_of(feedback),
            "duration_ms": duration,
            "at": datetime.fromtimestamp(answered_ms / 1000, UTC) if answered is not None else now(),
            # A first try moves the learner's rating and the spot's (a generated spot: its level's):
            # the store plays it as a rating game only if the learner never answered the spot before.
            "rating": None if not rate else {
                "level": entry.level, "generated": library().get(entry.id) is None,
            },
            "partial": partial,
        }
    )
    wait = current_app.config["SAVE_WAIT"]
    if store().attempts.away:  # a server thread held for a database that is not answering serves nobody
        wait = min(wait, AWAY_WAIT)
    if ticket.wait(wait):
        g.rating_change = ticket.result
        if reviews:  # stored, and its card (if review is on) moved: the page says when it comes back
            g.reviewed = entry.id
        return True
    log.warning("graded answer %s not stored yet (%s): the learner is asked to send it again", answer_id, ticket.outcome)
    return False


def rating_text(rating: float, delta: int | None = None) -> str:
    """"1,512 (+12)", numbers as the language writes them; the change left out when there is none."""
    shown = format_decimal(round(rating))
    if delta is None:
        return shown
    change = ("+" if delta >= 0 else "−") + format_decimal(abs(delta))
    return _("%(rating)s (%(change)s)", rating=shown, change=change)


def rating_line() -> dict[str, str] | None:
    """How the answer just stored moved the learner's rating (its first try at the spot), if it did:
    the rating with its change, and what the spot was rated when the learner met it."""
    change = g.get("rating_change")
    if change is None:
        return None
    return {
        "text": rating_text(change.rating, change.delta),
        "spot_text": "" if change.spot is None else rating_text(change.spot),
    }


def offers_lesson(first_try: bool | None) -> bool:
    """Whether the drill offers the card lesson: to a learner who has answered no spot yet
    (``first_try`` at this spot None) and has not been through the lesson in this browser."""
    if first_try is not None or request.cookies.get(identity.LESSON_DONE) == "1":
        return False
    learner = identity.learner_id()
    if learner is None:
        return True
    try:
        answered = stats.has_answered(db(), learner)
    except DBAPIError:
        db().rollback()
        return False
    db().commit()
    return not answered


def first_try_of(entry: Entry) -> bool | None:
    """This learner's first try at the spot: solved, missed, or None (not yet, or the database is
    away: the spot is still served, without the line)."""
    learner = identity.learner_id()
    if learner is None:
        return None
    try:
        solved = stats.first_try(db(), learner, entry.id)
    except DBAPIError:
        log.warning("first try at %s not read: the database did not answer", entry.id)
        db().rollback()
        return None
    # The read ends here: on SQLite an open read would hold back the writer an answer waits for.
    db().commit()
    return solved


def _walked_first(entry: Entry) -> list[str]:
    """The spot's topics, the one the learner is walking first (the home page continues there)."""
    walked = request.args.get("topic")
    topics = list(entry.topics)
    if walked in topics:
        topics.remove(walked)
        topics.insert(0, walked)
    return topics


def _days() -> int:
    raw = request.args.get("days", "")
    return int(raw) if raw in {str(d) for d in stats.WINDOWS} else 30


@bp.get("/")
def show() -> Response:
    learner = identity.learner_id()
    days = _days()
    lib = library()
    context: dict[str, Any] = {
        "days": days,
        "windows": stats.WINDOWS,
        "user": identity.account(),
        "has_history": False,
    }
    if learner is not None and stats.attempt_count(db(), learner):
        s = db()
        topics, rules = stats.accuracy(s, learner, days)
        missed = [lib.get(i) for i in stats.misses(s, learner, days)]
        srs = stats.srs_enabled(s, learner)
        found = stats.columns(s, learner, days)
        context.update(
            has_history=True,
            solved=[(topic_name(a.key), a) for a in stats.solved(s, learner, days)],
            columns=[_column_view(c) for c in found if c.wrong],
            never_missed=[column_name(c.key) for c in found if not c.wrong],
            rules=rules,
            misses=[e for e in missed if e is not None],
            streak=stats.streak(s, learner),
            chart=Markup(accuracy_chart(stats.daily(s, learner, days))),
            srs=srs,
            due=len(due_entries(learner=learner)) if srs else 0,
            new_today=stats.new_today(s, learner) if srs else 0,
            new_per_day=new_per_day(),
            rating=_rating_view(s, learner),
        )
    return render("progress/show.html", "progress/partials/_tables.html", **context)


def _rating_view(s, learner: str) -> dict[str, Any] | None:
    found = ratings.rating_of(s.connection(), learner)
    if found is None:
        return None
    rating, games = found
    history = ratings.history(s.connection(), learner)
    return {"text": rating_text(rating), "games": games, "chart": Markup(rating_chart(history)) if history else None}


def rating_level(learner: str | None) -> int | None:
    """The generator level nearest this learner's rating; None before their first rated try."""
    if learner is None:
        return None
    try:
        found = ratings.rating_of(db().connection(), learner)
    except DBAPIError:  # the database is away: practice goes on at the level shown
        db().rollback()
        return None
    return None if found is None else ratings.level_for(found[0])


def solved_level(slug: str, entries: list[Entry], marks: dict[str, bool]) -> int:
    """The highest level of the topic the learner solved at the first try, library spot or
    generated (``gen-<topic>-<level>-…``); 0 when none."""
    levels = [e.level or 0 for e in entries if marks.get(e.id)]
    levels += [level for sid, solved in marks.items() if solved and (level := level_of(sid, slug)) is not None]
    return max(levels, default=0)


def practice_level(learner: str | None, slug: str, entries: list[Entry], marks: dict[str, bool],
                   fallback: int) -> tuple[int, int | None]:
    """The level endless practice offers in a topic, and when the cap lowered it the highest level
    solved there (0: none). The rating's level (``fallback`` before any rated try), but at most one
    above the highest level solved at the first try in the topic: a rating a few games old is
    mostly its deviation (a new learner's first right answer adds about 150), not what they can do."""
    wanted = rating_level(learner) or fallback
    best = solved_level(slug, entries, marks)
    return (best + 1, best) if wanted > best + 1 else (wanted, None)


def column_name(key: str) -> str:
    """A column of the card, or another question, as the card names it."""
    names = {
        "current_total": _("① current total"),
        "last_full_increment": _("② last full increment"),
        "committed": _("③a already committed"),
        "acted": _("③b acted this street"),
        "to_add": _("④ to add"),
        "options": _("legal options and amounts"),
        "pot": _("the pot"),
        "pots": _("main and side pots"),
        "returned": _("chips returned"),
        "showdown": _("showdown order"),
        "ruling": _("the ruling"),
    }
    return names.get(key, key)


def _column_view(column: stats.Column) -> dict[str, Any]:
    where = [(topic_name(t), w, n) for t, w, n in column.topics[:3]]
    return {"name": column_name(column.key), "column": column, "where": where}


def new_per_day() -> int:
    """The daily cap on new review cards (the ``NEW_REVIEWS_PER_DAY`` setting)."""
    return current_app.config.get("NEW_REVIEWS_PER_DAY", stats.NEW_PER_DAY)


@bp.post("/spaced-repetition")
def spaced_repetition() -> Response:
    """On or off; back to ``next`` (the review page's own switch goes back to its spot), else here."""
    learner = identity.learner_id(create=True)
    stats.set_spaced_repetition(db(), learner, request.form.get("enabled") == "yes", new_per_day=new_per_day())
    db().commit()
    return redirect(identity.safe_next(url_for("progress.show")), code=303)


@bp.get("/replay")
def replay() -> Response:
    """The most recent spot still missed (answer it right and it leaves the list)."""
    learner = identity.learner_id()
    lib = library()
    for scenario_id in stats.misses(db(), learner, 90) if learner else []:
        if lib.get(scenario_id) is not None:
            return redirect(url_for("drill.show", scenario_id=scenario_id))
    return redirect(url_for("progress.show"))


@bp.get("/review")
def review() -> Response:
    """The most overdue spot to review today."""
    due = due_entries()
    if not due:
        return redirect(url_for("home.home", reviewed="1"))
    return redirect(url_for("drill.show", scenario_id=due[0].id, topic=library().home_topic(due[0]), review="1"))


def due_entries(but: str | None = None, *, learner: str | None = None) -> list[Entry]:
    """This learner's spots due for review that the library has, most overdue first; without ``but``.

    The one count of "Review: N due" on every page: a card of a spot the review cannot serve (an
    endless-practice spot, a file taken out of the library) is not counted, or the count would never
    reach zero."""
    learner = learner or identity.learner_id()
    lib = library()
    if learner is None:
        return []

    def known(scenario_id: str) -> bool:
        return scenario_id != but and lib.get(scenario_id) is not None

    return [lib.get(sid) for sid in stats.due(db(), learner, new_per_day=new_per_day(), known=known)]
