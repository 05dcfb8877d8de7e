"""A learner in a real browser: answer wrong, answer right, keyboard only, no JavaScript, a phone."""

from __future__ import annotations

import re

import pytest

from tests.answers import BTN_TYPED

pytestmark = pytest.mark.e2e
RIGHT = BTN_TYPED

DRILL = "/drill/btn-faces-short-all-in"


def fill(page, answer: dict, *, acted: str = "no", legal=("fold", "call", "raise")):
    """Fill the fields of the step on screen (the card, then the options: a spot in two steps)."""
    for name, value in answer.items():
        if page.locator(f"#f-{name}").count():
            page.fill(f"#f-{name}", value)
    if page.locator("input[name=acted]").count():
        page.check(f"input[name=acted][value={acted}]")
    for box in page.locator("input[name=legal]").all():
        box.set_checked(box.get_attribute("value") in legal)


def answer_both_steps(page, answer: dict, **choices) -> None:
    """Answer step 1 (the card), then, once its form is swapped in, step 2; wait for the feedback."""
    fill(page, answer, **choices)
    page.click(".answer-form button[type=submit]")
    page.wait_for_selector("#stage-done, #feedback")
    if page.locator("input[name=stage][value='2']").count():
        fill(page, answer, **choices)
        page.click(".answer-form button[type=submit]")
        page.wait_for_selector("#feedback")


def active_id(page) -> str:
    return page.evaluate("document.activeElement && document.activeElement.id")


def focus_moves_to(page, element_id: str) -> None:
    """htmx moves focus when the swap settles, a moment after the new markup is in."""
    page.wait_for_function("id => document.activeElement && document.activeElement.id === id", arg=element_id, timeout=3000)


def submit(page, wait: str = "#stage-done, #feedback") -> None:
    page.click(".answer-form button[type=submit]")
    page.wait_for_selector(wait)


def test_wrong_then_right_answer_swaps_in_place_without_a_reload(page, base_url, artifacts):
    page.goto(base_url + DRILL)
    assert page.locator("svg.table-svg--wide").is_visible()
    page.evaluate("window.__sameDocument = true")

    # step 1, the card: ② wrong
    fill(page, {**RIGHT, "last_full_increment": "400"})
    submit(page, "#feedback")
    assert page.evaluate("window.__sameDocument === true"), "the page reloaded"
    assert page.url == base_url + DRILL
    # a first miss: which fields are wrong and the rule for each, not the right values
    hint = page.locator("#f-last_full_increment-mark").inner_text()
    assert "Not right yet." in hint and "R-" in hint and "1,000" not in hint
    assert page.locator("ol.steps").count() == 0
    page.click("button[name=reveal]")  # Show answer: step 1's worked answer, and step 2
    page.wait_for_selector("#stage-done")
    done = page.locator("#stage-done").inner_text()
    assert "Step 1 of 2: 4 of 5 right" in done and "1,000" in done
    assert page.locator("#stage-done a.rule-link", has_text="R-SHORTALLIN").count() >= 1
    assert "2,400" not in page.locator("#answer").inner_text()  # nothing of step 2's answers
    focus_moves_to(page, "f-legal-1")
    # step 2: the minimum raise wrong, then its worked answer
    fill(page, {**RIGHT, "min_to": "1800"})
    submit(page, "#feedback")
    assert "Not right yet." in page.locator("#f-min_to-mark").inner_text()
    page.click("button[name=reveal]")
    page.wait_for_selector("ol.steps")
    assert "Wrong — correct: 2,400" in page.locator("#f-min_to-mark").inner_text()
    assert "Right" in page.locator("#f-call-mark").inner_text()
    assert page.locator(".mark--wrong .icon").first.inner_text() == "✗"
    assert page.locator("#feedback-h").inner_text().strip() == "✗ 4 of 5 right"
    focus_moves_to(page, "feedback-h")
    assert page.locator("#status").inner_text() == "4 of 5 right."
    page.screenshot(path=str(artifacts / "graded-drill-wrong.png"), full_page=True, caret="initial")

    # After a miss the fields keep what was typed; the other button says it clears them.
    assert page.input_value("#f-min_to") == "1800"
    page.click("text=Clear and start again")  # the spot again from step 1
    page.wait_for_selector("#feedback", state="detached")
    focus_moves_to(page, "f-current_total")
    assert page.input_value("#f-current_total") == ""

    answer_both_steps(page, RIGHT)
    assert page.locator("#feedback-h").inner_text().strip() == "✓ All 5 right"
    assert page.locator(".mark--wrong").count() == 0
    assert page.evaluate("window.__sameDocument === true")
    assert "less than SB's 1000" in page.locator(".explain").inner_text()
    page.screenshot(path=str(artifacts / "graded-drill.png"), full_page=True, caret="initial")

    with page.expect_navigation():
        page.click("text=Next spot")
    assert "/drill/" in page.url and page.url != base_url + DRILL



