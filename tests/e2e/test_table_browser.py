"""The drill page as a learner sees it: table and card side by side, a phone table that reads, the keys.

Layout facts are measured in a real Chromium: what is on the first screen, the
rendered size of every text of the drawing, pieces of the drawing that cover
each other, sideways scrolling. The library's spots cover every table size
from heads-up to ten-handed, on every street.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import LANGUAGES
from tests.e2e.test_drill_browser import DRILL, RIGHT, answer_both_steps, fill, focus_moves_to

pytestmark = pytest.mark.e2e

LANGS = ("en", "zh-Hant", "zh-Hans")
FACTS = (Path(__file__).parent / "table_facts.js").read_text(encoding="utf-8")
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}

# One library spot for each number of seats, 2 to 10, and the streets with and without named boards.
BY_SEATS = {
    2: "heads-up-button-acts-first",
    3: "river-first-player-left-of-button",
    4: "antes-stay-in-the-main-pot",
    5: "flop-all-in-player-is-skipped",
    6: "six-max-pot-on-the-river",
    7: "preflop-big-blind-acts-last",
    8: "eight-handed-three-bet-minimum",
    9: "nine-handed-minimum-reraise",
    10: "ten-handed-short-big-blind",
}
FLOP = "flop-bettor-faces-raise-and-reraise"  # a flop spot that names no cards
HANDS = "two-pair-the-fifth-card"  # hand reading: a named river board and hole cards on the seats


def facts(page) -> dict:
    return page.evaluate(FACTS)


def first_field_box(page) -> dict:
    return page.locator("#answer-form input:not([type=hidden])").first.bounding_box()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_at_1280_by_800_the_table_and_the_first_field_are_on_the_first_screen(open_page, library_url, artifacts, lang):
    page = open_page(**DESKTOP)
    for n, spot in BY_SEATS.items():
        page.goto(f"{library_url}/drill/{spot}?lang={lang}")
        table = facts(page)
        assert table["top"] >= 0 and table["bottom"] <= 800, (spot, table)
        field = first_field_box(page)
        assert field["y"] >= 0 and field["y"] + field["height"] <= 800, (spot, field)
        # side by side: the card's column starts right of the table
        assert field["x"] >= page.locator("svg.table-svg--wide").bounding_box()["x"] + table["width"]
        assert table["overlaps"] == [] and table["spills"] == [], (spot, table)
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    page.goto(f"{library_url}/drill/{FLOP}?lang={lang}")
    page.screenshot(path=str(artifacts / f"drill-table-1280x800-{lang}.png"), caret="initial")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_on_a_360_pixel_phone_every_table_text_reads_and_nothing_scrolls_sideways(open_page, library_url, artifacts, lang):
    page = open_page(**PHONE)
    for n, spot in {**BY_SEATS, 0: HANDS}.items():
        page.goto(f"{library_url}/drill/{spot}?lang={lang}")
        table = facts(page)
        assert table is not None and table["width"] <= 360
        assert table["minFont"] >= 11, (spot, table["minFont"])
        assert table["overlaps"] == [], (spot, table["overlaps"])  # the to-act tag, bets, board, button cover nothing
        assert table["spills"] == [], (spot, table["spills"])  # every word fits its seat
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, spot
    page.goto(f"{library_url}/drill/{FLOP}?lang={lang}")
    page.screenshot(path=str(artifacts / f"drill-table-360x740-{lang}.png"), full_page=True, caret="initial")


def test_the_phone_table_marks_the_player_to_act_under_the_seat_and_shows_chips_in_the_boxes(open_page, library_url):
    page = open_page(**PHONE)
    page.goto(f"{library_url}/drill/{FLOP}")
    svg = page.locator("svg.table-svg--narrow")
    tag = svg.locator(".seat-tag")
    assert tag.text_content().strip() == "▲ to act"
    hero = svg.locator(".seat--to-act rect").bounding_box()
    below = tag.locator("rect").bounding_box()
    assert below["y"] >= hero["y"] + hero["height"]  # under the box, not on anyone's chips
    # SB has 300 in front, BTN 1,500: written in their boxes, with the pot as chips and an amount
    assert svg.locator(".seat--to-act .seat-bet").text_content() == "300"
    assert "1,500" in [t.text_content() for t in svg.locator(".seat-bet").all()]
    assert svg.locator(".pot .chip").count() == 3
    assert svg.locator(".pot-text").text_content() == "Pot 4,000"


def test_board_cards_are_drawn_whenever_the_spot_has_a_board(open_page, library_url):
    for options in (DESKTOP, PHONE):
        page = open_page(**options)
        page.goto(f"{library_url}/drill/{FLOP}")
        svg = page.locator("svg.table-svg:visible")
        assert svg.locator(".card--back").count() == 3  # the flop, face down: the spot names no cards
        page.click("#action-so-far summary")  # the board in words is with the seats, one tap away
        assert "3 cards, not named" in page.locator(".board-line").inner_text()
        page.goto(f"{library_url}/drill/{HANDS}")
        svg = page.locator("svg.table-svg:visible")
        assert svg.locator(".card").count() == 5 and svg.locator(".card--back").count() == 0
        assert svg.locator(".seat-cards").count() >= 2  # hole cards still on the seats
        page.goto(f"{library_url}/drill/{BY_SEATS[7]}")  # preflop: no board
        assert page.locator("svg.table-svg:visible .card").count() == 0


def test_the_action_so_far_is_one_tap_beside_the_card(open_page, library_url):
    page = open_page(**PHONE)
    page.goto(f"{library_url}/drill/{FLOP}")
    history = page.locator("#action-so-far")
    assert not history.locator("table.history").is_visible()
    page.tap("#action-so-far summary")
    assert history.locator("table.history").is_visible()
    rows = history.locator("table.history tbody tr")
    assert [r.locator("th").inner_text() for r in rows.all()] == ["SB", "BB", "CO", "BTN"]
    assert history.locator("table.seats").is_visible()  # the seats, behind the same tap
    # the card is right after it
    assert page.locator("#answer").bounding_box()["y"] > history.bounding_box()["y"]


# ------------------------------------------------------------------ keys


def blur(page) -> None:
    page.evaluate("document.activeElement && document.activeElement.blur()")


def test_keys_enter_checks_s_shows_the_answer_n_goes_on(page, base_url):
    page.goto(base_url + DRILL)
    assert page.locator(".key-hints").is_visible()
    fill(page, RIGHT)
    # typing in a field never fires a shortcut: "n" and "s" do nothing in an amount box, which takes digits
    page.fill("#f-to_add", "")
    page.focus("#f-to_add")
    page.keyboard.type("n1s4")
    assert page.input_value("#f-to_add") == "14"
    assert page.url == base_url + DRILL
    page.fill("#f-to_add", RIGHT["to_add"])
    blur(page)
    page.keyboard.press("Enter")
    page.wait_for_selector("#stage-done")  # step 1 checked: step 2, the options
    fill(page, RIGHT)
    blur(page)
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback")
    focus_moves_to(page, "feedback-h")
    assert page.locator("#feedback-h").inner_text().strip() == "✓ All 5 right"
    blur(page)
    page.keyboard.press("s")
    assert page.evaluate("document.activeElement.textContent.trim()") == "How it is worked out"
    with page.expect_navigation():
        page.keyboard.press("n")
    assert "/drill/" in page.url and page.url != base_url + DRILL


def test_key_r_replays_the_action_so_far_step_by_step(page, base_url):
    page.goto(base_url + "/drill/sb-not-reopened")
    rows = page.locator("#action-so-far table.history tbody tr")
    assert rows.count() == 4
    page.keyboard.press("r")
    assert page.locator("#action-so-far").get_attribute("open") is not None
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    page.wait_for_timeout(100)
    shown = [r.is_visible() for r in rows.all()]
    assert shown[0] and not shown[-1], shown  # the first action only, then one at a time
    page.wait_for_function(
        "() => [...document.querySelectorAll('#action-so-far table.history tbody tr')].every(r => !r.hidden && !r.classList.contains('is-replaying'))",
        timeout=5000,
    )


def test_enter_on_a_link_keeps_its_meaning_and_focus_is_visible(page, base_url):
    page.goto(base_url + DRILL)
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # past the skip link, onto the brand link
    focused = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
        return {tag: document.activeElement.tagName, style: s.outlineStyle, width: parseFloat(s.outlineWidth)}; }""")
    assert focused["tag"] == "A" and focused["style"] != "none" and focused["width"] >= 2
    with page.expect_navigation():
        page.keyboard.press("Enter")  # follows the link; does not check the answer
    assert page.locator("#feedback").count() == 0


