"""Streaks in a real browser: right answers climb, one miss ends it with the worked answer and a
new best, at a phone's and a laptop's size, in English and Chinese, and without JavaScript."""

from __future__ import annotations

import sqlite3

import pytest

from tests.e2e.conftest import SCENARIOS, _serve, languages_by_sizes
from tests.e2e.test_speed_browser import DESKTOP, PHONE, _answer, _no_sideways_scroll, _wrong, axe_violations
from trainer import speed

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def streak_app(tmp_path_factory):
    instance = tmp_path_factory.mktemp("streak-instance")
    for url in _serve(tmp_path_factory, SCENARIOS, instance):
        yield url, instance / "trainer.sqlite3"


def _question(database, page) -> speed.Question:
    run_id = page.url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    with sqlite3.connect(database) as connection:
        seed, asked = connection.execute("SELECT seed, asked FROM streak_runs WHERE id = ?", (run_id,)).fetchone()
    return speed.streak_question(seed, asked)


@pytest.mark.parametrize(("lang", "options"),
                         languages_by_sizes(["en", "zh-Hant", "zh-Hans"], {"360x740": PHONE, "1280x800": DESKTOP}))
def test_a_streak_climbs_and_one_miss_ends_it(open_page, streak_app, artifacts, axe_source, options, lang):
    url, database = streak_app
    page = open_page(**options)
    size = f"{options['viewport']['width']}"
    page.goto(f"{url}/speed?lang={lang}")
    with page.expect_navigation():
        page.click(".speed-other a")
    page.screenshot(path=str(artifacts / f"streak-index-{lang}-{size}.png"), full_page=True)
    assert axe_violations(page, axe_source) == []
    with page.expect_navigation():
        page.click(".speed-start button")
    for n in range(speed.STREAK_CLIMB + 1):
        q = _question(database, page)
        _answer(page, q.answer, q)
        assert page.locator("#streak-count").inner_text() == str(n + 1)
    assert page.locator(".speed-last--right").is_visible()
    assert _no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"streak-question-{lang}-{size}.png"), full_page=False)
    assert axe_violations(page, axe_source) == []
    q = _question(database, page)
    assert q.level == 2  # climbed a level after STREAK_CLIMB right answers
    _answer(page, _wrong(q), q)
    assert page.locator("#streak-result").is_visible() and page.locator(".speed-last--wrong").is_visible()
    assert _no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"streak-over-{lang}-{size}.png"), full_page=True)
    assert axe_violations(page, axe_source) == []


def test_a_streak_without_javascript(open_page, streak_app):
    url, database = streak_app
    page = open_page(java_script_enabled=False, **PHONE)
    page.goto(f"{url}/streak/?lang=en")
    with page.expect_navigation():
        page.click(".speed-start button")
    q = _question(database, page)
    _answer(page, q.answer, q)
    assert page.locator("#streak-count").inner_text() == "1"
    q = _question(database, page)
    _answer(page, _wrong(q), q)
    assert "Streak over" in page.locator("h1").inner_text()
    page.goto(f"{url}/streak/?lang=en")
    assert page.locator("#streak-best").inner_text() == "Your best streak: 1"
