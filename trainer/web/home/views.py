"""Browsing: home, topics, the scenario list, rules, problems."""

from __future__ import annotations

import secrets

from flask import Blueprint, Response, abort, redirect, request, url_for
from flask_babel import gettext as _

from trainer.generate import topics
from trainer.library import LEVELS, Entry, levels_of
from trainer.store import db
from trainer.store import progress as stats
from trainer.store import spots as my_spots
from trainer.web.core import i18n, identity
from trainer.web.core.libraries import library
from trainer.web.core.render import render
from trainer.web.drill.progress import due_entries, practice_level

bp = Blueprint("home", __name__)


@bp.get("/")
def home() -> Response:
    lib = library()
    return render(
        "home.html",
        topics=list(lib.topics.values()),
        entries=list(lib.entries.values()),
        levels=levels_of(list(lib.entries.values())),
        first=lib.first(),
        back=_returning(lib),
        reviewed=request.args.get("reviewed") == "1",
        from_instructor=_from_instructor(),
    )


def _from_instructor() -> int:
    """How many spots the instructors of the signed-in learner's classes shared with them."""
    user = identity.account()
    return 0 if user is None else len(my_spots.shared_with(db(), user.id))


def _returning(lib) -> dict | None:
    """For a learner who has answered before: where the path goes on, the review queue, the streak."""
    learner = identity.learner_id()
    if learner is None:
        return None
    s = db()
    if not stats.attempt_count(s, learner):
        return None
    srs = stats.srs_enabled(s, learner)
    return {
        "going_on": _going_on(lib, learner),
        "srs": srs,
        "due": len(due_entries(learner=learner)) if srs else 0,
        "streak": stats.streak(s, learner),
    }


@bp.get("/start")
def start() -> Response:
    """The path's start, or for a returning learner where it goes on; ``?topic=`` that topic's first
    spot not answered yet."""
    lib = library()
    first = lib.first()
    if first is None:
        return redirect(url_for("home.home"))
    learner = identity.learner_id()
    chosen = lib.topic(request.args.get("topic"))
    if chosen is not None and chosen.entries:
        marks = stats.first_tries(db(), learner) if learner is not None else {}
        entry = next((e for e in chosen.entries if e.id not in marks), chosen.entries[0])
        return redirect(url_for("drill.show", scenario_id=entry.id, topic=chosen.slug))
    going = _going_on(lib, learner) if learner is not None else None
    if going is not None:
        return redirect(url_for("drill.show", scenario_id=going["entry"].id, topic=going["topic"].slug if going["topic"] else None))
    return redirect(url_for("drill.show", scenario_id=first.id, topic=lib.home_topic(first)))


def _going_on(lib, learner: str) -> dict | None:
    """Where the path goes on for this learner: the next spot not answered yet after the one they
    answered last, with its topic and place in it."""
    s = db()
    last = stats.last_spot(s, learner, known=lambda sid: lib.get(sid) is not None)
    if last is None:
        return None
    entry, walked = lib.get(last[0]), last[1]
    slug = next((t for t in walked if t in lib.topics), None) or lib.home_topic(entry)
    step = _not_answered(lib, lib.step_after(entry, lib.topic(slug)), stats.first_tries(s, learner))
    topic = lib.topic(step.topic)
    k, n = lib.position(step.entry, topic)
    return {"entry": step.entry, "topic": topic, "k": k, "n": n}


def _not_answered(lib, step, marks: dict[str, bool]):
    """``step``, or the first step after it on the path to a spot the learner has not answered: after
    a review, say, the spot after the reviewed one is often answered already."""
    found = step
    for _step in range(len(lib.entries)):
        if found.entry.id not in marks:
            return found
        found = lib.step_after(found.entry, lib.topic(found.topic))
    return step  # every spot answered: the path goes on as it is


