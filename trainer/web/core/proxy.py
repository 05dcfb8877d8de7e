"""Behind a reverse proxy: the real client, scheme and host (``TRAINER_PROXIES``).

A proxy in front of the app makes every request come from the proxy's
address, over plain HTTP, to an inner host name. With ``TRAINER_PROXIES=N``
werkzeug's ``ProxyFix`` believes the last N hops of ``X-Forwarded-For``,
``-Proto``, ``-Host``, ``-Port`` and ``-Prefix``, so rate limits count per
real client, join links and QR codes carry the public address, and cookies
are marked ``Secure`` when the client's connection is HTTPS. Without the
setting those headers are ignored: anyone can send them.
"""

from __future__ import annotations

from flask import Flask, current_app, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix


def secure_cookies() -> bool:
    """Whether a cookie set now is ``Secure``: by the setting, or because the client came over HTTPS."""
    return bool(current_app.config.get("SESSION_COOKIE_SECURE")) or (has_request_context() and request.is_secure)


class SessionInterface(SecureCookieSessionInterface):
    def get_cookie_secure(self, app: Flask) -> bool:
        return secure_cookies()


def init_app(app: Flask) -> None:
    hops = app.config["PROXIES"]
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops, x_prefix=hops)
    app.session_interface = SessionInterface()