def test_without_javascript_the_keys_hint_is_hidden_and_the_action_so_far_still_opens(open_page, base_url):
    page = open_page(java_script_enabled=False, **DESKTOP)
    page.goto(base_url + DRILL)
    assert not page.locator(".key-hints").is_visible()
    page.click("#action-so-far summary")
    assert page.locator("#action-so-far table.history").is_visible()


# ------------------------------------------------------------------ axe-core


def axe_violations(page, axe_source: str) -> list[str]:
    # Evaluated by the browser's debugger protocol, so the page's CSP stays as served.
    page.evaluate(axe_source)
    found = page.evaluate("async () => (await axe.run(document)).violations.map(v => `${v.id}: ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)")
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_nothing_on_home_and_drill_before_and_after_grading(page, base_url, axe_source, lang):
    page.goto(f"{base_url}/?lang={lang}")
    assert axe_violations(page, axe_source) == []
    for options in (DESKTOP, PHONE):
        page.set_viewport_size(options["viewport"])
        page.goto(f"{base_url}{DRILL}?lang={lang}")
        assert axe_violations(page, axe_source) == []
        answer_both_steps(page, {**RIGHT, "min_to": "1800"})
        page.click("#action-so-far summary")
        assert axe_violations(page, axe_source) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_nothing_on_a_first_miss_progress_and_review(page, base_url, axe_source, lang):
    page.goto(f"{base_url}{DRILL}?lang={lang}")
    answer_both_steps(page, {**RIGHT, "min_to": "1800"})
    page.wait_for_selector(".hint-rule")  # a first miss at step 2: hints, no right values
    assert axe_violations(page, axe_source) == []
    page.goto(f"{base_url}/progress/?lang={lang}")
    assert axe_violations(page, axe_source) == []
    page.goto(f"{base_url}/progress/review?lang={lang}")  # review is on for a new learner
    assert axe_violations(page, axe_source) == []
    for options in (DESKTOP, PHONE):
        page.set_viewport_size(options["viewport"])
        page.goto(f"{base_url}/progress/?lang={lang}")
        assert axe_violations(page, axe_source) == []
