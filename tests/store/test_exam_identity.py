"""Who took which exam under whom, and whether it still stands: the name and candidate number typed
before the start, the issuing organisation (TRAINER_ORGANISATION), self-assessment or class exam,
an instructor revoking a result, and a class exam's review keeping its answers until the close."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from trainer.store.models import ClassExam, ExamAttempt, now

from tests.store.helpers import BTN_RIGHT, post_form, sign_up, token
from tests.store.test_class_exams import _assign, _class, _local, _only, _student
from tests.store.test_exams import MINI

SCHOOL = "Taipei Dealer School"


@pytest.fixture
def app(database, tmp_path):
    from tests.store.conftest import running_app

    yield from running_app(database, tmp_path, EXAM_TEMPLATES=[MINI], ORGANISATION=SCHOOL)


@pytest.fixture
def instructor(app):
    client = app.test_client()
    sign_up(client, "teacher@example.com", name="Ms Tsai", instructor=True)
    return client


def _code(page: str) -> str:
    return re.search(r'class="verify-code">([A-Z2-9]{5}-[A-Z2-9]{5})<', page).group(1)


def _sit(client, start_url: str, data: dict, *, right: bool = True) -> str:
    """Start from the page before the exam with ``data``, answer question 1, submit: the exam's id."""
    started = post_form(client, start_url, data)
    assert started.status_code == 303, started.text
    first = started.headers["Location"]
    if right:
        post_form(client, first, {"go": "stay", **BTN_RIGHT})
    exam_id = first.split("/")[2]
    post_form(client, f"/exams/{exam_id}/submit", {})
    return exam_id


def test_the_name_and_number_typed_before_the_start_and_the_organisation_are_on_result_certificate_and_verify(app, client):
    sign_up(client, "ana@example.com", name="ana")
    index = client.get("/exams/").text
    assert 'href="/exams/mini/start"' in index
    page = client.get("/exams/mini/start")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert 'name="candidate_name" type="text" value="ana"' in page.text  # the account's name, to correct
    assert SCHOOL in page.text and "A self-assessment: sat alone, with no instructor" in page.text

    exam_id = _sit(client, "/exams/mini/start", {"candidate_name": "  Lee   Ana ", "candidate_number": " TDS-0042 "})
    result = client.get(f"/exams/{exam_id}/result").text
    for said in ("Lee Ana", "TDS-0042", SCHOOL, "A self-assessment"):
        assert said in result, said
    certificate = client.get(f"/exams/{exam_id}/certificate").text
    for said in ("Lee Ana", "Candidate number TDS-0042", SCHOOL, "A self-assessment"):
        assert said in certificate, said
    employer = app.test_client().get(f"/verify/{_code(result)}").text
    for said in ("Lee Ana", "TDS-0042", SCHOOL, "A self-assessment", "Passed"):
        assert said in employer, said
    assert SCHOOL in app.test_client().get("/verify/").text
    with app.extensions["trainer.store"].session() as s:
        exam = s.get(ExamAttempt, exam_id)
        assert (exam.name, exam.candidate_number) == ("Lee Ana", "TDS-0042")


def test_an_installation_that_names_no_organisation_says_so_on_every_result(app, client):
    app.config["ORGANISATION"] = None
    sign_up(client, "ana@example.com", name="Ana Lee")
    exam_id = _sit(client, "/exams/mini/start", {"candidate_name": "Ana Lee"})
    unnamed = "an installation of Holdem Rules Trainer that has not named its organisation"
    result = client.get(f"/exams/{exam_id}/result").text
    assert unnamed in result and SCHOOL not in result
    assert unnamed in client.get(f"/exams/{exam_id}/certificate").text
    assert unnamed in app.test_client().get(f"/verify/{_code(result)}").text


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"candidate_name": "   "}, "candidate_name", "Enter your name as it should appear on the result"),
        ({"candidate_name": "\u200b\u202e"}, "candidate_name", "Enter your name as it should appear on the result"),
        ({"candidate_name": "A" * 81}, "candidate_name", "A name can have up to 80 characters; this one has 81."),
        ({"candidate_name": "Ana", "candidate_number": "9" * 41}, "candidate_number",
         "A candidate number can have up to 40 characters; this one has 41."),
        ({"candidate_name": "Ana\x00Lee"}, "candidate_name", "control character"),
        ({"candidate_name": "Ana", "candidate_number": "12\x0734"}, "candidate_number", "control character"),
    ],
)
def test_a_bad_name_or_number_is_refused_next_to_its_field_and_nothing_starts(app, client, data, field, message):
    sign_up(client, "ana@example.com", name="Ana Lee")
    refused = post_form(client, "/exams/mini/start", data)
    assert refused.status_code == 200
    error = re.search(rf'<p class="field-error" id="f-{field.replace("_", "-")}-error">(.*?)</p>', refused.text, re.S)
    assert error and message in error.group(1)
    assert 'aria-invalid="true"' in refused.text and "\x00" not in refused.text
    assert _only(app, ExamAttempt) is None


