"""Review like Anki, on the drill page: "N left" in a review session, and after a graded answer when
the spot comes back ("Comes back in 3 days").

The drill view passes ``review_of`` to its page, which shows it with two partials of their own
(``_review_bar.html`` above the spot, ``_review_line.html`` in the feedback).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from flask import g
from flask_babel import format_timedelta
from sqlalchemy.exc import DBAPIError

from trainer.store import db
from trainer.store import progress as stats
from trainer.store.models import now
from trainer.web.core import identity
from trainer.web.drill.progress import due_entries, new_per_day

log = logging.getLogger(__name__)

def comes_back_text(due: datetime, at: datetime | None = None) -> str:
    """"3 days", "10 minutes": how long until ``due``, in the page's language (Babel)."""
    return format_timedelta(max(due - (at or now()), timedelta(0)))


def review_view(scenario_id: str, *, reviewing: bool, graded: bool) -> dict[str, Any] | None:
    """What the drill page says of spaced repetition to this learner, or None for nothing:
    ``left`` (a review session: the spots still due, this one included until it is answered
    right), ``back`` (a graded answer that moved the spot's card: when it comes back), ``waits``
    (one that would have made a card, but today's new cards are taken)."""
    learner = identity.learner_id()
    moved = graded and g.get("reviewed") == scenario_id
    if learner is None or not (reviewing or moved):
        return None
    s = db()
    if not stats.srs_enabled(s, learner):
        return None
    view: dict[str, Any] = {"reviewing": reviewing, "left": None, "back": None, "waits": None}
    if reviewing:
        view["left"] = len(due_entries(learner=learner))
    if moved:
        due = stats.comes_back(s, learner, scenario_id)
        if due is not None:
            view["back"] = comes_back_text(due)
        else:
            view["waits"] = new_per_day()
    return view


def review_of(scenario_id: str, *, reviewing: bool, graded: bool) -> dict[str, Any] | None:
    """``review_view``, or None when the database is away: the spot is still served, without the lines."""
    if not reviewing and not graded:
        return None
    try:
        return review_view(scenario_id, reviewing=reviewing, graded=graded)
    except DBAPIError:
        log.warning("review state of %s not read: the database did not answer", scenario_id)
        db().rollback()
        return None
