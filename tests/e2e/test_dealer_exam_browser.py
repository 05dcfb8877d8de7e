"""'Dealer: full certification' sat on a 360×740 phone: one question a screen, 48 px controls,
cards in the deck's colours, the written part then the table part, passed with the engine's
answers. Screenshots in English and Chinese go to test-artifacts/; the figures (answers and
controls per question, page heights, seconds per question) are printed."""

from __future__ import annotations

import re
import time

import pytest

from tests.e2e.conftest import sign_up, start_exam
from tests.e2e.test_cert_browser import _pool, _questions, _quiz
from tests.e2e.test_loop_browser import fill_expected
from trainer.quiz import FieldKind
from trainer.store import exams

pytestmark = pytest.mark.e2e
PHONE = {"width": 360, "height": 740}
# every control of the answer form and the page's buttons: a choice's whole label is its target
TARGETS = ".exam-answer .choice, .exam-answer input[type=text], .exam-answer .button, button[value=finish], .exam-nav summary"


def _small_targets(page) -> list[str]:
    return page.eval_on_selector_all(
        TARGETS,
        "els => els.filter(e => e.offsetParent !== null)"
        ".map(e => [e.getBoundingClientRect(), e.textContent.trim().slice(0, 20)])"
        ".filter(([r]) => r.height < 48 || r.width < 48).map(([r, t]) => `${t}: ${r.width}x${r.height}`)",
    )


def taps_and_keys(fields) -> tuple[int, int]:
    """What a dealer who knows the answer does on the phone for one question, not counting scrolling:
    a tap into each amount to type (digits typed: the keys), a tap on each choice to tick, and the
    tap on "Save and go on"."""
    taps, keys = 1, 0
    for f in fields:
        if f.kind is FieldKind.AMOUNT:
            if f.expected is not None:
                taps, keys = taps + 1, keys + len(str(f.expected))
        elif f.kind is FieldKind.CHOICES:
            taps += len(f.expected)
        else:
            taps += 1
    return taps, keys


