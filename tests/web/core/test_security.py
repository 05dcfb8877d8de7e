"""Headers and markup rules that keep the app safe: CSP, no inline code, no CDN, vendored htmx."""

from __future__ import annotations

import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.web.conftest import BTN_RIGHT

STATIC = Path(__file__).resolve().parents[3] / "static"
PAGES = ["/", "/scenarios", "/topics/reopening", "/drill/btn-faces-short-all-in", "/drill/seed004-side-pot",
         "/rules", "/problems", "/no-such-page"]


class InlineFinder(HTMLParser):
    """Collects what a strict CSP would block: inline scripts and styles, event attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.external: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            if "src" not in attrs:
                self.found.append("inline <script>")
            else:
                self.external.append(attrs["src"])
        if tag == "style":
            self.found.append("<style>")
        if tag == "link" and attrs.get("href"):
            self.external.append(attrs["href"])
        for name, value in attrs.items():
            if name == "style":
                self.found.append(f"style attribute on <{tag}>")
            if name.startswith("on"):
                self.found.append(f"{name} attribute on <{tag}>")
            if name.startswith("hx-on"):
                self.found.append(f"{name} (needs eval) on <{tag}>")
            if value and value.strip().lower().startswith("javascript:"):
                self.found.append(f"javascript: URL on <{tag}>")


def test_csp_allows_only_this_origin(client):
    csp = client.get("/").headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "http" not in csp


@pytest.mark.parametrize("url", PAGES)
def test_pages_have_no_inline_scripts_or_styles_and_load_nothing_from_elsewhere(client, url):
    response = client.get(url)
    assert "Content-Security-Policy" in response.headers
    finder = InlineFinder()
    finder.feed(response.text)
    assert finder.found == []
    assert finder.external, "the page loads no stylesheet or script at all"
    for src in finder.external:
        assert src.startswith("/static/"), src


def test_graded_fragment_has_no_inline_code_either(drill):
    finder = InlineFinder()
    finder.feed(drill("btn-faces-short-all-in").submit(BTN_RIGHT, htmx=True).text)
    assert finder.found == []


def test_other_security_headers(client):
    headers = client.get("/drill/btn-faces-short-all-in").headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_htmx_is_vendored_pinned_and_recorded():
    vendor = (STATIC / "VENDOR.txt").read_text(encoding="utf-8")
    version = re.search(r"version:\s*(\S+)", vendor).group(1)
    digest = re.search(r"sha256:\s*([0-9a-f]{64})", vendor).group(1)
    assert re.fullmatch(r"2\.0\.\d+", version)
    data = (STATIC / "htmx.min.js").read_bytes()
    assert hashlib.sha256(data).hexdigest() == digest
    assert f'version:"{version}"'.encode() in data


def test_htmx_sse_extension_is_vendored_pinned_and_recorded():
    vendor = (STATIC / "VENDOR.txt").read_text(encoding="utf-8")
    entry = vendor[vendor.index("htmx-ext-sse.min.js"):]
    version = re.search(r"version:\s*(\S+)", entry).group(1)
    digest = re.search(r"sha256:\s*([0-9a-f]{64})", entry).group(1)
    assert re.fullmatch(r"2\.\d+\.\d+", version)  # the extension's major version is htmx's
    data = (STATIC / "htmx-ext-sse.min.js").read_bytes()
    assert hashlib.sha256(data).hexdigest() == digest
    assert b'defineExtension("sse"' in data


def test_static_files_are_served(client):
    for name in ("htmx.min.js", "htmx-ext-sse.min.js", "live.js", "drill.js", "trainer.css", "favicon.svg"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200, name
        response.close()


def test_htmx_is_configured_for_the_csp(client):
    html = client.get("/").text
    config = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", html).group(1)
    assert '"includeIndicatorStyles": false' in config  # htmx would inject a <style>
    assert '"allowEval": false' in config
    assert '"historyRestoreAsHxRequest": false' in config
    # The settle step copies the old element's attributes onto the new one with setAttribute: a style
    # attribute an extension or a password manager left there is inline style, which the CSP refuses.
    default = re.search(r'attributesToSettle:\[([^\]]*)\]', (STATIC / "htmx.min.js").read_text()).group(1)
    settled = json.loads(config)["attributesToSettle"]
    assert settled == [a for a in json.loads(f"[{default}]") if a != "style"] and "class" in settled
