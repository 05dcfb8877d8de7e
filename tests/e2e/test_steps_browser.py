"""A spot in two steps in a real browser: a miss at the card with a hint, the card fixed, the
options as step 2 on the same page, and the rating moving; axe-core before and after each step."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import LANGUAGES
from tests.e2e.test_drill_browser import DRILL, RIGHT, fill, focus_moves_to
from tests.e2e.test_loop_browser import fill_right
from tests.e2e.test_table_browser import DESKTOP, PHONE, axe_violations

pytestmark = pytest.mark.e2e

RATING = re.compile(r"([\d,]+)\s*[（(]([+−]\d+)[）)]")


def check(page) -> None:
    page.click(".answer-form button[type=submit]")


@pytest.mark.parametrize("size", ["1280", "360"])
def test_a_miss_with_a_hint_then_solved_in_two_steps_and_the_rating_moving(open_page, base_url, artifacts, size):
    page = open_page(**(DESKTOP if size == "1280" else PHONE))
    page.goto(base_url + DRILL)
    assert page.locator("#stage-line").inner_text() == "Step 1 of 2"
    assert page.locator("#f-min_to").count() == 0  # the options wait for step 2
    # step 1, a first miss: ② marked with its rule, no right value, and the first try is decided
    fill(page, {**RIGHT, "last_full_increment": "400"})
    check(page)
    page.wait_for_selector(".hint-rule")
    assert "correct" not in page.locator("#answer").inner_text()
    assert page.locator("#f-last_full_increment-mark .hint-rule a").count() == 1
    rating = RATING.search(page.locator("#rating-line").inner_text())
    assert rating, "a missed first try is a rating game (three fields of four right: scored 0.75)"
    page.screenshot(path=str(artifacts / f"steps-hint-{size}.png"), full_page=True, caret="initial")  # caret="hide" injects a style the CSP refuses
    # fixed: step 1 is done and step 2 is swapped in on the same page, its first field focused
    page.fill("#f-last_full_increment", "1000")
    check(page)
    page.wait_for_selector("#stage-done")
    focus_moves_to(page, "f-legal-1")
    assert "Step 1 of 2: all 5 right" in page.locator("#stage-done").inner_text()
    assert page.locator("#f-current_total").count() == 0 and page.locator("#f-min_to").count() == 1
    assert page.locator("#rating-line").count() == 0  # a retry moves no rating
    page.screenshot(path=str(artifacts / f"steps-two-{size}.png"), full_page=True, caret="initial")  # caret="hide" injects a style the CSP refuses
    page.reload()  # the address says step 2 now: a reload keeps it
    assert page.locator("#f-current_total").count() == 0 and page.locator("#f-min_to").count() == 1
    fill(page, RIGHT)
    check(page)
    page.wait_for_selector("#feedback")
    assert "All 5 right" in page.locator("#feedback").inner_text()
    assert page.locator("ol.steps").count() == 1 and page.locator("#rating-line").count() == 0
    page.screenshot(path=str(artifacts / f"steps-done-{size}.png"), full_page=True, caret="initial")  # caret="hide" injects a style the CSP refuses
    # a spot solved at once, both steps right: the rating goes up, shown after the last step
    page.goto(base_url + "/drill/sb-not-reopened")
    fill_right(page, "sb-not-reopened")
    check(page)
    page.wait_for_selector("#stage-done")
    assert page.locator("#rating-line").count() == 0  # a right card decides nothing yet
    fill_right(page, "sb-not-reopened")
    check(page)
    page.wait_for_selector("#feedback")
    rating = RATING.search(page.locator("#rating-line").inner_text())
    assert rating and rating.group(2).startswith("+")
    page.screenshot(path=str(artifacts / f"steps-rating-{size}.png"), full_page=True, caret="initial")  # caret="hide" injects a style the CSP refuses


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_nothing_on_the_drill_before_and_after_each_step(page, base_url, axe_source, artifacts, lang):
    for options in (DESKTOP, PHONE):
        page.set_viewport_size(options["viewport"])
        page.goto(f"{base_url}{DRILL}?lang={lang}")
        assert axe_violations(page, axe_source) == []
        fill(page, {**RIGHT, "to_add": "1000"})
        check(page)
        page.wait_for_selector(".hint-rule")
        assert axe_violations(page, axe_source) == []
        page.click("button[name=reveal]")
        page.wait_for_selector("#stage-done")
        assert axe_violations(page, axe_source) == []
        if lang != "en":
            page.screenshot(path=str(artifacts / f"steps-two-{options['viewport']['width']}-{lang}.png"), full_page=True, caret="initial")  # caret="hide" injects a style the CSP refuses
        fill(page, {**RIGHT, "min_to": "1800"})
        check(page)
        page.wait_for_selector("#feedback")
        assert axe_violations(page, axe_source) == []
