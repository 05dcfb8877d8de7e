"""Dealer certification in a real browser at 1280×800: a candidate signs up, gives the name the
certificate carries before the exam starts, sits "Dealer: full certification" to a pass with answers
the engine computes, prints the result and the certificate, and someone else, not signed in, opens
its QR address and sees the result. The printed result and certificate (A4 and Letter) are kept as
PDFs and PNGs in test-artifacts/ to be looked at."""

from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess

import pytest

from trainer.generate import generate
from trainer.quiz import build_quiz
from trainer.quiz.dealer import build_dealer_quiz
from trainer.scenarios import load_document, load_paths
from trainer.store import exams
from trainer.store.engines import DB_FILE

from tests.e2e.conftest import LANGUAGES, LIBRARY, ORGANISATION, sign_up, start_exam
from tests.e2e.test_loop_browser import fill_expected

pytestmark = pytest.mark.e2e
WIDE = {"width": 1280, "height": 800}


def _pool() -> dict:
    return {s.id: s for s in load_paths([LIBRARY / "exam-pool"]).scenarios}


def _quiz(ref: str, pool: dict):
    """The question behind an exam reference, solved by the engine, as the app builds it."""
    parts = exams.exam_gen_parts(ref)
    if parts is not None:
        topic, level, seed, index, stakes = parts
        dealer = exams.is_dealer_ref(ref)  # a dealer's question: the generator's second edition, one to three answers
        spot = generate(topic, level=level, seed=seed, start=index, stakes=stakes,
                        edition=exams.DEALER_EDITION if dealer else 1)[0]
        scenario = load_document(spot.document, f"{spot.id}.yaml")
        if dealer:
            return build_dealer_quiz(scenario, locale="en")
    else:
        scenario = pool[ref.removeprefix(exams.EXAM_POOL)]
    return build_quiz(scenario, locale="en")


def _questions(instance, exam_id: str) -> list[str]:
    with sqlite3.connect(instance / DB_FILE) as db:
        (questions,) = db.execute("select questions from exam_attempts where id = ?", (exam_id,)).fetchone()
    import json

    return json.loads(questions)


