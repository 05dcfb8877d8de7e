"""The learning loop in a real browser: a path through a topic, a returning learner's home page,
a review session whose count drops, and the progress page on a 320 px screen."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from tests.answers import BTN, BTN_TYPED
from trainer.quiz import FieldKind
from trainer.store import Store, progress
from trainer.store.engines import default_url
from trainer.store.models import Attempt, now
from trainer.library import load_library

from tests.e2e.conftest import SCENARIOS
from tests.e2e.test_drill_browser import fill
from tests.e2e.test_store_browser import fill_anything

pytestmark = pytest.mark.e2e

WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
LIBRARY = load_library([str(SCENARIOS)])


def fill_right(page, scenario_id: str) -> None:
    """What a learner who knows the rules enters for a spot of the test library (the fields of the
    step on screen)."""
    fill_expected(page, LIBRARY.get(scenario_id).quiz.fields())


def fill_expected(page, fields) -> None:
    """Type and tick the engine's answer to each of ``fields`` that is on screen."""
    for f in fields:
        name = f.name
        if not page.locator(f"[name='{name}']").count():
            continue
        if f.kind is FieldKind.AMOUNT:
            page.fill(f"input[name='{name}']:not([type=hidden])", "" if f.expected is None else str(f.expected))
        elif f.kind is FieldKind.YESNO:
            page.check(f"input[name='{name}'][value='{'yes' if f.expected else 'no'}']")
        elif f.kind is FieldKind.CHOICE:
            page.check(f"input[name='{name}'][value='{f.expected}']")
        else:
            for box in page.locator(f"input[name='{name}']:not([type=hidden])").all():
                box.set_checked(box.get_attribute("value") in f.expected)


def check(page, step_two=None) -> str:
    """Check the answer on screen; a spot in two steps, right at step 1, gets ``step_two()`` filled
    in and checked too. The feedback's text."""
    page.click(".answer-form button[type=submit]")
    page.wait_for_selector("#stage-done, #feedback")
    if step_two is not None and page.locator("#stage-done").count() and not page.locator("#feedback").count():
        step_two()
        page.click(".answer-form button[type=submit]")
        page.wait_for_selector("#feedback")
    return page.locator("#feedback").inner_text()


def learner_of(page, instance_dir) -> str:
    """The learner id behind this browser: the one who sent the answer id the form carries."""
    answer_id = page.locator("input[name=answer_id]").first.get_attribute("value")
    check(page)
    store = Store(default_url(instance_dir))
    try:
        with store.session() as s:
            return s.scalar(select(Attempt.learner_id).where(Attempt.answer_id == answer_id))
    finally:
        store.dispose()


