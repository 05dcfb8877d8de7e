"""The spot stays in view (issue 31): what is on the screen before and after checking, at 1280×800 and on
a 360×740 phone, in three languages; the deck's colours in a hand-reading picker; the keys' small print.

Positions are measured in a real Chromium on library spots. Screenshots of the drill before and after
checking go to test-artifacts/ (drill-layout-<size>-<lang>-<before|after>.png).
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import LANGUAGES

pytestmark = pytest.mark.e2e

LAPTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
HEADS_UP = "heads-up-button-acts-first"  # the first spot of the path: heads-up, preflop, in two steps
# The card at every table size: the fields and the button must fit beside the table whatever its size.
CARD_SPOTS = (HEADS_UP, "river-first-player-left-of-button", "six-max-pot-on-the-river",
              "preflop-big-blind-acts-last", "ten-handed-short-big-blind")
HANDS = "two-pair-the-fifth-card"  # hand reading: cards to pick


def right_answer(spot: str) -> dict:
    """What a learner who knows the rules types for a library spot (the engine's values)."""
    from trainer.web import create_app

    from tests.answers import typed_right
    from tests.e2e.conftest import LIBRARY

    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(LIBRARY)]})
    with app.test_request_context():
        from trainer.web.core.libraries import library

        return typed_right(library().get(spot).quiz)


def box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def bottom(b: dict) -> float:
    return b["y"] + b["height"]


def answer_wrong(page) -> None:
    """Fill the step on screen with something (a wrong answer is fine) and check it."""
    for amount in page.locator("#answer-form input[inputmode=numeric]").all():
        amount.fill("1")
    for group in page.locator("#answer-form fieldset.field").all():
        group.locator("input").first.check()
    page.click("#answer-form button[type=submit]")
    page.wait_for_selector("#feedback, #stage-done")
    page.wait_for_timeout(300)  # htmx moves focus (and so the scroll) when the swap settles


