"""A class on phones and a projector, in a real browser: an instructor with the projector view open at
1920×1080 and three students on 360×740 phones (one without JavaScript), through joining, answering
step by step, a lost connection, the reveal and the end-of-session report.

The right answers are computed from the engine (the quiz the library built for each spot), not typed in.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.answers import BTN, typed_right

from tests.e2e.conftest import SCENARIOS, Page, new_session
from tests.e2e.test_table_browser import axe_violations as axe_once

pytestmark = pytest.mark.e2e

LANGS = ("en", "zh-Hant", "zh-Hans")
FACTS = (Path(__file__).parent / "table_facts.js").read_text(encoding="utf-8")
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
PROJECTOR = {"viewport": {"width": 1920, "height": 1080}}
SPOTS = (BTN, "seed001-min-raise")
POLL_MS = 8000  # the pages poll every 2 s



# A QR code's width, read in one step of the page (an element the stream swaps has no box between).
QR_WIDE_ENOUGH = "([sel, px]) => { const e = document.querySelector(sel); return !!e && e.getBoundingClientRect().width >= px }"
QR_SMALL_ENOUGH = ("([sel, px]) => { const e = document.querySelector(sel); const w = e && e.getBoundingClientRect().width;"
                   " return !!e && w > 0 && w <= px }")

def axe_violations(page, axe_source: str) -> list[str]:
    """axe-core on a live page. Its event stream refreshes the part it shows once on connecting (and
    on each change), and a part swapped while axe reads it can be misread (a button measured as it
    is removed): what axe finds is checked again once the page has settled, and only what it finds
    both times counts."""
    found = axe_once(page, axe_source)
    if not found:
        return found
    page.wait_for_timeout(1500)
    again = set(axe_once(page, axe_source))
    return [v for v in found if v in again]


TAP = 44  # px, the smallest target a finger hits reliably

# Everything a finger can press on the student's screen.
TARGETS = "button, input[type=text], label.choice, a.button"
SMALLEST = [float("inf")]  # the smallest side of a target measured, printed at the end


def right_answers(instance: Path) -> list[dict]:
    """Per question of the session, what a student who knows the rules sends: from the engine's solution."""
    from trainer.web import create_app
    from trainer.web.core.libraries import library

    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(SCENARIOS)], "INSTANCE_DIR": str(instance)})
    answers = []
    with app.test_request_context():
        for spot in SPOTS:
            answers.append(typed_right(library().get(spot).quiz))
    return answers


def one_wrong(typed: dict) -> dict:
    amount = next(name for name, value in typed.items() if isinstance(value, str) and value.isdigit())
    return {**typed, amount: str(int(typed[amount]) + 100)}


