"""Live classroom: server-sent events that say "something changed" to every open page of a session.

A stream (``text/event-stream``) per viewer: a student's phone, the
instructor's control page, the projector. It sends ``event: changed`` when
the session moves on (state, question, reveal, a student removed or let
back) and, on the instructor's streams, when answers or students arrive;
the page then fetches the same fragment its poll would (htmx's SSE
extension, ``hx-trigger="sse:changed"``). The stream carries no data of the
session, so it needs no rendering and no database connection while it is
open.

Every app process must hear every change, so a change goes through a feed
shared by the processes, and each process fans it out to its own streams:

- **PostgreSQL** (``DATABASE_URL``): ``NOTIFY`` on one channel, one
  ``LISTEN`` connection per process;
- **Redis** (``REDIS_URL``, with SQLite): pub/sub, one subscription per process;
- **SQLite** alone: the change is delivered at once in its own process, and
  a thread per process reads the sessions' state and answer counts every
  second while streams are open, for the changes made by the others.

A feed that loses its connection reconnects with backoff and then tells
every stream to refresh, since notices sent meanwhile are gone. A stream
also refreshes its page when it (re)connects. docs/classroom.md has the
choice of server that keeps idle streams from holding a thread each.
"""

from __future__ import annotations

import hashlib
import logging
import os
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from flask import Flask, current_app

log = logging.getLogger(__name__)

EXTENSION = "trainer.events"
CHANNEL = "trainer_classroom"
STATE = "state"  # the session moved on: every viewer refreshes
ANSWERS = "answers"  # an answer or a student arrived: the instructor's views refresh
EVERYONE = "*"  # a feed that reconnected: every stream refreshes
INSTRUCTOR_KINDS = frozenset({STATE, ANSWERS})
STUDENT_KINDS = frozenset({STATE})
BACKOFF = (0.2, 5.0)  # seconds between reconnections: first, most
LISTEN_WAIT = 2.0  # seconds the first stream of a process waits for the feed to listen
MAX_KNOWN = 10_000  # values of live sessions a process remembers (a few per session)
KNOWN_FOR = 5.0  # seconds a remembered value is trusted, notices or not


@dataclass(eq=False)
class Subscription:
    session_id: str
    kinds: frozenset[str]
    _ready: threading.Event = field(default_factory=threading.Event)
    closed: bool = False

    def notify(self) -> None:
        self._ready.set()

    def wait(self, timeout: float) -> bool:
        """True when something changed within ``timeout`` seconds (or the stream is being closed)."""
        fired = self._ready.wait(timeout)
        # Cleared only when it fired: a change that comes just after a timed-out wait (a keep-alive)
        # stays set for the next wait instead of being wiped. One that comes after it fired and
        # before the clear is in the refresh about to be sent, which reads after both.
        if fired:
            self._ready.clear()
        return fired


