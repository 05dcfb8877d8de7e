"""Rate limits: signing up, signing in, joining a class, checking a verification code.

All counts live in one storage for the app, made by the ``limits`` library
(what flask-limiter is built on): Redis when ``REDIS_URL`` is set, so every
app process shares them; otherwise the process's memory, so each process of
``trainer serve`` counts on its own (``warning`` says so at start). Each
limit is a moving window per key: an address, or an account.

The views ask ``blocked(key)`` and call ``hit(key)`` for what counts, so each
decides what a limit may block:

- sign-up: every attempt from an address counts;
- signing in: only failures count, per address and per account, and over
  either limit the password is not checked;
- joining a class: only wrong codes count, and a right code always joins,
  so a class behind one address is not locked out by the few who mistype it;
- verification codes: only unknown codes count; over the limit every code
  is refused, or the answer would tell a guesser which code is real.

flask-limiter itself is not used: its check before every request costs
about 80 µs even for the routes it does not limit (``docs/web.md``).
If Redis cannot be reached, counting goes on in the process's memory and
the log says so, rather than every limited page failing.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from dataclasses import dataclass

from flask import Flask, current_app, request
from flask_babel import gettext as _
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

log = logging.getLogger(__name__)

EXTENSION = "trainer.limits"

# Every sign-up from one address counts, whatever its outcome (a refused one
# also tells whether an email has an account).
SIGNUP_ADDRESS = "20 per minute;100 per hour"
# Failures only.
LOGIN_ADDRESS = "10 per minute;50 per hour"
LOGIN_ACCOUNT = "5 per minute;20 per hour"
JOIN_ADDRESS = "20 per minute;200 per hour"
VERIFY_ADDRESS = "20 per minute;200 per hour"

RETRY_STORAGE = 30  # seconds between tries of a storage that could not be reached
REDIS_TIMEOUTS = {"socket_connect_timeout": 2, "socket_timeout": 2}


class Strategy:
    """A moving window over the app's storage that falls back to memory while the storage is down.

    Counts kept in memory are made in the process that counts with them, on its first count: the
    app is built in the server's master and its workers are forked from it, and ``limits``'
    ``MemoryStorage`` starts a timer that expires old counts. Under gevent workers that timer is a
    greenlet, made in the master and run in every worker after the fork, where it failed (a
    ``KeyError`` traceback in the log at every start) and was never started again, so old counts
    were never expired."""

    def __init__(self, storage=None) -> None:
        self._storage = storage  # None: counted in memory, in each process
        self._limiters: tuple[int, MovingWindowRateLimiter, MovingWindowRateLimiter] | None = None
        self._lock = threading.Lock()
        self.down_since: float | None = None

    def _made(self) -> tuple[MovingWindowRateLimiter, MovingWindowRateLimiter]:
        """This process's limiters: the storage's, and the memory's it falls back on."""
        made = self._limiters
        if made is None or made[0] != os.getpid():
            with self._lock:
                made = self._limiters
                if made is None or made[0] != os.getpid():
                    primary = MemoryStorage() if self._storage is None else self._storage
                    made = self._limiters = (os.getpid(), MovingWindowRateLimiter(primary),
                                             MovingWindowRateLimiter(MemoryStorage()))
        return made[1], made[2]

    def _call(self, name: str, *args):
        primary, fallback = self._made()
        if self.down_since is None or time.monotonic() - self.down_since > RETRY_STORAGE:
            try:
                result = getattr(primary, name)(*args)
            except Exception as exc:  # any storage error: keep counting here, and say so
                log.error("rate-limit storage unreachable (%s): counting in this process for now", exc)
                self.down_since = time.monotonic()
            else:
                self.down_since = None
                return result
        return getattr(fallback, name)(*args)

    def test(self, item: RateLimitItem, *ids: str) -> bool:
        return self._call("test", item, *ids)

    def hit(self, item: RateLimitItem, *ids: str) -> bool:
        return self._call("hit", item, *ids)

    def get_window_stats(self, item: RateLimitItem, *ids: str):
        return self._call("get_window_stats", item, *ids)


@dataclass(frozen=True, kw_only=True)
class Counter:
    """Attempts of one kind (a sign-up, a failed sign-in, ...), counted per key."""

    name: str
    items: tuple[RateLimitItem, ...]
    strategy: Strategy
    prefix: str

    def _ids(self, key: str) -> tuple[str, str, str]:
        return (self.prefix, self.name, key)

    def blocked(self, key: str) -> bool:
        """Whether this key has used up any of its windows."""
        return not all(self.strategy.test(item, *self._ids(key)) for item in self.items)

    def hit(self, key: str) -> None:
        for item in self.items:
            self.strategy.hit(item, *self._ids(key))

    def retry_after(self, key: str) -> int:
        """Seconds until a blocked key may try again."""
        now = time.time()
        waits = [
            stats.reset_time - now
            for item in self.items
            if (stats := self.strategy.get_window_stats(item, *self._ids(key))).remaining <= 0
        ]
        return max(1, int(max(waits, default=1) + 0.999))


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


def init_app(app: Flask) -> Limits:
    url = redis_url(app)
    prefix = app.config.get("RATELIMIT_KEY_PREFIX", "trainer")
    strategy = Strategy(storage_from_string(url, **REDIS_TIMEOUTS) if url else None)

    def counter(name: str, spec: str) -> Counter:
        return Counter(name=name, items=tuple(parse_many(spec)), strategy=strategy, prefix=prefix)

    made = Limits(
        shared=bool(url),
        signup_address=counter("signup-address", SIGNUP_ADDRESS),
        login_address=counter("login-address", LOGIN_ADDRESS),
        login_account=counter("login-account", LOGIN_ACCOUNT),
        join_address=counter("join-address", JOIN_ADDRESS),
        verify_address=counter("verify-address", VERIFY_ADDRESS),
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
