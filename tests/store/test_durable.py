"""Nothing acknowledged is lost: a graded drill answer is answered as stored only once it is committed.

A two-process ``trainer serve`` is killed (SIGKILL, every process at once) in the
middle of a stream of answers; afterwards every answer the server had answered
for is in the database. While the database cannot be reached the learner is told
"not saved yet" (status 200, never a 500) and the page's resend, under the id its
form made, is stored exactly once.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid

import pytest
from sqlalchemy import create_engine, func, select, text

from tests.gate import Gate
from trainer.store.models import Attempt

from tests.store.conftest import SCENARIOS, running_app
from tests.store.helpers import ANSWER_ID, BTN_RIGHT, HTMX, token

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="several server processes need fork")

SPOT = "/drill/btn-faces-short-all-in"
NOT_SAVED = "Not saved yet"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(database: dict, tmp_path) -> tuple[subprocess.Popen, int]:
    """``trainer serve`` with two processes, in a process group of its own (to kill every one of them)."""
    port = free_port()
    env = {**os.environ, "TRAINER_PROCESSES": "2", "TRAINER_INSTANCE": str(tmp_path / "instance"),
           "DATABASE_URL": database["DATABASE_URL"]}
    if database["DATABASE_SCHEMA"]:
        env["TRAINER_DATABASE_SCHEMA"] = database["DATABASE_SCHEMA"]
    env.pop("TRAINER_SECRET_KEY", None)
    code = f"from trainer.web.serving import run; run('127.0.0.1', {port}, {str(SCENARIOS)!r})"
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    deadline = time.monotonic() + 30
    while True:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                connection.close()
                return proc, port
        except OSError:
            pass
        assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)


class Learner:
    """A browser on one keep-alive connection: opens the drill once, then answers it again and again."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookie = ""
        page = self.request("GET", SPOT)
        self.token = token(page)

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> str:
        sent = {**(headers or {})}
        if self.cookie:
            sent["Cookie"] = self.cookie
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=sent)
        response = self.connection.getresponse()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        page = response.read().decode()
        assert response.status == 200, (response.status, page[:500])
        return page

    def answer(self, answer_id: str) -> bool:
        """Send one graded answer; True if the server says it is stored (as today's page does: no notice)."""
        body = urllib.parse.urlencode({**BTN_RIGHT, "csrf_token": self.token, "answer_id": answer_id}, doseq=True)
        page = self.request("POST", SPOT, body.encode(), HTMX)
        assert "All 10 right" in page
        return NOT_SAVED not in page


def stored_ids(database: dict) -> tuple[int, set[str]]:
    """How many attempts the database holds, and their answer ids."""
    engine = create_engine(database["DATABASE_URL"])
    try:
        with engine.connect() as connection:
            if database["DATABASE_SCHEMA"]:
                connection.exec_driver_sql(f'SET search_path TO "{database["DATABASE_SCHEMA"]}"')
            count = connection.scalar(text("SELECT count(*) FROM attempts"))
            ids = set(connection.scalars(text("SELECT answer_id FROM attempts WHERE answer_id IS NOT NULL")))
    finally:
        engine.dispose()
    return count, ids


def test_killing_the_server_loses_no_acknowledged_answer(database, tmp_path):
    proc, port = start_server(database, tmp_path)
    acknowledged: list[str] = []
    unacknowledged = 0
    failures: list[AssertionError] = []
    stop = threading.Event()
    lock = threading.Lock()

    def stream(learner: Learner) -> None:
        nonlocal unacknowledged
        while not stop.is_set():
            answer_id = uuid.uuid4().hex
            try:
                stored = learner.answer(answer_id)
            except (OSError, http.client.HTTPException):
                return  # the server is gone: this answer was never acknowledged
            except AssertionError as exc:
                failures.append(exc)
                return
            with lock:
                if stored:
                    acknowledged.append(answer_id)
                else:
                    unacknowledged += 1

    learners: list[Learner] = []
    try:
        learners += [Learner(port) for _ in range(12)]
        threads = [threading.Thread(target=stream, args=(who,)) for who in learners]
        for t in threads:
            t.start()
        # At least a second and a half of traffic and 60 acknowledged answers (a busy machine takes
        # longer to reach them), then every process dies at once.
        started = time.monotonic()
        while time.monotonic() - started < 30 and (time.monotonic() - started < 1.5 or len(acknowledged) < 60):
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        stop.set()
        for t in threads:
            t.join(timeout=20)
    finally:
        stop.set()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        for who in learners:
            who.connection.close()
    count, ids = stored_ids(database)
    assert not failures, failures[0]
    assert len(acknowledged) >= 50, f"only {len(acknowledged)} answers acknowledged: the stream did not run"
    assert count >= len(acknowledged), f"{len(acknowledged) - count} of {len(acknowledged)} acknowledged answers lost"
    missing = set(acknowledged) - ids
    assert not missing, f"{len(missing)} of {len(acknowledged)} acknowledged answers lost"
    # (An answer told "not saved yet" may or may not be in: its page would send it again.)
    assert unacknowledged <= len(acknowledged) // 10, f"{unacknowledged} answers not saved in time"


