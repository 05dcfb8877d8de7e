"""A quick class in a real browser: an instructor running it from a 360×740 phone, a projector at
1920×1080 (and 1280×720), three students on 360×740 phones in English, zh-Hant and zh-Hans. Each answer
is one tap on a button that is on the phone's first screen; the projector's bars take at least 40 % of
its height with labels of at least 32 px at 1080p; a countdown; points, a leaderboard and the podium.

The right answers come from the engine (``trainer.quick`` on the library's spots), not typed in.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SCENARIOS, Page, new_session

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
SPOTS = ("seed001-min-raise", "sb-not-reopened", "seed004-side-pot")
STUDENTS = (("Ann", "en"), ("李娜", "zh-Hant"), ("王小明", "zh-Hans"))
WAIT_MS = 8000


def engine_answers() -> list[tuple[str, tuple[str, ...]]]:
    """(the right choice, every choice) of each spot's quick question, from the engine."""
    from trainer import quick
    from trainer.library import load_library

    lib = load_library([str(SCENARIOS)])
    out = []
    for spot in SPOTS:
        entry = lib.get(spot)
        kind, pot = quick.choose(entry.scenario, entry.topics, seed=entry.id)
        q = quick.make(entry.id, entry.scenario, kind, pot)
        out.append((q.answer, q.choices))
    return out


def on_first_screen(page, selector: str, height: int = 740) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def projector_measures(projector, height: int) -> dict:
    """The bars' share of the screen's height and the labels' size in px."""
    facts = projector.evaluate(
        """() => {
          const dist = document.querySelector('.quick-dist').getBoundingClientRect();
          const label = document.querySelector('.quick-bar-label');
          return {dist: dist.height, top: dist.top, bottom: dist.bottom,
                  label: parseFloat(getComputedStyle(label).fontSize),
                  scroll: document.scrollingElement.scrollHeight}
        }"""
    )
    facts["share"] = facts["dist"] / height
    return facts


