"""My spots in a real browser: an instructor writes a spot in YAML (a mistake first, shown by line and
key with the text kept), previews it with the engine's answers, saves it, asks it in a quick live
session, and a student on a phone answers it. Screenshots of the pages at 360×740 and 1280×800 in the
three languages go to test-artifacts/."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import sign_up

pytestmark = pytest.mark.e2e

SPOT = """\
title:
  en: "<b>x</b> =HYPERLINK(\\"x\\")"
topics: [min-raise]
game:
  type: no-limit
  blinds: [50, 100]
stacks: {SB: 5000, BB: 5000, UTG: 5000, HJ: 5000, BTN: 5000}
actions:
  - UTG raise 300
ask: [card, options]
"""
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
WAIT_MS = 8000


def test_an_instructor_writes_a_spot_and_a_student_answers_it_in_a_quick_session(open_page, base_url, artifacts):
    teacher = open_page(viewport={"width": 1280, "height": 800})
    sign_up(teacher, base_url, "Ms Lin", "lin-spots@example.com", instructor=True)
    teacher.goto(base_url + "/my-spots/new")
    teacher.fill("#f-yaml", SPOT.replace("stacks:", "stack:"))
    with teacher.expect_navigation():
        teacher.click("main form button[type=submit]")
    summary = teacher.locator("#error-summary").inner_text()
    assert "Line 7" in summary and "stack" in summary
    assert "stack: {SB: 5000" in teacher.input_value("#f-yaml")  # the text kept
    teacher.screenshot(path=str(artifacts / "my-spots-error-1280.png"), full_page=True)

    teacher.fill("#f-yaml", SPOT)
    with teacher.expect_navigation():
        teacher.click("main form button[type=submit]")
    assert teacher.locator("h1").inner_text() == '<b>x</b> =HYPERLINK("x")'  # shown as text, not markup
    assert "500" in teacher.locator("#engine-answers").inner_text()
    spot_url = teacher.url.split("?")[0]
    for lang in ("en", "zh-Hant", "zh-Hans"):
        for width, height in ((1280, 800), (360, 740)):
            teacher.set_viewport_size({"width": width, "height": height})
            for name, url in (("spot", spot_url), ("list", base_url + "/my-spots/"), ("new", base_url + "/my-spots/new"),
                              ("hands", base_url + "/my-spots/hands")):
                teacher.goto(f"{url}?lang={lang}")
                assert teacher.evaluate("document.documentElement.scrollWidth") <= width + 1, (name, lang, width)
                teacher.screenshot(path=str(artifacts / f"my-spots-{name}-{width}-{lang}.png"), full_page=True)
    teacher.set_viewport_size({"width": 1280, "height": 800})
    teacher.goto(base_url + "/my-spots/?lang=en")

    teacher.check("input[name=ids]")
    teacher.check('input[name="style"][value="quick"]')
    with teacher.expect_navigation():
        teacher.click("text=Start the live session")
    control_url = teacher.url.split("?")[0]
    join_url = teacher.locator(".join-text a").first.get_attribute("href")

    phone = open_page(**PHONE)
    phone.goto(join_url)
    phone.fill("#f-name", "Ann")
    with phone.expect_navigation():
        phone.click("main form button[type=submit]")
    phone.wait_for_selector("#stage", timeout=WAIT_MS)

    teacher.goto(control_url)
    with teacher.expect_navigation():
        teacher.click(".control-actions--main button:has-text('Start')")
    phone.wait_for_selector(".quick-choice", timeout=WAIT_MS)
    assert "<b>" not in phone.content().split("<main", 1)[1].split("</main>")[0].replace("&lt;b&gt;", "")
    phone.locator('.quick-choice[value="500"]').click()
    phone.wait_for_selector("#received", timeout=WAIT_MS)
    teacher.wait_for_selector("text=1 of 1 answered", timeout=WAIT_MS)
    with teacher.expect_navigation():
        teacher.click(".control-actions--main button:has-text('Reveal')")
    phone.wait_for_selector("text=Right!", timeout=WAIT_MS)
    phone.screenshot(path=str(artifacts / "my-spots-student-right-360.png"))

    # Hand histories in: a client's text file uploaded from the browser, the report shown.
    from tests.importer.test_bad_input import STARS

    teacher.goto(base_url + "/my-spots/hands")
    teacher.set_input_files("#f-files", files=[
        {"name": "a-rather-long-file-name-exported-by-the-client-2026-12-06.txt", "mimeType": "text/plain",
         "buffer": STARS.encode()},
        {"name": "cut.txt", "mimeType": "text/plain", "buffer": STARS.split("*** FLOP")[0].encode()},
    ])
    with teacher.expect_navigation():
        teacher.click("main form button[type=submit]")
    assert "truncated" in teacher.locator(".refusals").inner_text()
    for lang in ("en", "zh-Hant"):
        for width, height in ((1280, 800), (360, 740)):
            teacher.set_viewport_size({"width": width, "height": height})
            teacher.goto(f"{teacher.url.split('?')[0]}?lang={lang}")
            assert teacher.evaluate("document.documentElement.scrollWidth") <= width + 1, (lang, width)
            teacher.screenshot(path=str(artifacts / f"my-spots-upload-{width}-{lang}.png"), full_page=True)
