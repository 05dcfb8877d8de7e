"""Exams and classroom drills in a real browser: a timed exam to a verified result, and a live
class with an instructor and two students, each in a browser context of their own."""

from __future__ import annotations

import re

import pytest

from tests.answers import BTN, BTN_TYPED

from tests.e2e.conftest import sign_up, start_exam
from tests.e2e.test_classroom_phone_browser import answer_step_by_step
from tests.e2e.test_drill_browser import fill

pytestmark = pytest.mark.e2e
BTN_RIGHT = BTN_TYPED

POLL_MS = 8000  # the pages poll every 2 s
CHOSEN = {"acted": "no", "legal": ["call", "fold", "raise"]}  # the BTN spot's right choices


def fill_anything(page) -> None:
    """An answer of the right shape for whatever spot is shown (right or wrong does not matter)."""
    for box in page.locator(".answer-form input[type=text]").all():
        box.fill("0")
    for group in page.locator(".answer-form fieldset.field--yesno, .answer-form fieldset.field--choice").all():
        group.locator("input").first.check()


def test_an_exam_from_start_to_a_verified_result(open_page, base_url, artifacts):
    page = open_page(viewport={"width": 1024, "height": 800}, timezone_id="Asia/Taipei")  # a candidate in Taipei
    page.goto(base_url + "/exams/")
    assert "Exams need an account" in page.locator("main").inner_text()
    sign_up(page, base_url, "Ana Lee", "ana@example.com", at="/account/signup?next=/exams/")
    page.goto(base_url + "/exams/")
    assert "up to 3 attempts in any 24 hours" in page.locator("#t-pots-and-showdown ~ p.meta").last.inner_text()
    start_exam(page, page.locator("#t-pots-and-showdown ~ p a.button--primary"))
    assert re.search(r"/exams/[0-9a-f]{32}/q/1$", page.url)
    assert page.locator("#exam-timer").is_visible()
    first = page.locator(".exam-timer-value").inner_text()
    page.wait_for_function(
        "t => document.querySelector('.exam-timer-value').textContent !== t", arg=first, timeout=3000
    )  # the countdown runs
    ends = page.locator("#exam-timer time").inner_text()  # the deadline in the candidate's own zone
    assert "GMT+8" in ends and "UTC" not in ends, ends

    for _number in (1, 2, 3):
        fill_anything(page)
        with page.expect_navigation():
            page.click("button[name=go][value=next]")
        # Saving shows no verdict: no marks, no correct values.
        assert page.locator(".mark, #feedback").count() == 0
    assert page.locator(".exam-nav button.is-answered").count() == 3
    # Going to another question by its number saves what was typed on the way.
    fill_anything(page)
    page.click(".exam-nav summary")  # the question numbers are folded under "All questions"
    with page.expect_navigation():
        page.click(".exam-nav button[value=q1]")
    assert page.url.endswith("/q/1") and page.locator(".exam-nav button.is-answered").count() == 4

    page.click("text=Finish the exam…")
    assert "Answered: 4 of 10" in page.locator("main").inner_text()
    with page.expect_navigation():
        page.click("text=Submit my answers")
    assert page.url.endswith("/result")
    summary = page.locator(".result-summary").inner_text()
    assert "GMT+8" in page.locator(".result-facts time").inner_text(), summary  # the date in their zone too
    assert "Ana Lee" in summary and "of 10 questions all right" in summary and "pass mark 80%" in summary
    assert page.locator(".review-item").count() == 10
    assert page.locator(".review-item .steps").count() == 10  # the engine's derivation for every answer
    page.screenshot(path=str(artifacts / "exam-result.png"), full_page=False)
    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()  # the print stylesheet
    page.emulate_media(media="screen")
    code = page.locator(".verify-code").inner_text()

    checker = open_page(timezone_id="Asia/Taipei")  # an employer in Taipei
    checker.goto(base_url + "/verify/")
    checker.fill("#code", code.lower())
    with checker.expect_navigation():
        checker.click("main button[type=submit]")
    facts = checker.locator(".verified").inner_text()
    assert "Ana Lee" in facts and "Pots and showdown" in facts and "%" in facts
    assert "Pass mark" in facts and "80%" in facts and "Not passed" in facts and "attempt 1" in facts
    assert checker.locator(".verified time[datetime]").count() == 1
    # The date in the reader's own zone (the server wrote it in UTC, the browser rewrites it).
    shown = checker.locator(".verified time").inner_text()
    assert "GMT+8" in shown and "UTC" not in shown, shown
    checker.goto(base_url + "/verify/?lang=zh-Hant")
    checker.fill("#code", code)
    with checker.expect_navigation():
        checker.click("main button[type=submit]")
    shown = checker.locator(".verified time").inner_text()
    assert "GMT+8" in shown and "年" in shown, shown
    assert checker.locator(".review-item, .steps").count() == 0  # the facts of the result, nothing else


