"""Browsing: home, topics, the scenario list, rules, problems."""

from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, request, url_for

from . import library
from .library import LEVELS, Entry, levels_of
from .render import render

bp = Blueprint("pages", __name__)


@bp.get("/")
def home() -> Response:
    lib = library()
    return render(
        "home.html",
        topics=list(lib.topics.values()),
        entries=list(lib.entries.values()),
        levels=levels_of(list(lib.entries.values())),
        first=lib.first(),
    )


@bp.get("/start")
def start() -> Response:
    first = library().first()
    if first is None:
        return redirect(url_for("pages.home"))
    return redirect(url_for("drill.show", scenario_id=first.id))


@bp.get("/scenarios")
def scenarios() -> Response:
    entries = list(library().entries.values())
    return _listing(entries, topic=None)


@bp.get("/topics/<slug>")
def topic(slug: str) -> Response:
    found = library().topic(slug)
    if found is None:
        abort(404, description="There is no topic with that name.")
    return _listing(list(found.entries), topic=found)


def _listing(entries: list[Entry], topic) -> Response:
    raw = request.args.get("level", "").strip()
    level = None
    notice = None
    if raw:
        level = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 3 else None
        if level not in LEVELS:
            notice = "There is no such level, so every level is shown."
            level = None
    shown = [e for e in entries if level is None or e.level == level]
    return render(
        "listing.html",
        "partials/_scenario_list.html",
        topic=topic,
        entries=shown,
        levels=levels_of(entries),
        level=level,
        notice=notice,
        total=len(entries),
    )


@bp.get("/rules")
def rules() -> Response:
    from trainer.engine.rules import RULES

    return render("rules.html", rules=[_rule_view(rule) for rule in RULES.values()])


def _as_list(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def _rule_view(rule) -> dict:
    return {
        "id": rule.id,
        "title": rule.title,
        "sources": _as_list(rule.sources),
        "statement": str(rule.statement),
        "examples": _as_list(rule.examples),
    }


@bp.get("/problems")
def problems() -> Response:
    return render("problems.html", problems=library().problems)


@bp.get("/healthz")
def healthz() -> Response:
    return Response("ok\n", mimetype="text/plain")