class Feed:
    """Streams of this process by session, and delivery to them. The base class reaches one process."""

    name = "in-process"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._streams: dict[str, set[Subscription]] = {}
        self._pid = os.getpid()
        self._started = False
        self._listening = threading.Event()
        self.stopping = False
        # What this process knows of live sessions (key -> (session id, value)), for the students'
        # polls: trusted only while the feed hears every process's changes (``_hearing``); any change
        # of a session's state, and any gap in hearing, forgets it. ``_generation`` counts those, so
        # a value read from the database is kept only if nothing changed while it was being read.
        self._hearing = False
        self._generation = 0
        self._known: dict[str, tuple[str, object, float]] = {}

    # ----------------------------------------------------------- streams

    def _forked(self) -> None:
        """Under the lock: in a process forked after the first stream, the parent's are not ours."""
        if self._pid != os.getpid():
            self._pid, self._streams, self._started = os.getpid(), {}, False
            self._hearing, self._known = False, {}

    def subscribe(self, session_id: str, kinds: frozenset[str]) -> Subscription:
        sub = Subscription(session_id=session_id, kinds=kinds)
        with self._lock:
            self._forked()
            self._streams.setdefault(session_id, set()).add(sub)
            start, self._started = not self._started, True
        if start:
            self._listening = threading.Event()
            self.start()
            # the first stream's page refreshes at once: what changes after that must be heard
            self._listening.wait(LISTEN_WAIT)
        return sub

    # ----------------------------------------------------------- what the process knows

    def since(self) -> int | None:
        """A mark to pass to ``keep`` with a value about to be read; None while this process cannot
        hear every change (then nothing is kept). Starts hearing, for the next requests."""
        with self._lock:
            self._forked()
            start, self._started = not self._started, True
            mark = self._generation if self._hearing else None
        if start:
            self._listening = threading.Event()
            self.start()
        return mark

    @property
    def hearing(self) -> bool:
        """This process hears every process's changes now (a push feed, connected)."""
        return self._hearing

    def keep(self, key: str, session_id: str, value: object, since: int | None) -> None:
        """Remember ``value`` of a session, read after ``since()`` gave ``since``, unless it changed meanwhile."""
        with self._lock:
            if since is None or not self._hearing or since != self._generation:
                return
            at = time.monotonic()
            if len(self._known) >= MAX_KNOWN:  # full: what has run out goes (sessions left open, say)
                self._known = {k: v for k, v in self._known.items() if v[2] > at}
                if len(self._known) >= MAX_KNOWN:
                    self._known = {}
            self._known[key] = (session_id, value, at + KNOWN_FOR)

    def known(self, key: str) -> object | None:
        with self._lock:
            if not self._hearing or self._pid != os.getpid():
                return None
            kept = self._known.get(key)
        # Kept a few seconds at most: a notice that never came (a publish that failed) cannot
        # leave a page behind for longer.
        return kept[1] if kept is not None and time.monotonic() < kept[2] else None

    def forget(self, session_id: str) -> None:
        """The session changed (or, with EVERYONE, anything may have): what is known of it is gone."""
        with self._lock:
            self._generation += 1
            if session_id == EVERYONE:
                self._known = {}
            else:
                self._known = {k: v for k, v in self._known.items() if v[0] != session_id}

    def _hears(self, hearing: bool) -> None:
        with self._lock:
            self._hearing = hearing
            self._generation += 1
            self._known = {}

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._streams.get(sub.session_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._streams[sub.session_id]

    def open_streams(self) -> int:
        with self._lock:
            return sum(len(subs) for subs in self._streams.values())

    def sessions(self) -> list[str]:
        with self._lock:
            return list(self._streams)

    def deliver(self, session_id: str, kind: str) -> None:
        if kind == STATE or session_id == EVERYONE:
            self.forget(session_id)
        with self._lock:
            if session_id == EVERYONE:
                subs = [s for group in self._streams.values() for s in group]
            else:
                subs = [s for s in self._streams.get(session_id, ()) if kind in s.kinds]
        for sub in subs:
            sub.notify()

    def close_all(self) -> None:
        """The process is stopping: every stream ends now, and its browser reconnects to another."""
        self.stopping = True
        with self._lock:
            subs = [s for group in self._streams.values() for s in group]
        for sub in subs:
            sub.closed = True
            sub.notify()

    # ----------------------------------------------------------- the feed

    def start(self) -> None:
        """Begin hearing the other processes' changes (called on the first stream of a process)."""
        self._listening.set()

    def publish(self, session_id: str, kind: str) -> None:
        """Tell every process's streams; called after the change is committed."""
        self.deliver(session_id, kind)

    def with_commit(self, session_id: str, kind: str) -> bool:
        """Send the notice with the request's transaction, if this feed can (True); else call publish after it."""
        return False

    def _listen_forever(self, listen_once) -> None:
        """Run ``listen_once`` again and again; after each failure wait (backoff), then refresh everyone."""
        delay = BACKOFF[0]
        first = True

        def connected() -> None:
            nonlocal first
            self._hears(True)
            if first:
                first = False
                self._listening.set()
            else:  # what was sent while this process was not listening is gone: everyone refreshes
                self.deliver(EVERYONE, STATE)

        while not self.stopping:
            try:
                listen_once(connected)
                self._hears(False)
                delay = BACKOFF[0]
            except Exception as exc:  # any failure of the connection: say it, wait, connect again
                self._hears(False)
                log.warning("classroom events: the %s feed failed (%s); reconnecting in %.1f s", self.name, exc, delay)
                time.sleep(delay)
                delay = min(delay * 2, BACKOFF[1])
        self._hears(False)

    def _thread(self, target) -> None:
        threading.Thread(target=target, name=f"classroom-events-{self.name}", daemon=True).start()


class PostgresFeed(Feed):
    """NOTIFY in the request's transaction; one LISTEN connection per process."""

    name = "postgresql"

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        super().__init__()
        self.url, self.channel = url, channel

    def publish(self, session_id: str, kind: str) -> None:
        from trainer.store import db

        self.with_commit(session_id, kind)
        db().commit()

    def with_commit(self, session_id: str, kind: str) -> bool:
        from sqlalchemy import text

        from trainer.store import db

        # NOTIFY is transactional: it goes out when (and only if) the change it tells of is committed.
        db().execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": self.channel, "payload": f"{session_id} {kind}"})
        return True

    def start(self) -> None:
        self._thread(lambda: self._listen_forever(self._listen_once))

    def _listen_once(self, connected) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'LISTEN "{self.channel}"')
            connected()
            while not self.stopping:
                for notice in conn.notifies(timeout=5.0):
                    session_id, _, kind = notice.payload.partition(" ")
                    self.deliver(session_id, kind)
                conn.execute("SELECT 1")  # a dead server shows here, not after the kernel's timeout


