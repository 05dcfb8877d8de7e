"""The live classroom's server-sent events: a change made in one app process reaches the streams
another serves (PostgreSQL NOTIFY, Redis pub/sub, or SQLite read by each process); a stream the
client closes frees what it held; the polls stay for pages without a stream."""

from __future__ import annotations

import queue
import re
import secrets
import socket
import threading
import time

import pytest
import waitress
from sqlalchemy import event, select

from trainer.store.models import LiveStudent
from trainer.web.live import feed as events

from tests.store.conftest import running_app
from tests.store.helpers import BTN_RIGHT
from tests.store.test_classroom import _act, _answer, _create, _join, instructor  # noqa: F401  (a fixture)
from tests.store.test_limits import _redis_url

WAIT = 8.0  # seconds a change may take to reach a stream (SQLite is read every second)


class Stream:
    """An open event stream of the test client, read by a thread of its own."""

    def __init__(self, client, url: str) -> None:
        self.response = client.get(url, buffered=False)
        assert self.response.status_code == 200, self.response.status_code
        assert self.response.mimetype == "text/event-stream"
        self.chunks: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for chunk in self.response.response:
                self.chunks.put(chunk.decode() if isinstance(chunk, bytes) else chunk)
        except Exception as exc:  # closed under the reader
            self.chunks.put(f"error: {exc!r}")

    def next_change(self, timeout: float = WAIT) -> str:
        """The data of the next ``changed`` event (keep-alive comments skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            chunk = self.chunks.get(timeout=max(0.01, deadline - time.monotonic()))
            assert not chunk.startswith("error: "), chunk
            if "event: changed" in chunk:
                return re.search(r"data: ?(.*)", chunk).group(1)

    def quiet(self, seconds: float) -> bool:
        """True when no change arrives for ``seconds``."""
        try:
            self.next_change(seconds)
        except queue.Empty:
            return True
        return False


def _cookie(client) -> str:
    return client.get_cookie("session").value


def _as(app, client):
    """A client of ``app`` carrying ``client``'s signed session cookie (the apps share the key)."""
    other = app.test_client()
    other.set_cookie("session", _cookie(client))
    return other


@pytest.fixture(params=["own feed", "redis"])
def two_apps(request, database, tmp_path):
    """Two app processes' worth of apps on one database, each with its own feed: PostgreSQL's
    NOTIFY on PostgreSQL, else SQLite read by each; "redis": SQLite with Redis pub/sub."""
    settings = {"EVENTS_KEEPALIVE": 0.5}
    if request.param == "redis":
        if database["DATABASE_SCHEMA"] is not None:
            pytest.skip("PostgreSQL has its own feed; Redis pub/sub is for SQLite")
        settings.update(REDIS_URL=_redis_url(), RATELIMIT_KEY_PREFIX=f"trainer-test-{secrets.token_hex(4)}")
    first = running_app(database, tmp_path, **settings)
    second = running_app(database, tmp_path, **settings)
    a, b = next(first), next(second)
    kind = {"redis": events.RedisFeed}.get(request.param) or (
        events.SQLiteFeed if database["DATABASE_SCHEMA"] is None else events.PostgresFeed
    )
    assert type(a.extensions[events.EXTENSION]) is kind
    yield a, b
    for feed in (a.extensions[events.EXTENSION], b.extensions[events.EXTENSION]):
        feed.close_all()
    for gen in (first, second):
        next(gen, None)


def _instructor(app):
    from tests.store.helpers import sign_up

    client = app.test_client()
    sign_up(client, f"t-{secrets.token_hex(3)}@example.com", name="Ms T", instructor=True)
    return client


def test_a_change_in_one_process_reaches_the_streams_another_serves(two_apps):
    a, b = two_apps
    teacher = _instructor(a)
    session_id, code, _ = _create(teacher)
    ana = _join(a, code, "Ana")

    student = Stream(ana, f"/c/{code}/events")
    control = Stream(teacher, f"/classroom/{session_id}/events")
    assert student.next_change() == "connected" and control.next_change() == "connected"

    _act(_as(b, teacher), session_id, "next")  # the instructor's Next, served by the other process
    assert student.next_change() == ""
    assert control.next_change() == ""

    sent = _answer(_as(b, ana), code, BTN_RIGHT)  # Ana answers through the other process
    assert sent.status_code in (200, 303)
    assert control.next_change() == ""  # the instructor's view refreshes its counts
    assert student.quiet(1.5)  # an answer is not news to the students

    _act(_as(b, teacher), session_id, "reveal")
    assert student.next_change() == ""
    # the fixture ends both streams (the feed's close_all): a generator cannot be closed from
    # another thread while it waits


