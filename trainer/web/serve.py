"""``trainer serve``: the app under gunicorn where the OS can fork, waitress elsewhere.

On Linux and macOS, gunicorn's master builds the app once (``preload_app``:
the scenario library is loaded and the secret key read before the fork, so
every worker serves the same spots and accepts every other's session
cookies), then forks ``TRAINER_PROCESSES`` workers sharing one listening
socket. It starts a new worker for one that dies, and on SIGHUP builds the
app again (the scenario files read anew) and replaces the workers one
generation at a time, each old one finishing the requests it holds.
The workers are ``gevent``: the standard library is patched in the master
before the app is built, and each request and each live classroom's event
stream is a greenlet, so a stream holds no thread (at most 16 requests are
inside the app at once per worker: trainer/web/prefork.py).
``TRAINER_WORKER=gthread`` runs gthread workers instead: ``TRAINER_THREADS``
threads each, idle keep-alive connections parked in the worker's event loop,
and the event streams capped and bounded in time, since each holds a thread
(trainer/web/live/feed.py). docs/web.md ("Serving") says why gevent is the default.

Where gunicorn cannot run (Windows), or with ``TRAINER_PROCESSES=1``, the
app runs in one waitress process: pure Python, a pool of threads, the same
on every OS. docs/web.md ("Serving") has the measurements behind the choice.

Each worker's graded answers are stored by its own writer thread (a greenlet under gevent), started
in the worker on its first answer (trainer/store/writer.py); a stopping
worker writes what it still holds before it exits.
"""

from __future__ import annotations

import gc
import importlib.util
import logging
import signal
import sys

import waitress
from flask import Flask

from trainer.web import create_app
from trainer.web.core import config, limits

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


def prefork_gevent() -> bool:
    return importlib.util.find_spec("gevent") is not None


def server_for(processes: int) -> str:
    return "gunicorn" if processes > 1 and gunicorn_available() else "waitress"


def _build(scenarios: str | None) -> Flask:
    app = create_app({"SCENARIO_DIRS": [scenarios]} if scenarios else None)
    # The scenario libraries are built and never freed: keep the collector from walking them again
    # and again (its pauses were the drill page's slowest responses), and the forked processes
    # from copying their pages by touching them.
    gc.collect()
    gc.freeze()
    return app


def _finish(app: Flask) -> None:
    """A stopping server process stores the graded answers it still holds (trainer/store/writer.py)."""
    try:
        app.extensions["trainer.store"].attempts.close()
    except Exception:
        log.exception("could not store the last graded answers")


def run(host: str, port: int, scenarios: str | None, *, server: str | None = None) -> None:
    """Serve until stopped. ``server`` ("gunicorn" or "waitress") overrides the choice by process count."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # waitress warns "Task queue depth is N" each time a request waits for a thread, which under a
    # class's load is most requests: a log line each, written under the task queue's lock.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    chosen = config.settings()
    server = server or server_for(chosen["PROCESSES"])
    green = server == "gunicorn" and chosen["WORKER"] == "gevent" and prefork_gevent()
    if green:
        from trainer.web.prefork import patch_for_gevent

        patch_for_gevent()
    app = _build(scenarios)
    processes, threads = app.config["PROCESSES"], app.config["THREADS"]
    if green:
        from trainer.web.prefork import PAGE_SLOTS, STREAMS, Bounded

        app.config["EVENTS_MAX_STREAMS"] = STREAMS
        app.wsgi_app = Bounded(app.wsgi_app, min(threads, PAGE_SLOTS))
    log.info(
        "Holdem Rules Trainer: open %s in a browser (%d %s, %s)",
        url_for_host(host, port),
        processes,
        "process" if processes == 1 else "processes",
        "gunicorn gevent" if green else f"gunicorn gthread × {threads} threads" if server == "gunicorn"
        else f"waitress × {threads} threads",
    )
    unshared = limits.warning(app, processes)
    if unshared:
        log.warning(unshared)
    if server == "gunicorn":
        from trainer.web.prefork import Server

        Server(app, lambda: _build(scenarios), bind=bind_address(host, port), processes=processes,
               threads=threads, finish=_finish, worker="gevent" if green else "gthread").run()
        return

    def stop(signum: int, frame: object) -> None:
        app.extensions["trainer.events"].close_all()  # open event streams end; their pages reconnect
        raise SystemExit(0)  # out of waitress's loop, into _finish

    signal.signal(signal.SIGTERM, stop)
    try:
        waitress.serve(app, host=host, port=port, threads=threads, ident=IDENT, **CONNECTIONS)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        _finish(app)
