"""Review like Anki, on the drill page: "N left" in a review session, and after a graded answer when
the spot comes back ("Comes back in 3 days").

Both depend on who asks, and the drill's markup is kept for everyone: the page leaves two slots
(``review_bar_slot`` above the spot, ``review_line_slot`` in the feedback) that ``with_review``
fills for each response from ``review_view``, rendered by two partials of their own.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from flask import Response, g, render_template, request, url_for
from flask_babel import format_timedelta
from sqlalchemy.exc import DBAPIError

from trainer.store import db
from trainer.store import progress as stats
from trainer.store.models import now
from trainer.web.core import identity
from trainer.web.drill.progress import bp, due_entries, new_per_day

log = logging.getLogger(__name__)

BAR_SLOT = "review-bar-" + secrets.token_hex(8)
LINE_SLOT = "review-line-" + secrets.token_hex(8)
_BAR, _LINE = BAR_SLOT.encode(), LINE_SLOT.encode()


@bp.app_context_processor
def _review_slots() -> dict[str, str]:
    return {"review_bar_slot": BAR_SLOT, "review_line_slot": LINE_SLOT}


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


def with_review(response: Response) -> Response:
    """A drill page or graded answer with this learner's review lines filled in (empty when review
    is off or says nothing here)."""
    data = response.get_data()
    if _BAR not in data and _LINE not in data:
        return response
    reviewing = request.args.get("review") == "1"
    scenario_id = (request.view_args or {}).get("scenario_id", "")
    bar = line = ""
    try:
        view = review_view(scenario_id, reviewing=reviewing, graded=request.method == "POST")
    except DBAPIError:  # the database is away: the spot is still served, without the lines
        log.warning("review state of %s not read: the database did not answer", scenario_id)
        db().rollback()
        view = None
    if view is not None:
        if reviewing and _BAR in data:
            bar = render_template("partials/_review_bar.html", review=view, back=url_for(
                "drill.show", scenario_id=scenario_id, topic=request.args.get("topic")))
        line = render_template("partials/_review_line.html", review=view)
    response.set_data(data.replace(_BAR, bar.encode()).replace(_LINE, line.encode()))
    return response
