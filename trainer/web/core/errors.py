"""Friendly error pages; never a bare traceback."""

from __future__ import annotations

import logging

from flask import Flask, Response, g
from flask.globals import request_ctx
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, InternalServerError, default_exceptions

from trainer.store.user_errors import UserError
from trainer.web.core import identity
from trainer.web.core.render import render, wants_fragment

log = logging.getLogger(__name__)


def said(exc: UserError) -> str:
    """What the store refused, in the request's language (trainer/store/user_errors.py)."""
    return _(exc.message, **exc.params)


def _title(code: int) -> str:
    titles = {
        400: _("That request could not be read"),
        404: _("Page not found"),
        405: _("That page does not take this kind of request"),
        413: _("That was far too much to send"),
        500: _("Something went wrong on our side"),
        401: _("Please sign in first"),
        403: _("This page is not open to you"),
        429: _("Too many requests: wait a moment"),
    }
    return titles.get(code) or _("That request could not be answered")


def _message(exc: HTTPException, code: int) -> str:
    """Our own description (already in the page's language), else ours for the code:
    Werkzeug's stock descriptions are English only."""
    stock = default_exceptions.get(code)
    if exc.description and (stock is None or exc.description != stock.description):
        return str(exc.description)
    messages = {
        400: _("The browser sent something this page cannot read. Go back and try again."),
        404: _("There is nothing at this address."),
        405: _("This address cannot be used that way. Open it as a link instead."),
        413: _("What was sent is far larger than any answer. Send less."),
        500: _("The error has been logged. Try again, or pick another spot."),
    }
    return messages.get(code) or _("Try again, or go back to the home page.")


def handle_http(exc: HTTPException) -> Response:
    code = exc.code or 500
    if request_ctx.url_adapter is None:
        # The Host header could not be read (werkzeug's BadHost), so no link of the page can be
        # built: a plain sentence instead of the page.
        return Response(f"{_title(code)}\n", status=code, mimetype="text/plain")
    response = render(
        "error.html",
        "partials/_error.html",
        status=code,
        code=code,
        title=_title(code),
        message=_message(exc, code),
    )
    if code == 405 and getattr(exc, "valid_methods", None):
        response.headers["Allow"] = ", ".join(exc.valid_methods)
    if getattr(exc, "retry_after", None) is not None:  # a 429 or 503 raised with the time to wait
        response.headers["Retry-After"] = str(exc.retry_after)
    if wants_fragment():
        # htmx swaps error responses (see the meta config in base.html): show them in place of the page body.
        response.headers["HX-Retarget"] = "#main"
        response.headers["HX-Reswap"] = "innerHTML"
    return response


def handle_crash(exc: InternalServerError) -> Response:
    log.error("unhandled error", exc_info=exc.original_exception or exc)
    _recover_database()
    return handle_http(exc)


def _recover_database() -> None:
    """The crash may have left the request's transaction failed, and the page reads the account
    through it (the navigation): roll back first, and show the page without the account if even
    that cannot be read (the database is gone)."""
    session = g.get("_trainer_db")
    try:
        if session is not None:
            session.rollback()
        identity.account()
    except Exception as exc:  # any failure of the database: the error page is shown all the same
        log.warning("the error page is shown without the account (%s)", exc.__class__.__name__)
        g._account = None


def init_app(app: Flask) -> None:
    app.register_error_handler(InternalServerError, handle_crash)
    app.register_error_handler(HTTPException, handle_http)