def test_a_candidate_is_certified_and_an_employer_verifies_the_certificate(open_page, library_url, library_instance, artifacts):
    page = open_page(viewport=WIDE)
    page.set_default_timeout(20_000)
    sign_up(page, library_url, "Mei", "mei@example.com", at="/account/signup?next=/exams/")
    page.goto(library_url + "/exams/")
    full = page.locator("section.exam-template", has=page.locator("#t-dealer-full"))
    assert "40 questions · 40 minutes · pass mark 85%" in full.inner_text()
    assert "blinds 100/200 and 1,000/2,000" in full.inner_text()
    # the name the certificate will carry, asked before the start (the account's is filled in)
    start_exam(page, full.locator("a.button--primary"), name="Mei-Lin Chen", number="TDA-2026-0042")
    exam_id = re.search(r"/exams/([0-9a-f]{32})/q/1$", page.url).group(1)

    refs = _questions(library_instance, exam_id)
    assert len(refs) == 40
    pool = _pool()
    blinds = set()
    for number, ref in enumerate(refs, start=1):
        assert page.url.endswith(f"/exams/{exam_id}/q/{number}")
        quiz = _quiz(ref, pool)
        game = page.locator(".exam-game").inner_text()
        blinds.add(re.search(r"blinds ([\d,]+/[\d,]+)", game).group(1))
        fill_expected(page, quiz.fields())
        if number == 1:
            page.screenshot(path=str(artifacts / "cert-question-1280.png"))
        with page.expect_navigation():
            page.click("button[name=go][value=next]")
        assert page.locator(".error-summary, .mark").count() == 0  # saved, with no verdict
    assert {"100/200", "1,000/2,000"} <= blinds <= {"100/200", "250/500", "1,000/2,000"}  # real stakes only
    assert page.url.endswith(f"/exams/{exam_id}/submit")
    assert "Answered: 40 of 40" in page.locator("main").inner_text()
    with page.expect_navigation():
        page.click("text=Submit my answers")
    summary = page.locator(".result-summary").inner_text()
    assert "Mei-Lin Chen" in summary and "40 of 40 questions all right" in summary and "pass mark 85%" in summary
    assert ORGANISATION in summary and "TDA-2026-0042" in summary and "self-assessment" in summary
    # Printed, the result is its summary and per-topic table on one or two pages; the 40 questions'
    # review prints from a page of its own.
    assert printed_pages(page, artifacts, "exam-result-a4", "A4") <= 2
    with page.expect_navigation():
        page.click("text=The review on a page of its own, to print")
    assert page.locator(".review-item").count() == 40
    printed_pages(page, artifacts, "exam-review-a4", "A4", png_pages=1)
    with page.expect_navigation():
        page.click("text=Back to the result")

    with page.expect_navigation():
        page.click("text=Printable certificate")
    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()
    certificate = page.locator("main").inner_text()
    assert "Mei-Lin Chen" in certificate and "Dealer: full certification" in certificate
    assert ORGANISATION in certificate and "TDA-2026-0042" in certificate and "self-assessment" in certificate
    page.screenshot(path=str(artifacts / "cert-certificate-print-1280.png"), full_page=True)
    certificate_url = page.url
    for paper, size in (("a4", "A4"), ("letter", "Letter")):
        for lang in ("en", "zh-Hant"):
            page.goto(f"{certificate_url}?paper={paper}&lang={lang}")
            assert printed_pages(page, artifacts, f"cert-certificate-{paper}-{lang}", size) == 1
            # laid out to fill its page: the verification block ends near the sheet's foot
            sheet = page.locator(".certificate").bounding_box()
            check = page.locator(".check").bounding_box()
            assert sheet["y"] + sheet["height"] - (check["y"] + check["height"]) < 80
            assert len(set(page.evaluate(
                "[...document.querySelectorAll('.certificate *')].map(e => getComputedStyle(e).fontFamily)"))) == 1
    page.goto(certificate_url + "?lang=en")
    address = page.locator("strong.url").inner_text()
    assert page.locator(f"figure.qr[aria-label='QR code of {address}'] svg").count() == 1

    employer = open_page(viewport=WIDE)  # someone else: a browser context of its own, not signed in
    employer.goto(address)
    facts = employer.locator(".verified").inner_text()
    assert "Mei-Lin Chen" in facts and "Dealer: full certification" in facts
    assert ORGANISATION in facts and "TDA-2026-0042" in facts and "self-assessment" in facts
    assert "40 of 40 questions all right (100%)" in facts
    assert re.search(r"Pass mark\s+85%", facts) and re.search(r"Result\s+Passed", facts)
    assert employer.locator(".review-item, .steps, .answer-form").count() == 0
    employer.screenshot(path=str(artifacts / "cert-verify-1280.png"), full_page=True)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_nothing_on_a_four_colour_hand_reading_spot_and_the_exam_list(open_page, library_url, axe_source, lang):
    from tests.e2e.test_table_browser import axe_violations

    for viewport in (WIDE, {"width": 360, "height": 740}):
        page = open_page(viewport=viewport)
        page.goto(f"{library_url}/drill/gen:hand-reading:2:3:0?lang={lang}&deck=four")
        assert page.locator("body.deck-four").count() == 1
        assert page.locator(".five, input[name^='five_']").count() >= 14  # seven cards for each live player
        assert axe_violations(page, axe_source) == []
        page.goto(f"{library_url}/exams/?lang={lang}")
        assert axe_violations(page, axe_source) == []


def printed_pages(page, artifacts, name: str, size: str, *, png_pages: int | None = None) -> int:
    """Print the page to ``<name>.pdf`` at paper ``size`` as Chromium does, turn its pages (the first
    ``png_pages``) into ``<name>-<n>.png`` to look at, and say how many pages it printed on."""
    page.emulate_media(media="print")
    pdf = page.pdf(path=str(artifacts / f"{name}.pdf"), format=size, print_background=True, prefer_css_page_size=True)
    page.emulate_media(media="screen")
    assert pdf.startswith(b"%PDF")
    count = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    if shutil.which("pdftoppm"):
        last = ["-l", str(png_pages)] if png_pages else []
        subprocess.run(["pdftoppm", "-png", "-r", "60", *last, str(artifacts / f"{name}.pdf"), str(artifacts / name)],
                       check=True)
    return count


