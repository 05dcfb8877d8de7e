"""gunicorn run from ``trainer serve`` (POSIX only: gunicorn needs ``fork``).

``Server`` hands gunicorn the app already built in the master
(``preload_app``), so the workers fork from one copy of the scenario
library. The store is right across the fork without a hook: the master's
connection pool is emptied in every child (``trainer/store/db.py``), and a
worker starts its own writer thread on its first graded answer (the master
never has one). ``worker_exit`` has a stopping worker write the graded
answers it still holds.

The workers are gevent's where gevent is installed (``StreamWorker``): a
classroom's server-sent event streams (trainer/web/events.py) wait for
minutes, and a gevent worker holds a greenlet, not a thread, for each.
``trainer serve`` patches the standard library for gevent in the master,
before the app is built, so the database drivers and the writer thread
cooperate from the start. Without gevent they are gthread workers, which
hold a thread per open stream (the streams are then capped per process and
the other pages poll). docs/classroom.md has the measurements.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import importlib.util

from flask import Flask
from gunicorn.app.base import BaseApplication

log = logging.getLogger(__name__)

KEEPALIVE = 75  # seconds an idle keep-alive connection is kept, parked: it holds no thread
WORKER_CONNECTIONS = 1000  # open connections per worker, parked ones included
GRACEFUL = 10  # seconds a stopping worker has to finish its requests and store its last answers
STREAMS = WORKER_CONNECTIONS - 200  # event streams per gevent worker: the rest of its connections are pages


def gevent_available() -> bool:
    return importlib.util.find_spec("gevent") is not None


def worker_class() -> str:
    return "trainer.web.prefork.StreamWorker" if gevent_available() else "gthread"


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
    ) -> None:
        self.app, self.rebuild, self.finish = app, rebuild, finish
        self.options = {
            "bind": [bind],
            "workers": processes,
            "worker_class": worker_class(),
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


if gevent_available():
    from gunicorn.workers.ggevent import GeventWorker

    class StreamWorker(GeventWorker):
        """A gevent worker whose open event streams end when it is told to stop, so it stops at once:
        their browsers reconnect to another worker instead of waiting out the graceful timeout."""

        def handle_exit(self, sig, frame) -> None:
            import gevent

            feed = getattr(self.wsgi, "extensions", {}).get("trainer.events")
            if feed is not None:
                gevent.spawn(feed.close_all)
            super().handle_exit(sig, frame)
