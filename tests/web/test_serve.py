"""``trainer serve`` for real: several processes on one port, sharing sessions, stopping cleanly,
a dead process replaced."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import pytest

from tests.web.conftest import BTN_RIGHT, SCENARIOS

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="several server processes need fork")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    yield from _serve(tmp_path)


def _serve(tmp_path, *, ready: bool = True, processes: int = 2, server: str | None = None, **settings: str):
    """The server in its own process; ``ready``: once both workers are up, not as soon as one answers;
    ``server``: "gunicorn" or "waitress" whatever the number of processes."""
    port = free_port()
    env = {**os.environ, "TRAINER_PROCESSES": str(processes), "TRAINER_INSTANCE": str(tmp_path), **settings}
    env.pop("TRAINER_SECRET_KEY", None)
    env.pop("REDIS_URL", None)  # the limits are counted per process (and the log says so)
    code = f"from trainer.web.serve import run; run('127.0.0.1', {port}, {str(SCENARIOS)!r}, server={server!r})"
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            urllib.request.urlopen(url + "/healthz", timeout=1).close()
            break
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
    if ready and os.path.exists(f"/proc/{proc.pid}/task/{proc.pid}/children"):
        ready_workers(proc.pid)
    yield proc, url, port, log
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def workers(pid: int) -> set[int]:
    """The server's worker processes (its children, on Linux)."""
    with open(f"/proc/{pid}/task/{pid}/children") as fh:
        return {int(child) for child in fh.read().split()}


def ready_workers(pid: int) -> set[int]:
    """The two workers, once both are forked and have their own signal handlers.

    The first may answer before the second is forked, and a worker that has not yet set up its
    handlers misses a SIGTERM (the master then kills it after the graceful timeout, 10 s). A ready
    gunicorn worker no longer catches SIGHUP, which its master does."""
    deadline = time.monotonic() + 20
    while len(found := workers(pid)) < 2 or any(catches(child, signal.SIGHUP) for child in found):
        assert time.monotonic() < deadline, found
        time.sleep(0.05)
    return found


def catches(pid: int, signum: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as fh:
            mask = next(int(line.split()[1], 16) for line in fh if line.startswith("SigCgt:"))
    except (OSError, StopIteration):
        return False
    return bool(mask >> (signum - 1) & 1)


def test_several_processes_share_one_port_and_the_sessions(server):
    proc, url, _, log = server
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    for _ in range(6):  # new connections land on either process; every token works on every one
        page = opener.open(url + "/drill/btn-faces-short-all-in").read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({**BTN_RIGHT, "csrf_token": token}, doseq=True).encode()
        graded = opener.open(url + "/drill/btn-faces-short-all-in", data=body).read().decode()
        assert "All 10 right" in graded
    text = log.read_text()
    assert "open http://127.0.0.1:" in text and "2 processes" in text
    assert text.count("Booting worker") == 2


def test_several_processes_without_redis_are_warned_that_each_counts_the_limits_alone(server):
    proc, url, _, log = server
    text = log.read_text()
    assert "WARNING" in text and "REDIS_URL is not set: each of the 2 processes counts rate limits on its own" in text


def test_sigterm_stops_every_process_and_frees_the_port(server):
    proc, url, port, _ = server
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "/healthz", timeout=1)
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))  # nobody holds it any more


def test_graded_answers_are_all_stored_when_the_server_stops(server, tmp_path):
    proc, url, _, _ = server
    graded = 0
    for _ in range(8):  # a new browser each time: the answers land on both processes
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        page = opener.open(url + "/drill/btn-faces-short-all-in").read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({**BTN_RIGHT, "csrf_token": token}, doseq=True).encode()
        assert "All 10 right" in opener.open(url + "/drill/btn-faces-short-all-in", data=body).read().decode()
        graded += 1
    proc.send_signal(signal.SIGTERM)  # at once: the last answers may still be waiting for their batch
    assert proc.wait(timeout=15) == 0
    import sqlite3

    with sqlite3.connect(tmp_path / "trainer.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM attempts").fetchone()[0] == graded


