"""Exam mode: the draw, the server's clock, no answers before submitting, one submission, verification."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from trainer.store import exams
from trainer.store.learners import new_id
from trainer.store.models import ExamAnswer, ExamAttempt, now

from .helpers import BTN, BTN_RIGHT, BTN_TWO_WRONG, post_form, token

MINI = exams.ExamTemplate(
    slug="mini",
    title="Mini exam",
    description="Two spots.",
    count=2,
    minutes=5,
    pass_mark=50,
    fixed=(BTN, "seed001-min-raise"),
)


@pytest.fixture
def app(database, tmp_path):
    from .conftest import running_app

    yield from running_app(database, tmp_path, EXAM_TEMPLATES=[MINI])


# ------------------------------------------------------------------ the store


def test_a_random_draw_shares_questions_out_by_weight_and_repeats_from_its_seed():
    template = exams.TEMPLATES[0]
    refs = template.draw(42)
    assert len(refs) == template.count == 20
    assert refs == template.draw(42) and refs != template.draw(43)
    topics = [r.split(":")[1] for r in refs]
    assert set(topics) == set(template.weights)  # every weighted topic has its share
    assert topics.count("min-raise") == 3 and topics.count("ante") == 1


def test_the_shipped_templates_can_all_be_built(app):
    from trainer.web.spot_refs import resolve

    with app.test_request_context():
        for template in exams.TEMPLATES:
            for ref in template.draw(7):
                assert resolve(ref) is not None, ref


def _graded(ref, typed):
    return exams.Graded(marks={"a": bool(typed and typed.get("a") == ["1"]), "b": bool(typed)})


def test_an_exam_is_closed_once_and_late_answers_are_refused(s):
    exam = exams.start(s, MINI, learner_id=new_id(), name="Ana", refs=["x", "y"], at=now() - timedelta(minutes=1))
    exams.save_answer(s, exam, 0, {"a": ["1"]})
    exams.save_answer(s, exam, 0, {"a": ["1"], "b": ["2"]})  # changed before submitting
    s.commit()
    assert exams.close(s, exam, _graded, by="submit")
    assert not exams.close(s, exam, _graded, by="submit")
    s.commit()
    assert (exam.score, exam.passed, exam.closed_by) == (1, True, "submit")
    assert re.fullmatch(r"[A-Z2-9]{10}", exam.verify_code)
    with pytest.raises(exams.ExamClosed):
        exams.save_answer(s, exam, 1, {"a": ["1"]})
    assert s.scalar(select(ExamAnswer.answers).where(ExamAnswer.position == 0)) == {"a": ["1"], "b": ["2"]}


def test_an_exam_left_open_is_closed_at_its_deadline_with_what_was_answered(s):
    started = now() - timedelta(minutes=10)
    exam = exams.start(s, MINI, learner_id=new_id(), name="Bo", refs=["x", "y"], at=started)
    exams.save_answer(s, exam, 1, {"a": ["1"]}, at=started + timedelta(minutes=1))
    with pytest.raises(exams.ExamClosed):
        exams.save_answer(s, exam, 0, {"a": ["1"]}, at=started + timedelta(minutes=5))
    s.commit()
    assert exams.close_expired(s, _graded) == 1
    s.commit()
    s.refresh(exam)
    assert exam.closed_by == "deadline" and exam.finished_at == exam.deadline
    assert exam.score == 1 and exam.passed  # 1 of 2 = 50%
    assert exams.close_expired(s, _graded) == 0


def test_verification_finds_only_closed_exams_by_their_code(s):
    exam = exams.start(s, MINI, learner_id=new_id(), name="Cy", refs=["x", "y"])
    s.commit()
    assert exams.verified(s, "ABCDEFGHJK") is None
    exams.close(s, exam, _graded, by="submit")
    s.commit()
    code = exam.verify_code
    assert exams.verified(s, f"{code[:5].lower()}-{code[5:]}").id == exam.id


# ------------------------------------------------------------------ the web


def _start(client, slug="mini", name="Ana Lee"):
    response = post_form(client, "/exams/", {"name": name}, to=f"/exams/{slug}/start")
    assert response.status_code == 303, response.text
    return response.headers["Location"]


def test_an_exam_from_start_to_a_verified_result(app, client):
    first = _start(client)
    page = client.get(first)
    assert page.status_code == 200 and "question 1 of 2" in page.text
    assert page.headers["Cache-Control"] == "no-store"
    exam_id = first.split("/")[2]

    saved = client.post(first, data={"csrf_token": token(page.text), "go": "next", **BTN_TWO_WRONG})
    assert saved.status_code == 303 and saved.headers["Location"].endswith(f"/exams/{exam_id}/q/2")
    again = client.get(first).text
    # No mark, no correct value anywhere before submitting; what was typed comes back.
    assert "Wrong" not in again and "correct" not in again.lower() and "2,400" not in again
    assert 'value="1800"' in again

    confirm = client.get(f"/exams/{exam_id}/submit")
    assert "Not answered yet" in confirm.text
    result_url = client.post(f"/exams/{exam_id}/submit", data={"csrf_token": token(confirm.text)}).headers["Location"]
    result = client.get(result_url).text
    assert "Not passed" in result and "0 of 2 questions all right (0%)" in result
    assert "2,400" in result and "R-REOPEN" in result  # the review: correct values and the derivation
    code = re.search(r'class="verify-code">([A-Z2-9]{5}-[A-Z2-9]{5})<', result).group(1)

    # A second submission changes nothing.
    assert client.post(f"/exams/{exam_id}/submit", data={"csrf_token": token(confirm.text)}).status_code == 303
    with app.extensions["trainer.store"].session() as s:
        assert s.scalar(select(ExamAttempt.verify_code)) == code.replace("-", "")

    public = app.test_client().get(f"/verify/{code}")
    assert public.status_code == 200
    assert "Ana Lee" in public.text and "Mini exam" in public.text and "0%" in public.text
    assert "1800" not in public.text and "R-REOPEN" not in public.text  # nothing else
    assert app.test_client().get("/verify/ABCDE-FGHJK").status_code == 404


def test_a_right_answer_passes_and_the_result_says_so(client):
    first = _start(client)
    post_form(client, first, {"go": "stay", **BTN_RIGHT})
    exam_id = first.split("/")[2]
    post_form(client, f"/exams/{exam_id}/submit", {})
    result = client.get(f"/exams/{exam_id}/result").text
    assert "Passed" in result and "1 of 2 questions all right (50%)" in result


def test_the_result_is_not_reachable_before_submitting(client):
    first = _start(client)
    exam_id = first.split("/")[2]
    response = client.get(f"/exams/{exam_id}/result")
    assert response.status_code == 302 and response.headers["Location"].endswith("/q/1")


def test_after_the_deadline_nothing_is_saved_and_the_exam_is_graded(app, client):
    first = _start(client)
    exam_id = first.split("/")[2]
    post_form(client, first, {"go": "stay", **BTN_RIGHT})
    page = client.get(first)
    with app.extensions["trainer.store"].session() as s:
        s.execute(update(ExamAttempt).values(deadline=now() - timedelta(seconds=1)))
        s.commit()
    late = client.post(
        f"/exams/{exam_id}/q/2", data={"csrf_token": token(page.text), "go": "next", "current_total": "1"}
    )
    assert late.status_code == 303 and "/result" in late.headers["Location"]
    result = client.get(late.headers["Location"]).text
    assert "Time ran out" in result and "1 of 2 questions all right" in result


def test_unreadable_input_is_pointed_out_and_not_saved(app, client):
    first = _start(client)
    response = post_form(client, first, {"go": "next", **BTN_RIGHT, "to_add": "abc"})
    assert response.status_code == 200 and "Not saved" in response.text
    with app.extensions["trainer.store"].session() as s:
        assert s.scalar(select(ExamAnswer)) is None


def test_someone_elses_exam_is_not_found(app, client):
    first = _start(client)
    exam_id = first.split("/")[2]
    other = app.test_client()
    assert other.get(first).status_code == 404
    assert other.get(f"/exams/{exam_id}/result").status_code == 404
    page = other.get("/exams/")
    assert other.post(f"/exams/{exam_id}/submit", data={"csrf_token": token(page.text)}).status_code == 404


def test_a_name_is_required(client):
    response = post_form(client, "/exams/", {"name": "  "}, to="/exams/mini/start")
    assert response.status_code == 200 and "Enter your name" in response.text


@pytest.mark.parametrize(("lang", "title", "words"), [("zh-Hant", "下注規則", "主池與邊池"), ("zh-Hans", "下注规则", "主池与边池")])
def test_the_exam_list_is_in_the_learners_language(client, lang, title, words):
    page = client.get(f"/exams/?lang={lang}").text
    assert title in page and words in page
    assert "Betting rules" not in page