def test_a_stream_closed_by_the_client_frees_its_thread_and_its_place(database, tmp_path):
    """On a thread-per-request server (waitress), with room for one stream: once the client
    hangs up, the stream ends at its next keep-alive, and a new one is let in."""
    app = next(running_app(database, tmp_path, EVENTS_KEEPALIVE=0.2, EVENTS_MAX_STREAMS=1))
    feed = app.extensions[events.EXTENSION]
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=2)
    closing = threading.Event()

    def serve() -> None:
        try:
            server.run()
        except OSError:  # its sockets closed under its loop: the end of the test, not a failure
            if not closing.is_set():
                raise

    loop = threading.Thread(target=serve, daemon=True)
    loop.start()
    port = server.socket.getsockname()[1]
    try:
        teacher = _instructor(app)
        _, code, _ = _create(teacher)
        cookie = _cookie(_join(app, code, "Ana"))
        threads_before = threading.active_count()

        def open_stream() -> tuple[socket.socket, str]:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(f"GET /c/{code}/events HTTP/1.1\r\nHost: x\r\nCookie: session={cookie}\r\n\r\n".encode())
            head = b""
            while b"\r\n\r\n" not in head or (b" 200 " in head and b"connected" not in head):
                head += sock.recv(4096)
            return sock, head.decode()

        first, head = open_stream()
        assert " 200 " in head.splitlines()[0] and "text/event-stream" in head
        assert feed.open_streams() == 1
        second, head = open_stream()
        assert " 204 " in head.splitlines()[0]  # no room: that page keeps polling
        second.close()

        first.close()
        deadline = time.monotonic() + 5
        while feed.open_streams() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert feed.open_streams() == 0
        third, head = open_stream()
        assert " 200 " in head.splitlines()[0]
        third.close()
        assert threading.active_count() <= threads_before + 1  # the feed's own watcher, no thread per stream
    finally:
        closing.set()
        server.close()
        loop.join(5)
        feed.close_all()
        app.extensions["trainer.store"].dispose()


def test_head_requests_on_the_streams_hold_no_place_and_a_stream_still_opens_after_them(app, instructor):
    """werkzeug answers HEAD without iterating the body: as many HEADs as there are places for
    streams once left every later stream of the process a 204 (the pages fell back to polling)."""
    app.config["EVENTS_MAX_STREAMS"] = 2
    feed = app.extensions[events.EXTENSION]
    session_id, code, _ = _create(instructor)
    ana = _join(app, code, "Ana")
    for url, client in ((f"/c/{code}/events", ana), (f"/classroom/{session_id}/events", instructor)):
        for _ in range(app.config["EVENTS_MAX_STREAMS"]):
            head = client.head(url)
            assert head.status_code == 200 and head.mimetype == "text/event-stream"
        assert feed.open_streams() == 0
    student = Stream(ana, f"/c/{code}/events")
    assert student.next_change() == "connected"
    control = Stream(instructor, f"/classroom/{session_id}/events")
    assert control.next_change() == "connected"
    assert feed.open_streams() == 2
    feed.close_all()


def test_without_a_stream_the_pages_still_poll(app, instructor):
    """No JavaScript, no SSE extension, or no room for a stream: the polled fragments work as before."""
    app.config["EVENTS_MAX_STREAMS"] = 0
    session_id, code, page = _create(instructor)
    ana = _join(app, code, "Ana")
    assert ana.get(f"/c/{code}/events").status_code == 204  # EventSource gives up; the page polls
    assert instructor.get(f"/classroom/{session_id}/events").status_code == 204

    play = ana.get(f"/c/{code}").text
    assert 'sse-connect="/c/' in play and 'hx-trigger="every 2s, sse:changed"' in play
    poll = re.search(r'hx-get="([^"]+/stage[^"]*)"', play).group(1).replace("&amp;", "&")
    assert ana.get(poll, headers={"HX-Request": "true"}).status_code == 204
    _act(instructor, session_id, "next")
    moved = ana.get(poll, headers={"HX-Request": "true"})
    assert moved.status_code == 200 and "Question 1 of 2" in moved.text
    live = instructor.get(f"/classroom/{session_id}/").text
    assert 'hx-trigger="every 2s, sse:changed"' in live and f'sse-connect="/classroom/{session_id}/events"' in live


def test_streams_are_only_for_the_sessions_own_people(app, instructor):
    session_id, code, _ = _create(instructor)
    stranger = app.test_client()
    assert stranger.get(f"/c/{code}/events").status_code == 404
    assert stranger.get(f"/classroom/{session_id}/events").status_code == 204