@pytest.mark.parametrize("lang", LANGUAGES)
def test_at_1280_by_800_the_table_every_field_and_check_are_on_the_first_screen_and_stay_after_checking(
        open_page, library_url, artifacts, lang):
    page = open_page(**LAPTOP)
    for spot in CARD_SPOTS:
        page.goto(f"{library_url}/drill/{spot}?lang={lang}")
        table = box(page, "svg.table-svg--wide")
        assert table["y"] >= 0 and bottom(table) <= 800, spot
        fields = page.locator("#answer-form .field").all()
        assert fields, spot
        for field in fields:
            assert bottom(field.bounding_box()) <= 800, (spot, field.inner_text())
        assert bottom(box(page, "#answer-form button[type=submit]")) <= 800, spot
    # step 2 of the heads-up spot, under step 1's verdict: its fields and its button fit too
    page.goto(f"{library_url}/drill/{HEADS_UP}?lang={lang}")
    right = right_answer(HEADS_UP)
    for name in ("current_total", "last_full_increment", "committed", "to_add"):
        page.fill(f"#f-{name}", right[name])
    page.check(f"input[name=acted][value={right['acted']}]")
    page.click("#answer-form button[type=submit]")
    page.wait_for_selector("#answer-form input[name=stage][value='2']", state="attached")
    page.wait_for_timeout(300)
    for field in page.locator("#answer-form .field").all():
        assert bottom(field.bounding_box()) <= 800, field.inner_text()
    assert bottom(box(page, "#answer-form button[type=submit]")) <= 800
    page.screenshot(path=str(artifacts / f"drill-layout-1280x800-{lang}-step2.png"))
    page.goto(f"{library_url}/drill/{HEADS_UP}?lang={lang}")
    page.screenshot(path=str(artifacts / f"drill-layout-1280x800-{lang}-before.png"))
    answer_wrong(page)
    # the verdicts came into view, and the table did not leave it
    table = box(page, "svg.table-svg--wide")
    assert 0 <= table["y"] < 800 and bottom(table) <= 800, table
    verdict = box(page, "#feedback-h, #stage-done")
    assert 0 <= verdict["y"] < 800, verdict
    page.screenshot(path=str(artifacts / f"drill-layout-1280x800-{lang}-after.png"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_on_a_360_by_740_phone_the_question_and_the_first_field_are_on_the_first_screen(
        open_page, library_url, artifacts, lang):
    page = open_page(**PHONE)
    page.goto(f"{library_url}/drill/{HEADS_UP}?lang={lang}")
    table = box(page, "svg.table-svg--narrow")
    assert table["height"] <= 260, table  # two seats: a short felt, not a tall empty oval
    assert bottom(box(page, "#answer-form .question h3")) <= 740
    first = box(page, "#answer-form input:not([type=hidden])")
    assert first["y"] >= 0 and bottom(first) <= 740, first
    # the seats and the action so far: one tap away, both behind it
    facts = page.locator("#action-so-far")
    assert not facts.locator("table.seats").is_visible() and not facts.locator("table.history").is_visible()
    assert not page.locator(".key-hints").is_visible()  # no keys to press on a touch screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(artifacts / f"drill-layout-360x740-{lang}-before.png"))
    answer_wrong(page)
    # checked: the verdict is in view and a line naming the spot stays on top, a tap from the table
    bar = page.locator(".spot-bar")
    assert bar.is_visible()
    page.screenshot(path=str(artifacts / f"drill-layout-360x740-{lang}-after.png"))
    page.mouse.wheel(0, 400)
    page.wait_for_timeout(200)
    assert abs(box(page, ".spot-bar")["y"]) < 1  # sticky: still at the top after scrolling on
    bar.locator("a").tap()
    page.wait_for_timeout(300)
    table = box(page, "svg.table-svg--narrow")
    assert 0 <= table["y"] < 740, table
    page.tap("#action-so-far summary")
    assert page.locator("#action-so-far table.seats").is_visible()
    assert page.locator("#action-so-far table.history").is_visible()


def test_before_checking_the_phone_shows_no_summary_line(open_page, library_url):
    page = open_page(**PHONE)
    page.goto(f"{library_url}/drill/{HEADS_UP}")
    assert not page.locator(".spot-bar").is_visible()  # the heading says it already


COLOURS = {"red": "rgb(179, 18, 46)", "black": "rgb(29, 33, 37)", "blue": "rgb(20, 80, 184)", "green": "rgb(11, 107, 44)"}


def choice_colour(page, value: str) -> str:
    """The colour of the card in the label of the picker's choice ``value`` ("Kd")."""
    return page.locator(f"label.choice:has(input[value='{value}']) .card-text").first.evaluate("e => getComputedStyle(e).color")


@pytest.mark.parametrize("options", [LAPTOP, PHONE], ids=["1280", "360"])
def test_hearts_and_diamonds_are_red_in_a_hand_reading_picker_in_the_two_colour_deck(open_page, library_url, options):
    page = open_page(**options)
    page.goto(f"{library_url}/drill/{HANDS}?deck=two")
    assert choice_colour(page, "Kd") == COLOURS["red"]
    assert choice_colour(page, "Kh") == COLOURS["red"]
    assert choice_colour(page, "Qc") not in (COLOURS["red"], COLOURS["green"])
    # the prompt names the cards in the same colours
    assert page.locator(".prompt .card-text--suit-d").first.evaluate("e => getComputedStyle(e).color") == COLOURS["red"]
    page.goto(f"{library_url}/drill/{HANDS}?deck=four")
    assert choice_colour(page, "Kd") == COLOURS["blue"]
    assert choice_colour(page, "Kh") == COLOURS["red"]
    assert choice_colour(page, "Qc") == COLOURS["green"]


def test_amount_boxes_take_digits_only(open_page, library_url):
    page = open_page(**LAPTOP)
    page.goto(f"{library_url}/drill/{HEADS_UP}")
    page.focus("#f-current_total")
    page.keyboard.type("1a0x0 -.")
    assert page.input_value("#f-current_total") == "100 "
    page.fill("#f-current_total", "")
    page.keyboard.type("1,400")
    assert page.input_value("#f-current_total") == "1,400"  # grouped as the page writes amounts


def test_n_and_s_say_why_they_wait_and_r_shows_every_street(open_page, library_url):
    page = open_page(**LAPTOP)
    page.goto(f"{library_url}/drill/{HEADS_UP}")
    note = page.locator("#key-note")
    assert not note.is_visible()
    page.keyboard.press("n")
    assert note.is_visible() and "once you have checked your answer" in note.inner_text()
    assert "/drill/" + HEADS_UP in page.url
    page.keyboard.press("s")
    assert note.is_visible() and page.locator("ol.steps").count() == 0
    # a spot on the river: R opens the action so far on every street, not only the current one
    page.goto(f"{library_url}/drill/six-max-pot-on-the-river")
    streets = page.locator("#action-so-far table.history")
    assert streets.count() == 3
    page.keyboard.press("r")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#action-so-far table.history tbody tr')].every(r => !r.hidden && !r.classList.contains('is-replaying'))",
        timeout=15000,
    )
    assert all(s.is_visible() for s in streets.all())


# Three, six and nine players: the phone's drawing is as tall as its seats need (a lying oval), and
# from 896 px the table sits beside the card, so narrow laptop windows (915-1,050 px) show the card too.
SEATED = {3: "all-in-below-min-bet-next-min-raise", 6: "all-in-exactly-a-full-raise", 9: "nine-handed-minimum-reraise"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_with_three_six_or_nine_players_the_first_field_is_on_the_first_screen(open_page, library_url, artifacts, lang):
    for width in (360, 915, 1000, 1050):
        phone = width == 360
        page = open_page(viewport={"width": width, "height": 740}, is_mobile=phone, has_touch=phone)
        for players, spot in SEATED.items():
            page.goto(f"{library_url}/drill/{spot}?lang={lang}")
            table = box(page, "svg.table-svg--narrow" if phone else "svg.table-svg--wide")
            assert table["y"] >= 0, (width, players)
            first = box(page, "#answer-form input:not([type=hidden])")
            assert first["y"] >= 0 and bottom(first) <= 740, (width, players, first)
            if not phone:  # the table beside the card: the Check button too
                assert bottom(box(page, "#answer-form button[type=submit]")) <= 740, (width, players)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            if players == 9 and width in (360, 915):
                page.screenshot(path=str(artifacts / f"drill-layout-{width}x740-{lang}-9-players.png"))
