"""The card lesson end to end in a real browser, on the whole library (seed 003's flop spot: SB bet
400, BB called, CO all-in to 650, BTN called; SB: ① 650, ② 400, ③a 400, ③b yes, ④ 250 < ②), at a
laptop's and a phone's size in three languages; and one "What is this?" opened on the drill.
Screenshots of every step go to test-artifacts/lesson-<lang>-<size>-<n>.png."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import languages_by_sizes
from tests.e2e.test_table_browser import DESKTOP, LANGS, PHONE

pytestmark = pytest.mark.e2e

SIZES = {"1280": DESKTOP, "360": PHONE}
STEPS = (
    {"current_total": "650"},
    {"last_full_increment": "400"},
    {"committed": "400", "acted": "yes"},
    {"to_add": "250"},
    {"legal": ["fold", "call"]},
)
RIGHT = {"en": "Right", "zh-Hant": "正確", "zh-Hans": "正确"}
NOT_YET = {"en": "Not right yet.", "zh-Hant": "還不對。", "zh-Hans": "还不对。"}


def fill(page, answer: dict) -> None:
    for name, value in answer.items():
        if isinstance(value, list):
            for v in value:
                page.check(f"input[name={name}][value={v}]")
        elif name == "acted":
            page.check(f"input[name=acted][value={value}]")
        else:
            page.fill(f"#f-{name}", value)


def check(page) -> None:
    page.click("#lesson-form button[type=submit]:not([name])")


def on_screen(page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


@pytest.mark.parametrize(("lang", "size"), languages_by_sizes(LANGS, {size: size for size in sorted(SIZES)}))
def test_the_lesson_end_to_end(open_page, library_url, artifacts, lang, size):
    page = open_page(**SIZES[size])
    shot = lambda n: page.screenshot(path=str(artifacts / f"lesson-{lang}-{size}-{n}.png"), full_page=True,  # noqa: E731
                                     caret="initial")  # caret="hide" injects a style the CSP refuses
    page.goto(f"{library_url}/?lang={lang}")
    assert page.locator("#lesson-offer").is_visible()  # a browser with no answers yet
    with page.expect_navigation():
        page.click("#lesson-link")
    assert page.locator("#lesson-start").is_visible() and on_screen(page, "#lesson-start")
    shot("0-intro")
    with page.expect_navigation():
        page.click("#lesson-start")
    for n, answer in enumerate(STEPS, start=1):
        assert page.url.endswith(f"/lesson/{n}")
        first = page.locator("#lesson-form input:not([type=hidden])").first
        assert first.is_visible()
        if size == "1280":  # the question and its Check button in the first screen of a laptop
            assert on_screen(page, "#lesson-form input:not([type=hidden])")
            assert on_screen(page, "#lesson-form button[type=submit]")
        if n == 2:  # the classic slip: the short all-in's increment (650 − 400) taken for ②
            fill(page, {"last_full_increment": "250"})
            check(page)
            page.wait_for_selector(".hint-rule")
            assert NOT_YET[lang] in page.locator("#lesson-answer").inner_text()
            assert "400" not in page.locator("#f-last_full_increment-mark").inner_text()
            shot("2-hint")
        fill(page, answer)
        check(page)
        page.wait_for_selector("#lesson-next")
        assert RIGHT[lang] in page.locator(".lesson-after").inner_text()
        assert page.locator(".lesson-reasons li").count() >= 1
        shot(f"{n}-right")
        with page.expect_navigation():
            page.click("#lesson-next")
    assert page.url.endswith("/lesson/done")
    assert [c.inner_text() for c in page.locator(".lesson-card-so-far dd").all()][:5] == \
        ["650", "400", "400", {"en": "yes"}.get(lang, "是"), "250"]
    shot("6-done")
    with page.expect_navigation():
        page.click("#lesson-practise")
    assert "/drill/" in page.url  # the first spot of the path


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_what_is_this_opens_with_one_tap_on_the_drill(open_page, library_url, artifacts, size):
    page = open_page(**SIZES[size])
    page.goto(f"{library_url}/drill/flop-bettor-after-short-allin-is-called?lang=zh-Hant")
    helper = page.locator("#f-last_full_increment").locator("xpath=..").locator("details.what-is")
    assert not helper.locator("p").first.is_visible()
    helper.locator("summary").tap() if size == "360" else helper.locator("summary").click()
    text = helper.inner_text()
    assert "最後一次完整下注或完整加注" in text and "例：" in text
    assert "400" not in text  # the definition, not this spot's ② (400)
    helper.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"lesson-what-is-zh-Hant-{size}.png"), caret="initial")