def answered(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.mark.skipif(not os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children"), reason="Linux /proc")
def test_a_killed_process_is_replaced_and_the_server_keeps_answering(server):
    proc, url, _, log = server
    before = ready_workers(proc.pid)
    victim = min(before)
    os.kill(victim, signal.SIGKILL)
    # The other process answers meanwhile; every request on a new connection is answered.
    deadline = time.monotonic() + 20
    while True:
        assert answered(url)
        now = workers(proc.pid)
        if len(now) == 2 and victim not in now:
            break
        assert time.monotonic() < deadline, f"no process replaced the killed one: {now}\n{log.read_text()}"
        time.sleep(0.1)
    assert proc.poll() is None
    for _ in range(20):  # the new process serves too (new connections land on either)
        assert answered(url)
    assert log.read_text().count("Booting worker") == 3


@pytest.mark.skipif(not os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children"), reason="Linux /proc")
def test_sighup_replaces_every_process_with_a_new_app_and_drops_nothing(server):
    proc, url, _, log = server
    before = ready_workers(proc.pid)
    proc.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 30
    while True:
        assert answered(url)
        now = workers(proc.pid)
        if len(now) == 2 and not now & before:
            break
        assert time.monotonic() < deadline, f"the processes were not replaced: {before} -> {now}\n{log.read_text()}"
        time.sleep(0.1)
    text = log.read_text()
    assert text.count("loaded ") >= 2  # the scenario library read again for the new processes


def _sockets(pid: int) -> int:
    """How many sockets the process holds open."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:  # closed meanwhile
            pass
    return count


def _worker_class(request) -> str:
    """The parametrized worker class, once it is known to be installed."""
    if request.param == "gevent":
        pytest.importorskip("gevent")
    return request.param


@pytest.fixture(params=["gthread", "gevent"])
def just_started(request, tmp_path):
    """The server as soon as it answers (its second worker may not be up yet), with gunicorn's
    gthread workers, then with gevent workers (the default)."""
    yield from _serve(tmp_path, ready=False, TRAINER_WORKER=_worker_class(request))


@pytest.mark.skipif(not os.path.exists("/proc/self/fd"), reason="counts the workers' sockets in /proc")
def test_a_burst_of_keep_alive_connections_is_shared_by_the_workers(just_started):
    """Sixty browsers connecting at once, as soon as the server answers (a class arriving as it
    starts, or a benchmark), each stay with the worker that accepted them: without the workers'
    yielding, whichever woke first could take them all (50/0 was seen with gthread workers, 51/0
    with gevent workers, whose second worker was not taking connections yet), one core idle."""
    proc, url, port, _ = just_started
    opened = [socket.socket() for _ in range(60)]
    for sock in opened:  # all at once, as a class opening the page together (or a benchmark) does
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", port))
    try:
        for sock in opened:
            sock.setblocking(True)
            sock.settimeout(5)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        for sock in opened:  # each answered, and kept open (keep-alive)
            assert b" 200 " in sock.recv(4096).split(b"\r\n")[0]
        # Besides these, each worker holds one socket: the listening one.
        held = {pid: _sockets(pid) - 1 for pid in ready_workers(proc.pid)}
        print("connections per worker:", held)
        assert sum(held.values()) >= 58, held
        # Each worker has a fair part of them: a quarter at least. Quiet, the split is near even; on a
        # machine whose cores are both busy (the rest of the suite), 38/22 was seen, since a worker
        # leaves a connection to the other for a few milliseconds only; without the yielding, 60/0.
        assert min(held.values()) >= 15, held
    finally:
        for sock in opened:
            sock.close()


def test_a_worker_holding_connections_leaves_a_new_one_to_the_others_a_moment_only():
    from trainer.web.prefork import Sharing

    assert Sharing().yields(0, 100.0) is False  # nothing held: take it at once
    busy = Sharing()  # 10 held: leave it 2 ms
    assert busy.yields(10, 100.0) is True and busy.yields(10, 100.0015) is True
    assert busy.yields(10, 100.0021) is False  # nobody took it: this worker does
    full = Sharing()
    assert full.yields(900, 200.0) is True and full.yields(900, 200.0051) is False  # never more than 5 ms
    assert full.yields(900, 300.0) is True  # much later: a new connection, its own wait


def test_a_gevent_worker_holding_connections_leaves_a_new_one_to_the_others_a_moment_only():
    """The gevent workers' server yields as the gthread workers do: holding 10 connections, it
    leaves a new one to the other workers for 2 ms (watching its socket again after a pause),
    then takes it."""
    gevent = pytest.importorskip("gevent")
    from gevent.pool import Pool

    from trainer.web.prefork import Sharing, SharingServer

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    pool = Pool(100)
    held = [pool.spawn(gevent.sleep, 5) for _ in range(10)]  # ten connections being served
    taken = []
    server = SharingServer(listener, handle=lambda sock, address: taken.append(sock), spawn=pool)
    server.max_accept = 1  # as gunicorn sets it when there are other workers
    server.start()
    client = socket.create_connection(listener.getsockname())
    try:
        server._do_read()  # the listening socket is readable: a connection waits
        assert server._watcher is None and server._timer is not None  # not watched for a moment
        gevent.sleep(0)
        assert taken == []  # left to the others
        gevent.sleep(10 * Sharing.YIELD_PER_CONN + 2 * Sharing.YIELD_STEP)
        server._do_read()
        gevent.sleep(0)
        assert len(taken) == 1  # nobody else took it: this worker does
    finally:
        client.close()
        server.stop(timeout=0)
        gevent.killall(held)


@pytest.fixture(params=["gthread", "gevent"])
def one_worker(request, tmp_path):
    """gunicorn with a single worker (gthread, then gevent), so that two connections share it."""
    for _proc, _url, port, _log in _serve(tmp_path, ready=False, processes=1, server="gunicorn",
                                           TRAINER_WORKER=_worker_class(request)):
        yield port


HEALTH = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"


def test_a_connection_whose_requests_keep_coming_does_not_hold_back_another(one_worker):
    """A browser whose next request is always there already (a fast one, or one pipelining) must not
    keep its worker to itself. gevent reads a socket eagerly: a worker went on answering the same
    connection as long as a request was waiting on it while the others waited (under the benchmark
    the drill page's p99 was 92-120 ms, twice the gthread workers'). Here one connection sends
    forty requests at once and another one request right after: the other is answered long before
    the forty are."""
    port = one_worker
    busy, other = socket.create_connection(("127.0.0.1", port)), socket.create_connection(("127.0.0.1", port))
    try:
        busy.sendall(HEALTH * 40)
        other.sendall(HEALTH)
        other.settimeout(10)
        assert b" 200 " in other.recv(4096)
        busy.setblocking(False)
        seen = b""
        try:
            while chunk := busy.recv(1 << 20):  # what the busy connection had been answered by then
                seen += chunk
        except BlockingIOError:
            pass
        print("answered on the busy connection first:", seen.count(b" 200 "))
        assert seen.count(b" 200 ") < 20, seen.count(b" 200 ")
        busy.setblocking(True)
        busy.settimeout(10)
        while seen.count(b" 200 ") < 40:  # and all forty come in the end
            seen += busy.recv(1 << 20)
    finally:
        busy.close()
        other.close()


def test_the_server_starts_without_a_traceback_and_counts_limits_in_each_worker(server):
    """Rate limits counted in memory are made in each worker: made in the master, the ``limits``
    library's expiry timer ran in every gevent worker after the fork and failed there (a KeyError
    traceback at each start), and old counts were never expired."""
    proc, url, port, log = server
    for _ in range(4):  # each worker counts: a sign-in from this address
        urllib.request.urlopen(url + "/healthz", timeout=5).close()
        try:
            urllib.request.urlopen(urllib.request.Request(url + "/account/login", data=b"email=a%40b.c&password=x"), timeout=5).close()
        except urllib.error.HTTPError:
            pass  # refused (no CSRF token): it is the start-up that is looked at
    time.sleep(0.5)
    text = log.read_text()
    assert "Traceback" not in text, text[-3000:]
