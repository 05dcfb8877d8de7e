"""A real headless Chromium (the system's, no browser download) against the app under waitress."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

# Debian's headless shell (package chromium-headless-shell: Chromium's old headless mode, which
# Playwright itself uses for headless runs) draws pages with about a third less CPU than the full
# browser in headless mode; the full browser (package chromium) is used where the shell is missing.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = HEADLESS_SHELL if os.access(HEADLESS_SHELL, os.X_OK) else "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REPO = Path(__file__).resolve().parents[2]
SCENARIOS = REPO / "tests" / "web" / "scenarios"
LIBRARY = REPO / "scenarios"
ARTIFACTS = REPO / "test-artifacts"


def _missing() -> str | None:
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return f"{CHROMIUM} is not installed (Debian package: chromium-headless-shell, or chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is not installed"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _missing()
    if reason is None:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)


# A page checked in each language: English and Traditional Chinese in the default run, Simplified
# Chinese too with ``-m slow``. The two Chinese scripts set the same widths of the same font; the
# journeys (the live class, the exams, the lesson, the streak) still run in all three by default.
LANGUAGES = ("en", "zh-Hant", pytest.param("zh-Hans", marks=pytest.mark.slow))


def languages_by_sizes(langs, sizes: dict):
    """``(lang, size)`` parameters: every language and every size in the default run (each language
    once, the sizes in turn), the rest of their cross product only with ``-m slow``. A journey's
    three languages on two screens is six runs of the same steps; the layout tests check each
    language at each size already."""
    names = list(sizes)
    params = []
    for i, lang in enumerate(langs):
        for j, name in enumerate(names):
            marks = () if j == i % len(names) else (pytest.mark.slow,)
            params.append(pytest.param(lang, sizes[name], id=f"{name}-{lang}", marks=marks))
    return params


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def instance_dir(tmp_path_factory):
    """The served app's instance folder (its SQLite database is there)."""
    return tmp_path_factory.mktemp("instance")


def _serve(tmp_path_factory, scenarios: Path, instance: Path, settings: dict[str, str] | None = None):
    """The app started the way ``trainer serve`` starts it, in its own process (``settings``: more
    environment variables, such as a short speed drill run)."""
    port = _free_port()
    env = {
        **os.environ,
        "TRAINER_SECRET_KEY": "e2e-secret",
        "TRAINER_INSTANCE": str(instance),
        **(settings or {}),
    }
    code = f"from trainer.web.serving import run; run('127.0.0.1', {port}, {str(scenarios)!r})"
    log = tmp_path_factory.mktemp("server") / "server.log"
    with open(log, "wb") as out:
        server = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=1) as response:
                    if response.status == 200:
                        break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the app did not start:\n" + log.read_text()) from None
                time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="session")
def base_url(tmp_path_factory, instance_dir):
    """The app serving the web tests' few scenarios."""
    yield from _serve(tmp_path_factory, SCENARIOS, instance_dir)


@pytest.fixture(scope="session")
def library_instance(tmp_path_factory):
    """The instance folder of the app serving the whole library (its SQLite database is there)."""
    return tmp_path_factory.mktemp("library-instance")


@pytest.fixture(scope="session")
def library_url(tmp_path_factory, library_instance):
    """The app serving the whole scenario library: spots of every size, on every street (its results
    issued by a named organisation)."""
    yield from _serve(tmp_path_factory, LIBRARY, library_instance, {"TRAINER_ORGANISATION": ORGANISATION})


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
        yield browser
        browser.close()


class Page:
    """A Playwright page that also records CSP violations and server errors it saw."""

    def __init__(self, page):
        self.page = page
        self.console: list[str] = []
        self.bad_responses: list[str] = []
        page.on("console", lambda m: self.console.append(m.text))
        page.on("response", lambda r: self.bad_responses.append(f"{r.status} {r.url}") if r.status >= 500 else None)

    def __getattr__(self, name):
        return getattr(self.page, name)

    def csp_violations(self) -> list[str]:
        return [m for m in self.console if "Content Security Policy" in m or "Refused to" in m]


def _open(browser, **options):
    context = browser.new_context(**{"viewport": {"width": 1024, "height": 800}, **options})
    context.set_default_timeout(10_000)
    return context, Page(context.new_page())


@pytest.fixture
def page(browser):
    context, page = _open(browser)
    yield page
    assert page.csp_violations() == []
    assert page.bad_responses == []
    context.close()


@pytest.fixture
def open_page(browser):
    """Pages with other options (no JavaScript, a narrow screen)."""
    opened = []

    def make(**options):
        context, page = _open(browser, **options)
        opened.append((context, page))
        return page

    yield make
    for context, page in opened:
        assert page.csp_violations() == []
        context.close()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS




# axe-core comes from the npm registry into the test setup only (never served by the app):
#   npm install --prefix tests/e2e/.axe --no-save --no-package-lock axe-core@4.14.1
AXE = Path(__file__).parent / ".axe" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def axe_source() -> str:
    if not AXE.is_file():
        pytest.skip("axe-core is not installed: npm install --prefix tests/e2e/.axe --no-save --no-package-lock axe-core@4.14.1")
    return AXE.read_text(encoding="utf-8")


ORGANISATION = "Taipei Dealer Academy"


def start_exam(page, start, *, name: str | None = None, number: str | None = None) -> None:
    """Click an exam's Start link (a locator), then on the page before the exam give the name (the
    account's is filled in) and the candidate number, and start it: the page is question 1."""
    with page.expect_navigation():
        start.click()
    if name is not None:
        page.fill("#f-candidate-name", name)
    if number is not None:
        page.fill("#f-candidate-number", number)
    with page.expect_navigation():
        page.click("text=Start the exam now")


def sign_up(page, base_url, name, email, *, instructor=False, at="/account/signup"):
    """Sign up in the browser, from ``at`` (the form, or a page that links to it); lands where it leads."""
    page.goto(base_url + at)
    if page.locator("#f-name").count() == 0:  # a page that links to the sign-up form
        with page.expect_navigation():
            page.click("main a:has-text('Create an account')")
    page.fill("#f-name", name)
    page.fill("#f-email", email)
    page.fill("#f-password", "password1")
    if instructor:
        page.check("#f-instructor")
    with page.expect_navigation():
        page.click("main form button[type=submit]")


def new_session(open_page, base_url, name, email, title, spot_ids, *, viewport=None, style="card", seconds="",
                keypad=False):
    """An instructor signed up in a new window, on the control page of a new live session of ``spot_ids``
    (``style`` "card": the full card; "quick": one tap per question, the form's default)."""
    teacher = open_page(viewport=viewport or {"width": 1280, "height": 900})
    sign_up(teacher, base_url, name, email, instructor=True)
    teacher.goto(base_url + "/classroom/")
    teacher.fill("#f-title", title)
    teacher.fill("#f-ids", "\n".join(spot_ids))
    teacher.check(f'input[type=radio][name="style"][value="{style}"]')
    if seconds:
        teacher.select_option("#f-seconds", seconds)
    if keypad:
        teacher.check('input[name="keypad"]')
    with teacher.expect_navigation():
        teacher.click("text=Create the session")
    return teacher