@pytest.fixture
def gated(database, tmp_path):
    """The app on PostgreSQL behind a gate; answers wait a short while for their commit."""
    if not database["DATABASE_URL"].startswith("postgresql"):
        pytest.skip("a server to be cut off from: PostgreSQL (SQLite is a file in the process)")
    from sqlalchemy.engine import make_url

    url = make_url(database["DATABASE_URL"])
    gate = Gate((url.host or "127.0.0.1", url.port or 5432))
    through = url.set(host="127.0.0.1", port=gate.port).render_as_string(hide_password=False)
    made = running_app({**database, "DATABASE_URL": through}, tmp_path, SAVE_WAIT=0.5)
    app = next(made)
    try:
        yield app, gate
    finally:
        gate.reopen()
        try:
            next(made)
        except StopIteration:
            pass
        gate.stop()


def copies(database: dict, answer_id: str) -> int:
    """Rows of one answer, read past the gate."""
    engine = create_engine(database["DATABASE_URL"])
    try:
        with engine.connect() as connection:
            if database["DATABASE_SCHEMA"]:
                connection.exec_driver_sql(f'SET search_path TO "{database["DATABASE_SCHEMA"]}"')
            return connection.scalar(
                select(func.count()).select_from(Attempt).where(Attempt.answer_id == answer_id)
            )
    finally:
        engine.dispose()


def resend_form(page: str) -> dict[str, list[str]]:
    """The fields of the page's "Send again" form, as the browser would post them."""
    form = re.search(r'<div class="save-state save-state--pending".*?</form>', page, re.S)
    assert form, "the page has no form to send the answer again"
    fields: dict[str, list[str]] = {}
    for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(0)):
        fields.setdefault(name, []).append(value.replace("&#39;", "'").replace("&amp;", "&"))
    return fields


@pytest.mark.parametrize("htmx", [False, True], ids=["no-js", "htmx"])
def test_an_outage_says_not_saved_yet_and_the_resend_is_stored_once(gated, database, htmx):
    app, gate = gated
    client = app.test_client()
    page = client.get(SPOT).text
    answer_id = ANSWER_ID.search(page).group(1)
    gate.close()  # the database goes away
    headers = HTMX if htmx else {}
    response = client.post(SPOT, data={**BTN_RIGHT, "csrf_token": token(page), "answer_id": answer_id}, headers=headers)
    assert response.status_code == 200
    assert "All 10 right" in response.text  # graded all the same
    assert NOT_SAVED in response.text
    assert ("retrying" in response.text) == htmx  # with htmx the page sends it again by itself
    fields = resend_form(response.text)
    assert fields["answer_id"] == [answer_id]
    if htmx:
        assert 'hx-trigger="load delay:1s, submit"' in response.text
    assert copies(database, answer_id) == 0

    again = client.post(SPOT, data=fields, headers=headers)  # still away: not saved, wait longer
    assert again.status_code == 200 and NOT_SAVED in again.text
    fields = resend_form(again.text)
    assert fields["answer_id"] == [answer_id]
    if htmx:
        assert 'hx-trigger="load delay:2s, submit"' in again.text

    gate.reopen()  # the database is back; the writer notices at its next try (back-off up to 2 s)
    for _ in range(60):  # as the page does: send again until it is saved
        saved = client.post(SPOT, data=fields, headers=headers)
        assert saved.status_code == 200 and "All 10 right" in saved.text
        if NOT_SAVED not in saved.text:
            break
        fields = resend_form(saved.text)
    assert "Saved to your progress." in saved.text and NOT_SAVED not in saved.text
    # The copies kept in memory while the database was away are written too: still one row.
    assert app.extensions["trainer.store"].attempts.flush()
    assert client.post(SPOT, data=fields, headers=headers).status_code == 200  # a late duplicate
    assert copies(database, answer_id) == 1
    with app.extensions["trainer.store"].session() as s:
        row = s.scalars(select(Attempt).where(Attempt.answer_id == answer_id)).one()
        assert row.right == row.total == 10


def test_a_sqlite_file_locked_too_long_says_not_saved_yet_and_the_resend_is_stored_once(database, tmp_path):
    if not database["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("a write lock held on the SQLite file")
    import sqlite3

    made = running_app(database, tmp_path, SAVE_WAIT=0.5)
    app = next(made)
    try:
        client = app.test_client()
        page = client.get(SPOT).text
        answer_id = ANSWER_ID.search(page).group(1)
        holder = sqlite3.connect(database["DATABASE_URL"].removeprefix("sqlite:///"), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process writing, and writing, and writing
        try:
            response = client.post(SPOT, data={**BTN_RIGHT, "csrf_token": token(page), "answer_id": answer_id})
            assert response.status_code == 200 and "All 10 right" in response.text
            assert NOT_SAVED in response.text
            fields = resend_form(response.text)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        for _ in range(20):
            saved = client.post(SPOT, data=fields)
            assert saved.status_code == 200
            if NOT_SAVED not in saved.text:
                break
            fields = resend_form(saved.text)
        assert "Saved to your progress." in saved.text
        assert app.extensions["trainer.store"].attempts.flush()
        assert copies(database, answer_id) == 1
    finally:
        next(made, None)
