"""gunicorn run from ``trainer serve`` (POSIX only: gunicorn needs ``fork``).

``Server`` hands gunicorn the app already built in the master
(``preload_app``), so the workers fork from one copy of the scenario
library. The store is right across the fork without a hook: the master's
connection pool is emptied in every child (``trainer/store/engines.py``), and a
worker starts its own writer thread on its first graded answer (the master
never has one). ``worker_exit`` has a stopping worker write the graded
answers it still holds.

The workers are gevent by default (``StreamWorker``): each request and each
classroom's server-sent event stream is a greenlet, so a stream holds no
thread; ``trainer serve`` patches the standard library in the master before
the app is built, and ``Bounded`` lets at most ``PAGE_SLOTS`` requests into the
app at once (the database pool's size). A gevent worker answers one request of
a connection, then lets the others have their turn (``StreamWorker.handle_request``).
``TRAINER_WORKER=gthread`` runs gthread workers (``ThreadStreamWorker``): a stream
then holds one of their threads, so the streams are capped per process and end
after a bounded lifetime (the page reconnects, or polls). docs/web.md ("Serving")
has the measurements behind the choice.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import time
from collections.abc import Callable

from flask import Flask
from gunicorn.app.base import BaseApplication

log = logging.getLogger(__name__)

KEEPALIVE = 75  # seconds an idle keep-alive connection is kept, parked: it holds no thread
WORKER_CONNECTIONS = 1000  # open connections per worker, parked ones included
GRACEFUL = 10  # seconds a stopping worker has to finish its requests and store its last answers
STREAMS = WORKER_CONNECTIONS - 200  # event streams per gevent worker: the rest of its connections are pages
# Requests a gevent worker runs at once, as many as its database pool has connections (8 + 8,
# trainer/store/engines.py): a class's burst waits here, in order, not in the pool (10 s, then an error).
PAGE_SLOTS = 16
NEXT_TURN = 1e-6  # seconds a gevent worker's connection sleeps after each request: the loop's next turn


class Bounded:
    """WSGI middleware: at most ``slots`` requests inside the app at once. An event stream's
    body runs after the app returned it, outside the bound, so waiting streams take no slot."""

    def __init__(self, app, slots: int) -> None:
        self.app, self.slots = app, slots
        self._pid = None
        self._sem = None

    def __call__(self, environ, start_response):
        if self._pid != os.getpid():
            # made in the worker: a semaphore made in the master before the fork belongs to the
            # master's event loop, and a greenlet waiting on it in a worker would never wake
            import threading  # patched for gevent by then: a greenlet's semaphore

            self._sem, self._pid = threading.BoundedSemaphore(self.slots), os.getpid()
        with self._sem:
            return self.app(environ, start_response)


def gevent_available() -> bool:
    return importlib.util.find_spec("gevent") is not None


def worker_class(worker: str) -> str:
    if worker == "gevent" and gevent_available():
        return "trainer.web.prefork.StreamWorker"
    return "trainer.web.prefork.ThreadStreamWorker"


def _end_streams(worker) -> None:
    feed = getattr(worker.wsgi, "extensions", {}).get("trainer.events")
    if feed is not None:
        feed.close_all()


def patch_for_gevent() -> None:
    """In the master, before anything opens a socket or a thread: what the workers inherit cooperates."""
    from gevent import monkey

    monkey.patch_all()


class Server(BaseApplication):
    def __init__(
        self,
        app: Flask,
        rebuild: Callable[[], Flask],
        *,
        bind: str,
        processes: int,
        threads: int,
        finish: Callable[[Flask], None],
        worker: str = "gthread",
    ) -> None:
        self.app, self.rebuild, self.finish = app, rebuild, finish
        self.options = {
            "bind": [bind],
            "workers": processes,
            "worker_class": worker_class(worker),
            "threads": threads,
            "worker_connections": WORKER_CONNECTIONS,
            "keepalive": KEEPALIVE,
            "graceful_timeout": GRACEFUL,
            "preload_app": True,
            "control_socket_disable": True,  # gunicornc is not used; one socket per home, shared by every server
            "proc_name": "holdem-rules-trainer",
            "errorlog": "-",
            "loglevel": "info",
            "worker_exit": self._worker_exit,
        }
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        return self.app

    def reload(self) -> None:
        """SIGHUP: build the app again (scenario files read anew); the new workers fork from it."""
        super().reload()
        try:
            app = self.rebuild()
        except Exception:
            log.exception("the app could not be built again: the workers keep the one they had")
            return
        self.app.extensions["trainer.store"].engine.dispose()
        self.app, self.callable = app, None

    def _worker_exit(self, server, worker) -> None:
        self.finish(self.app)  # in a worker: the app it was forked with


from gunicorn.workers.gthread import ThreadWorker  # noqa: E402


class Sharing:
    """When a worker that holds connections takes a new one: not at once, so that a less busy worker
    may take it first.

    The workers share one listening socket, and a keep-alive connection stays with the worker that
    accepted it: whichever wakes first takes a burst of them (50 connections opened at once were
    seen to land 50/0 and 40/10 on two gthread workers, 51/0 on two gevent workers, one core idle).
    So a worker that already holds connections lets a new one wait a moment for a less busy worker
    to take it — ``YIELD_PER_CONN`` per connection it holds, never more than ``YIELD_MAX`` — and
    takes it itself after that (a worker that is stuck cannot hold connections back for longer)."""

    YIELD_PER_CONN = 0.0002  # seconds a new connection is left to the others, per connection held
    YIELD_MAX = 0.005
    YIELD_STEP = 0.0005  # the pause between looks, so that waiting does not spin

    def __init__(self) -> None:
        self._waiting_since: float | None = None

    def yields(self, held: int, now: float) -> bool:
        """Whether to leave the connection now waiting to the other workers a little longer."""
        if self._waiting_since is None or now - self._waiting_since > 2 * self.YIELD_MAX:
            self._waiting_since = now  # a new connection (the last one was taken, here or elsewhere)
        if now - self._waiting_since < min(held * self.YIELD_PER_CONN, self.YIELD_MAX):
            return True
        self._waiting_since = None
        return False


class ThreadStreamWorker(ThreadWorker):
    """gthread, whose open event streams end when it is told to stop: otherwise each would hold
    its thread, and the worker, until the graceful timeout. Their browsers reconnect elsewhere.
    With other workers, it shares a burst of new connections with them (``Sharing``)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._sharing = Sharing()

    def accept(self, listener) -> None:
        if self.cfg.workers > 1 and self._sharing.yields(self.nr_conns, time.monotonic()):
            time.sleep(Sharing.YIELD_STEP)
            return
        super().accept(listener)

    def handle_exit(self, sig, frame) -> None:
        _end_streams(self)
        super().handle_exit(sig, frame)