class RedisFeed(Feed):
    """Redis pub/sub: PUBLISH after the commit; one subscription per process."""

    name = "redis"

    def __init__(self, url: str, channel: str) -> None:
        super().__init__()
        self.url, self.channel = url, channel
        self._client = None

    def _redis(self):
        if self._client is None:
            import redis

            self._client = redis.Redis.from_url(self.url, socket_timeout=2, socket_connect_timeout=2)
        return self._client

    def publish(self, session_id: str, kind: str) -> None:
        try:
            self._redis().publish(self.channel, f"{session_id} {kind}")
        except Exception as exc:  # the change is stored: pages still see it at their next poll
            log.warning("classroom events: could not publish to Redis (%s)", exc)
            self.deliver(session_id, kind)

    def start(self) -> None:
        self._thread(lambda: self._listen_forever(self._listen_once))

    def _listen_once(self, connected) -> None:
        import redis

        client = redis.Redis.from_url(self.url, socket_timeout=10, socket_connect_timeout=2)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        try:
            pubsub.subscribe(self.channel)
            connected()
            while not self.stopping:
                message = pubsub.get_message(timeout=5.0)
                if message is None:
                    pubsub.ping()
                    continue
                session_id, _, kind = message["data"].decode("ascii", "replace").partition(" ")
                self.deliver(session_id, kind)
        finally:
            pubsub.close()
            client.close()


class SQLiteFeed(Feed):
    """One database file: delivered at once here, and read every second for the other processes' changes."""

    name = "sqlite"
    EVERY = 1.0

    def __init__(self, app: Flask) -> None:
        super().__init__()
        self.app = app
        self._seen: dict[str, tuple] = {}
        self._reading = threading.Lock()

    def subscribe(self, session_id: str, kinds: frozenset[str]) -> Subscription:
        sub = super().subscribe(session_id, kinds)
        # What a change is compared with is read now, before the stream's first refresh:
        # a change made between the two is then not taken for the starting point.
        try:
            with self._reading:
                if session_id not in self._seen:
                    self._compare([session_id])
        except BaseException:  # the stream never starts: its place is given back
            self.unsubscribe(sub)
            raise
        return sub

    def start(self) -> None:
        self._listening.set()  # the starting point is read in subscribe
        self._thread(self._watch)

    def _watch(self) -> None:
        while not self.stopping:
            time.sleep(self.EVERY)
            watched = self.sessions()
            try:
                with self._reading:
                    for gone in set(self._seen) - set(watched):
                        del self._seen[gone]
                    if watched:
                        self._compare(watched)
            except Exception as exc:  # a locked or missing file: the next round tries again
                log.warning("classroom events: could not read the sessions (%s)", exc)

    def _compare(self, watched: list[str]) -> None:
        from sqlalchemy import case, func, select

        from trainer.store.models import LiveAnswer, LiveSession, LiveStudent

        with self.app.extensions["trainer.store"].session() as s:
            states = {
                row[0]: tuple(row[1:])
                for row in s.execute(
                    select(LiveSession.id, LiveSession.state, LiveSession.current, LiveSession.revealed)
                    .where(LiveSession.id.in_(watched))
                )
            }
            answers = dict(
                s.execute(
                    select(LiveAnswer.session_id, func.count()).where(LiveAnswer.session_id.in_(watched))
                    .group_by(LiveAnswer.session_id)
                ).all()
            )
            students = {
                row[0]: tuple(row[1:])
                for row in s.execute(
                    select(LiveStudent.session_id, func.count(), func.sum(case((LiveStudent.removed, 1), else_=0)))
                    .where(LiveStudent.session_id.in_(watched)).group_by(LiveStudent.session_id)
                )
            }
        for session_id in watched:
            state = states.get(session_id, ()) + students.get(session_id, (0, 0))[1:]
            counts = (answers.get(session_id, 0), students.get(session_id, (0,))[0])
            before = self._seen.get(session_id)
            self._seen[session_id] = (state, counts)
            if before is None:
                continue
            if before[0] != state:
                self.deliver(session_id, STATE)
            elif before[1] != counts:
                self.deliver(session_id, ANSWERS)


