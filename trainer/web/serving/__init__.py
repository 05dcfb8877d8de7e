"""``trainer serve``: the app under gunicorn where the OS can fork, waitress elsewhere.

Only the command line imports this package. On Linux and macOS gunicorn's
master builds the app once (``preload_app``: the scenario library is loaded
and the secret key read before the fork, so every worker serves the same
spots and accepts every other's session cookies), then forks
``TRAINER_PROCESSES`` workers of gunicorn's own classes on one listening
socket (settings and hooks: ``settings.py``). The workers are ``gevent`` by
default: each connection is a greenlet, so a slow client or an open event
stream holds no thread, and a request body is read whole, within
``TRAINER_READ_SECONDS``, before the app sees the request (``bodies.py``).
``TRAINER_WORKER=gthread`` runs threads instead. docs/serving.md says why.

Where gunicorn cannot run (Windows), or with ``TRAINER_PROCESSES=1``, the
app runs in one waitress process, which reads each request whole in its own
event loop before a thread runs the app.
"""

from __future__ import annotations

import importlib.util
import logging
import signal
import sys

import waitress
from flask import Flask

from trainer.web.core import config, limits
from .lifecycle import build, finish

log = logging.getLogger(__name__)

IDENT = "holdem-rules-trainer"
# A class keeps a connection open per student (htmx polls): waitress's default limit of 100 open
# connections would hold the rest in the listen queue. poll() has no 1024-descriptor limit.
CONNECTIONS = {"connection_limit": 1000, "asyncore_use_poll": True}


def url_for_host(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def bind_address(host: str, port: int) -> str:
    """gunicorn's ``bind``: ``host:port``, an IPv6 address in brackets."""
    host = host or "0.0.0.0"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def gunicorn_available() -> bool:
    """gunicorn runs where the OS can fork and the package is installed (not on Windows)."""
    return sys.platform != "win32" and importlib.util.find_spec("gunicorn") is not None


def server_for(processes: int) -> str:
    return "gunicorn" if processes > 1 and gunicorn_available() else "waitress"


def worker_for(chosen: str) -> str:
    """gunicorn's worker class: the one chosen, gthread where gevent is not installed."""
    return "gevent" if chosen == "gevent" and importlib.util.find_spec("gevent") is not None else "gthread"


def run(host: str, port: int, scenarios: str | None, *, server: str | None = None) -> None:
    """Serve until stopped. ``server`` ("gunicorn" or "waitress") overrides the choice by process count."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # waitress warns "Task queue depth is N" each time a request waits for a thread, which under a
    # class's load is most requests: a log line each, written under the task queue's lock.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    chosen = config.settings()
    server = server or server_for(chosen["PROCESSES"])
    if server == "gunicorn":
        from . import settings

        worker = worker_for(chosen["WORKER"])
        settings.prepare_master(worker)
        app = settings.prepared(build(scenarios), worker)
        _started(app, host, port, f"gunicorn {worker}")
        settings.Application(app, lambda: settings.prepared(build(scenarios), worker),
                             settings.options(app, bind=bind_address(host, port), worker=worker)).run()
        return

    app = build(scenarios)
    _started(app, host, port, f"waitress × {app.config['THREADS']} threads")

    def stop(signum: int, frame: object) -> None:
        app.extensions["trainer.events"].close_all()  # open event streams end; their pages reconnect
        raise SystemExit(0)  # out of waitress's loop, into finish

    signal.signal(signal.SIGTERM, stop)
    try:
        waitress.serve(app, host=host, port=port, threads=app.config["THREADS"], ident=IDENT, **CONNECTIONS)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        finish(app)


def _started(app: Flask, host: str, port: int, how: str) -> None:
    processes = app.config["PROCESSES"]
    log.info("Holdem Rules Trainer: open %s in a browser (%d %s, %s)", url_for_host(host, port),
             processes, "process" if processes == 1 else "processes", how)
    unshared = limits.warning(app, processes)
    if unshared:
        log.warning(unshared)