def test_a_quick_class_on_three_phones_a_projector_and_the_instructors_phone(open_page, base_url, artifacts):
    answers = engine_answers()
    teacher = new_session(open_page, base_url, "Ms Wu", "wu-quick@example.com", "Quick", SPOTS,
                          viewport=PHONE["viewport"], style="quick", seconds="30")
    control_url = teacher.url.split("?")[0]
    join_url = teacher.locator(".join-text a").first.get_attribute("href")

    projector = Page(teacher.context.new_page())
    projector.set_viewport_size({"width": 1920, "height": 1080})
    projector.goto(control_url + "projector")

    phones = []
    for name, lang in STUDENTS:
        phone = open_page(**PHONE, locale=lang)
        phone.goto(f"{join_url}?lang={lang}")
        phone.fill("#f-name", name)
        with phone.expect_navigation():
            phone.click("main form button[type=submit]")
        phone.wait_for_selector("#stage", timeout=WAIT_MS)
        phones.append(phone)
    projector.wait_for_selector("text=3 students have joined", timeout=WAIT_MS)

    # The instructor's phone: with the class in, Next/Reveal/End are on the first screen, the code folded.
    teacher.goto(control_url)
    assert teacher.locator("details.join-details").get_attribute("open") is None
    assert on_first_screen(teacher, ".control-actions--main button:has-text('Start')")
    assert on_first_screen(teacher, ".control-actions--main a:has-text('End the session')")
    teacher.screenshot(path=str(artifacts / "classroom-quick-control-phone-lobby.png"))

    taps = {name: 0 for name, _lang in STUDENTS}
    for number, (right, choices) in enumerate(answers, start=1):
        with teacher.expect_navigation():
            teacher.click(".control-actions--main button:has-text('Start'), .control-actions--main button:has-text('Next question')")
        assert on_first_screen(teacher, ".control-actions--main button:has-text('Reveal')")
        assert on_first_screen(teacher, ".control-actions--main a:has-text('End the session')")
        for i, ((name, lang), phone) in enumerate(zip(STUDENTS, phones)):
            phone.wait_for_selector(".quick-choice", timeout=WAIT_MS)
            # the question and every choice on the first screen; big buttons
            assert on_first_screen(phone, ".quick-prompt")
            buttons = phone.locator(".quick-choice")
            assert buttons.count() == len(choices)
            for b in buttons.all():
                box = b.bounding_box()
                assert box["y"] + box["height"] <= 740 and box["height"] >= 64 and box["width"] >= 120, (name, box)
            assert phone.evaluate("document.documentElement.scrollWidth") <= 360
            if number == 1:
                phone.screenshot(path=str(artifacts / f"classroom-quick-phone-question-{lang}.png"))
            # Ann and 李娜 tap the engine's answer, 王小明 another one: one tap each
            tapped = right if i < 2 else next(c for c in choices if c != right)
            phone.locator(f'.quick-choice[value="{tapped}"]').click()
            taps[name] += 1
            phone.wait_for_selector("#received", timeout=WAIT_MS)
        projector.wait_for_selector(".projector-answered:has-text('3 / 3')", timeout=WAIT_MS)
        if number == 1:
            teacher.wait_for_selector("text=3 of 3 answered", timeout=WAIT_MS)
            teacher.screenshot(path=str(artifacts / "classroom-quick-control-phone-question.png"))
        assert projector.locator(".class-clock").is_visible()
        measured = projector_measures(projector, 1080)
        print(f"question {number} at 1920x1080: bars {measured['share']:.0%} of the height, labels {measured['label']:.0f} px")
        assert measured["share"] >= 0.40 and measured["label"] >= 32 and measured["scroll"] <= 1080, measured
        if number == 1:
            projector.screenshot(path=str(artifacts / "classroom-quick-projector-open-1080.png"))
            projector.set_viewport_size({"width": 1280, "height": 720})
            projector.wait_for_timeout(300)
            small = projector_measures(projector, 720)
            print(f"at 1280x720: bars {small['share']:.0%} of the height, labels {small['label']:.0f} px")
            assert small["share"] >= 0.40 and small["scroll"] <= 720, small
            projector.screenshot(path=str(artifacts / "classroom-quick-projector-open-720.png"))
            projector.set_viewport_size({"width": 1920, "height": 1080})

        with teacher.expect_navigation():
            teacher.click(".control-actions--main button:has-text('Reveal')")
        projector.wait_for_selector(".quick-headline", timeout=WAIT_MS)
        assert projector.locator(".quick-headline").inner_text().strip() == "67% right"
        assert projector.locator(".quick-board .board-row").count() == 3
        measured = projector_measures(projector, 1080)
        print(f"revealed at 1920x1080: bars {measured['share']:.0%} of the height, labels {measured['label']:.0f} px")
        assert measured["share"] >= 0.40 and measured["label"] >= 32 and measured["scroll"] <= 1080, measured
        for phone in phones:
            phone.wait_for_selector(".quick-result", timeout=WAIT_MS)
            assert phone.locator(".stage-place").is_visible()
        if number == 1:
            projector.screenshot(path=str(artifacts / "classroom-quick-projector-revealed-1080.png"))
            projector.set_viewport_size({"width": 1280, "height": 720})
            projector.wait_for_timeout(300)
            small = projector_measures(projector, 720)
            print(f"revealed at 1280x720: bars {small['share']:.0%} of the height, labels {small['label']:.0f} px")
            assert small["share"] >= 0.40 and small["scroll"] <= 720, small
            projector.screenshot(path=str(artifacts / "classroom-quick-projector-revealed-720.png"))
            projector.set_viewport_size({"width": 1920, "height": 1080})
            for lang in ("zh-Hant", "zh-Hans"):
                projector.goto(f"{control_url}projector?lang={lang}")
                projector.wait_for_selector(".quick-headline", timeout=WAIT_MS)
                assert projector_measures(projector, 1080)["scroll"] <= 1080
                projector.screenshot(path=str(artifacts / f"classroom-quick-projector-revealed-1080-{lang}.png"))
            projector.goto(f"{control_url}projector?lang=en")
            for (name, lang), phone in zip(STUDENTS, phones):
                phone.screenshot(path=str(artifacts / f"classroom-quick-phone-revealed-{lang}.png"))
        if number == 2:  # a second reveal: a student right twice sees their streak
            for (name, lang), phone in zip(STUDENTS, phones):
                phone.screenshot(path=str(artifacts / f"classroom-quick-phone-revealed-2-{lang}.png"))
    assert all(n == len(SPOTS) for n in taps.values())  # one tap per answer

    teacher.goto(control_url + "end")
    with teacher.expect_navigation():
        teacher.click("main button:has-text('End it')")
    projector.goto(control_url + "projector")
    projector.wait_for_selector(".podium", timeout=WAIT_MS)
    assert projector.locator(".podium-step").count() == 3
    projector.screenshot(path=str(artifacts / "classroom-quick-projector-podium-1080.png"))
    for (name, lang), phone in zip(STUDENTS, phones):
        phone.wait_for_selector(".stage-score", timeout=WAIT_MS)  # the end screen (a revealed question has a place too)
        phone.screenshot(path=str(artifacts / f"classroom-quick-phone-end-{lang}.png"), full_page=True)
    # the new-session form with its choices (quick first), on the instructor's phone, in two languages
    for lang in ("en", "zh-Hant"):
        teacher.goto(f"{base_url}/classroom/?lang={lang}")
        assert teacher.locator('input[type=radio][name="style"][value="quick"]').is_checked()
        assert teacher.evaluate("document.documentElement.scrollWidth") <= 360
        teacher.locator("#f-seconds").scroll_into_view_if_needed()
        teacher.screenshot(path=str(artifacts / f"classroom-quick-new-session-phone-{lang}.png"))
    assert "3" in phones[2].locator(".stage-place").inner_text()  # the one who missed every question: third
    assert phones[2].locator(".missed li").count() == len(SPOTS)


