"""The instructor's path (sign-up lands on the classroom, a Classroom link, sessions in two clicks),
the exports (BOM, integer amounts, Chinese names, .xlsx) and exams assigned to a class of accounts
with an open/close window enforced on the server."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from openpyxl import load_workbook
from sqlalchemy import func, select, update

from trainer.store import exams
from trainer.store.learners import sign_up as make_account
from trainer.store.models import ClassExam, LiveSession, ExamAttempt, SchoolClass, now

from tests.store.helpers import BTN, BTN_RIGHT, BTN_TWO_WRONG, post_form, sign_up, token
from tests.store.test_classroom import _act, _answer, _create, _join
from tests.store.test_exams import MINI


@pytest.fixture
def app(database, tmp_path):
    from tests.store.conftest import running_app

    yield from running_app(database, tmp_path, EXAM_TEMPLATES=[MINI])


def _rows(response) -> list[dict]:
    assert response.data.startswith(b"\xef\xbb\xbf"), "no UTF-8 byte-order mark"
    return list(csv.DictReader(io.StringIO(response.data.decode("utf-8-sig"))))


def _sheet(response, name: str | None = None) -> list[tuple]:
    book = load_workbook(io.BytesIO(response.data), read_only=True)
    return list((book[name] if name else book.worksheets[0]).iter_rows(values_only=True))


# ------------------------------------------------------------------ the instructor's path


def test_signing_up_to_teach_lands_on_the_classroom_and_only_instructors_get_its_link(app):
    teacher, learner = app.test_client(), app.test_client()
    assert sign_up(teacher, "t@example.com", name="Ms T", instructor=True).headers["Location"] == "/classroom/"
    assert sign_up(learner, "l@example.com", name="Lu").headers["Location"] == "/progress/"
    link = re.compile(r'<a href="/classroom/">Classroom</a>')
    # A drill page is kept in the page cache: opened first by the learner, then by the teacher.
    assert not link.search(learner.get(f"/drill/{BTN}").text)
    assert link.search(teacher.get(f"/drill/{BTN}").text)
    assert not link.search(learner.get(f"/drill/{BTN}").text)
    assert not link.search(app.test_client().get("/").text)
    assert ">課堂</a>" in teacher.get("/?lang=zh-Hant").text and ">课堂</a>" in teacher.get("/?lang=zh-Hans").text


def test_a_session_from_a_topic_or_a_level_range_is_one_form_on_the_classroom_home(app):
    teacher = app.test_client()
    sign_up(teacher, "t@example.com", name="Ms T", instructor=True)
    home = teacher.get("/classroom/")
    # Quick start: one button per topic; its form carries everything.
    form = re.search(r'<form method="post" action="/classroom/new">(.*?)</form>', home.text, re.S).group(1)
    data = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))
    made = teacher.post("/classroom/new", data=data)
    assert made.status_code == 303 and "/classroom/" in made.headers["Location"]
    with app.extensions["trainer.store"].session() as s:
        first = s.scalar(select(LiveSession))
        assert first.mode == "paced" and first.questions
    # A level range with no topic ticked: every topic, only those levels.
    response = post_form(teacher, "/classroom/", {"title": "L1", "mode": "paced", "count": "50", "level_from": "1",
                                                  "level_to": "1"}, to="/classroom/new")
    assert response.status_code == 303
    with app.extensions["trainer.store"].session() as s:
        ranged = s.scalar(select(LiveSession).where(LiveSession.title == "L1"))
    with app.test_request_context():
        from trainer.web.core.libraries import library

        levels = {library().get(ref).level for ref in ranged.questions}
    assert levels == {1}
    refused = post_form(teacher, "/classroom/", {"title": "none", "level_from": "9", "level_to": "9"},
                        to="/classroom/new")
    assert refused.status_code == 200 and "No spot of these topics is at levels 9 to 9." in refused.text


def _quick_start(page: str) -> dict:
    form = re.search(r'<form method="post" action="/classroom/new">(.*?)</form>', page, re.S).group(1)
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))


@pytest.mark.parametrize(
    "form, message",
    [
        ({"count": "1000"}, "Enter a whole number of questions from 1 to 50."),
        ({"count": "0"}, "Enter a whole number of questions from 1 to 50."),
        ({"count": "-5"}, "Enter a whole number of questions from 1 to 50."),
        ({"count": "abc"}, "Enter a whole number of questions from 1 to 50."),
        ({"count": "5", "level_from": "5", "level_to": "1"}, "Levels go from low to high: level 5 is above level 1."),
    ],
)
def test_a_wrong_count_or_level_range_is_refused_next_to_its_field_and_quick_start_keeps_its_count(
    app, form, message
):
    teacher = app.test_client()
    sign_up(teacher, "t@example.com", name="Ms T", instructor=True)
    refused = post_form(teacher, "/classroom/", {"title": "x", "mode": "paced", **form}, to="/classroom/new")
    assert refused.status_code == 200 and message in refused.text
    assert 'aria-invalid="true"' in refused.text and "field-error" in refused.text
    assert f'name="count" type="text" inputmode="numeric" value="{form["count"]}"' in refused.text
    with app.extensions["trainer.store"].session() as s:
        assert s.scalar(select(func.count()).select_from(LiveSession)) == 0
    # Quick start, from the page that refused the form, still makes a session of the default size
    assert "an instructor-paced session of 10 quick questions" in refused.text
    assert _quick_start(refused.text)["count"] == "10"


def test_a_session_with_fewer_spots_than_asked_for_says_how_many_it_has(app):
    teacher = app.test_client()
    sign_up(teacher, "t@example.com", name="Ms T", instructor=True)
    made = post_form(teacher, "/classroom/", {"title": "L1", "mode": "paced", "count": "50", "level_from": "1",
                                              "level_to": "1"}, to="/classroom/new")
    assert made.status_code == 303
    with app.extensions["trainer.store"].session() as s:
        n = len(s.scalar(select(LiveSession)).questions)
    assert n < 50
    control = teacher.get(made.headers["Location"]).text
    assert f"Only {n} spot" in control and f"so the session has {n} question" in control and "not 50." in control
    enough = post_form(teacher, "/classroom/", {"title": "L2", "mode": "paced", "count": "1", "level_from": "1",
                                                "level_to": "1"}, to="/classroom/new")
    assert "not 1." not in teacher.get(enough.headers["Location"]).text


# ------------------------------------------------------------------ exports


@pytest.fixture
def instructor(app):
    client = app.test_client()
    sign_up(client, "teacher@example.com", name="Ms T", instructor=True)
    return client


def test_the_classroom_csv_has_a_bom_integer_amounts_and_chinese_names_and_an_xlsx_twin(app, instructor):
    session_id, code, _ = _create(instructor, title="週二：重開")
    mei = _join(app, code, "小美")
    _act(instructor, session_id, "next")
    _answer(mei, code, BTN_TWO_WRONG)
    exported = instructor.get(f"/classroom/{session_id}/answers.csv")
    assert exported.headers["Content-Type"] == "text/csv; charset=utf-8"
    rows = _rows(exported)
    assert len(rows) == 10 and {r["student"] for r in rows} == {"小美"} and rows[0]["session"] == "週二：重開"
    min_to = next(r for r in rows if r["field"] == "min_to")
    assert (min_to["answer"], min_to["correct"], min_to["right"]) == ("1800", "2400", "no")
    assert '"1,800"' not in exported.data.decode("utf-8-sig")

    sheet = _sheet(instructor.get(f"/classroom/{session_id}/answers.xlsx"), "answers")
    head, body = sheet[0], sheet[1:]
    cell = dict(zip(head, next(r for r in body if r[head.index("field")] == "min_to")))
    assert cell["answer"] == 1800 and cell["correct"] == 2400 and cell["student"] == "小美"
    assert instructor.get(f"/classroom/{session_id}/answers.pdf").status_code == 404


def test_a_name_that_looks_like_a_formula_is_exported_inert(app, instructor):
    session_id, code, _ = _create(instructor)
    evil = _join(app, code, "=HYPERLINK(1)")
    _act(instructor, session_id, "next")
    _answer(evil, code, BTN_RIGHT)
    assert _rows(instructor.get(f"/classroom/{session_id}/answers.csv"))[0]["student"] == "'=HYPERLINK(1)"


# ------------------------------------------------------------------ classes and assigned exams


def _class(teacher, title="Dealers 101") -> tuple[str, str]:
    made = post_form(teacher, "/classroom/", {"class_title": title}, to="/classroom/classes/new")
    assert made.status_code == 303, made.text
    class_id = made.headers["Location"].split("/")[3]
    page = teacher.get(made.headers["Location"]).text
    return class_id, re.search(r'id="invite-code">([A-Z2-9]{4}-[A-Z2-9]{4})<', page).group(1)


def _assign(teacher, class_id, *, opens: str, closes: str, tz: str = "Asia/Taipei", template: str = "mini"):
    return post_form(teacher, f"/classroom/classes/{class_id}/",
                     {"template": template, "opens": opens, "closes": closes, "tz": tz},
                     to=f"/classroom/classes/{class_id}/assign")


def _local(at: datetime, tz: str = "Asia/Taipei") -> str:
    return at.astimezone(ZoneInfo(tz)).strftime("%Y-%m-%dT%H:%M")


def _student(app, email: str, name: str, code: str | None):
    client = app.test_client()
    sign_up(client, email, name=name)
    if code:
        joined = post_form(client, f"/classes/join/{code}", {})
        assert joined.status_code == 303, joined.text
    return client


def _only(app, model):
    with app.extensions["trainer.store"].session() as s:
        return s.scalar(select(model))


def test_a_window_typed_in_the_instructors_zone_is_stored_in_utc_and_shown_with_the_zone(app, instructor):
    class_id, _code = _class(instructor)
    response = _assign(instructor, class_id, opens="2030-03-01T09:00", closes="2030-03-01T17:30")
    assert response.status_code == 303, response.text
    a = _only(app, ClassExam)
    assert a.opens_at == datetime(2030, 3, 1, 1, 0, tzinfo=UTC) and a.closes_at == datetime(2030, 3, 1, 9, 30, tzinfo=UTC)
    page = instructor.get(f"/classroom/classes/{class_id}/").text
    assert "(Asia/Taipei)" in page and "9:00" in page and "not open yet" in page


@pytest.mark.parametrize(("form", "message"), [
    ({"opens": "tomorrow", "closes": "2030-03-01T17:30"}, "Give the opening date and time"),
    ({"opens": "2030-03-01T09:00", "closes": "2030-03-01T08:00"}, "The exam must close after it opens."),
    ({"opens": "2020-03-01T09:00", "closes": "2020-03-02T08:00"}, "That window has already closed"),
    ({"opens": "2030-03-01T09:00", "closes": "2030-03-01T17:30", "tz": "Mars/Olympus"}, "Unknown time zone: give a name such as Asia/Taipei or Europe/London."),
    ({"opens": "2030-03-01T09:00", "closes": "2030-03-01T17:30", "template": "nope"}, "Choose an exam."),
])
def test_a_wrong_window_is_refused_with_a_sentence_next_to_its_field(app, instructor, form, message):
    class_id, _code = _class(instructor)
    response = _assign(instructor, class_id, **{"tz": "Asia/Taipei", "template": "mini", **form})
    assert response.status_code == 200 and message in response.text and 'aria-invalid="true"' in response.text
    assert _only(app, ClassExam) is None


@pytest.mark.parametrize(("opens", "closes", "tz", "field"), [
    ("2026-12-01T00:00", "9999-12-31T23:59", "America/Los_Angeles", "closes"),  # past 9999 in UTC
    ("0001-01-01T00:00", "2027-01-01T00:00", "Asia/Taipei", "opens"),  # before year 1 in UTC
])
def test_a_window_past_the_calendar_in_utc_is_refused_next_to_its_field(app, instructor, opens, closes, tz, field):
    class_id, _code = _class(instructor)
    response = _assign(instructor, class_id, opens=opens, closes=closes, tz=tz)
    assert response.status_code == 200, response.status_code
    assert "Give a date after the year 1 and before the year 9999." in response.text
    assert re.search(rf'<input[^>]*name="{field}"[^>]*aria-invalid="true"|<input[^>]*aria-invalid="true"[^>]*name="{field}"',
                     response.text), response.text
    assert f'value="{opens}"' in response.text and f'value="{closes}"' in response.text
    assert _only(app, ClassExam) is None


def test_a_control_character_in_a_class_form_gives_the_form_back_filled_in_and_makes_nothing(app, instructor):
    made = post_form(instructor, "/classroom/", {"class_title": "Deal\x00ers 101"}, to="/classroom/classes/new")
    assert made.status_code == 200, made.status_code
    assert "cannot hold control characters" in made.text and 'value="Dealers 101"' in made.text
    assert 'aria-invalid="true"' in made.text and _only(app, SchoolClass) is None

    class_id, _code = _class(instructor)
    refused = _assign(instructor, class_id, opens="2030-03-01T09:00", closes="2030-03-01T17:30", tz="Asia/\x01Taipei")
    assert refused.status_code == 200, refused.status_code
    assert "cannot hold control characters" in refused.text and 'value="Asia/Taipei"' in refused.text
    assert 'aria-invalid="true"' in refused.text and _only(app, ClassExam) is None

    other = app.test_client()
    sign_up(other, "other-teacher@example.com", instructor=True)
    forged = post_form(other, "/classroom/", {"template": "mini", "opens": "x", "closes": "y", "tz": "\x00"},
                       to=f"/classroom/classes/{class_id}/assign")
    assert forged.status_code == 404  # not that instructor's class: the form is not shown to them


def test_the_window_is_enforced_before_it_opens_and_after_it_closes(app, instructor):
    class_id, code = _class(instructor)
    _assign(instructor, class_id, opens=_local(now() + timedelta(days=1)), closes=_local(now() + timedelta(days=2)))
    ana = _student(app, "ana@example.com", "Ana Lee", code)
    page = ana.get("/exams/")
    assert "Assigned by your classes" in page.text and "Dealers 101" in page.text and "(Asia/Taipei)" in page.text
    assert "This exam is not open yet." in page.text
    assigned = page.text.split('id="assigned-h"', 1)[1].split("</section>", 1)[0]
    assert "Retakes: up to" in assigned  # the template's policy counts here too, and is said before starting
    assignment_id = _only(app, ClassExam).id
    early = post_form(ana, "/exams/", {"candidate_name": "Ana Lee"}, to=f"/exams/assigned/{assignment_id}/start")  # a forged start
    assert early.status_code == 200 and "This exam is not open yet." in early.text
    with app.extensions["trainer.store"].session() as s:
        s.execute(update(ClassExam).values(opens_at=now() - timedelta(days=2), closes_at=now() - timedelta(seconds=1)))
        s.commit()
    late = post_form(ana, "/exams/", {"candidate_name": "Ana Lee"}, to=f"/exams/assigned/{assignment_id}/start")
    assert late.status_code == 200 and "This exam has closed: it can no longer be started." in late.text
    assert _only(app, ExamAttempt) is None


def test_a_start_just_before_the_close_ends_at_the_close(app, instructor):
    class_id, code = _class(instructor)
    _assign(instructor, class_id, opens=_local(now() - timedelta(hours=1)), closes=_local(now() + timedelta(hours=1)))
    closes = now() + timedelta(seconds=90)  # MINI runs 5 minutes
    with app.extensions["trainer.store"].session() as s:
        s.execute(update(ClassExam).values(closes_at=closes))
        s.commit()
    ana = _student(app, "ana@example.com", "Ana Lee", code)
    started = post_form(ana, "/exams/", {"candidate_name": "Ana Lee"}, to=f"/exams/assigned/{_only(app, ClassExam).id}/start")
    assert started.status_code == 303 and "/q/1" in started.headers["Location"]
    exam = _only(app, ExamAttempt)
    assert abs((exam.deadline - closes).total_seconds()) < 1 and exam.assignment_id is not None
    # Past the close the result says the window closed, not that the exam's time ran out.
    with app.extensions["trainer.store"].session() as s:
        s.execute(update(ExamAttempt).values(deadline=now() - timedelta(seconds=1), started_at=now() - timedelta(seconds=91)))
        s.commit()
    result = ana.get(f"/exams/{exam.id}/result", follow_redirects=True).text
    assert "The exam window set for your class closed" in result and "Time ran out" not in result


def test_an_attempt_cannot_save_an_answer_after_the_window_closes(s):
    account, learner = make_account(s, email="a@example.com", password="password1", name="A", instructor=False,
                                    learner_id=None)
    at = now()
    exam = exams.start(s, MINI, learner_id=learner.id, account_id=account.id, name="A", refs=["x", "y"], at=at,
                       closes_at=at + timedelta(seconds=30))
    assert exam.deadline == at + timedelta(seconds=30)
    with pytest.raises(exams.ExamClosed):
        exams.save_answer(s, exam, 0, {"a": ["1"]}, at=at + timedelta(seconds=30))


def test_a_student_not_in_the_class_cannot_sit_it_and_another_instructor_cannot_see_it(app, instructor):
    class_id, code = _class(instructor)
    _assign(instructor, class_id, opens=_local(now() - timedelta(hours=1)), closes=_local(now() + timedelta(days=1)))
    assignment_id = _only(app, ClassExam).id
    outsider = _student(app, "bo@example.com", "Bo", None)
    assert "Dealers 101" not in outsider.get("/exams/").text
    refused = post_form(outsider, "/exams/", {"candidate_name": "Ana Lee"}, to=f"/exams/assigned/{assignment_id}/start")
    assert refused.status_code == 404
    assert _only(app, ExamAttempt) is None

    other = app.test_client()
    sign_up(other, "other@example.com", name="Mr O", instructor=True)
    for path in (f"/classroom/classes/{class_id}/", f"/classroom/exams/{assignment_id}/",
                 f"/classroom/exams/{assignment_id}/results.csv", f"/classroom/exams/{assignment_id}/results.xlsx"):
        assert other.get(path).status_code == 404, path
    forged = other.post(f"/classroom/classes/{class_id}/assign", data={
        "csrf_token": token(other.get("/classroom/").text), "template": "mini", "opens": "2030-01-01T00:00",
        "closes": "2030-01-02T00:00", "tz": "UTC"})
    assert forged.status_code == 404
    assert "Dealers 101" not in other.get("/classroom/").text
    # A learner's account is not an instructor's.
    assert outsider.get(f"/classroom/classes/{class_id}/").status_code == 403


def test_the_instructor_sees_each_students_result_and_exports_it(app, instructor):
    class_id, code = _class(instructor, title="發牌員一班")
    _assign(instructor, class_id, opens=_local(now() - timedelta(hours=1)), closes=_local(now() + timedelta(days=1)))
    assignment_id = _only(app, ClassExam).id
    mei = _student(app, "mei@example.com", "小美", code)
    _student(app, "bo@example.com", "Bo", code)  # joined, never started
    first = post_form(mei, "/exams/", {"candidate_name": "小美"}, to=f"/exams/assigned/{assignment_id}/start").headers["Location"]
    exam_id = first.split("/")[2]
    post_form(mei, first, {"go": "stay", **BTN_RIGHT})
    post_form(mei, f"/exams/{exam_id}/submit", {})
    assert "Attempt 1:" in mei.get("/exams/").text

    page = instructor.get(f"/classroom/exams/{assignment_id}/")
    assert page.status_code == 200
    row = re.search(r"<th scope=\"row\">小美(.*?)</tr>", page.text, re.S).group(1)
    assert "1 of 2" in row and "50.0%" in row and "passed" in row and "(Asia/Taipei)" in row
    assert re.search(r"<th scope=\"row\">Bo.*?not started", page.text, re.S)

    rows = _rows(instructor.get(f"/classroom/exams/{assignment_id}/results.csv"))
    mine = next(r for r in rows if r["student"] == "小美")
    assert (mine["class"], mine["attempt"], mine["score"], mine["questions"], mine["percent"], mine["passed"]) == (
        "發牌員一班", "1", "1", "2", "50.0", "yes")
    assert mine["finished_at"].endswith("+08:00") and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00", mine["finished_at"])
    assert next(r for r in rows if r["student"] == "Bo")["attempt"] == ""
    sheet = _sheet(instructor.get(f"/classroom/exams/{assignment_id}/results.xlsx"))
    cells = dict(zip(sheet[0], next(r for r in sheet[1:] if r[0] == "小美")))
    assert cells["score"] == 1 and cells["percent"] == 50


def test_joining_needs_an_account_and_a_right_code(app, instructor):
    _class_id, code = _class(instructor)
    anonymous = app.test_client()
    page = anonymous.get(f"/classes/join/{code}")
    assert page.status_code == 200 and "Create an account" in page.text
    assert anonymous.get("/classes/join/ABCD-EFGH").status_code == 404
    wide = "".join(chr(ord(c) + 0xFEE0) for c in code)  # typed on a phone's Chinese keyboard
    assert anonymous.get(f"/classes/join/{wide}").status_code == 200
    ana = _student(app, "ana@example.com", "Ana", wide)
    assert "You are in Dealers 101<" in ana.get(f"/classes/join/{code}").text
    again = post_form(ana, "/exams/", {}, to=f"/classes/join/{code}")  # a second join changes nothing
    assert again.status_code == 303
    with app.extensions["trainer.store"].session() as s:
        from trainer.store.models import ClassMember

        assert s.scalar(select(func.count()).select_from(ClassMember)) == 1


def test_an_assigned_exam_in_progress_offers_to_continue_it(app, instructor):
    class_id, code = _class(instructor)
    _assign(instructor, class_id, opens=_local(now() - timedelta(hours=1)), closes=_local(now() + timedelta(hours=1)))
    ana = _student(app, "ana@example.com", "Ana Lee", code)
    assignment = _only(app, ClassExam).id
    assert "Start the exam" in ana.get("/exams/").text
    first = post_form(ana, "/exams/", {"candidate_name": "Ana Lee"}, to=f"/exams/assigned/{assignment}/start").headers["Location"]
    page = ana.get("/exams/").text
    assigned = page.split('class="assigned-exams"', 1)[1].split("</section>", 1)[0]
    assert "Continue the exam" in assigned and "Start the exam" not in assigned
    assert post_form(ana, "/exams/", {"candidate_name": "Ana Lee"}, to=f"/exams/assigned/{assignment}/start").headers["Location"] == first
