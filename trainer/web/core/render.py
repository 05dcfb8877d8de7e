"""View helpers: the one place that decides full page or htmx fragment, and response headers."""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

from cachetools import LRUCache
from flask import Flask, Response, current_app, g, make_response, render_template, request, session
from markupsafe import Markup

from trainer.web.core import i18n, identity

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


def wants_fragment() -> bool:
    """An htmx request that is not boosted and not a history restore gets a fragment (htmx's own
    request headers, https://htmx.org/reference/#request_headers)."""
    headers = request.headers
    return (
        headers.get("HX-Request") == "true"
        and headers.get("HX-Boosted") != "true"
        and headers.get("HX-History-Restore-Request") != "true"
    )


def render(page: str, fragment: str | None = None, *, status: int = 200, **values: Any) -> Response:
    """The page, or for an htmx request its fragment (``fragment_request`` tells the template which),
    rendered by Jinja for this request."""
    as_fragment = fragment is not None and wants_fragment()
    body = render_template(fragment if as_fragment else page, fragment_request=as_fragment, **values)
    response = make_response(body, status)
    i18n.vary(response.headers, "HX-Request")
    return response


def new_answer_id() -> str:
    """The id a form carries for the answer it will send: the store keeps an answer once per id,
    however often it arrives (a resend after a lost response)."""
    return secrets.token_hex(16)


def opened_now() -> int:
    """When a drill form was opened (ms): now, or for an answer sent back, when its form was first opened."""
    return g.get("opened_at") or int(time.time() * 1000)


def is_instructor() -> bool:
    """The site navigation shows the Classroom link to a signed-in instructor."""
    if session.get(identity.ACCOUNT) is None:
        return False
    user = identity.account()
    return user is not None and user.is_instructor


def security_headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CSP)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("X-Frame-Options", "DENY")
    return response


# A spot's drawing (table, seats, the action so far) is the same for every viewer in a language, and
# it is most of what a page with a spot costs to render: a live session's thousand phones fetch the
# same question at once. It is rendered once per spot, language and layout, keyed by the spot's value
# (a frozen dataclass), and kept in a bounded cache of each app. Nothing is filled into it afterwards.
SPOT_FIGURES = "trainer.spot_figures"
_SPOT_TEMPLATE = "partials/_spot.html"


def spot_figure(spot: Any, *, facts_folded: bool = False, history_apart: bool = False) -> Markup:
    """``partials/_spot.html`` for ``spot`` in the page's language, as the cache of this app keeps it."""
    cache, lock = current_app.extensions[SPOT_FIGURES]
    key = (spot, i18n.current(), facts_folded, history_apart)
    with lock:
        html = cache.get(key)
    if html is None:
        template = current_app.jinja_env.get_template(_SPOT_TEMPLATE)
        html = Markup(template.render(spot=spot, facts_folded=facts_folded, history_apart=history_apart))
        with lock:  # cachetools' caches are not thread-safe; gunicorn's threads render too
            cache[key] = html
    return html


def init_app(app: Flask) -> None:
    app.after_request(security_headers)
    app.extensions[SPOT_FIGURES] = (LRUCache(maxsize=512), threading.Lock())
    app.jinja_env.globals.update(answer_id=new_answer_id, opened_at=opened_now, is_instructor=is_instructor,
                                 spot_figure=spot_figure)
