"""A drill answer graded while the database is away: the page says "not saved yet — retrying",
sends it again by itself, and says "saved" once it is stored (once)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
import urllib.request

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.answers import BTN, BTN_TYPED
from tests.gate import Gate

from tests.e2e.conftest import SCENARIOS, _free_port
from tests.e2e.test_drill_browser import fill

pytestmark = pytest.mark.e2e

PG_URL = os.environ.get("TRAINER_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@pytest.fixture
def server_behind_a_gate(tmp_path):
    """``trainer serve`` on PostgreSQL reached through a gate the test can close."""
    url = make_url(PG_URL)
    try:
        engine = create_engine(url, connect_args={"connect_timeout": 3})
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL at {PG_URL} cannot be reached: {exc}")
        pytest.skip(f"PostgreSQL at {PG_URL} cannot be reached: {exc.__class__.__name__}")
    schema = f"trainer_test_{os.getpid()}_{secrets.token_hex(3)}"  # dropped by the store tests if left behind
    gate = Gate((url.host or "127.0.0.1", url.port or 5432))
    port = _free_port()
    env = {
        **os.environ,
        "TRAINER_SECRET_KEY": "e2e-secret",
        "TRAINER_INSTANCE": str(tmp_path),
        "TRAINER_PROCESSES": "1",
        "DATABASE_URL": url.set(host="127.0.0.1", port=gate.port).render_as_string(hide_password=False),
        "TRAINER_DATABASE_SCHEMA": schema,
    }
    code = f"from trainer.web.serving import run; run('127.0.0.1', {port}, {str(SCENARIOS)!r})"
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        server = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=1):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the app did not start:\n" + log.read_text()) from None
                time.sleep(0.1)

        def stored() -> int:
            with engine.connect() as connection:
                connection.exec_driver_sql(f'SET search_path TO "{schema}"')
                return connection.scalar(text("SELECT count(*) FROM attempts"))

        yield base, gate, stored
    finally:
        gate.reopen()
        server.terminate()
        server.wait(timeout=10)
        gate.stop()
        with engine.begin() as connection:
            connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        engine.dispose()


def test_the_page_sends_an_answer_not_saved_yet_again_until_it_is_saved(page, server_behind_a_gate, artifacts):
    base, gate, stored = server_behind_a_gate
    page.goto(f"{base}/drill/{BTN}")
    fill(page, BTN_TYPED)
    gate.close()  # the database goes away, as in a restart
    page.click("#answer-form button[type=submit]")
    pending = page.wait_for_selector(".save-state--pending", timeout=15_000)
    assert "Not saved yet — retrying" in pending.inner_text()
    assert "all 5 right" in page.locator("#stage-done").inner_text()  # graded all the same: step 2 is shown
    assert "Not saved yet" in page.locator("#status").inner_text()  # announced
    page.screenshot(path=str(artifacts / "graded-drill-not-saved.png"), caret="initial")
    page.fill("#f-pot", "4100")  # the learner starts changing the answer meanwhile
    time.sleep(2)  # at least one resend while still away
    assert page.locator(".save-state--pending").count() == 1
    assert stored() == 0
    gate.reopen()
    page.wait_for_selector(".save-state--saved", timeout=40_000)
    assert "Saved to your progress." in page.locator("#save-state").inner_text()
    assert "Saved to your progress." in page.locator("#status").inner_text()
    assert page.locator(".save-state--pending").count() == 0
    assert page.input_value("#f-pot") == "4100"  # the resends swapped only their box
    assert stored() == 1
