"""A CSRF token kept in the signed session cookie and sent back in every form.

Flask-WTF would do this too, but it brings WTForms for a single hidden
field; the whole mechanism is a random token, a constant-time comparison
and a check before any unsafe request runs.
"""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, request, session
from flask_babel import lazy_gettext
from werkzeug.exceptions import BadRequest

FIELD = "csrf_token"
_SESSION_KEY = "csrf"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


class CSRFError(BadRequest):
    description = lazy_gettext("This form has expired or did not come from this site.")


def token() -> str:
    value = session.get(_SESSION_KEY)
    if not isinstance(value, str) or not value:
        value = secrets.token_urlsafe(32)
        session[_SESSION_KEY] = value
    return value


def valid() -> bool:
    expected = session.get(_SESSION_KEY)
    sent = request.form.get(FIELD, "")
    if not isinstance(expected, str) or not expected or not sent:
        return False
    return hmac.compare_digest(sent.encode(), expected.encode())


def protect() -> None:
    # An unknown URL or method is answered as such (404/405), not as a CSRF failure.
    if request.routing_exception is not None:
        return
    if request.method not in SAFE_METHODS and not valid():
        raise CSRFError()


def init_app(app: Flask) -> None:
    app.before_request(protect)
    app.jinja_env.globals["csrf_token"] = token
    app.jinja_env.globals["csrf_field"] = FIELD