def test_a_keypad_session_types_an_amount_on_the_phones_number_pad(open_page, base_url, artifacts):
    (right, _choices), _reopened, _pot = engine_answers()
    teacher = new_session(open_page, base_url, "Mr Li", "li-keypad@example.com", "Keypad", SPOTS[:1],
                          style="quick", keypad=True)
    control_url = teacher.url.split("?")[0]
    join_url = teacher.locator(".join-text a").first.get_attribute("href")
    projector = Page(teacher.context.new_page())
    projector.set_viewport_size({"width": 1920, "height": 1080})
    phones = []
    for name, lang in STUDENTS:
        phone = open_page(**PHONE, locale=lang)
        phone.goto(f"{join_url}?lang={lang}")
        phone.fill("#f-name", name)
        with phone.expect_navigation():
            phone.click("main form button[type=submit]")
        phones.append(phone)
    teacher.goto(control_url)
    with teacher.expect_navigation():
        teacher.click(".control-actions--main button:has-text('Start')")
    for i, ((name, lang), phone) in enumerate(zip(STUDENTS, phones)):
        phone.wait_for_selector("#quick-amount", timeout=WAIT_MS)
        # the box and Send on the first screen; the box asks the phone for its number pad
        assert on_first_screen(phone, "#quick-amount") and on_first_screen(phone, ".quick-send")
        assert phone.get_attribute("#quick-amount", "inputmode") == "numeric"
        phone.screenshot(path=str(artifacts / f"classroom-keypad-phone-question-{lang}.png"))
        phone.tap("#quick-amount")
        phone.keyboard.type(right if i < 2 else "1234")
        phone.tap(".quick-send")  # a tap into the box, the digits, a tap on Send
        phone.wait_for_selector("#received", timeout=WAIT_MS)
    with teacher.expect_navigation():
        teacher.click(".control-actions--main button:has-text('Reveal')")
    projector.goto(control_url + "projector")
    projector.wait_for_selector(".quick-headline", timeout=WAIT_MS)
    assert projector.locator(".quick-headline").inner_text().strip() == "67% right"
    assert projector.locator(".quick-bar").count() == 5  # four amounts and "Another amount"
    measured = projector_measures(projector, 1080)
    assert measured["share"] >= 0.40 and measured["label"] >= 32 and measured["scroll"] <= 1080, measured
    projector.screenshot(path=str(artifacts / "classroom-keypad-projector-revealed-1080.png"))
    phones[0].wait_for_selector(".quick-result--right", timeout=WAIT_MS)
    phones[2].wait_for_selector(".quick-result--wrong", timeout=WAIT_MS)
    phones[2].screenshot(path=str(artifacts / "classroom-keypad-phone-revealed-zh-Hans.png"))
