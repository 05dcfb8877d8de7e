"""An instructor's class in a real browser at 1280×800: sign up to teach, make a class that asks for
a student number, a student joins through the invite link (or its QR code) and is told which class
and whose, the instructor assigns an exam with a window, gives the student extra time, the student
sits it, the instructor sees the result, opens the attempt's review and takes the gradebook, then
revokes the result, and /verify says so."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from openpyxl import load_workbook

from tests.e2e.conftest import sign_up
from tests.e2e.test_speed_browser import axe_violations
from tests.e2e.test_store_browser import fill_anything

pytestmark = pytest.mark.e2e
WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}


def test_assigning_a_class_exam_and_seeing_the_result(open_page, base_url, artifacts, axe_source):
    teacher = open_page(viewport=WIDE, timezone_id="Asia/Taipei")
    sign_up(teacher, base_url, "Ms Tan", "tan-class@example.com", instructor=True)
    assert urlsplit(teacher.url).path == "/classroom/"  # "I teach" lands on the classroom home
    assert teacher.locator(".site-header nav a", has_text="Classroom").count() == 1
    teacher.fill("#f-class-title", "Dealers 101")
    with teacher.expect_navigation():
        teacher.click("text=Create the class")
    invite = urlsplit(teacher.locator("#invite-link").get_attribute("href")).path
    qr = teacher.locator("#invite-qr svg").bounding_box()
    assert qr is not None and qr["width"] >= 150  # big enough to scan from a seat
    teacher.check("input[name=ask_number]")
    with teacher.expect_navigation():
        teacher.click("form[action$='/settings'] button")
    assert teacher.locator("input[name=ask_number]").is_checked()
    # The browser's zone, filled in by time-zone.js, and the default window in its local time.
    assert teacher.locator("#f-tz").input_value() == "Asia/Taipei"
    taipei_now = teacher.evaluate("new Date().getHours()")
    assert int(teacher.locator("#f-opens").input_value()[11:13]) == taipei_now

    student = open_page(viewport=WIDE)
    sign_up(student, base_url, "小美", "mei-class@example.com", at=invite)
    assert urlsplit(student.url).path == invite  # back at the invite after signing up
    assert "Join Dealers 101 by Ms Tan as 小美?" in student.locator("main").inner_text()
    student.fill("#f-student_number", "S-0707")
    with student.expect_navigation():
        student.click("text=Join the class")
    assert student.locator("h1").inner_text() == "You joined Dealers 101 by Ms Tan"
    for lang in ("en", "zh-Hant", "zh-Hans"):
        phone = open_page(viewport=PHONE)
        phone.context.add_cookies(student.context.cookies())
        phone.goto(student.url + f"&lang={lang}")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phone.screenshot(path=str(artifacts / f"class-joined-360-{lang}.png"), full_page=True)
        assert axe_violations(phone, axe_source) == [], lang

    teacher.reload()
    assert "小美 · student number S-0707" in teacher.locator("main").inner_text()
    teacher.select_option("#f-template", "pots-and-showdown")
    # Opens now (the form's default, in the browser's zone), closes in a week.
    with teacher.expect_navigation():
        teacher.click("text=Assign the exam")
    assert "(Asia/Taipei)" in teacher.locator("main").inner_text()
    teacher.screenshot(path=str(artifacts / "class-1280-en.png"), full_page=True)

    class_url = teacher.url
    # Ten extra minutes for her alone, from the results page.
    with teacher.expect_navigation():
        teacher.click("#assigned-h ~ table a")
    with teacher.expect_navigation():
        teacher.click("#results a:has-text('Extra time or late window')")
    teacher.fill("#f-extra_minutes", "10")
    with teacher.expect_navigation():
        teacher.click("main form button[type=submit]")
    teacher.screenshot(path=str(artifacts / "class-student-terms-1280-en.png"), full_page=True)
    for lang in ("en", "zh-Hant", "zh-Hans"):
        phone = open_page(viewport=PHONE)
        phone.context.add_cookies(teacher.context.cookies())
        for name, url in (("class", class_url), ("class-student-terms", teacher.url)):
            phone.goto(url.split("?")[0] + f"?lang={lang}")
            assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], (name, lang)
            phone.screenshot(path=str(artifacts / f"{name}-360-{lang}.png"), full_page=True)
            assert axe_violations(phone, axe_source) == [], (name, lang)
    teacher.goto(class_url)

    student.goto(base_url + "/exams/")
    assigned = student.locator(".assigned-exams")
    assert "10 extra minutes" in assigned.inner_text()
    assert "Dealers 101" in assigned.inner_text() and "(Asia/Taipei)" in assigned.inner_text()
    student.screenshot(path=str(artifacts / "exams-assigned-1280-en.png"), full_page=False)
    with student.expect_navigation():
        assigned.locator("a", has_text="Start the exam").click()
    # The page before the exam: under whom it is sat, and the name and number to print.
    assert "A class exam set by instructor Ms Tan" in student.locator("main").inner_text()
    assert student.locator("#f-candidate-name").input_value() == "小美"
    student.screenshot(path=str(artifacts / "exam-start-1280-en.png"), full_page=True)
    for lang in ("en", "zh-Hant", "zh-Hans"):
        phone = open_page(viewport=PHONE)
        phone.context.add_cookies(student.context.cookies())
        phone.goto(student.url + f"?lang={lang}")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phone.screenshot(path=str(artifacts / f"exam-start-360-{lang}.png"), full_page=True)
    student.goto(student.url.split("?")[0] + "?lang=en")
    student.fill("#f-candidate-name", "Lin Mei-Hua 林美華")
    student.fill("#f-candidate-number", "D101-07")
    with student.expect_navigation():
        student.click("text=Start the exam now")
    assert re.search(r"/exams/[0-9a-f]{32}/q/1$", student.url)
    template_minutes = 12  # pots-and-showdown; her clock shows them and the ten extra
    shown_left = int(student.locator("#exam-timer").get_attribute("data-seconds-left"))
    assert (template_minutes + 9) * 60 < shown_left <= (template_minutes + 10) * 60
    for _number in range(10):
        fill_anything(student)
        with student.expect_navigation():
            student.click("button[name=go][value=next]")
    with student.expect_navigation():
        student.click("text=Submit my answers")
    assert student.url.endswith("/result")
    result_url = student.url
    # Classmates still have the week to sit it: the review keeps its answers until the close.
    assert "shown when the exam closes for the whole class" in student.locator(".result-review").inner_text()
    assert student.locator(".review-item").count() == 0
    assert "Lin Mei-Hua 林美華" in student.locator(".result-summary").inner_text()
    student.screenshot(path=str(artifacts / "exam-result-class-1280-en.png"), full_page=True)

    with teacher.expect_navigation():
        teacher.click("main table a", timeout=5000)
    row = teacher.locator("#results tbody tr", has_text="小美").inner_text()
    assert re.search(r"of 10", row) and ("passed" in row) and "(Asia/Taipei)" in row
    assert "(S-0707)" in row and "+10 min" in row
    teacher.screenshot(path=str(artifacts / "class-results-1280-en.png"), full_page=True)
    results_url = teacher.url
    with teacher.expect_download() as download:
        teacher.click("text=Download the results (CSV)")
    assert download.value.suggested_filename.endswith("-results.csv")
    with teacher.expect_download() as download:
        teacher.click("text=Gradebook (Excel, .xlsx)")
    with open(download.value.path(), "rb") as saved:
        book = load_workbook(saved)
    assert book.sheetnames[0] == "summary" and book.sheetnames[-1] == "results" and len(book.sheetnames) == 12
    # The attempt and its review, answers shown to the instructor while the class's review waits.
    with teacher.expect_navigation():
        teacher.click("#results a:has-text('of 10')")
    assert teacher.locator(".review-item").count() == 10
    teacher.screenshot(path=str(artifacts / "class-attempt-1280-en.png"), full_page=False)
    assert axe_violations(teacher, axe_source) == []
    teacher.goto(results_url)

    for lang in ("zh-Hant", "zh-Hans"):
        teacher.goto(teacher.url.split("?")[0] + f"?lang={lang}")
        teacher.screenshot(path=str(artifacts / f"class-results-1280-{lang}.png"), full_page=True)
        student.goto(base_url + f"/exams/?lang={lang}")
        student.screenshot(path=str(artifacts / f"exams-assigned-1280-{lang}.png"), full_page=False)
    teacher.goto(base_url + "/classroom/?lang=zh-Hant")
    teacher.screenshot(path=str(artifacts / "classroom-home-1280-zh-Hant.png"), full_page=False)

    # The instructor revokes the result; an employer's /verify then says so, and when.
    student.goto(result_url + "?lang=en")
    address = student.locator(".result-facts a[href*='/verify/']").get_attribute("href")
    teacher.goto(results_url.split("?")[0] + "?lang=en")
    with teacher.expect_navigation():
        teacher.click("#results a:has-text('Revoke')")
    teacher.screenshot(path=str(artifacts / "class-revoke-1280-en.png"), full_page=True)
    with teacher.expect_navigation():
        teacher.click("text=Revoke this result")
    assert "revoked" in teacher.locator("#results tbody tr", has_text="小美").inner_text()
    employer = open_page(viewport=WIDE)
    for lang in ("en", "zh-Hant"):
        employer.goto(f"{address}?lang={lang}")
        employer.screenshot(path=str(artifacts / f"verify-revoked-1280-{lang}.png"), full_page=True)
    employer.goto(f"{address}?lang=en")
    said = employer.locator("main").inner_text()
    assert "Revoked." in said and "by Ms Tan, who supervised it" in said and "Lin Mei-Hua 林美華" in said
    assert "D101-07" in said and "A class exam set by instructor Ms Tan (class “Dealers 101”)" in said
    phone = open_page(viewport=PHONE)
    phone.goto(f"{address}?lang=zh-Hans")
    phone.screenshot(path=str(artifacts / "verify-revoked-360-zh-Hans.png"), full_page=True)
    teacher.goto(base_url + "/classroom/?lang=en")
    teacher.screenshot(path=str(artifacts / "classroom-home-1280-en.png"), full_page=False)

    for lang in ("en", "zh-Hant"):
        phone = open_page(viewport=PHONE)
        phone.context.add_cookies(teacher.context.cookies())
        phone.goto(base_url + f"/classroom/?lang={lang}")
        phone.screenshot(path=str(artifacts / f"classroom-home-360-{lang}.png"), full_page=False)
        with phone.expect_navigation():
            phone.click("main a:has-text('Dealers 101')")
        phone.screenshot(path=str(artifacts / f"class-360-{lang}.png"), full_page=True)
