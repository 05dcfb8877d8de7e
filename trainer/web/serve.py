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
import gc
import logging
import multiprocessing
import os
import signal
import socket
import sys
import time

import waitress

from . import create_app, limits

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


class Loads:
    """How many connections each server process holds, in memory the forked processes share.

    On one shared listening socket, whichever process wakes first accepts a
    connection: the browsers of a class (or a benchmark's clients) connecting
    at once could land mostly on one process, whose clients then wait twice
    as long as the other's, for as long as their keep-alive connections last.
    So a process stops accepting while it holds more than ``SLACK`` connections
    above the least busy of the others, which is listening on the same socket
    and takes them. A process not heard from for ``FRESH`` seconds (busy, or
    gone) is not waited for.
    """

    SLACK = 1
    FRESH = 3.0

    def __init__(self, processes: int) -> None:
        self._shared = multiprocessing.RawArray("d", 2 * processes)  # (connections, seen at) per process
        self.processes = processes

    def may_accept(self, index: int, connections: int) -> bool:
        now = time.monotonic()
        self._shared[2 * index], self._shared[2 * index + 1] = connections, now
        others = [
            self._shared[2 * i]
            for i in range(self.processes)
            if i != index and now - self._shared[2 * i + 1] < self.FRESH
        ]
        return not others or connections <= min(others) + self.SLACK

    def balance(self, server, index: int) -> None:
        """Make a waitress server's listener readable only while this process may accept."""
        readable = server.readable

        def balanced() -> bool:
            return readable() and self.may_accept(index, len(server._map))

        server.readable = balanced


def _die_with_parent() -> None:
    """Linux: a worker must not outlive a parent killed without a chance to stop it."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _stop_serving(signum: int, frame: object) -> None:
    raise SystemExit(0)  # out of waitress's loop, into _finish


def _finish(app) -> None:
    """A stopping server process stores the graded answers it still holds (trainer/store/writer.py)."""
    try:
        app.extensions["trainer.store"].attempts.close()
    except Exception:
        log.exception("could not store the last graded answers")


def run(host: str, port: int, scenarios: str | None) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # waitress warns "Task queue depth is N" each time a request waits for a thread, which under a
    # class's load is most requests: a log line each, written under the task queue's lock.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    app = create_app({"SCENARIO_DIRS": [scenarios]} if scenarios else None)
    # The scenario libraries are built and never freed: keep the collector from walking them again
    # and again (its pauses were the drill page's slowest responses), and the forked processes
    # from copying their pages by touching them.
    gc.collect()
    gc.freeze()
    threads = int(os.environ.get("TRAINER_THREADS", THREADS))
    processes = _processes()
    log.info(
        "Holdem Rules Trainer: open %s in a browser (%d %s × %d threads)",
        url_for_host(host, port),
        processes,
        "process" if processes == 1 else "processes",
        threads,
    )
    unshared = limits.warning(app, processes)
    if unshared:
        log.warning(unshared)
    if processes == 1:
        signal.signal(signal.SIGTERM, _stop_serving)
        try:
            waitress.serve(app, host=host, port=port, threads=threads, ident=IDENT, **CONNECTIONS)
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            _finish(app)
        return

    sock = _listen(host, port)
    loads = Loads(processes)
    workers: list[int] = []
    for index in range(processes):
        pid = os.fork()
        if pid == 0:
            _die_with_parent()
            signal.signal(signal.SIGTERM, _stop_serving)
            code = 0
            try:
                server = waitress.create_server(app, sockets=[sock], threads=threads, ident=IDENT, **CONNECTIONS)
                loads.balance(server, index)
                server.print_listen("Serving on http://{}:{}")
                server.run()
            except (KeyboardInterrupt, SystemExit):
                pass
            except BaseException:
                log.exception("worker failed")
                code = 1
            finally:
                _finish(app)
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
