"""The live classroom in a real browser: a student's phone page moves on when the instructor
does, through its event stream, with polls set so far apart that they cannot be what moved it."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SCENARIOS, _serve, new_session
from tests.answers import BTN, BTN_RIGHT

pytestmark = pytest.mark.e2e

STREAM_MS = 5_000  # a change reaches the page through its stream; the polls come every 10 minutes


@pytest.fixture(scope="module")
def slow_poll_url(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("TRAINER_CLASS_POLL", "600")
    try:
        yield from _serve(tmp_path_factory, SCENARIOS, tmp_path_factory.mktemp("live-instance"))
    finally:
        mp.undo()


def _session(open_page, base_url: str, name: str, email: str, title: str):
    """An instructor signed up, on the control page of a new two-question session."""
    return new_session(open_page, base_url, name, email, title, [BTN, "seed001-min-raise"],
                       viewport={"width": 1280, "height": 800})


def test_a_student_page_updates_from_its_stream_without_a_poll(open_page, slow_poll_url, artifacts):
    teacher = _session(open_page, slow_poll_url, "Ms Lin", "lin@example.com", "Live drill")
    join_url = teacher.locator(".join-text a").first.get_attribute("href")

    ana = open_page(viewport={"width": 360, "height": 740})
    ana.goto(join_url)
    ana.fill("#f-name", "Ana")
    with ana.expect_navigation():
        ana.click("main form button[type=submit]")
    polls: list[str] = []
    ana.on("request", lambda r: polls.append(r.url) if "/stage" in r.url else None)
    ana.wait_for_selector("[sse-connect][data-live=open]", timeout=STREAM_MS)
    teacher.wait_for_selector("#live >> text=Ana", timeout=STREAM_MS)  # the control page's stream too

    with teacher.expect_navigation():
        teacher.click("text=Start: show question 1")
    ana.wait_for_selector("#f-current_total", timeout=STREAM_MS)
    ana.screenshot(path=str(artifacts / "live-student-question-360.png"), full_page=True)
    with teacher.expect_navigation():
        teacher.click("text=Reveal the answer")
    ana.wait_for_selector("text=You did not answer this one.", timeout=STREAM_MS)
    # every fetch of the stage came from a server-sent event, none from the 10-minute poll
    assert len(polls) >= 2, polls


def test_a_key_pressed_while_a_swap_settles_does_not_load_the_page_again(open_page, slow_poll_url):
    """htmx wires up a swapped-in form only when the swap settles. N pressed on the projector in between
    (every 2-s poll opens that window) must still post through htmx, not load the page and leave full
    screen. The settle delay is stretched to 3 s here so that the window cannot be missed."""
    teacher = _session(open_page, slow_poll_url, "Mr Ho", "ho-settle@example.com", "Settle")
    teacher.goto(teacher.url + "projector")
    teacher.wait_for_selector("[sse-connect][data-live=open]", timeout=STREAM_MS)
    teacher.wait_for_timeout(300)  # the stream's refresh on connecting has settled

    teacher.evaluate("""() => {
        window.sameDocument = true;
        htmx.config.defaultSettleDelay = 3000;
        document.querySelector('#projector').old = true;
        htmx.trigger('#projector', 'sse:changed');
    }""")
    teacher.wait_for_function("() => { const p = document.querySelector('#projector'); return !!p && !p.old }", timeout=STREAM_MS)
    teacher.keyboard.press("n")
    teacher.wait_for_selector("text=Question 1 of 2", timeout=STREAM_MS)
    assert teacher.evaluate("window.sameDocument === true"), "the page was loaded again"


def test_a_half_typed_answer_is_still_there_when_the_phone_reloads_the_page(open_page, slow_poll_url):
    """A phone reloads a page (the browser dropped it from memory, a pull-down, a tap on the address): what
    was typed comes back, on that question only, and is forgotten once the answer is stored."""
    teacher = _session(open_page, slow_poll_url, "Ms Wu", "wu-draft@example.com", "Drafts")
    join_url = teacher.locator(".join-text a").first.get_attribute("href")
    ana = open_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    ana.goto(join_url)
    ana.fill("#f-name", "Ana")
    with ana.expect_navigation():
        ana.click("main form button[type=submit]")
    with teacher.expect_navigation():
        teacher.click("text=Start: show question 1")
    ana.wait_for_selector("#f-current_total", timeout=STREAM_MS)

    ana.fill("#f-current_total", BTN_RIGHT["current_total"])
    ana.fill("#f-last_full_increment", BTN_RIGHT["last_full_increment"])
    ana.click(f'label[for="{ana.locator("input[name=acted][value=no]").get_attribute("id")}"]')
    ana.reload()
    ana.wait_for_selector("#f-current_total")
    assert ana.input_value("#f-current_total") == BTN_RIGHT["current_total"]
    assert ana.input_value("#f-last_full_increment") == BTN_RIGHT["last_full_increment"]
    assert ana.is_checked("input[name=acted][value=no]") and not ana.is_checked("input[name=acted][value=yes]")
    assert ana.input_value("#f-committed") == ""

    # sent and stored: nothing is kept any more for this question
    ana.evaluate(
        """typed => {
            const form = document.querySelector('#stage form');
            for (const el of form.elements) {
                if (!(el.name in typed)) continue;
                const want = [].concat(typed[el.name]);
                if (el.type === 'text') el.value = want[0]; else el.checked = want.includes(el.value);
            }
            form.requestSubmit();
        }""",
        BTN_RIGHT,
    )
    ana.wait_for_selector("#received", timeout=STREAM_MS)
    assert ana.evaluate("Object.keys(sessionStorage).filter(k => k.startsWith('draft '))") == []
