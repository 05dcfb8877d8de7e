"""A request's body read whole, within a time limit, before the app sees the request (gevent workers).

The app takes what is scarce (a database connection when the learner is
signed in, the store's writer) before it reads a form; a client that sends
its body a byte a second would hold it as long as it liked. Here each
connection is a greenlet, which costs little to keep waiting, and the body is
read into memory (at most ``MAX_CONTENT_LENGTH``, 64 KB) under a
``gevent.Timeout``: a body that does not arrive in time is answered 408 and
its connection closed.
"""

from __future__ import annotations

import io

import gevent

CLOSE = [("Content-Type", "text/plain; charset=utf-8"), ("Connection", "close")]


class ReadBodyFirst:
    """WSGI middleware (``app.wsgi_app = ReadBodyFirst(app.wsgi_app, ...)``)."""

    def __init__(self, app, *, seconds: float, limit: int) -> None:
        self.app, self.seconds, self.limit = app, seconds, limit

    def __call__(self, environ, start_response):
        declared = environ.get("CONTENT_LENGTH") or ""
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if not declared.isdigit() and not chunked:
            return self.app(environ, start_response)  # no body
        length = int(declared) if declared.isdigit() else None
        if length is not None and length > self.limit:
            return self.app(environ, start_response)  # refused as too large (413) without reading it
        deadline = gevent.Timeout(self.seconds)
        try:
            with deadline:
                # chunked: one byte more than the limit is enough to see that it is too large
                body = environ["wsgi.input"].read(self.limit + 1 if length is None else length)
        except gevent.Timeout as exc:
            if exc is not deadline:
                raise
            start_response("408 Request Timeout", CLOSE)
            return [f"The request body did not arrive within {self.seconds:g} seconds.\n".encode()]
        if length is not None and len(body) < length:
            start_response("400 Bad Request", CLOSE)  # the client left in the middle of it
            return [b"The request body ended before its Content-Length.\n"]
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ["wsgi.input_terminated"] = False
        return self.app(environ, start_response)