if gevent_available():
    import gevent
    from gevent.server import StreamServer
    from gunicorn.workers import ggevent
    from gunicorn.workers.ggevent import GeventWorker

    class SharingServer(StreamServer):
        """gevent's server of a worker's listening socket, sharing a burst of new connections with
        the other workers (``Sharing``): gunicorn sets ``max_accept = 1``, but the worker that wakes
        first still took every connection of a burst, one wake-up after another, before the other
        woke. While it yields, it stops watching the socket and looks again after ``YIELD_STEP``."""

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self._sharing = Sharing()

        def _do_read(self) -> None:  # gevent calls this when the listening socket is readable
            held = self.pool.size - self.pool.free_count() if self.pool is not None else 0
            if self.max_accept == 1 and self._sharing.yields(held, time.monotonic()):
                self.stop_accepting()
                self._timer = self.loop.timer(Sharing.YIELD_STEP)
                self._timer.start(self._start_accepting_if_started)
                return
            super()._do_read()

    class StreamWorker(GeventWorker):
        """A gevent worker whose open event streams end when it is told to stop, so it stops at once:
        their browsers reconnect to another worker instead of waiting out the graceful timeout.
        With other workers, it shares a burst of new connections with them (``SharingServer``)."""

        def handle_request(self, listener_name, req, sock, addr):
            """One request of a connection, then the other connections' turn.

            gevent reads a socket eagerly: with the next request of a connection already there (a
            fast client, or one pipelining), the worker went on answering it and nothing else; under
            the benchmark the drill page's p99 was 92-120 ms, twice the gthread workers'. Sleeping
            with 0 would not do: gevent may run such a greenlet again before it looks for I/O for up
            to its switch interval. A sleep longer than 0 waits for the loop's next turn, in which
            every connection with a request waiting is answered once (the answer is sent already)."""
            try:
                return super().handle_request(listener_name, req, sock, addr)
            finally:
                gevent.sleep(NEXT_TURN)

        def run(self) -> None:
            # gunicorn's run() builds its servers from this module name (with max_accept = 1 when
            # there are other workers); set in this worker process, after the fork.
            ggevent.StreamServer = SharingServer
            super().run()

        def handle_exit(self, sig, frame) -> None:
            gevent.spawn(_end_streams, self)
            super().handle_exit(sig, frame)
