"""gunicorn's settings and hooks for ``trainer serve``, and the application class that hands them over.

Stock worker classes only (``gevent`` or ``gthread``), configured here;
nothing overrides gunicorn's or gevent's internals. What each setting buys
is in docs/serving.md.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

from .lifecycle import finish

log = logging.getLogger(__name__)

WORKER_CONNECTIONS = 1000  # open connections per worker (gevent: greenlets; gthread: parked ones included)
# Event streams per gevent worker (each holds a connection and a greenlet): the rest of its connections are pages.
STREAMS = WORKER_CONNECTIONS - 200
GRACEFUL = 10  # seconds a stopping worker has to finish its requests and store its last answers
STOPPING_LOOK = 0.5  # seconds between looks, in a worker, at whether it has been told to stop


def prepare_master(worker: str) -> None:
    """Before the app is built in the master: under gevent, the standard library is patched first, so
    that what the workers inherit (the database pool's locks, the store's queues) cooperates."""
    if worker == "gevent":
        from gevent import monkey

        monkey.patch_all()


def prepared(app: Flask, worker: str) -> Flask:
    """The app as a worker class serves it."""
    if worker == "gevent":
        from .bodies import ReadBodyFirst

        # a stream holds a greenlet, not a thread: far more of them than the default (half the threads)
        app.config["EVENTS_MAX_STREAMS"] = STREAMS
        app.wsgi_app = ReadBodyFirst(app.wsgi_app, seconds=app.config["READ_SECONDS"],
                                     limit=app.config["MAX_CONTENT_LENGTH"])
    return app


def options(app: Flask, *, bind: str, worker: str) -> dict[str, Any]:
    return {
        "bind": [bind],
        "workers": app.config["PROCESSES"],
        "worker_class": worker,
        "threads": app.config["THREADS"],
        "worker_connections": WORKER_CONNECTIONS,
        # gevent: the time a connection has to send a request's line and headers, waiting for its
        # next request included; gthread: how long an idle connection is kept, parked.
        "keepalive": app.config["READ_SECONDS"],
        "graceful_timeout": GRACEFUL,
        "preload_app": True,
        "control_socket_disable": True,  # gunicornc is not used; one socket per home, shared by every server
        "proc_name": "holdem-rules-trainer",
        "errorlog": "-",
        "loglevel": "info",
        "post_worker_init": end_streams_when_told_to_stop,
        "worker_exit": store_last_answers,
    }


def end_streams_when_told_to_stop(worker) -> None:
    """A worker told to stop ends its open event streams at once (their pages refresh and
    reconnect): otherwise it would keep them until it is killed at the end of its graceful timeout,
    which cuts them off. gunicorn has no hook at that moment, so a thread (a greenlet under gevent)
    looks at the worker's ``alive`` flag."""
    def watch() -> None:
        while worker.alive:
            time.sleep(STOPPING_LOOK)
        worker.wsgi.extensions["trainer.events"].close_all()

    threading.Thread(target=watch, name="end-streams-on-stop", daemon=True).start()


def store_last_answers(server, worker) -> None:
    finish(worker.wsgi)  # the app this worker was forked with


class Application(BaseApplication):
    """gunicorn run from ``trainer serve`` with the app built in the master: no command line, no file."""

    def __init__(self, app: Flask, rebuild: Callable[[], Flask], settings: dict[str, Any]) -> None:
        self.app, self.rebuild, self.settings = app, rebuild, settings
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.settings.items():
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