def pass_exam(page, url: str, instance, slug: str = "chips-and-words") -> str:
    """Sit the exam ``slug`` to a pass with the engine's answers; the attempt's id (on its result page)."""
    page.goto(url + "/exams/")
    start_exam(page, page.locator("section.exam-template", has=page.locator(f"#t-{slug}")).locator("a.button--primary"))
    exam_id = re.search(r"/exams/([0-9a-f]{32})/q/1$", page.url).group(1)
    pool = _pool()
    for ref in _questions(instance, exam_id):
        fill_expected(page, _quiz(ref, pool).fields())
        with page.expect_navigation():
            page.click("button[name=go][value=next]")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert page.url.endswith(f"/exams/{exam_id}/result")
    return exam_id


def no_sideways_scroll(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


def test_the_result_the_certificate_and_a_class_page_fit_a_320_pixel_phone(open_page, library_url, library_instance, artifacts):
    page = open_page(viewport=WIDE)
    page.set_default_timeout(20_000)
    sign_up(page, library_url, "Patricia Montgomery-Fairweather", "pat-narrow@example.com",
            at="/account/signup?next=/exams/", instructor=True)
    exam_id = pass_exam(page, library_url, library_instance)
    page.goto(library_url + "/classroom/")
    page.fill("#f-class-title", "Dealers on phones")
    with page.expect_navigation():
        page.click("text=Create the class")
    class_page = page.url.split("?")[0]
    for width, height in ((360, 740), (320, 700)):
        page.set_viewport_size({"width": width, "height": height})
        for lang in ("en", "zh-Hant", "zh-Hans"):
            for path in (f"/exams/{exam_id}/result", f"/exams/{exam_id}/certificate"):
                page.goto(f"{library_url}{path}?lang={lang}")
                no_sideways_scroll(page, width)
            page.goto(f"{class_page}?lang={lang}")
            no_sideways_scroll(page, width)
            box = page.locator("#f-template").bounding_box()
            assert box["x"] + box["width"] <= width
    page.goto(f"{library_url}/exams/{exam_id}/result?lang=zh-Hans")
    page.screenshot(path=str(artifacts / "exam-result-320-zh-Hans.png"))
    page.goto(f"{library_url}/exams/{exam_id}/certificate?lang=zh-Hans")
    page.screenshot(path=str(artifacts / "cert-certificate-320-zh-Hans.png"), full_page=True)
    # Printed, the sheet is the same 186 mm as on a wide screen.
    page.emulate_media(media="print")
    assert page.evaluate("document.querySelector('.certificate').getBoundingClientRect().width") > 700

    # The new-session form: a topic's box stays 20 px next to a label of two lines.
    page.emulate_media(media="screen")
    page.goto(f"{library_url}/classroom/?lang=en")
    boxes = [b.bounding_box() for b in page.locator("input[type=checkbox][name=topics]").all()]
    assert boxes and min(min(b["width"], b["height"]) for b in boxes) >= 19
    # A seat's "按鈕位" tag and a column's header (剩餘籌碼) stay whole words on one line.
    page.goto(f"{library_url}/drill/gen:action-order:1:1:0?lang=zh-Hant")
    no_sideways_scroll(page, 320)
    lines = page.evaluate(
        """[...document.querySelectorAll('.seats .tag, .seats thead th')].map(el => {
             const range = document.createRange(); range.selectNodeContents(el);
             return [el.textContent.trim(), new Set([...range.getClientRects()].map(r => Math.round(r.top))).size];
           })"""
    )
    assert any(text == "按鈕位" for text, _n in lines)
    assert [text for text, n in lines if n > 1] == []