def _wider_than_screen(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")


def test_a_dealer_sits_the_full_certification_on_a_phone(open_page, library_url, library_instance, artifacts):
    page = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.set_default_timeout(20_000)
    sign_up(page, library_url, "Dee", "dee.phone@example.com", at="/account/signup?next=/exams/")
    page.goto(library_url + "/exams/?deck=four")
    full = page.locator("section.exam-template", has=page.locator("#t-dealer-full"))
    assert "40 questions · 40 minutes · pass mark 85%" in full.inner_text()
    start_exam(page, full.locator("a.button--primary"))
    exam_id = re.search(r"/exams/([0-9a-f]{32})/q/1$", page.url).group(1)
    refs = _questions(library_instance, exam_id)
    pool = _pool()
    answers, controls, heights, seconds, parts, firsts, lasts, saves, kinds, taps = [], [], [], [], [], [], [], [], [], []
    table_question = cards_question = None
    for number, ref in enumerate(refs, start=1):
        began = time.perf_counter()
        quiz = _quiz(ref, pool)
        fields = quiz.fields()
        answers.append(len(fields))
        taps.append(taps_and_keys(fields))
        controls.append(sum(1 if f.kind is FieldKind.AMOUNT else len(f.choices) for f in fields))
        heights.append(page.evaluate("document.documentElement.scrollHeight"))
        # one question a screen: the question, its first answer and "Save and go on" before any scrolling
        controls_here = page.locator(".exam-answer .choice, .exam-answer input[type=text]")
        first = controls_here.first.bounding_box()
        last = controls_here.last.bounding_box()
        lasts.append(last["y"] + last["height"])
        save = page.locator("button[name=go][value=next]").bounding_box()
        firsts.append(first["y"] + first["height"])
        kinds.append(exams.exam_gen_parts(ref)[0])
        saves.append(save["y"] + save["height"])
        parts.append(page.locator(".exam-part").inner_text())
        assert _small_targets(page) == [], number
        assert not _wider_than_screen(page), number
        if exams.exam_part(ref) == "table" and table_question is None:
            table_question = number
            page.screenshot(path=str(artifacts / "dealer-exam-table-360.png"), full_page=True)
        # a hand-reading question with a diamond or a heart drawn (its cards are dealt at random)
        if (exams.exam_gen_parts(ref)[0] == "hand-reading" and cards_question is None
                and page.locator(".card--suit-d, .card--suit-h").count() > 0):
            cards_question = number
            page.screenshot(path=str(artifacts / "dealer-exam-cards-360.png"), full_page=True)
        if number == 1:
            page.screenshot(path=str(artifacts / "dealer-exam-rules-360.png"), full_page=True)
        fill_expected(page, fields)
        if number == 1:
            page.screenshot(path=str(artifacts / "dealer-exam-rules-filled-360.png"))
        with page.expect_navigation():
            page.click("button[name=go][value=next]")
        assert page.locator(".error-summary").count() == 0, number
        seconds.append(time.perf_counter() - began)
    assert max(answers) <= 3 and min(answers) >= 1
    # the question and its first answer on the first screen; every answer and "Save and go on" within
    # half a screen more (a ruling's seven choices, a showdown's five, reach below the first)
    assert max(firsts) <= PHONE["height"], list(zip(kinds, firsts))
    assert max(saves) <= 1.5 * PHONE["height"], list(zip(kinds, saves))
    assert parts == sorted(parts, key=lambda p: p.startswith("Table"))  # the written part, then the table part
    assert table_question is not None and cards_question is not None

    # the four-colour deck the candidate chose: a diamond is blue on the table question's cards
    for lang, name in (("zh-Hant", "zh-Hant"), ("zh-Hans", "zh-Hans")):
        page.goto(f"{library_url}/exams/{exam_id}/q/1?lang={lang}")
        assert _small_targets(page) == [] and not _wider_than_screen(page)
        page.screenshot(path=str(artifacts / f"dealer-exam-rules-360-{name}.png"), full_page=True)
        page.goto(f"{library_url}/exams/{exam_id}/q/{table_question}?lang={lang}")
        assert _small_targets(page) == [] and not _wider_than_screen(page)
        page.screenshot(path=str(artifacts / f"dealer-exam-table-360-{name}.png"), full_page=True)
        page.goto(f"{library_url}/exams/{exam_id}/q/{cards_question}?lang={lang}")
        page.screenshot(path=str(artifacts / f"dealer-exam-cards-360-{name}.png"), full_page=True)
    # the four-colour deck the candidate chose: diamonds blue, hearts red, on the table and in the text
    page.goto(f"{library_url}/exams/{exam_id}/q/{cards_question}?lang=en")
    for suit, colour in (("d", "20, 80, 184"), ("h", "179, 18, 46")):
        shown = page.eval_on_selector_all(
            f".card--suit-{suit} text, .card-text--suit-{suit}",
            "els => els.map(e => e.tagName === 'text' ? getComputedStyle(e).fill : getComputedStyle(e).color)")
        assert all(colour in c for c in shown), (suit, shown)
    assert page.locator(".card--suit-d, .card--suit-h").count() > 0

    page.set_viewport_size({"width": 1280, "height": 800})  # and on a desktop
    for number, name in ((1, "rules"), (cards_question, "cards")):
        page.goto(f"{library_url}/exams/{exam_id}/q/{number}")
        assert _small_targets(page) == []
        page.screenshot(path=str(artifacts / f"dealer-exam-{name}-1280.png"), full_page=True)

    page.goto(f"{library_url}/exams/{exam_id}/submit")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    summary = page.locator(".result-summary").inner_text()
    assert "40 of 40 questions all right" in summary and "pass mark 85%" in summary
    on_screen = sum(1 for x in lasts if x <= PHONE["height"])
    saved_on_screen = sum(1 for x in saves if x <= PHONE["height"])
    print(f"\ndealer-full on a phone: answers per question max {max(answers)}, total {sum(answers)}; "
          f"controls per question max {max(controls)}, total {sum(controls)}; page height max {max(heights)} px, "
          f"median {sorted(heights)[len(heights) // 2]} px; first answer's bottom max {max(firsts):.0f} px; "
          f"every answer on the first screen in {on_screen} of {len(lasts)} questions, 'Save and go on' in "
          f"{saved_on_screen}; 'Save and go on' bottom max {max(saves):.0f} px, median {sorted(saves)[len(saves) // 2]:.0f} px; "
          f"taps per question max {max(t for t, _ in taps)}, total {sum(t for t, _ in taps)}; digits typed per question "
          f"max {max(k for _, k in taps)}, total {sum(k for _, k in taps)}; seconds per question (browser, filled by the "
          f"test) median {sorted(seconds)[len(seconds) // 2]:.2f}, total {sum(seconds):.0f}")


def test_the_five_card_picker_shows_the_cards_in_the_decks_colours(open_page, library_url, artifacts):
    # the issue: in the card picker ♦ and ♥ were black whatever the deck
    page = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    for deck, diamond in (("two", "179, 18, 46"), ("four", "20, 80, 184")):
        page.goto(f"{library_url}/drill/gen:hand-reading:2:3:0?deck={deck}")
        picked = page.eval_on_selector_all(
            "label.choice:has(input[name^='five_'][value$='d']) .card-text",
            "els => els.map(e => getComputedStyle(e).color)")
        hearts = page.eval_on_selector_all(
            "label.choice:has(input[name^='five_'][value$='h']) .card-text",
            "els => els.map(e => getComputedStyle(e).color)")
        assert picked or hearts
        assert all(diamond in c for c in picked), (deck, picked)
        assert all("179, 18, 46" in c for c in hearts), (deck, hearts)
    page.locator("fieldset.field--choices").first.screenshot(path=str(artifacts / "card-picker-four-colour-360.png"))
