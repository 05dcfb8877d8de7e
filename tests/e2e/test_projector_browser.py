"""The projector fits its screen: at 1920×1080 and at 1280×720, on the lobby, a question and its reveal of the
library's largest spots, nothing scrolls and the instructor's buttons are on the screen."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Page, new_session

pytestmark = pytest.mark.e2e

# the largest spots of the library: the most seats; the most columns of the card; the longest action
# (four streets) and derivation; seven-handed with every ante in the history
LARGEST = (
    "ten-handed-short-big-blind",
    "two-side-pots-three-winners",
    "three-pots-three-splits",
    "ante-is-not-committed-seven-handed",
)
SCREENS = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})

FACTS = """() => {
    const keys = document.querySelector('.projector-keys').getBoundingClientRect();
    const table = document.querySelector('.projector-table svg');
    return {
        scroll: document.scrollingElement.scrollHeight,
        height: innerHeight,
        keys: keys.bottom,
        table: table ? table.getBoundingClientRect().height : null,
    };
}"""


def fits(page, screen: dict, where: str) -> None:
    facts = None
    for width_height in (screen, *[s for s in SCREENS if s != screen]):
        page.set_viewport_size(width_height)
        page.wait_for_timeout(100)  # the page fits itself again on a resize
        facts = page.evaluate(FACTS)
        assert facts["scroll"] <= facts["height"], (where, width_height, facts)
        assert facts["keys"] <= facts["height"], (where, width_height, facts)
        if facts["table"] is not None:  # the drawing stays large enough to read from the back of the room
            assert facts["table"] >= 0.3 * facts["height"], (where, width_height, facts)
    page.set_viewport_size(screen)


def test_the_projector_fits_the_screen_without_scrolling_for_the_largest_spots(open_page, library_url, artifacts):
    teacher = new_session(open_page, library_url, "Ms Fit", "fit@example.com", "Big spots", LARGEST)
    control_url = teacher.url

    projector = Page(teacher.context.new_page())
    projector.set_viewport_size(SCREENS[0])
    projector.goto(control_url + "projector")
    fits(projector, SCREENS[0], "lobby")
    for number, spot in enumerate(LARGEST, start=1):
        projector.click("#key-next")
        projector.wait_for_selector(f"text=Question {number} of {len(LARGEST)}")
        fits(projector, SCREENS[0], f"{spot}, question")
        projector.click("#key-reveal")
        projector.wait_for_selector(".projector-main--revealed")
        fits(projector, SCREENS[0], f"{spot}, reveal")
    assert projector.csp_violations() == [] and projector.bad_responses == []