def test_a_graded_swap_copies_no_style_attribute_the_csp_would_refuse(page, base_url):
    page.goto(base_url + DRILL)
    # What a password manager or an extension does to the fields (through the CSSOM, which the CSP
    # allows): when the graded form settles, htmx copied such a style attribute onto the new fields.
    page.evaluate("document.querySelectorAll('.answer-form input').forEach(i => { i.style.backgroundImage = 'none'; })")
    fill(page, {**RIGHT, "last_full_increment": "400"})
    submit(page, "#feedback")
    page.wait_for_function("() => !document.querySelector('.htmx-settling')")
    page.wait_for_timeout(100)  # htmx's settle delay (20 ms) has passed
    assert page.csp_violations() == []

def test_bad_input_gets_a_message_next_to_the_field(page, base_url):
    page.goto(base_url + DRILL)
    fill(page, {**RIGHT, "to_add": "14,00"})  # the box takes digits and commas; the server reads the grouping
    submit(page, ".error-summary")
    assert "Put commas only between groups of three digits" in page.locator("#f-to_add-error").inner_text()
    assert page.locator("#feedback").count() == 0
    focus_moves_to(page, "f-to_add")
    assert page.input_value("#f-to_add") == "14,00"
    page.fill("#f-to_add", RIGHT["to_add"])
    submit(page, "#stage-done")
    fill(page, RIGHT)
    # a minus sign cannot be typed here, but a browser without JavaScript sends what it was given
    page.eval_on_selector("#f-pot", "box => { box.value = '-5'; }")
    submit(page, ".error-summary")
    assert "can't be negative" in page.locator("#f-pot-error").inner_text()


def test_full_width_digits_from_a_chinese_input_method(page, base_url):
    page.goto(base_url + DRILL)
    fill(page, RIGHT)
    page.fill("#f-to_add", "")
    page.focus("#f-to_add")
    page.keyboard.insert_text("１，４００")  # what an IME commits
    page.press("#f-to_add", "Enter")
    page.wait_for_selector("#stage-done")
    assert "all 5 right" in page.locator("#stage-done-h").inner_text()
    fill(page, RIGHT)
    page.fill("#f-max_to", "１０，０００")
    page.press("#f-max_to", "Enter")
    page.wait_for_selector("#feedback")
    assert page.locator("#feedback-h").inner_text().strip() == "✓ All 5 right"


def test_enter_while_an_ime_is_composing_does_not_submit(page, base_url):
    page.goto(base_url + DRILL)
    fill(page, RIGHT)
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.fill("#f-to_add", "")
    page.focus("#f-to_add")
    cdp = page.context.new_cdp_session(page.page)
    cdp.send("Input.imeSetComposition", {"text": "１４", "selectionStart": 2, "selectionEnd": 2})
    page.keyboard.press("Enter")
    page.wait_for_timeout(400)
    assert posts == [] and page.locator("#stage-done, #feedback").count() == 0
    cdp.send("Input.insertText", {"text": "１４００"})  # the learner commits the word
    assert page.input_value("#f-to_add") == "１４００"
    page.wait_for_timeout(100)
    page.keyboard.press("Enter")
    page.wait_for_selector("#stage-done")
    assert len(posts) == 1
    assert "all 5 right" in page.locator("#stage-done-h").inner_text()


def tab_to(page, element_id: str, limit: int = 60) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if active_id(page) == element_id:
            return
    raise AssertionError(f"Tab never reached #{element_id}")