def _student(open_page, base_url, join_url: str, name: str):
    page = open_page(viewport={"width": 390, "height": 800})
    page.goto(join_url)
    page.fill("#f-name", name)
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert "Waiting for the instructor" in page.locator("#stage").inner_text()
    return page


def test_a_live_class_with_an_instructor_and_two_students(open_page, base_url, artifacts):
    teacher = open_page(viewport={"width": 1280, "height": 900})
    sign_up(teacher, base_url, "Ms Tan", "tan@example.com", instructor=True)
    teacher.goto(base_url + "/classroom/")
    teacher.wait_for_load_state("networkidle")
    teacher.fill("#f-title", "Reopening drill")
    teacher.fill("#f-ids", f"{BTN}\nseed001-min-raise")
    teacher.check('input[type=radio][name="style"][value="card"]')  # the full card (quick is the default)
    with teacher.expect_navigation():
        teacher.click("text=Create the session")
    try:
        teacher.wait_for_selector(".qr svg", timeout=10_000)
    except Exception as exc:  # say what the instructor saw instead of the session page
        raise AssertionError(f"no session page at {teacher.url}: {teacher.locator('main').inner_text()[:800]}") from exc
    join_url = teacher.locator(".join-text a").first.get_attribute("href")

    ana = _student(open_page, base_url, join_url, "Ana")
    bo = _student(open_page, base_url, join_url, "Bo")
    teacher.wait_for_selector("text=2 students", timeout=POLL_MS)  # the live view polls

    with teacher.expect_navigation():
        teacher.click("text=Start: show question 1")
    for student in (ana, bo):
        student.wait_for_selector("#f-current_total", timeout=POLL_MS)

    answer_step_by_step(ana, {**CHOSEN, **BTN_RIGHT, "min_to": "1800"})
    ana.wait_for_selector("#received")
    teacher.wait_for_selector("text=1 of 2 answered", timeout=POLL_MS)
    assert "Bo" in teacher.locator("#live").inner_text()  # who has not answered

    answer_step_by_step(bo, {**CHOSEN, **BTN_RIGHT})
    bo.wait_for_selector("#received")
    teacher.wait_for_selector("text=2 of 2 answered", timeout=POLL_MS)
    live = teacher.locator("#live").inner_text()
    assert "1,800" in live and "2,400" in live  # the distribution of the minimum raise-to column
    teacher.screenshot(path=str(artifacts / "classroom-instructor.png"), full_page=True)

    # The projector belongs to the instructor: a second tab of the same browser context (the same sign-in).
    projector = teacher.context.new_page()
    projector_console: list[str] = []
    projector.on("console", lambda m: projector_console.append(m.text))
    projector.goto(teacher.url + "projector")

    with teacher.expect_navigation():
        teacher.click("text=Reveal the answer")
    ana.wait_for_selector("text=9 of 10 right", timeout=POLL_MS)
    bo.wait_for_selector("text=10 of 10 right", timeout=POLL_MS)
    assert "correct: 2,400" in ana.locator("#stage").inner_text()
    projector.wait_for_selector(".projector-side .steps", timeout=POLL_MS)  # the poll brings the reveal
    assert projector.locator(".steps a.rule-link", has_text="R-REOPEN").count() >= 1
    projector.screenshot(path=str(artifacts / "classroom-projector.png"), full_page=True)

    with teacher.expect_navigation():
        teacher.click("text=End the session")
    assert "End the session?" in teacher.locator("h1").inner_text()  # asked once more: it sits beside Next
    with teacher.expect_navigation():
        teacher.click("text=End it")
    assert "Ana" in teacher.locator("main").inner_text()  # the report
    ana.wait_for_selector("text=You got 0 of 2 questions all right", timeout=POLL_MS)
    bo.wait_for_selector("text=You got 1 of 2 questions all right", timeout=POLL_MS)
    ana.screenshot(path=str(artifacts / "classroom-student.png"), full_page=True)
    assert [m for m in projector_console if "Content Security Policy" in m or "Refused to" in m] == []