def no_sideways_scroll(page) -> None:
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1)
        .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 12)""")
    assert wide == [], "; ".join(wide)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_a_path_through_a_topic(open_page, base_url, artifacts):
    page = open_page(viewport=WIDE)
    page.goto(base_url + "/topics/reopening")
    assert page.locator(".spot--new").count() == 2  # its own spot, and a short all-in's tagged with it
    assert page.locator("#also-h").is_visible()
    page.click(f"a[href='/drill/{BTN}?topic=short-all-in']")  # walked in its own topic
    fill(page, BTN_TYPED)
    said = check(page, lambda: fill(page, BTN_TYPED))
    assert "All 5 right" in said and "Next on the path: “Reopening the betting”." in said
    with page.expect_navigation():
        page.click("#feedback >> text=Next spot")
    assert page.url.endswith("/drill/sb-not-reopened?topic=reopening")
    fill_anything(page)
    said = check(page)
    assert "Next on the path: “Main and side pots”" in said
    with page.expect_navigation():
        page.click("#feedback >> text=Next spot")
    assert page.url.endswith("/drill/seed004-side-pot?topic=side-pots")
    fill_right(page, "seed004-side-pot")
    said = check(page)
    assert "Level 2 of this topic is done; next comes level 3." in said
    page.locator(".next-actions").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "loop-path-level-done.png"), full_page=False)
    with page.expect_navigation():
        page.click("#feedback >> text=Next spot")
    assert page.url.endswith("/drill/uncalled-river?topic=side-pots")
    page.goto(base_url + "/topics/reopening")
    marks = page.locator(".scenario-list .spot-mark").all_inner_texts()
    assert [m.split()[-1] for m in marks] == ["missed", "solved"]  # its own spot, then the one tagged
    page.screenshot(path=str(artifacts / "loop-topic-marks.png"), full_page=True)


def test_a_returning_learners_home_page(open_page, base_url, artifacts):
    page = open_page(viewport=WIDE)
    page.goto(base_url + "/")
    assert page.locator("text=Start practising").count() == 1
    page.goto(base_url + f"/drill/{BTN}?topic=reopening")
    fill(page, BTN_TYPED)
    check(page, lambda: fill(page, BTN_TYPED))
    page.goto(base_url + "/")
    assert page.locator("text=Start practising").count() == 0
    assert page.locator("#continue").inner_text() == "Continue: Reopening the betting, spot 1 of 1"
    assert page.locator("#streak").inner_text() == "Streak: 1 day in a row"
    page.screenshot(path=str(artifacts / "loop-home-returning.png"), full_page=False)
    page.set_viewport_size(PHONE)
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "loop-home-returning-360.png"), full_page=True)
    with page.expect_navigation():
        page.click("#continue")
    assert page.url.endswith("/drill/sb-not-reopened?topic=reopening")


def test_a_review_session_with_the_count_dropping_then_progress_at_320px(open_page, base_url, instance_dir, artifacts):
    page = open_page(viewport=WIDE)
    page.goto(base_url + "/drill/seed004-side-pot")
    fill_right(page, "seed004-side-pot")
    me = learner_of(page, instance_dir)
    # three spots missed two hours ago (another day's session, as the store keeps it)
    store = Store(default_url(instance_dir))
    try:
        with store.session() as s:
            for i, spot in enumerate((BTN, "sb-not-reopened", "seed001-min-raise")):
                progress.record(s, learner_id=me, scenario_id=spot, topics=list(LIBRARY.get(spot).topics), rules=[],
                                answers={}, marks={"to_add": False, "pot": True}, duration_ms=None,
                                at=now() - timedelta(hours=2, minutes=3 - i))
            s.commit()
    finally:
        store.dispose()
    page.goto(base_url + "/")  # review is on for a new learner
    assert page.locator("#review").inner_text() == "Review: 3 due"
    page.screenshot(path=str(artifacts / "loop-home-review-due.png"), full_page=False)
    with page.expect_navigation():
        page.click("#review")
    seen = []
    for left in (2, 1, 0):
        spot = re.search(r"/drill/([\w-]+)\?", page.url).group(1)
        seen.append(spot)
        fill_right(page, spot)
        assert "All" in check(page, lambda: fill_right(page, spot))
        if left == 2:
            page.locator(".next-actions").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / "loop-review-graded.png"), full_page=False)
        nxt = page.locator("#feedback [data-key='n']")
        # the last due spot says so instead of offering a next one
        assert nxt.inner_text() == ("Next due spot" if left else "Nothing else is due: back to the start")
        with page.expect_navigation():
            nxt.click()
        if left:
            page.goto(base_url + "/")
            assert page.locator("#review").inner_text() == f"Review: {left} due"
            with page.expect_navigation():
                page.click("#review")
    assert seen == [BTN, "sb-not-reopened", "seed001-min-raise"]
    assert "Review done: nothing more is due now." in page.locator("main").inner_text()

    page.set_viewport_size({"width": 320, "height": 740})
    page.goto(base_url + "/progress/")
    assert page.locator("#solved").is_visible() and page.locator("#columns").is_visible()
    narrow, wide = page.locator("svg.chart--narrow"), page.locator("svg.chart--wide")
    assert narrow.count() == wide.count() == 2  # the rating after each first try, and accuracy per day
    assert all(narrow.nth(i).is_visible() and not wide.nth(i).is_visible() for i in range(2))
    # every label of both charts reads at 11 px or more on a 320 px screen
    sizes = page.eval_on_selector_all(
        "svg.chart--narrow text",
        "els => els.map(e => e.getBoundingClientRect().height > 0 ? parseFloat(getComputedStyle(e).fontSize)"
        " * e.ownerSVGElement.getScreenCTM().a : 99)",
    )
    assert sizes and min(sizes) >= 11, sizes
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "loop-progress-320.png"), full_page=True)
    page.set_viewport_size(WIDE)
    page.screenshot(path=str(artifacts / "loop-progress-1280.png"), full_page=True)


QUOTE_WIDTH = """() => {
  const probe = document.createElement('span');
  probe.textContent = '\\u201c';
  document.querySelector('main p').appendChild(probe);
  const ratio = probe.getBoundingClientRect().width / parseFloat(getComputedStyle(probe).fontSize);
  probe.remove();
  return ratio;
}"""


def test_english_quotation_marks_are_latin_and_chinese_ones_full_width(page, base_url):
    """On a machine whose only sans-serif with Latin letters is a CJK font, English text took its
    full-width “ ” ("First spot: “ Seven-handed…” " with a gap around the words). And on one with a
    Latin font first in the stack (Arial, Liberation or DejaVu Sans; every desktop), Chinese text took
    that font's narrow marks."""
    page.goto(base_url + "/?lang=en")
    assert page.evaluate(QUOTE_WIDTH) < 0.6
    for lang in ("zh-Hans", "zh-Hant"):
        page.goto(base_url + f"/?lang={lang}")
        assert page.evaluate(QUOTE_WIDTH) > 0.8, lang