def test_keyboard_only(page, base_url):
    page.goto(base_url + DRILL)
    tab_to(page, "f-current_total")
    # Between two fields, Tab passes the next one's "What is this?" (a <summary>, reachable by keyboard too).
    for value, following in (("1400", "f-last_full_increment"), ("1000", "f-committed"), ("0", "f-acted-1")):
        page.keyboard.type(value)
        tab_to(page, following, limit=2)
    assert active_id(page) == "f-acted-1"  # the yes/no radios come next
    page.keyboard.press("ArrowRight")  # to "no"
    assert page.is_checked("input[name=acted][value=no]")
    tab_to(page, "f-to_add", limit=3)
    page.keyboard.type("1400")
    page.keyboard.press("Enter")  # step 1 checked: step 2 comes with its first box focused
    page.wait_for_selector("#stage-done")
    focus_moves_to(page, "f-legal-1")
    for i, box in enumerate(("fold", "check", "call", "bet", "raise")):
        if i:
            page.keyboard.press("Tab")
        if box in ("fold", "call", "raise"):
            page.keyboard.press("Space")
    for value, name in (("1400", "call"), ("2400", "min_to"), ("10000", "max_to"), ("4000", "pot")):
        tab_to(page, f"f-{name}", limit=2)
        page.keyboard.type(value)
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback")
    focus_moves_to(page, "feedback-h")
    assert page.locator("#feedback-h").inner_text().strip() == "✓ All 5 right"
    # from the feedback, the keyboard reaches the rule links and the next spot
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent.trim()") == "Next spot":
            break
    else:
        raise AssertionError("Tab never reached Next spot")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url != base_url + DRILL


def test_without_javascript_the_form_posts_and_the_page_comes_back_graded(open_page, base_url, artifacts):
    page = open_page(java_script_enabled=False)
    page.goto(base_url + DRILL)
    fill(page, RIGHT)
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert page.locator("svg.table-svg--wide").is_visible()  # a whole page came back
    assert "Step 1 of 2: all 5 right" in page.locator("#stage-done").inner_text()
    assert page.locator("input[name=stage][value='2']").count() == 1  # step 2, also without JavaScript
    page.screenshot(path=str(artifacts / "graded-drill-no-js-step-2.png"), full_page=True, caret="initial")
    fill(page, {**RIGHT, "min_to": "1800"})
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert page.locator("#feedback-h").inner_text().strip() == "✗ 4 of 5 right"
    assert "Not right yet." in page.locator("#f-min_to-mark").inner_text()
    with page.expect_navigation():
        page.click("button[name=reveal]")  # Show answer, without JavaScript too
    assert "Wrong — correct: 2,400" in page.locator("#f-min_to-mark").inner_text()
    focus_moves_to(page, "feedback-h")  # autofocus, no script needed
    page.screenshot(path=str(artifacts / "graded-drill-no-js.png"), full_page=True, caret="initial")


def test_usable_on_a_320_pixel_screen(open_page, base_url, artifacts):
    page = open_page(viewport={"width": 320, "height": 640}, has_touch=True, is_mobile=True)
    page.goto(base_url + DRILL)
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    answer_both_steps(page, RIGHT)
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    box = page.locator("button[type=submit]").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 320
    page.screenshot(path=str(artifacts / "graded-drill-320px.png"), full_page=True, caret="initial")


def test_level_filter_swaps_the_list_and_keeps_history(page, base_url):
    page.goto(base_url + "/topics/reopening")
    page.evaluate("window.__sameDocument = true")
    page.click("#level-3")
    page.wait_for_url(re.compile(r"level=3"))
    assert page.locator(".spots li").count() == 1
    assert page.evaluate("window.__sameDocument === true")
    assert page.locator("#status").inner_text() == "Showing 1 spot at level 3."
    # Endless practice follows the level picked in the list (it kept the one the page opened with).
    assert page.locator("#endless").inner_text().strip() == "Endless practice at level 3"
    assert page.locator("#endless").get_attribute("href").endswith("level=3")
    page.go_back()
    page.wait_for_url(base_url + "/topics/reopening")
    assert page.locator(".spots li").count() == 2


def test_unknown_scenario_page_offers_a_way_back(page, base_url):
    response = page.goto(base_url + "/drill/no-such-spot")
    assert response.status == 404
    page.click("text=Back to the home page")
    page.wait_for_url(base_url + "/")
    assert page.locator("h1").inner_text() == "Holdem Rules Trainer"