def test_a_name_is_printed_as_text_and_without_direction_overrides(app, client):
    sign_up(client, "ana@example.com", name="Ana Lee")
    exam_id = _sit(client, "/exams/mini/start", {"candidate_name": "<b>Ana</b> \u202eeeL", "candidate_number": "<i>7</i>"})
    for page in (client.get(f"/exams/{exam_id}/result").text, client.get(f"/exams/{exam_id}/certificate").text):
        assert "&lt;b&gt;Ana&lt;/b&gt; eeL" in page and "<b>Ana" not in page and "\u202e" not in page
        assert "&lt;i&gt;7&lt;/i&gt;" in page
    verify = app.test_client().get(f"/verify/{_code(client.get(f'/exams/{exam_id}/result').text)}").text
    assert "&lt;b&gt;Ana&lt;/b&gt; eeL" in verify and "<b>Ana" not in verify


def test_a_start_form_without_the_name_asks_for_it_instead_of_starting(app, client):
    sign_up(client, "ana@example.com", name="Ana Lee")
    asked = post_form(client, "/exams/", {}, to="/exams/mini/start")  # a Start button from before the name was asked
    assert asked.status_code == 200 and 'name="candidate_name"' in asked.text and "field-error" not in asked.text
    assert _only(app, ExamAttempt) is None


# ------------------------------------------------------------------ class exams: under whom, revoking


def _class_exam(app, instructor, *, review: str | None = None):
    class_id, code = _class(instructor, title="Dealers 101")
    data = {"template": "mini", "opens": _local(now() - timedelta(hours=1)), "closes": _local(now() + timedelta(days=2)),
            "tz": "Asia/Taipei"}
    if review is not None:
        data["review"] = review
    assigned = post_form(instructor, f"/classroom/classes/{class_id}/", data, to=f"/classroom/classes/{class_id}/assign")
    assert assigned.status_code == 303, assigned.text
    ana = _student(app, "ana@example.com", "Ana Lee", code)
    return _only(app, ClassExam).id, ana


def test_a_class_exam_names_its_instructor_and_the_instructor_can_revoke_it(app, instructor):
    assignment_id, ana = _class_exam(app, instructor)
    start = f"/exams/assigned/{assignment_id}/start"
    page = ana.get(start).text
    assert "A class exam set by instructor Ms Tsai (class “Dealers 101”)" in page
    exam_id = _sit(ana, start, {"candidate_name": "Ana Lee", "candidate_number": "D101-07"})
    result = ana.get(f"/exams/{exam_id}/result").text
    code = _code(result)
    assert "Ms Tsai" in result and "Printable certificate" in result
    assert "Ms Tsai" in ana.get(f"/exams/{exam_id}/certificate").text
    employer = app.test_client()
    before = employer.get(f"/verify/{code}").text
    assert "A class exam set by instructor Ms Tsai" in before and "Revoked" not in before

    listing = instructor.get(f"/classroom/exams/{assignment_id}/").text
    assert f'href="/classroom/results/{exam_id}/revoke"' in listing and "candidate number D101-07" in listing
    confirm = instructor.get(f"/classroom/results/{exam_id}/revoke")
    assert confirm.status_code == 200 and "Revoke the result of Ana Lee?" in confirm.text
    # no CSRF token: refused, nothing revoked
    assert instructor.post(f"/classroom/results/{exam_id}/revoke").status_code == 400
    assert "Revoked" not in employer.get(f"/verify/{code}").text
    done = post_form(instructor, f"/classroom/results/{exam_id}/revoke", {})
    assert done.status_code == 303 and done.headers["Location"].endswith(f"/classroom/exams/{assignment_id}/#results")

    after = employer.get(f"/verify/{code}")
    assert after.status_code == 200
    assert "Revoked." in after.text and "by Ms Tsai, who supervised it: it no longer stands" in after.text
    assert re.search(r"revoked on <time datetime=\"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\"", after.text)
    assert "This result was revoked by Ms Tsai" in ana.get(f"/exams/{exam_id}/result").text
    assert ana.get(f"/exams/{exam_id}/certificate").headers["Location"].endswith("/result")
    assert "revoked" in instructor.get(f"/classroom/exams/{assignment_id}/").text
    assert "Revoke this result" not in instructor.get(f"/classroom/results/{exam_id}/revoke").text
    with app.extensions["trainer.store"].session() as s:
        first_revoked = s.get(ExamAttempt, exam_id).revoked_at
    again = instructor.post(f"/classroom/results/{exam_id}/revoke",  # a second tab: the first time stands
                            data={"csrf_token": token(instructor.get("/classroom/").text)})
    assert again.status_code == 303
    with app.extensions["trainer.store"].session() as s:
        assert s.get(ExamAttempt, exam_id).revoked_at == first_revoked