def _question_one_shown(open_page, base_url, name: str, email: str):
    """An instructor's live session of one spot, at its first question: the control page."""
    teacher = open_page(viewport={"width": 1280, "height": 900})
    sign_up(teacher, base_url, name, email, instructor=True)
    teacher.goto(base_url + "/classroom/")
    teacher.fill("#f-title", f"{name}'s class")
    teacher.fill("#f-ids", BTN)
    teacher.check('input[type=radio][name="style"][value="card"]')  # the full card (quick is the default)
    with teacher.expect_navigation():
        teacher.click("text=Create the session")
    teacher.wait_for_selector(".qr svg", timeout=10_000)
    with teacher.expect_navigation():
        teacher.click("text=Start: show question 1")
    return teacher


def test_a_change_heard_while_a_refresh_is_out_is_not_lost(open_page, base_url):
    """The projector's refresh is on its way back when the instructor reveals: htmx queues the notice's
    refresh on the element that the answer then replaces, so it would never be sent, and while the
    stream is open the poll stays quiet. The page must fetch again (a projector stuck before the reveal)."""
    teacher = _question_one_shown(open_page, base_url, "Mr Ho", "ho@example.com")

    projector = teacher.context.new_page()
    # The projector screen's notices, from the first (sent when the stream opens).
    projector.add_init_script(
        "document.addEventListener('htmx:sseMessage', function (e) {"
        " if (e.target.id === 'projector') window.notices = (window.notices || 0) + 1; });"
    )
    held = []

    def hold(route):
        if route.request.headers.get("hx-request") and not held:
            held.append((route, route.fetch()))  # the server answers now; the page gets it later
        else:
            route.continue_()

    projector.route(re.compile(r".*/projector$"), hold)
    projector.goto(teacher.url + "projector")
    projector.wait_for_function("() => (window.notices || 0) >= 1", timeout=POLL_MS)  # the stream is open
    for _ in range(40):
        if held:
            break
        projector.wait_for_timeout(100)
    assert held, "the stream's first notice brings a refresh"
    with teacher.expect_navigation():
        teacher.click("text=Reveal the answer")
    projector.wait_for_function("() => (window.notices || 0) >= 2", timeout=POLL_MS)  # heard meanwhile
    # Every process hears a change within a second (SQLite alone): its notices are all in before the answer.
    projector.wait_for_timeout(2500)
    route, answer = held[0]
    route.fulfill(response=answer)  # what the server said before the reveal
    # One more refresh follows at once (a poll two seconds on is skipped while the stream is open).
    projector.wait_for_selector(".projector-side .steps", timeout=4000)


def test_a_change_heard_while_the_new_screen_is_being_set_up_is_not_lost(open_page, base_url):
    """After a refresh's answer replaces the projector's screen, htmx sets the new one up only after
    its settle delay (20 ms; 4 s here, to make the moment long enough to hit): a notice then reached
    no element, and the projector stayed before the reveal."""
    teacher = _question_one_shown(open_page, base_url, "Ms Lo", "lo@example.com")

    projector = teacher.context.new_page()
    projector.add_init_script(
        "document.addEventListener('DOMContentLoaded', function () { htmx.config.defaultSettleDelay = 4000; });"
        "document.addEventListener('htmx:afterRequest', function () { window.answers = (window.answers || 0) + 1; });"
    )
    projector.goto(teacher.url + "projector")
    # The stream's first notice brought a refresh; its answer is in, the new screen not yet set up.
    projector.wait_for_function("() => (window.answers || 0) >= 1", timeout=POLL_MS)
    with teacher.expect_navigation():
        teacher.click("text=Reveal the answer")
    projector.wait_for_selector(".projector-side .steps", timeout=POLL_MS)