def test_a_change_just_after_a_keepalive_is_not_lost():
    """A change that lands between a stream's timed-out wait (a keep-alive is due) and the next wait
    is still heard: the wait clears what it was told only when it was told something."""
    import threading

    from trainer.web.live.feed import Subscription

    class LateChange(threading.Event):
        def wait(self, timeout=None):
            fired = super().wait(timeout)
            if not fired:
                self.set()  # a change arrives just after the wait timed out
            return fired

    sub = Subscription(session_id="s", kinds=frozenset({"state"}), _ready=LateChange())
    assert sub.wait(0.01) is False  # the keep-alive
    assert sub.wait(0.01) is True  # the change, not wiped


def _poll(student, url):
    return student.get(url, headers={"HX-Request": "true"})


def _until(check, seconds: float):
    """``check()`` again and again until it returns something true, for up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while not (got := check()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return got


def test_a_students_poll_is_answered_from_memory_and_moves_on_with_every_process(two_apps):
    """A process that hears every change (NOTIFY, Redis) answers an unchanged stage's poll (204)
    without the database, and its polls still move on at once when another process moves the
    session: Next, Reveal, removing the student. Without such a feed (SQLite) the poll reads."""
    a, b = two_apps
    teacher = _instructor(a)
    session_id, code, _ = _create(teacher)
    ana = _join(a, code, "Ana")
    _act(teacher, session_id, "next")
    play = ana.get(f"/c/{code}").text
    poll = re.search(r'hx-get="([^"]+/stage[^"]*)"', play).group(1).replace("&amp;", "&")
    feed = a.extensions[events.EXTENSION]
    pushed = not isinstance(feed, events.SQLiteFeed)
    assert _poll(ana, poll).status_code == 204  # starts the feed's listening
    if pushed:
        assert _until(lambda: feed.hearing, WAIT)
    assert _poll(ana, poll).status_code == 204  # read, and kept

    statements = []
    engine = a.extensions["trainer.store"].engine

    def count(*_args) -> None:
        statements.append(1)

    event.listen(engine, "before_cursor_execute", count)
    try:
        for _ in range(5):
            assert _poll(ana, poll).status_code == 204
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert (len(statements) == 0) == pushed, len(statements)

    # The other process reveals: this one's next poll shows the answer, well before anything kept expires.
    _act(_as(b, teacher), session_id, "reveal")
    moved = _until(lambda: (r := _poll(ana, poll)).status_code == 200 and r, min(events.KNOWN_FOR / 2, WAIT))
    assert moved and "the answer" in moved.text
    poll = re.search(r'hx-get="([^"]+/stage[^"]*)"', moved.text).group(1).replace("&amp;", "&")
    assert _poll(ana, poll).status_code == 204

    with a.extensions["trainer.store"].session() as s:
        ana_id = s.scalar(select(LiveStudent.id).where(LiveStudent.name == "Ana"))
    _act(_as(b, teacher), session_id, "remove", student=ana_id)
    removed = _until(lambda: (r := _poll(ana, poll)).status_code == 200 and r, min(events.KNOWN_FOR / 2, WAIT))
    assert removed and "You were removed" in removed.text


def test_what_a_process_remembers_is_bounded_and_runs_out():
    """The values kept for the polls: never more than MAX_KNOWN, none trusted past KNOWN_FOR, and
    none kept while the feed does not hear every change."""
    feed = events.Feed()
    assert feed.since() is None  # the in-process feed hears only this process: nothing is kept
    feed.keep("k", "s", 1, 0)
    assert feed.known("k") is None
    feed._hears(True)
    mark = feed.since()
    for n in range(events.MAX_KNOWN + 5):
        feed.keep(f"k{n}", f"s{n}", n, mark)
    assert len(feed._known) <= events.MAX_KNOWN
    assert feed.known(f"k{events.MAX_KNOWN + 4}") == events.MAX_KNOWN + 4
    feed.keep("late", "s", "x", mark - 1)  # read before a change came: not kept
    assert feed.known("late") is None
    feed.forget("s1")
    feed._known["old"] = ("s", "x", time.monotonic() - 1)
    assert feed.known("old") is None  # run out


def test_a_students_stream_tells_a_change_after_a_wait_within_its_spread(monkeypatch):
    """The spread of a class's refreshes: each change waits a random share of ``spread`` first."""
    waits = []
    monkeypatch.setattr(events.time, "sleep", waits.append)
    feed = events.Feed()
    body = events.stream(feed, "s", events.STUDENT_KINDS, keepalive=5, lifetime=60, coalesce=0, spread=0.8)
    assert "connected" in next(body)
    feed.deliver("s", events.STATE)
    assert next(body) == "event: changed\ndata: \n\n"
    assert len(waits) == 1 and 0 <= waits[0] <= 0.8
    body.close()
