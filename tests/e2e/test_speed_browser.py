"""Speed drills in a real browser: one short run on a phone and a desktop, without JavaScript, and axe-core."""

from __future__ import annotations

import sqlite3

import pytest

from tests.e2e.conftest import LANGUAGES, SCENARIOS, _serve
from trainer import speed

RUN_SECONDS = 20  # two wrong answers (10 seconds each) end a run at once
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def speed_app(tmp_path_factory):
    """The app with short runs, and its SQLite database (to read a run's seed, as the server does)."""
    instance = tmp_path_factory.mktemp("speed-instance")
    for url in _serve(tmp_path_factory, SCENARIOS, instance, {"TRAINER_SPEED_SECONDS": str(RUN_SECONDS)}):
        yield url, instance / "trainer.sqlite3"


def _question(database, page) -> speed.Question:
    run_id = page.url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    with sqlite3.connect(database) as connection:
        seed, asked = connection.execute("SELECT seed, asked FROM speed_runs WHERE id = ?", (run_id,)).fetchone()
    return speed.question(seed, asked)


def _answer(page, value: str, q: speed.Question, *, keys: bool = False) -> None:
    if q.choices and keys:  # with JavaScript, key k taps the k-th seat
        assert page.locator(".speed-keys").is_visible()
        with page.expect_navigation():
            page.keyboard.press(str(q.choices.index(value) + 1))
    elif q.choices:
        with page.expect_navigation():
            page.click(f".speed-seat[value='{value}']")
    else:
        page.fill("#speed-answer", value)
        with page.expect_navigation():
            page.press("#speed-answer", "Enter")


def _wrong(q: speed.Question) -> str:
    if q.choices:
        return next(seat for seat in q.choices if seat != q.answer)
    return str(int(q.answer) + 1)


def _start(page, url: str, lang: str) -> None:
    page.goto(f"{url}/speed?lang={lang}")
    with page.expect_navigation():
        page.click(".speed-start button")
    page.wait_for_selector(".speed-prompt")


def _no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("options", [PHONE, DESKTOP], ids=["360x740", "1280x800"])
def test_one_short_run(open_page, speed_app, artifacts, options):
    url, database = speed_app
    page = open_page(**options)
    size = "{width}x{height}".format(**options["viewport"])
    page.goto(f"{url}/?lang=en")
    with page.expect_navigation():
        page.click("#speed-link")
    _start(page, url, "en")
    q = _question(database, page)
    if not q.choices:
        assert page.get_attribute("#speed-answer", "inputmode") == "numeric"
        assert page.evaluate("document.activeElement.id") == "speed-answer"  # type at once, Enter submits
    _answer(page, q.answer, q, keys=options is DESKTOP)
    assert page.locator(".speed-last--right").is_visible()
    assert page.locator(".speed-score strong").inner_text() == "1"
    assert _no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"speed-run-en-{size}.png"), full_page=True)
    q = _question(database, page)
    _answer(page, _wrong(q), q)
    assert page.locator(".speed-last--wrong").is_visible()
    assert q.answer in page.locator(".speed-verdict").inner_text().replace(",", "")
    page.screenshot(path=str(artifacts / f"speed-wrong-en-{size}.png"), full_page=True)
    # about 10 seconds left: the countdown runs out and the page moves on to the result by itself
    page.wait_for_selector("#speed-final-score", timeout=(RUN_SECONDS + 5) * 1000)
    assert page.locator("#speed-final-score").inner_text() == "1"
    assert _no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"speed-result-en-{size}.png"), full_page=True)


def test_keys_tap_the_seats(open_page, speed_app):
    url, database = speed_app
    page = open_page(**DESKTOP)
    _start(page, url, "en")
    # About one question in four asks who wins: none in 12 happened (0.75 ** 12, 3 %); in 40, 1 in 100,000.
    for answered in range(40):
        q = _question(database, page)
        if q.choices:
            _answer(page, q.answer, q, keys=True)
            assert page.locator(".speed-last--right").is_visible()
            assert page.locator(".speed-score strong").inner_text() == str(answered + 1)
            return
        _answer(page, q.answer, q)
    pytest.fail("no seat question in 40")



def _to_a_seat_question(page, database) -> speed.Question:
    # About one question in four asks who wins (see test_keys_tap_the_seats): right answers cost no time.
    for _ in range(40):
        q = _question(database, page)
        if q.choices:
            return q
        _answer(page, q.answer, q)
    pytest.fail("no seat question in 40")


@pytest.mark.parametrize(("options", "shown"), [(PHONE, False), (DESKTOP, True)], ids=["touch-360", "laptop-1280"])
def test_the_keys_hint_shows_only_where_there_is_a_keyboard(open_page, speed_app, options, shown):
    url, database = speed_app
    page = open_page(**options)
    _start(page, url, "en")
    _to_a_seat_question(page, database)
    assert page.evaluate("matchMedia('(pointer: coarse)').matches") is not shown  # the emulation is what it says
    assert page.locator(".speed-keys").is_visible() is shown  # as the drill page: no keys to press on a phone

def test_a_run_without_javascript(open_page, speed_app):
    url, database = speed_app
    page = open_page(java_script_enabled=False, **PHONE)
    _start(page, url, "en")
    q = _question(database, page)
    assert not page.locator(".speed-keys").is_visible()  # no keys without JavaScript: the hint stays hidden
    _answer(page, q.answer, q)
    assert page.locator(".speed-last--right").is_visible()
    q = _question(database, page)
    _answer(page, _wrong(q), q)
    q = _question(database, page)
    _answer(page, _wrong(q), q)  # the second mistake uses up the 20 seconds: the server says so
    assert page.locator("#speed-final-score").inner_text() == "1"


def axe_violations(page, axe_source: str) -> list[str]:
    page.evaluate(axe_source)
    return page.evaluate("async () => (await axe.run(document)).violations.map(v => `${v.id}: ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_nothing_on_the_speed_pages(open_page, speed_app, axe_source, artifacts, lang):
    url, database = speed_app
    for options, size in ((PHONE, "360x740"), (DESKTOP, "1280x800")):
        page = open_page(**options)
        page.goto(f"{url}/speed?lang={lang}")
        assert axe_violations(page, axe_source) == []
        _start(page, url, lang)
        assert axe_violations(page, axe_source) == []
        q = _question(database, page)
        _answer(page, q.answer, q)
        assert axe_violations(page, axe_source) == []
        assert _no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"speed-run-{lang}-{size}.png"), full_page=True)
        for _ in range(2):
            q = _question(database, page)
            _answer(page, _wrong(q), q)
        page.wait_for_selector("#speed-final-score")
        assert axe_violations(page, axe_source) == []
        assert _no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"speed-result-{lang}-{size}.png"), full_page=True)
        page.goto(f"{url}/speed?lang={lang}")
        assert axe_violations(page, axe_source) == []
        page.screenshot(path=str(artifacts / f"speed-index-{lang}-{size}.png"), full_page=True)
