"""Friendly error pages; never a bare traceback."""

from __future__ import annotations

import logging

from flask import Flask, Response
from werkzeug.exceptions import HTTPException, InternalServerError, NotFound

from .render import render, wants_fragment

log = logging.getLogger(__name__)

TITLES = {
    400: "That request could not be read",
    404: "Page not found",
    405: "That page does not take this kind of request",
    413: "That was far too much to send",
    500: "Something went wrong on our side",
}


def handle_http(exc: HTTPException) -> Response:
    code = exc.code or 500
    if code == 404:
        message = "There is nothing at this address." if exc.description == NotFound.description else exc.description
    elif code == 500:
        message = "The error has been logged. Try again, or pick another spot."
    else:
        message = exc.description or ""
    response = render(
        "error.html",
        "partials/_error.html",
        status=code,
        code=code,
        title=TITLES.get(code, exc.name),
        message=message,
    )
    if code == 405 and getattr(exc, "valid_methods", None):
        response.headers["Allow"] = ", ".join(exc.valid_methods)
    if wants_fragment():
        # htmx swaps error responses (see the meta config in base.html): show them in place of the page body.
        response.headers["HX-Retarget"] = "#main"
        response.headers["HX-Reswap"] = "innerHTML"
    return response


def handle_crash(exc: InternalServerError) -> Response:
    log.error("unhandled error", exc_info=exc.original_exception or exc)
    return handle_http(exc)


def init_app(app: Flask) -> None:
    app.register_error_handler(InternalServerError, handle_crash)
    app.register_error_handler(HTTPException, handle_http)
