"""``trainer serve`` for real: several processes on one port, sharing sessions and a burst of
connections, stopping cleanly, a dead process replaced; slow clients dropped after the read
timeout, and never stopping the others."""

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
    code = f"from trainer.web.serving import run; run('127.0.0.1', {port}, {str(SCENARIOS)!r}, server={server!r})"
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


@pytest.fixture(params=["gthread", "gevent"])
def each_worker_class(request, tmp_path):
    """The server once both workers are up, with gunicorn's gthread workers, then with gevent
    workers (the default)."""
    if request.param == "gevent":
        pytest.importorskip("gevent")
    yield from _serve(tmp_path, TRAINER_WORKER=request.param)


@pytest.mark.skipif(not os.path.exists("/proc/self/fd"), reason="counts the workers' sockets in /proc")
def test_a_burst_of_keep_alive_connections_is_served_by_both_workers(each_worker_class):
    """Sixty browsers connecting at once (a class opening the page together): each is answered and
    kept open, and both workers hold some of them, so neither core sits idle."""
    proc, url, port, _ = each_worker_class
    opened = [socket.socket() for _ in range(60)]
    for sock in opened:  # all at once
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", port))
    try:
        for sock in opened:
            sock.setblocking(True)
            sock.settimeout(5)
            sock.sendall(HEALTH)
        for sock in opened:  # each answered, and kept open (keep-alive)
            assert b" 200 " in sock.recv(4096).split(b"\r\n")[0]
        # Besides these, each worker holds one socket: the listening one.
        held = {pid: _sockets(pid) - 1 for pid in ready_workers(proc.pid)}
        print("connections per worker:", held)
        assert sum(held.values()) >= 58, held
        assert min(held.values()) >= 1, held
    finally:
        for sock in opened:
            sock.close()


HEALTH = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
SPOT = "/drill/btn-faces-short-all-in"


def _closed_by_server(sock: socket.socket, within: float) -> bytes | None:
    """What the server sent before closing the connection, or None if it is still open after ``within``."""
    sock.settimeout(0.2)
    got, deadline = b"", time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            try:
                sock.send(b"x")  # one more byte of the slow request
            except OSError:
                return got
            continue
        except OSError:  # reset
            return got
        if not chunk:
            return got
        got += chunk
    return None


@pytest.fixture
def short_reads(tmp_path):
    """The default server (two gevent workers) with a read timeout of 2 s."""
    pytest.importorskip("gevent")
    yield from _serve(tmp_path, TRAINER_READ_SECONDS="2")


def test_a_client_sending_its_headers_slowly_is_dropped_after_the_read_timeout(short_reads):
    _proc, _url, port, _log = short_reads
    with socket.create_connection(("127.0.0.1", port)) as slow:
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        started = time.monotonic()
        assert _closed_by_server(slow, within=10) == b""
        assert 1.5 < time.monotonic() - started < 5


def test_a_client_sending_its_body_slowly_is_answered_408_and_dropped_after_the_read_timeout(short_reads):
    _proc, url, port, _log = short_reads
    with socket.create_connection(("127.0.0.1", port)) as slow:
        slow.sendall(b"POST /account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded"
                     b"\r\nContent-Length: 60000\r\n\r\nemail=")
        started = time.monotonic()
        said = _closed_by_server(slow, within=10)
        assert said is not None and said.startswith(b"HTTP/1.1 408 "), said
        assert 1.5 < time.monotonic() - started < 5
    assert answered(url)


def _slow(port: int, head: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(head)
    return sock


def _timed(url: str) -> float:
    started = time.monotonic()
    with urllib.request.urlopen(url, timeout=5) as response:
        assert response.status == 200
        response.read()
    return time.monotonic() - started


def test_slow_clients_do_not_stop_the_server(server):
    """Two hundred clients sending their headers a byte a second and two hundred sending their
    bodies so (a sign-in, a drill answer, each of 60,000 bytes announced): meanwhile every request
    for /healthz and a drill page, each on a new connection, is answered within a second. The
    default setup: two gevent workers, a read timeout of 30 s, longer than this test."""
    _proc, url, port, _log = server
    post = ("POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            "Content-Length: 60000\r\n\r\na=")
    held = [_slow(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ") for _ in range(200)]
    held += [_slow(port, post.format(path="/account/login" if n % 2 else SPOT).encode()) for n in range(200)]
    try:
        took = []
        for _second in range(6):
            tick = time.monotonic() + 1
            for sock in held:  # one more byte each, once a second
                sock.send(b"a")
            for _ in range(3):
                took.append(_timed(url + "/healthz"))
                took.append(_timed(url + SPOT))
            time.sleep(max(0.0, tick - time.monotonic()))
        print(f"{len(took)} requests, slowest {max(took) * 1000:.0f} ms")
        assert max(took) < 1, took
        for sock in held:  # every slow client is still connected: nobody was dropped for the others
            sock.send(b"a")
    finally:
        for sock in held:
            sock.close()


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


def test_a_stopping_server_ends_its_open_event_streams_at_once(server, tmp_path):
    """A live class's pages each hold an event stream. Told to stop, each worker ends its streams at
    once (their pages refresh and reconnect) instead of keeping them until it is killed at the end
    of its graceful timeout (10 s), which would cut them off."""
    from tests.store.helpers import sign_up
    from tests.store.test_classroom import _create, _join
    from trainer.web import create_app

    proc, _url, port, log = server
    app = create_app({"INSTANCE_DIR": str(tmp_path), "SCENARIO_DIRS": [str(SCENARIOS)]})  # the server's key and database
    try:
        teacher = app.test_client()
        sign_up(teacher, "teacher@example.com", name="Ms T", instructor=True)
        _session_id, code, _page = _create(teacher)
        cookie = _join(app, code, "Ana").get_cookie("session").value
    finally:
        app.extensions["trainer.store"].dispose()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as stream:
        stream.sendall(f"GET /c/{code}/events HTTP/1.1\r\nHost: x\r\nCookie: session={cookie}\r\n\r\n".encode())
        seen = b""
        while b"data: connected" not in seen:
            seen += stream.recv(4096)
        assert b"text/event-stream" in seen
        proc.send_signal(signal.SIGTERM)
        told = time.monotonic()
        while not seen.endswith(b"\r\n0\r\n\r\n"):  # the stream's last chunk: it has ended
            seen += stream.recv(4096)
        assert time.monotonic() - told < 5, log.read_text()[-3000:]
