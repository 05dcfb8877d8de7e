"""The exams assigned to a member of a class, and moments shown in the assignment's time zone."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask_babel import format_date, format_time
from flask_babel import gettext as _

from trainer.store import classes as store
from trainer.store import db
from trainer.store import exams as exam_store

from .sitting import template_of


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def shown(at: datetime | None, zone_name: str) -> str:
    """A moment in the assigned exam's time zone, in the page's language, with the zone named."""
    if at is None:
        return ""
    local = at.astimezone(zone(zone_name))
    moment = f"{format_date(local, 'medium', rebase=False)} {format_time(local, 'short', rebase=False)}"
    return _("%(when)s (%(zone)s)", when=moment, zone=zone_name)


def assigned_context(account_id: int) -> list[dict[str, Any]]:
    """The exam page's "assigned to you" list: each exam of the member's classes, with its window."""
    mine: dict[str, list] = {}
    for exam in store.assigned_attempts(db(), account_id):
        mine.setdefault(exam.assignment_id, []).append(exam)
    listed = []
    for a, sc in store.assigned_to(db(), account_id):
        template = template_of(a.template)
        if template is None:
            continue
        listed.append({
            "a": a, "sc": sc, "template": template,
            "state": store.window_state(a),
            "opens": shown(a.opens_at, a.time_zone),
            "closes": shown(a.closes_at, a.time_zone),
            "attempts": sorted(mine.get(a.id, []), key=lambda e: e.started_at),
            # what the Start button does then: resume it (see start)
            "running": exam_store.open_attempt(db(), template, account_id, assignment_id=a.id) is not None,
        })
    return listed