def test_only_the_classes_own_instructor_can_revoke_a_result(app, instructor):
    assignment_id, ana = _class_exam(app, instructor)
    exam_id = _sit(ana, f"/exams/assigned/{assignment_id}/start", {"candidate_name": "Ana Lee"})
    other = app.test_client()
    sign_up(other, "other@example.com", name="Mr O", instructor=True)
    assert other.get(f"/classroom/results/{exam_id}/revoke").status_code == 404
    forged = other.post(f"/classroom/results/{exam_id}/revoke", data={"csrf_token": token(other.get("/classroom/").text)})
    assert forged.status_code == 404
    assert instructor.get("/classroom/results/nope/revoke").status_code == 404
    # the student cannot revoke (or un-revoke) their own; a self-assessment has no supervisor at all
    assert ana.get(f"/classroom/results/{exam_id}/revoke").status_code == 403
    self_study = _sit(ana, "/exams/mini/start", {"candidate_name": "Ana Lee"})
    assert instructor.get(f"/classroom/results/{self_study}/revoke").status_code == 404
    with app.extensions["trainer.store"].session() as s:
        assert s.scalars(select(ExamAttempt).where(ExamAttempt.revoked_at.is_not(None))).all() == []


def test_a_running_attempt_cannot_be_revoked(app, instructor):
    assignment_id, ana = _class_exam(app, instructor)
    started = post_form(ana, f"/exams/assigned/{assignment_id}/start", {"candidate_name": "Ana Lee"})
    exam_id = started.headers["Location"].split("/")[2]
    refused = post_form(instructor, f"/classroom/results/{exam_id}/revoke", {})
    assert refused.status_code == 200 and "still running" in refused.text
    assert _only(app, ExamAttempt).revoked_at is None


# ------------------------------------------------------------------ review visibility


def _review_shown(client, exam_id: str) -> bool:
    result = client.get(f"/exams/{exam_id}/result").text
    alone = client.get(f"/exams/{exam_id}/review").text
    shown = "2,400" in result and "R-REOPEN" in result
    assert shown == ("2,400" in alone and "R-REOPEN" in alone)
    assert shown != ("shown when the exam closes for the whole class" in result)
    return shown


def test_a_class_exams_review_keeps_the_answers_until_the_window_closes_for_everyone(app, instructor):
    assignment_id, ana = _class_exam(app, instructor)
    started = post_form(ana, f"/exams/assigned/{assignment_id}/start", {"candidate_name": "Ana Lee"})
    exam_id = started.headers["Location"].split("/")[2]
    confirm = ana.get(f"/exams/{exam_id}/submit").text
    assert "your score is shown; the answers and the explanations are shown when the exam closes" in confirm
    post_form(ana, f"/exams/{exam_id}/submit", {})
    result = ana.get(f"/exams/{exam_id}/result").text
    assert "0 of 2 questions all right" in result  # the score at once
    assert not _review_shown(ana, exam_id)
    with app.extensions["trainer.store"].session() as s:
        s.execute(update(ClassExam).values(closes_at=now() - timedelta(seconds=1)))
        s.commit()
    assert _review_shown(ana, exam_id)


def test_an_assignment_can_show_the_answers_right_after_each_attempt(app, instructor):
    assignment_id, ana = _class_exam(app, instructor, review="after-attempt")
    exam_id = _sit(ana, f"/exams/assigned/{assignment_id}/start", {"candidate_name": "Ana Lee"}, right=False)
    assert _review_shown(ana, exam_id)


def test_a_self_assessment_shows_the_answers_when_it_is_over(app, client):
    sign_up(client, "ana@example.com", name="Ana Lee")
    assert _review_shown(client, _sit(client, "/exams/mini/start", {"candidate_name": "Ana Lee"}, right=False))


def test_an_unknown_review_option_is_refused_next_to_its_field(app, instructor):
    class_id, _code = _class(instructor)
    refused = post_form(instructor, f"/classroom/classes/{class_id}/", {
        "template": "mini", "opens": _local(now()), "closes": _local(now() + timedelta(days=1)), "tz": "UTC",
        "review": "never-ever"}, to=f"/classroom/classes/{class_id}/assign")
    assert refused.status_code == 200 and "Choose when the review shows the answers." in refused.text
    assert _only(app, ClassExam) is None
