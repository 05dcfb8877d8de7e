"""gunicorn run from ``trainer serve`` (POSIX only: gunicorn needs ``fork``).

``Server`` hands gunicorn the app already built in the master
(``preload_app``), so the workers fork from one copy of the scenario
library. The hooks keep the store right across the fork: a worker opens
its own database connections and starts its own writer thread (the master
has neither), and writes the graded answers it still holds before it exits.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from flask import Flask
from gunicorn.app.base import BaseApplication

log = logging.getLogger(__name__)

KEEPALIVE = 75  # seconds an idle keep-alive connection is kept, parked: it holds no thread
WORKER_CONNECTIONS = 1000  # open connections per worker, parked ones included
GRACEFUL = 10  # seconds a stopping worker has to finish its requests and store its last answers


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
            "worker_class": "gthread",
            "threads": threads,
            "worker_connections": WORKER_CONNECTIONS,
            "keepalive": KEEPALIVE,
            "graceful_timeout": GRACEFUL,
            "preload_app": True,
            "control_socket_disable": True,  # gunicornc is not used; one socket per home, shared by every server
            "proc_name": "holdem-rules-trainer",
            "errorlog": "-",
            "loglevel": "info",
            "post_fork": self._post_fork,
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

    def _post_fork(self, server, worker) -> None:
        # Connections are never shared across a fork: this worker's pool starts empty
        # (close=False leaves any the master had to the master).
        self.app.extensions["trainer.store"].engine.dispose(close=False)

    def _worker_exit(self, server, worker) -> None:
        self.finish(worker.wsgi if isinstance(worker.wsgi, Flask) else self.app)
