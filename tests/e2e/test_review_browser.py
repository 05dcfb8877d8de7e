"""Review like Anki in a real browser: "N left" above a due spot, when each answer comes back, the
off switch on the review page, at a laptop's and a phone's size, in English and Chinese."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from tests.answers import BTN
from tests.e2e.test_speed_browser import axe_violations
from tests.e2e.test_loop_browser import LIBRARY, PHONE, WIDE, check, fill_right, learner_of, no_sideways_scroll
from trainer.store import Store, progress
from trainer.store.engines import default_url
from trainer.store.models import now

pytestmark = pytest.mark.e2e

MISSED = (BTN, "sb-not-reopened", "seed001-min-raise")


def _missed_hours_ago(instance_dir, me: str) -> None:
    """Three spots missed two hours ago (another session, as the store keeps it): due now."""
    store = Store(default_url(instance_dir))
    try:
        with store.session() as s:
            for i, spot in enumerate(MISSED):
                progress.record(s, learner_id=me, scenario_id=spot, topics=list(LIBRARY.get(spot).topics), rules=[],
                                answers={}, marks={"to_add": False, "pot": True}, duration_ms=None,
                                at=now() - timedelta(hours=2, minutes=3 - i))
            s.commit()
    finally:
        store.dispose()


@pytest.mark.parametrize(("lang", "size", "left", "back"), [
    ("en", WIDE, "Review: 3 spots left", "Comes back in 10 minutes."),
    ("en", PHONE, "Review: 3 spots left", "Comes back in 10 minutes."),
    ("zh-Hant", WIDE, "複習：還剩 3 題", "10 分鐘後再複習。"),
    ("zh-Hant", PHONE, "複習：還剩 3 題", "10 分鐘後再複習。"),
    ("zh-Hans", PHONE, "复习：还剩 3 题", "10分钟后再复习。"),
])
def test_a_review_says_what_is_left_and_when_each_spot_comes_back(open_page, base_url, instance_dir, artifacts,
                                                                   axe_source, lang, size, left, back):
    page = open_page(viewport=size)
    page.goto(f"{base_url}/drill/seed004-side-pot?lang={lang}")
    fill_right(page, "seed004-side-pot")
    me = learner_of(page, instance_dir)  # a new learner: review is on without being asked
    assert re.search(r"(Comes back in|後再複習|后再复习)", page.locator("#feedback").inner_text())
    _missed_hours_ago(instance_dir, me)
    with page.expect_navigation():
        page.goto(base_url + "/progress/review")
    bar = page.locator("#review-bar")
    assert bar.is_visible() and bar.locator(".review-left").inner_text() == left
    assert bar.locator("button").is_visible()
    assert axe_violations(page, axe_source) == []
    name = f"review-{lang}-{size['width']}"
    if size is PHONE:
        no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"{name}-due.png"), full_page=False)
    spot = re.search(r"/drill/([\w-]+)\?", page.url).group(1)
    assert spot == BTN
    fill_right(page, spot)
    check(page, lambda: fill_right(page, spot))
    line = page.locator("#review-line")
    assert back in line.inner_text() and re.search(r"2", line.inner_text())
    line.scroll_into_view_if_needed()
    assert axe_violations(page, axe_source) == []
    if size is PHONE:
        no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"{name}-graded.png"), full_page=False)


def test_review_is_turned_off_on_the_review_page_and_the_spot_stays(open_page, base_url, instance_dir):
    page = open_page(viewport=PHONE, java_script_enabled=False)
    page.goto(f"{base_url}/drill/seed004-side-pot?lang=en")
    fill_right(page, "seed004-side-pot")
    me = learner_of(page, instance_dir)
    _missed_hours_ago(instance_dir, me)
    page.goto(base_url + "/progress/review")
    with page.expect_navigation():
        page.click("#review-bar button")
    assert page.url.endswith(f"/drill/{BTN}") or f"/drill/{BTN}?" in page.url
    assert page.locator("#review-bar").count() == 0
    page.goto(base_url + "/progress/")
    assert page.locator("text=Turn spaced repetition on").is_visible()