def no_sideways_scroll(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


def small_targets(page, scope: str) -> list[str]:
    found = []
    for el in page.locator(f"{scope} :is({TARGETS})").all():
        if not el.is_visible():
            continue
        box = el.bounding_box()
        SMALLEST[0] = min(SMALLEST[0], box["height"], box["width"])
        if box["height"] < TAP or box["width"] < TAP:
            found.append(f"{el.inner_text() or el.get_attribute('name')}: {box['width']:.0f}×{box['height']:.0f}")
    return found


def visible_steps(page) -> int:
    return sum(1 for s in page.locator("#stage [data-step]").all() if s.is_visible())


def answer_step_by_step(page, typed: dict, *, shots=None) -> None:
    """A student with JavaScript: one group of fields per screen, toggles pressed by their label."""
    steps = page.locator("#stage [data-step]")
    count = steps.count()
    assert count >= 2
    for i in range(1, count + 1):
        step = page.locator(f"#step-{i}")
        assert step.is_visible() and visible_steps(page) == 1, f"step {i}"
        assert page.locator("#stage button[type=submit]").is_visible() == (i == count)
        for name, value in typed.items():
            boxes = step.locator(f'input[name="{name}"]')
            if boxes.count() == 0:
                continue
            if boxes.first.get_attribute("type") == "text":
                assert boxes.first.get_attribute("inputmode") == "numeric"
                boxes.first.fill(value)
                continue
            wanted = value if isinstance(value, list) else [value]
            for box in boxes.all():
                if box.is_checked() != (box.get_attribute("value") in wanted):
                    step.locator(f'label[for="{box.get_attribute("id")}"]').click()
                assert box.is_checked() == (box.get_attribute("value") in wanted)
        assert small_targets(page, f"#step-{i}") == [], f"step {i}"
        no_sideways_scroll(page, page.viewport_size["width"])
        if shots:
            shots(i)
        if i < count:
            step.locator("[data-step-go='1']").click()
    page.locator("#stage button[type=submit]").click()


def answer_in_one_form(page, typed: dict) -> None:
    """A student without JavaScript: every step is on the page, sent as one plain form."""
    assert visible_steps(page) == page.locator("#stage [data-step]").count() >= 2
    for name, value in typed.items():
        boxes = page.locator(f'#stage input[name="{name}"]')
        if boxes.first.get_attribute("type") == "text":
            boxes.first.fill(value)
        else:
            wanted = value if isinstance(value, list) else [value]
            for box in boxes.all():
                box.set_checked(box.get_attribute("value") in wanted)
    with page.expect_navigation():
        page.locator("#stage button[type=submit]").click()


def join(open_page, url: str, name: str, *, stream: bool = True, **options):
    page = open_page(**PHONE, **options)
    if not stream:  # the server's answer when its streams are all taken: the page polls instead
        page.route("**/events", lambda route: route.fulfill(status=204, body=""))
    page.goto(url)
    page.fill("#f-name", name)
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert "Waiting for the instructor" in page.locator("#stage").inner_text()
    no_sideways_scroll(page, 360)
    return page


def projector_facts(projector) -> None:
    assert projector.locator(".site-header, nav[aria-label], .site-footer").count() == 0
    box = projector.locator("main").bounding_box()
    assert box["width"] >= 0.9 * 1920 and box["height"] >= 0.9 * 1080, box
    print(f"projector uses {box['width']:.0f}×{box['height']:.0f} of 1920×1080")
    no_sideways_scroll(projector, 1920)


def test_a_class_on_three_phones_and_a_projector(open_page, base_url, artifacts, axe_source, tmp_path):
    right = right_answers(tmp_path)
    teacher = new_session(open_page, base_url, "Mr Lee", "lee-phones@example.com", "Phones", SPOTS)
    control_url = teacher.url
    join_url = teacher.locator(".join-text a").first.get_attribute("href")

    # The projector: the instructor's second window, on the big screen.
    projector = Page(teacher.context.new_page())
    projector.set_viewport_size(PROJECTOR["viewport"])
    projector.goto(control_url + "projector")
    projector_facts(projector)
    # measured in one step of the page: the stream's refresh on connecting may swap the lobby meanwhile
    projector.wait_for_function(QR_WIDE_ENOUGH, arg=[".projector-lobby .qr svg", 300], timeout=POLL_MS)
    assert projector.locator(".projector-lobby .join-code").is_visible()

    ana = join(open_page, join_url, "Ana")
    bo = join(open_page, join_url, "Bo", stream=False)  # Bo's page polls: its lost connections are seen by its polls
    chen = join(open_page, join_url, "Chen", java_script_enabled=False)
    projector.wait_for_selector("text=3 students have joined", timeout=POLL_MS)
    for lang in LANGS:
        projector.goto(f"{control_url}projector?lang={lang}")
        assert axe_violations(projector, axe_source) == [], lang
        ana.goto(f"{ana.url.split('?')[0]}?lang={lang}")
        assert axe_violations(ana, axe_source) == [], lang
        if lang != "zh-Hans":
            projector.screenshot(path=str(artifacts / f"classroom-projector-lobby-{lang}.png"))
    projector.goto(control_url + "projector?lang=en")
    ana.goto(ana.url.split("?")[0] + "?lang=en")

    # N on the projector's keyboard shows question 1 everywhere, without loading the page again (full screen stays).
    projector.evaluate("window.sameDocument = true")
    projector.keyboard.press("n")
    projector.wait_for_selector(".projector-main", timeout=POLL_MS)
    assert projector.evaluate("window.sameDocument === true")
    assert projector.locator("text=Question 1 of 2").first.is_visible()
    assert projector.locator(".projector-lobby").count() == 0
    corner_qr = projector.locator(".projector-corner .qr svg")
    assert corner_qr.is_visible()
    projector.wait_for_function(QR_SMALL_ENOUGH, arg=[".projector-corner .qr svg", 160], timeout=POLL_MS)  # small, in a corner
    projector_facts(projector)
    for student in (ana, bo):
        student.wait_for_selector("#step-1", timeout=POLL_MS)
    chen.reload()

    # The phone's table reads at 360 px, and nothing on the screen tells the answer.
    table = ana.evaluate(FACTS)
    assert table["width"] <= 360 and table["minFont"] >= 11, table
    print(f"phone table: {table['width']:.0f} px wide, smallest text {table['minFont']:.1f} px")
    assert ana.locator("#stage .steps, #stage .mark").count() == 0
    assert ana.locator("#stage input[name=legal]").first.get_attribute("type") == "checkbox"
    for lang in LANGS:
        ana.goto(f"{ana.url.split('?')[0]}?lang={lang}")
        assert axe_violations(ana, axe_source) == [], lang
        no_sideways_scroll(ana, 360)
        if lang == "zh-Hant":
            ana.screenshot(path=str(artifacts / f"classroom-phone-step1-{lang}.png"))
            ana.locator("#step-1 [data-step-go='1']").click()
            ana.locator('#step-2 label[for="f-legal-1"]').click()  # a toggle pressed, as it looks pressed
            ana.screenshot(path=str(artifacts / f"classroom-phone-step2-{lang}.png"))
    ana.goto(ana.url.split("?")[0] + "?lang=en")
    ana.wait_for_selector("#step-1")

    answer_step_by_step(
        ana, right[0], shots=lambda i: ana.screenshot(path=str(artifacts / f"classroom-phone-step{i}-en.png"))
    )
    ana.wait_for_selector("#received .sent-badge")
    assert ana.locator("#received .sent-badge").inner_text().strip() == "Sent ✓"

    # Bo loses the connection: the page says so, keeps trying, and his answer goes once when it is back.
    bo.context.set_offline(True)
    bo.wait_for_selector("#connection .connection-lost", timeout=POLL_MS)
    bo.screenshot(path=str(artifacts / "classroom-phone-offline-en.png"))
    answer_step_by_step(bo, one_wrong(right[0]))
    bo.wait_for_selector("#connection .connection-unsent", timeout=POLL_MS)
    assert bo.locator("#received").count() == 0
    bo.context.set_offline(False)
    bo.wait_for_selector("#received .sent-badge", timeout=POLL_MS)
    bo.wait_for_selector("#connection", state="hidden", timeout=POLL_MS)

    answer_in_one_form(chen, right[0])
    assert chen.locator("#received").is_visible()

    projector.wait_for_selector("text=3 of 3 answered", timeout=POLL_MS)
    for lang in LANGS:
        projector.goto(f"{control_url}projector?lang={lang}")
        projector_facts(projector)
        assert axe_violations(projector, axe_source) == [], lang
        if lang != "zh-Hant":
            continue
        projector.screenshot(path=str(artifacts / f"classroom-projector-question-{lang}.png"))
    projector.goto(control_url + "projector?lang=en")
    projector.screenshot(path=str(artifacts / "classroom-projector-question-en.png"))
    # Before the reveal the projector shows how the class is split, not what it typed.
    shown = projector.locator(".dist-value").all_inner_texts()
    assert shown and all(text.startswith("answer ") for text in shown), shown

    # R reveals: the derivation beside the table, which stays.
    projector.evaluate("window.sameDocument = true")
    projector.keyboard.press("r")
    projector.wait_for_selector(".projector-side .steps", timeout=POLL_MS)
    assert projector.evaluate("window.sameDocument === true")
    steps = projector.locator(".projector-side .steps")
    table = projector.locator(".projector-table svg.table-svg--wide")
    assert steps.is_visible() and table.is_visible()
    # The stream's "changed" after the reveal swaps the projector's part once more: measure both boxes in one
    # step of the page, on the same document, so a swap between two measurements cannot tear them apart.
    projector.wait_for_function(
        """() => {
            const steps = document.querySelector('.projector-side .steps');
            const table = document.querySelector('.projector-table svg.table-svg--wide');
            if (!steps || !table) return false;
            const s = steps.getBoundingClientRect(), t = table.getBoundingClientRect();
            return t.width > 0 && s.width > 0 && s.left >= t.right;
        }""",
        timeout=POLL_MS,
    )
    assert projector.locator(".steps a.rule-link", has_text="R-REOPEN").count() >= 1
    assert projector.locator(".dist--right").count() >= 1
    projector_facts(projector)
    for lang in LANGS:
        projector.goto(f"{control_url}projector?lang={lang}")
        assert axe_violations(projector, axe_source) == [], lang
        if lang != "zh-Hans":
            projector.screenshot(path=str(artifacts / f"classroom-projector-reveal-{lang}.png"))
    projector.goto(control_url + "projector?lang=en")

    ana.wait_for_selector("text=10 of 10 right", timeout=POLL_MS)
    bo.wait_for_selector("text=9 of 10 right", timeout=POLL_MS)
    no_sideways_scroll(ana, 360)
    assert axe_violations(ana, axe_source) == []
    ana.screenshot(path=str(artifacts / "classroom-phone-reveal-en.png"), full_page=True)
    ana.goto(ana.url.split("?")[0] + "?lang=zh-Hant")
    assert axe_violations(ana, axe_source) == []
    ana.screenshot(path=str(artifacts / "classroom-phone-reveal-zh-Hant.png"))
    ana.goto(ana.url.split("?")[0] + "?lang=en")

    # The server restarting under Bo's polls (503s): his page says so, keeps its stage and keeps polling.
    bo.route("**/stage?**", lambda route: route.fulfill(status=503, body="restarting"))
    bo.wait_for_selector("#connection .connection-lost", timeout=POLL_MS)
    assert "9 of 10 right" in bo.locator("#stage").inner_text()  # what he saw stays; no error page swapped in

    # Question 2, then the end, driven from the instructor's phone: the control page at 360 px.
    projector.keyboard.press("n")
    projector.wait_for_selector("text=Question 2 of 2", timeout=POLL_MS)
    bo.unroute("**/stage?**")
    bo.wait_for_selector("#connection", state="hidden", timeout=POLL_MS)
    remote = Page(teacher.context.new_page())
    remote.set_viewport_size(PHONE["viewport"])
    remote.goto(control_url)
    no_sideways_scroll(remote, 360)
    assert small_targets(remote, "main") == []  # the controls, and Remove beside each student
    remote.screenshot(path=str(artifacts / "classroom-control-phone-en.png"), full_page=True)
    # Ana's first try at question 2 meets a 503: the same answer goes again by itself, and is stored once.
    refused = []

    def first_refused(route):
        if refused:
            route.continue_()
        else:
            refused.append(route.request.post_data)
            route.fulfill(status=503, body="restarting")

    ana.route("**/answer", first_refused)
    for student, typed in ((ana, right[1]), (bo, right[1])):
        student.wait_for_selector("#step-1", timeout=POLL_MS)
        answer_step_by_step(student, typed)
        student.wait_for_selector("#received", timeout=POLL_MS)
    assert len(refused) == 1
    ana.wait_for_selector("#connection", state="hidden", timeout=POLL_MS)
    projector.wait_for_selector("text=2 of 3 answered", timeout=POLL_MS)
    with remote.expect_navigation():
        remote.click("text=End the session")
    assert "End the session?" in remote.locator("h1").inner_text()  # asked once more: it sits beside Next
    with remote.expect_navigation():
        remote.click("text=End it")
    report = remote.locator("main").inner_text()
    assert "Ana" in report and "Bo" in report and "Chen" in report
    no_sideways_scroll(remote, 360)
    ana.wait_for_selector("text=You got 2 of 2 questions all right", timeout=POLL_MS)
    bo.wait_for_selector("text=You got 1 of 2 questions all right", timeout=POLL_MS)
    chen.reload()
    assert "You got 1 of 2 questions all right" in chen.locator("#stage").inner_text()
    projector.wait_for_selector("text=That is all", timeout=POLL_MS)
    print(f"smallest tap target side: {SMALLEST[0]:.0f} px")
    assert chen.bad_responses == [] and projector.bad_responses == [] and remote.bad_responses == []
    for page in (ana, bo, chen, projector, remote):
        assert page.csp_violations() == []