def feed_for(app: Flask) -> Feed:
    from trainer.store import database_url

    url = database_url(app.config, app.instance_path)
    schema = app.config.get("DATABASE_SCHEMA") or "public"
    if url.startswith("postgres"):
        from sqlalchemy.engine import make_url

        libpq = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        return PostgresFeed(libpq, channel=f"{CHANNEL}_{schema}"[:63])
    redis_url = (app.config.get("REDIS_URL") or "").strip()
    if redis_url:
        # one channel per database: apps on another database that share the Redis do not hear these
        database = hashlib.sha256(url.encode()).hexdigest()[:16]
        return RedisFeed(redis_url, channel=f"{app.config.get('RATELIMIT_KEY_PREFIX', 'trainer')}:{CHANNEL}:{database}")
    return SQLiteFeed(app)


def init_app(app: Flask) -> Feed:
    app.config.setdefault("EVENTS_KEEPALIVE", 15.0)  # seconds between comments on an idle stream
    # A stream ends after this and the browser reconnects (EventSource, 2 s later): on a thread-per-
    # request server no stream holds its thread for longer, and a page turned away gets its turn.
    app.config.setdefault("EVENTS_LIFETIME", 120.0)
    app.config.setdefault("EVENTS_COALESCE", 0.5)  # a stream sends at most one change per this
    app.config.setdefault("EVENTS_SPREAD", 1.0)  # seconds over which a class's student streams are told
    # Open streams per process. A thread-per-request server (waitress) holds a thread per stream,
    # so it keeps half its threads for pages; trainer serve raises this for gevent workers.
    app.config.setdefault("EVENTS_MAX_STREAMS", max(1, app.config["THREADS"] // 2))
    feed = app.extensions[EXTENSION] = feed_for(app)
    return feed


def feed() -> Feed:
    return current_app.extensions[EXTENSION]


def with_commit(session_id: str, kind: str) -> bool:
    """Before a commit: send the notice with it where the feed can (PostgreSQL); False means call
    ``changed`` after the commit instead."""
    return feed().with_commit(session_id, kind)


def changed(session_id: str, kind: str = STATE) -> None:
    """After a commit: tell every open page of the session (every process) that it changed."""
    if kind == STATE:
        feed().forget(session_id)  # at once here; the other processes when the notice reaches them
    feed().publish(session_id, kind)


def stream(
    feed: Feed, session_id: str, kinds: frozenset[str], *, keepalive: float, lifetime: float, coalesce: float,
    spread: float = 0.0,
) -> Iterator[str]:
    """The body of one event stream; ends when the client leaves (the write fails), or after ``lifetime``.
    ``spread``: each change is sent after a random wait of up to this many seconds, so that a whole
    class's pages do not all fetch in the same millisecond (their polls spread over two seconds).

    It takes its place among the feed's streams only when the server starts sending it, and gives it
    back in the ``finally`` that ends it: a body never started (a HEAD request, which werkzeug answers
    without iterating; a client gone before the first byte) holds nothing, since closing a generator
    that has not started runs no ``finally``."""
    ends = time.monotonic() + lifetime
    sub = feed.subscribe(session_id, kinds)
    try:
        # The page refreshes once on every (re)connection: what changed while it was away is not lost.
        yield "retry: 2000\nevent: changed\ndata: connected\n\n"
        while not sub.closed and not feed.stopping:
            left = ends - time.monotonic()
            if left <= 0:
                return
            if sub.wait(min(keepalive, left)):
                if sub.closed:
                    return
                if spread:
                    time.sleep(random.uniform(0, spread))
                yield "event: changed\ndata: \n\n"
                if coalesce:
                    time.sleep(coalesce)  # the answers that arrive meanwhile make one refresh
            else:
                yield ": keepalive\n\n"
    finally:
        feed.unsubscribe(sub)