@bp.get("/practice/<slug>")
def practice(slug: str) -> Response:
    """Endless practice: a generated spot with its seed in the URL, so it can be shared and replayed."""
    if slug not in topics():
        abort(404, description=_("There is no topic with that name."))
    raw = request.args.get("level", "")
    # A level asked for is kept; else the rating's, capped by what the learner solved (practice_level).
    if raw in {str(n) for n in LEVELS}:
        level = int(raw)
    else:
        learner = identity.learner_id()
        marks = stats.first_tries(db(), learner) if learner is not None else {}
        found = library().topic(slug)
        level, _capped = practice_level(learner, slug, list(found.tagged) if found else [], marks, 2)
    raw = request.args.get("seed", "")
    seed = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else secrets.randbelow(10**6)
    return redirect(url_for("drill.show", scenario_id=f"gen:{slug}:{level}:{seed}:0", topic=slug))


@bp.get("/scenarios")
def scenarios() -> Response:
    entries = list(library().entries.values())
    return _listing(entries, topic=None)


@bp.get("/topics/<slug>")
def topic(slug: str) -> Response:
    found = library().topic(slug)
    if found is None:
        abort(404, description=_("There is no topic with that name."))
    return _listing(list(found.entries), topic=found, also=list(found.also))


def _listing(entries: list[Entry], topic, also: list[Entry] | None = None) -> Response:
    raw = request.args.get("level", "").strip()
    level = None
    notice = None
    if raw:
        level = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 3 else None
        if level not in LEVELS:
            notice = _("There is no such level, so every level is shown.")
            level = None
    shown = [e for e in entries if level is None or e.level == level]
    also = also or []
    about = entries + also  # what the learner solved of the topic, in its own spots or those only tagged
    learner = identity.learner_id()
    marks = stats.first_tries(db(), learner) if learner is not None else {}
    practice = topic is not None and topic.slug in topics()
    offered, capped = level, None
    if practice and level is None:
        offered, capped = practice_level(learner, topic.slug, about, marks, _level_reached(about, marks))
    return render(
        "listing.html",
        "partials/_scenario_list.html",
        topic=topic,
        entries=shown,
        also=[e for e in also if level is None or e.level == level],
        levels=levels_of(about),  # the filter's; the heading's are the topic's own
        own_levels=levels_of(entries),
        level=level,
        notice=notice,
        total=len(entries),
        practice=practice,
        practice_level=offered,
        practice_capped=capped,
        marks=marks,
    )


def _level_reached(entries: list[Entry], marks: dict[str, bool]) -> int:
    """The level a learner is on in a topic: the lowest one with a spot not yet solved."""
    levels = levels_of(entries) or (1,)
    for level in levels:
        if any(not marks.get(e.id, False) for e in entries if e.level == level):
            return level
    return levels[-1]


@bp.get("/rules")
def rules() -> Response:
    from trainer.engine.rules import RULES

    locale = i18n.current()
    return render("rules.html", rules=[_rule_view(rule, locale) for rule in RULES.values()])


def _as_list(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def _sources(sources: str) -> list[str]:
    """Rulebook citations stay as they are ("TDA24 43-A"); the few plain words among them are translated."""
    words = {
        "cash games": _("cash games"),
        "table stakes": _("table stakes"),
        "dealer rulings": _("dealer rulings"),
        "WSOP-T glossary": _("WSOP-T glossary"),
        "WSOP-LA preamble": _("WSOP-LA preamble"),
    }
    return [_joined(words.get(part, part)) for part in sources.split("; ") if part]


def _joined(source: str) -> str:
    """"Addendum 43 Ex 2 and 47 Ex 2": the references as they are, the word between them translated."""
    first, joint, second = source.partition(" and ")
    return _("%(first)s and %(second)s", first=first, second=second) if joint else source


def _rule_view(rule, locale: str) -> dict:
    """A rule in ``locale``, from the engine catalogs (English where a text is not translated)."""
    from trainer.translations.engine import rule_text

    text = rule_text(rule.id, locale)
    return {
        "id": rule.id,
        "title": text.title,
        "sources": _sources(text.sources or ""),
        "statement": text.statement,
        "examples": _as_list(text.examples),
    }


@bp.get("/problems")
def problems() -> Response:
    return render("problems.html", problems=library().problems)


@bp.get("/healthz")
def healthz() -> Response:
    return Response("ok\n", mimetype="text/plain")
