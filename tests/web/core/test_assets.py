"""Small transfers: compressed pages, fingerprinted static files kept for a year, a drill under 30 KB."""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import brotli
import pytest

from trainer.resources import folder
from trainer.web import create_app

DRILL = "/drill/flop-allin-14-over-a-10-bet"


@pytest.fixture
def client():
    return create_app({"TESTING": True, "SECRET_KEY": "x"}).test_client()


def _assets(html: str) -> list[str]:
    return re.findall(r'<(?:link rel="stylesheet"|script) (?:href|src)="(/static/[^"]+)"', html)


@pytest.mark.parametrize("accept, encoding, decode", [("br, gzip", "br", brotli.decompress), ("gzip", "gzip", gzip.decompress)])
def test_pages_and_static_files_are_compressed_for_what_the_browser_accepts(client, accept, encoding, decode):
    plain = client.get(DRILL)
    packed = client.get(DRILL, headers={"Accept-Encoding": accept})
    assert packed.headers["Content-Encoding"] == encoding and "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.data) < len(plain.data) / 2
    # the same page but for its per-response values (CSRF token, when the form was opened)
    strip = re.compile(rb'value="[^"]*"')
    assert strip.sub(b"", decode(packed.data)) == strip.sub(b"", plain.data)
    for url in _assets(plain.text):
        got = client.get(url, headers={"Accept-Encoding": accept})
        assert got.headers["Content-Encoding"] == encoding
        assert decode(got.data) == client.get(url).data


def test_static_files_carry_a_fingerprint_and_are_kept_for_a_year(client):
    urls = _assets(client.get(DRILL).text)
    assert any("htmx.min.js?v=" in u for u in urls) and all("?v=" in u for u in urls)
    for url in urls:
        assert client.get(url).headers["Cache-Control"] == "public, max-age=31536000, immutable"
        bare = url.split("?")[0]
        assert client.get(bare).headers["Cache-Control"] == "no-cache"
        assert client.get(bare + "?v=000000000000").headers["Cache-Control"] == "no-cache"


def test_a_changed_file_gets_a_new_address(tmp_path):
    static = tmp_path / "static"
    shutil.copytree(folder("static"), static)
    first = create_app({"TESTING": True, "SECRET_KEY": "x", "STATIC_DIR": str(static)}).test_client()
    before = [u for u in _assets(first.get(DRILL).text) if "trainer.css" in u]
    (static / "trainer.css").write_text((static / "trainer.css").read_text() + "\n/* changed */\n")
    second = create_app({"TESTING": True, "SECRET_KEY": "x", "STATIC_DIR": str(static)}).test_client()
    after = [u for u in _assets(second.get(DRILL).text) if "trainer.css" in u]
    assert before and after and before != after


def test_pages_are_not_kept(client):
    for url in ("/", DRILL, "/rules"):
        assert "immutable" not in client.get(url).headers.get("Cache-Control", "")
        assert client.get(url).headers["Cache-Control"] == "no-cache"


def test_the_drill_page_with_its_css_and_javascript_is_under_30_kb(client):
    headers = {"Accept-Encoding": "br, gzip, deflate"}
    page = client.get(DRILL, headers=headers)
    total = len(page.data) + sum(len(client.get(u, headers=headers).data) for u in _assets(client.get(DRILL).text))
    assert total < 30 * 1024, f"the drill page transfers {total:,} bytes"
