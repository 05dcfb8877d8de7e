"""Rate limits: signing up, signing in, joining a class, checking a verification code.

One flask-limiter ``Limiter`` per app counts them, in Redis when ``REDIS_URL`` is set, so
every app process shares the counts; otherwise in the process's memory, so each process
of ``trainer serve`` counts on its own (``warning`` says so at start). Each limit is a
moving window per key: an address, or an account. If Redis cannot be reached, the limiter
goes on counting in memory and logs it (``in_memory_fallback_enabled``), and a storage
error never fails a page (``swallow_errors``).

The views ask ``Counter.over(key)``, which counts the attempt too when every attempt
counts, and call ``Counter.failed()`` for a failure when only failures count (the
limiter's ``deduct_when``), so each decides what a limit may block:

- sign-up: every attempt from an address counts;
- signing in: only failures count, per address and per account, and over
  either limit the password is not checked;
- joining a class: only wrong codes count, and a right code always joins,
  so a class behind one address is not locked out by the few who mistype it;
- verification codes: only unknown codes count; over the limit every code
  is refused, or the answer would tell a guesser which code is real.
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, current_app, g, request
from flask.wrappers import Response
from flask_babel import gettext as _
from flask_limiter import Limiter, RateLimitExceeded

EXTENSION = "trainer.limits"

# Every sign-up from one address counts, whatever its outcome (a refused one
# also tells whether an email has an account).
SIGNUP_ADDRESS = "20 per minute;100 per hour"
# Failures only.
LOGIN_ADDRESS = "10 per minute;50 per hour"
LOGIN_ACCOUNT = "5 per minute;20 per hour"
JOIN_ADDRESS = "20 per minute;200 per hour"
VERIFY_ADDRESS = "20 per minute;200 per hour"

REDIS_TIMEOUTS = {"socket_connect_timeout": 2, "socket_timeout": 2}
# per request (flask.g): each counter's key, and the counters whose attempt failed
KEYS = "trainer_limit_keys"
FAILED = "trainer_limit_failed"


@dataclass(frozen=True, kw_only=True)
class Counter:
    """Attempts of one kind (a sign-up, a failed sign-in, ...), counted per key by the app's limiter."""

    name: str
    limiter: Limiter
    check: Callable[[], None]  # a no-op decorated with the limit: raises RateLimitExceeded over it

    def over(self, key: str) -> int | None:
        """None while ``key`` is under every window (this attempt counted, if every attempt counts);
        over one, the seconds until it may try again."""
        g.setdefault(KEYS, {})[self.name] = key
        try:
            self.check()
        except RateLimitExceeded:
            breached = self.limiter.current_limit
            return max(1, breached.reset_at - int(time.time())) if breached is not None else 1
        return None

    def failed(self) -> None:
        """Count this request's attempt (against the key given to ``over``) once its response is made."""
        g.setdefault(FAILED, set()).add(self.name)


@dataclass(frozen=True, kw_only=True)
class Limits:
    shared: bool  # counted in Redis, for every process
    signup_address: Counter
    login_address: Counter
    login_account: Counter
    join_address: Counter
    verify_address: Counter


def current() -> Limits:
    return current_app.extensions[EXTENSION]


def address() -> str:
    """The client's address (the real one behind a proxy with ``TRAINER_PROXIES``)."""
    return request.remote_addr or "-"


def account_key(email: str) -> str:
    """An account's key for counting, from its email as typed (no email is kept in the storage)."""
    return hashlib.sha256(email.strip().lower().encode()).hexdigest()[:32]


def too_many_from_address() -> str:
    return _("Too many failed attempts from your address. Wait a minute, then try again.")


def too_many_for_account() -> str:
    return _("Too many failed sign-ins for this account. Wait a few minutes, then try again.")


def too_many_signups() -> str:
    return _("Too many accounts were made from your address. Wait a while, then try again.")


def too_many_codes() -> str:
    return _("Too many wrong codes came from your network. Check the code with your instructor, then try again.")


def redis_url(app: Flask) -> str:
    """The ``REDIS_URL`` setting (trainer/web/core/config.py); empty: counted in memory."""
    return (app.config.get("REDIS_URL") or "").strip()


def _counter(limiter: Limiter, name: str, spec: str, *, failures_only: bool) -> Counter:
    """A counter over ``limiter``: its limit decorates a function that does nothing, so calling
    that function is the limiter's own check, with its fallback to memory and its deductions."""

    def key() -> str:
        return g.get(KEYS, {}).get(name, "-")

    def failed(response: Response) -> bool:
        return name in g.get(FAILED, ())

    def check() -> None:
        """Nothing: the limit is checked, and counted when every attempt counts, on the way in."""

    # flask-limiter files a decorated limit under the function's qualified name: one per counter
    check.__name__ = check.__qualname__ = "over_" + name.replace("-", "_")
    limit = limiter.shared_limit(spec, scope=name, key_func=key, deduct_when=failed if failures_only else None)
    return Counter(name=name, limiter=limiter, check=limit(check))


def _let_expiry_timers_finish() -> None:
    """Under gevent, give the limiter's memory storages their first expiry (10 ms) here and now.

    ``trainer serve`` builds the app in the server's master and forks its workers from it. The
    ``limits`` library's memory storage starts a timer that expires old counts when it is made;
    under gevent that timer is a greenlet, and one still pending at the fork ran in every worker
    and failed there (a ``KeyError`` traceback at each start). Once it has run, each worker starts
    its own timer on its first count."""
    if "gevent" not in sys.modules:
        return
    from gevent import monkey, sleep

    if monkey.is_module_patched("threading"):
        sleep(0.02)


def init_app(app: Flask) -> Limits:
    url = redis_url(app)
    limiter = Limiter(
        address,
        storage_uri=url or "memory://",
        storage_options=REDIS_TIMEOUTS if url else {},
        strategy="moving-window",
        key_prefix=app.config.get("RATELIMIT_KEY_PREFIX", "trainer"),
        # Redis unreachable: count in this process's memory (logged) until it answers again,
        # rather than every limited page failing.
        in_memory_fallback_enabled=True,
        swallow_errors=True,
    )
    limiter.init_app(app)
    _let_expiry_timers_finish()
    made = Limits(
        shared=bool(url),
        signup_address=_counter(limiter, "signup-address", SIGNUP_ADDRESS, failures_only=False),
        login_address=_counter(limiter, "login-address", LOGIN_ADDRESS, failures_only=True),
        login_account=_counter(limiter, "login-account", LOGIN_ACCOUNT, failures_only=True),
        join_address=_counter(limiter, "join-address", JOIN_ADDRESS, failures_only=True),
        verify_address=_counter(limiter, "verify-address", VERIFY_ADDRESS, failures_only=True),
    )
    app.extensions[EXTENSION] = made
    return made


def warning(app: Flask, processes: int) -> str | None:
    """What to log at start when several processes would each count the limits on their own."""
    limits = app.extensions.get(EXTENSION)
    if processes <= 1 or limits is None or limits.shared:
        return None
    return (
        f"REDIS_URL is not set: each of the {processes} processes counts rate limits on its own, "
        f"so a client gets up to {processes} times each limit (10 failed sign-ins a minute become "
        f"{10 * processes}). Set REDIS_URL to share the counts."
    )
