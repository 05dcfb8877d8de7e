"""``trainer serve``: the app under waitress, a production WSGI server.

Waitress is pure Python, runs the same on Linux, macOS and Windows, and
serves from a pool of threads. One Python process uses one core at a time,
so where the OS can fork, ``run`` starts one waitress process per core (or
``TRAINER_PROCESSES``) on a listening socket bound once, before the fork:
the scenario library is loaded once, and every process shares it and the
secret key. Elsewhere, or with ``TRAINER_PROCESSES=1``, it is one process.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys

import waitress

from . import create_app

log = logging.getLogger(__name__)

THREADS = 4  # per process
IDENT = "holdem-rules-trainer"
# A class keeps a connection open per student (htmx polls): waitress's default limit of 100 open
# connections would hold the rest in the listen queue. poll() has no 1024-descriptor limit.
CONNECTIONS = {"connection_limit": 1000, "asyncore_use_poll": True}


def url_for_host(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def _processes() -> int:
    wanted = os.environ.get("TRAINER_PROCESSES", "").strip()
    if not hasattr(os, "fork"):
        return 1
    return max(1, int(wanted)) if wanted else (os.cpu_count() or 1)


def _listen(host: str, port: int) -> socket.socket:
    family, kind, proto, _, address = socket.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(1024)
    return sock


def _die_with_parent() -> None:
    """Linux: a worker must not outlive a parent killed without a chance to stop it."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def run(host: str, port: int, scenarios: str | None) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app({"SCENARIO_DIRS": [scenarios]} if scenarios else None)
    threads = int(os.environ.get("TRAINER_THREADS", THREADS))
    processes = _processes()
    log.info(
        "Holdem Rules Trainer: open %s in a browser (%d %s × %d threads)",
        url_for_host(host, port),
        processes,
        "process" if processes == 1 else "processes",
        threads,
    )
    if processes == 1:
        waitress.serve(app, host=host, port=port, threads=threads, ident=IDENT, **CONNECTIONS)
        return

    sock = _listen(host, port)
    workers: list[int] = []
    for _ in range(processes):
        pid = os.fork()
        if pid == 0:
            _die_with_parent()
            code = 0
            try:
                waitress.serve(app, sockets=[sock], threads=threads, ident=IDENT, **CONNECTIONS)
            except KeyboardInterrupt:
                pass
            except BaseException:
                log.exception("worker failed")
                code = 1
            finally:
                os._exit(code)
        workers.append(pid)
    sock.close()

    def stop(signum: int, frame: object) -> None:
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    failed = False
    try:
        while workers:
            pid, status = os.wait()
            if pid in workers:
                workers.remove(pid)
                if os.waitstatus_to_exitcode(status) not in (0, -signal.SIGTERM, -signal.SIGINT):
                    failed = True
                    stop(signal.SIGTERM, None)
    except KeyboardInterrupt:
        stop(signal.SIGTERM, None)
        for pid in workers:
            os.waitpid(pid, 0)
    if failed:
        sys.exit("a server process failed; see the log above")
