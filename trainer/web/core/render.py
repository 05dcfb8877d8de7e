"""View helpers: the one place that decides full page or htmx fragment, and response headers."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from flask import (
    Flask,
    Response,
    g,
    make_response,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup

from trainer.web.core import csrf, i18n, identity
from trainer.web.core.cache import AnswerSlots, cache

# Only this origin: no inline scripts or styles, no plugins, no framing.
CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


# Where a drill form carries the id of the answer it will send: a fresh one in every response,
# also when the markup was kept (a resend form writes its id out instead).
ANSWER_ID = "answer-id-" + secrets.token_hex(8)


# Where the site navigation has the instructor's Classroom link: a page kept in the cache is shown
# to instructors and learners alike, so the link is put in (or not) for each response.
INSTRUCTOR_NAV = "instructor-nav-" + secrets.token_hex(8)


def _instructor_nav() -> str:
    user = identity.account() if session.get(identity.ACCOUNT) is not None else None
    if user is None or not user.is_instructor:
        return ""
    return str(Markup('<li><a href="{}">{}</a></li>').format(url_for("live.index"), _("Classroom")))


# Slots a kept page leaves for what depends on who asks (slot -> what fills it, per response):
# the instructor's nav link here, a review's Next label in drill.py.
LEARNER_SLOTS: dict[str, Callable[[], str]] = {INSTRUCTOR_NAV: _instructor_nav}


def wants_fragment() -> bool:
    """An htmx request that is not boosted and not a history restore gets a fragment (htmx's own
    request headers, https://htmx.org/reference/#request_headers)."""
    headers = request.headers
    return (
        headers.get("HX-Request") == "true"
        and headers.get("HX-Boosted") != "true"
        and headers.get("HX-History-Restore-Request") != "true"
    )


def render(
    page: str,
    fragment: str | None = None,
    *,
    status: int = 200,
    cache_key: Any = None,
    context: Callable[[], dict[str, Any]] | None = None,
    fill: dict[str, Callable[[], str]] | None = None,
    slotted: tuple[Any, AnswerSlots] | None = None,
    **values: Any,
) -> Response:
    """The page, or for an htmx request its fragment.

    ``context`` (a function) is called only when the markup has to be rendered.
    With ``cache_key`` the markup is rendered once per key and kind (page or
    fragment) and reused; the key must name everything the context depends on
    but the slots of ``fill``: each slot (a string the context put in the markup)
    is replaced by what its function makes, in every response. With ``slotted``, a key and a
    graded answer's ``cache.AnswerSlots``: the markup with its slots filled is also kept, under
    that key (which must name everything the fills depend on but what was typed) and what was
    typed but the amounts (the fills leave a slot for each), and, filled in, under all that was
    typed (``Cache.answer_page``). The fills run only when neither is kept.
    """
    as_fragment = fragment is not None and wants_fragment()
    template = fragment if as_fragment else page

    def markup(**extra: Any) -> str:
        lazy = context() if context is not None else {}
        return render_template(template, fragment_request=as_fragment, **values, **lazy, **extra)

    kept = cache()

    def filled() -> str:
        if cache_key is None:
            body = markup()
        else:
            body = kept.page((template, cache_key), lambda token: markup(csrf_token=token))
        for slot, make in (fill or {}).items():
            body = body.replace(slot, make())
        return body

    body = filled() if slotted is None else kept.answer_page((template, slotted[0]), filled, slotted[1])
    if kept.placeholder in body:  # a kept page, or a kept form in a fresh page: this learner's token
        body = body.replace(kept.placeholder, csrf.token())
    if kept.opened in body:  # a drill form: when it was opened (the answered one keeps its time)
        body = body.replace(kept.opened, str(g.get("opened_at") or int(time.time() * 1000)))
    for slot, make in LEARNER_SLOTS.items():
        if slot in body:
            body = body.replace(slot, make())
    if ANSWER_ID in body:
        body = body.replace(ANSWER_ID, secrets.token_hex(16))
    response = make_response(body, status)
    i18n.vary(response.headers, "HX-Request")
    return response


def security_headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CSP)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("X-Frame-Options", "DENY")
    return response


def init_app(app: Flask) -> None:
    app.after_request(security_headers)
    app.jinja_env.globals["answer_id"] = lambda: ANSWER_ID
    app.jinja_env.globals["instructor_nav_slot"] = INSTRUCTOR_NAV
