"""Exam mode: the draw, the server's clock, no answers before submitting, one submission, verification."""

from __future__ import annotations

import re
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update

from trainer.store import exams
from trainer.store.learners import new_id
from trainer.store.models import ExamAnswer, ExamAttempt, now

SHIPPED = Path(__file__).resolve().parents[2] / "scenarios"

from tests.store.helpers import BTN_RIGHT, BTN_TWO_WRONG, post_form, sign_up, token

# The test library's exam pool holds two copies of the BTN spot (same answers, ids of their own).
POOL_IDS = ("exam-btn-faces-short-all-in-a", "exam-btn-faces-short-all-in-b")
MINI = exams.ExamTemplate(
    slug="mini",
    title="Mini exam",
    description="Two spots.",
    count=2,
    minutes=5,
    pass_mark=50,
    pool={"reopening": 2},
)

from trainer.library.exams import load_templates
from trainer.resources import folder

CATALOGUE, _problems = load_templates(folder("exams"))


@pytest.fixture
def app(database, tmp_path):
    from tests.store.conftest import running_app

    yield from running_app(database, tmp_path, EXAM_TEMPLATES=[MINI])


# ------------------------------------------------------------------ the store


def test_a_random_draw_shares_questions_out_by_weight_and_repeats_from_its_seed():
    template = CATALOGUE[0]
    refs = template.draw(42)
    assert len(refs) == template.count == 20
    assert refs == template.draw(42) and refs != template.draw(43)
    topics = [exams.exam_gen_parts(r)[0] for r in refs]
    assert set(topics) == set(template.weights)  # every weighted topic has its share
    assert topics.count("min-raise") == 3 and topics.count("ante") == 1


def test_each_attempt_draws_from_an_hmac_of_the_secret_and_its_id():
    seed = exams.attempt_seed("secret", "attempt-1")
    assert seed == exams.attempt_seed("secret", "attempt-1")
    assert seed != exams.attempt_seed("secret", "attempt-2")
    assert seed != exams.attempt_seed("another secret", "attempt-1")
    template = CATALOGUE[0]
    one, two = template.draw(seed), template.draw(exams.attempt_seed("secret", "attempt-2"))
    assert not set(one) & set(two)


def test_exam_spots_have_seeds_no_drill_address_accepts():
    from trainer.web.core.spot_refs import MAX_SEED, generated_parts

    for ref in CATALOGUE[0].draw(7):
        topic, level, seed, index, _stakes = exams.exam_gen_parts(ref)
        assert seed > MAX_SEED
        assert generated_parts(f"gen:{topic}:{level}:{seed}:{index}") is None


def test_the_shipped_templates_can_all_be_built(app):
    from trainer.web.exams.refs import pool_ids, resolve
    from trainer.web.exams.sitting import draw

    with app.test_request_context():
        for template in CATALOGUE:
            if template.pool:
                continue  # the test library's pool is not the shipped one (see test_the_shipped_pool_...)
            # as the app draws: a spot that cannot be asked (a dealer's question with four pots) is
            # replaced by the next spot of its seed
            refs = draw(template, f"attempt-{template.slug}")
            assert len(refs) == template.count
            for ref in refs:
                entry = resolve(ref)
                assert entry is not None, ref
                if template.style == "dealer":  # what a dealer says or does: one to three answers
                    assert 1 <= len(entry.quiz.fields()) <= 3, ref
        assert sorted(pool_ids()["reopening"]) == list(POOL_IDS)


def test_the_shipped_pool_serves_the_exams_and_not_the_drill(database, tmp_path):
    from trainer.web.core.libraries import exam_pool, library
    from trainer.web.exams.refs import pool_ids, resolve
    from trainer.web.exams.sitting import draw

    from tests.store.conftest import running_app

    for made in running_app(database, tmp_path, SCENARIO_DIRS=[str(SHIPPED)]):
        with made.test_request_context():
            pool = pool_ids()
            assert len(pool["chips-and-words"]) >= 8
            for template in CATALOGUE:
                for ref in draw(template, "attempt-7"):
                    assert resolve(ref) is not None, ref
            assert not set(exam_pool().entries) & set(library().entries)
            hidden = pool["chips-and-words"][0]
        client = made.test_client()
        assert client.get(f"/drill/{hidden}").status_code == 404
        assert hidden not in client.get("/topics/chips-and-words").text


def test_the_dealer_templates_are_dealt_at_real_stakes(database, tmp_path):
    from trainer.playout import STAKES
    from trainer.web.exams.refs import resolve
    from trainer.web.exams.sitting import draw

    from tests.store.conftest import running_app

    by_slug = {t.slug: t for t in CATALOGUE}
    full = by_slug["dealer-full"]
    assert (full.title, full.count, full.minutes, full.pass_mark) == ("Dealer: full certification", 40, 40, 85)
    dealer = [t for t in CATALOGUE if t.slug.startswith("dealer-")]
    assert len(dealer) >= 3
    covered = {topic for t in dealer for topic in (*t.weights, *t.pool)}
    assert {"min-raise", "side-pots", "showdown", "chips-and-words", "hand-reading"} <= covered
    blinds = {(s.small, s.big) for s in STAKES.values()}
    for made in running_app(database, tmp_path, SCENARIO_DIRS=[str(SHIPPED)]):
        with made.test_request_context():
            seen = set()
            for template in dealer:
                for ref in draw(template, "attempt-2026"):
                    entry = resolve(ref)
                    assert entry is not None, ref
                    game = entry.scenario.game
                    if exams.exam_gen_parts(ref) is not None:
                        assert exams.exam_gen_parts(ref)[4] in STAKES, ref
                        assert tuple(game.blinds) in blinds, ref
                        seen.add(tuple(game.blinds))
                    else:  # the hand-written pool is at real stakes too
                        assert game.blinds[1] >= 200, ref
            assert seen == blinds  # both stakes are dealt


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


def _start(client, slug="mini", name="Ana Lee", email=None):
    """Sign up (once per client) and start ``slug``; the first question's address."""
    if "Change the name" not in client.get("/exams/").text:
        sign_up(client, email or f"{name.split()[0].lower()}@example.com", name=name)
    response = post_form(client, "/exams/", {"candidate_name": name}, to=f"/exams/{slug}/start")
    assert response.status_code == 303, response.text
    return response.headers["Location"]


def test_an_exam_question_has_no_what_is_this_the_drill_has_one(client):
    """The drill explains each field ("What is this?"); an exam tests what that would tell."""
    page = client.get(_start(client)).text
    assert 'name="current_total"' in page and 'class="what-is"' not in page
    assert 'class="what-is"' in client.get("/drill/btn-faces-short-all-in").text


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
    # typed on a phone's Chinese keyboard: full-width letters, digits and dash
    wide = "".join(chr(ord(c) + 0xFEE0) for c in code)
    assert "Ana Lee" in app.test_client().get(f"/verify/{wide}").text
    typed = app.test_client().get("/verify/", query_string={"code": wide.replace("－", "ー")}, follow_redirects=True)
    assert typed.status_code == 200 and "Ana Lee" in typed.text


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
    assert response.status_code == 200 and "Not saved: 1 answer needs fixing." in response.text
    with app.extensions["trainer.store"].session() as s:
        assert s.scalar(select(ExamAnswer)) is None


def test_someone_elses_exam_is_not_found(app, client):
    first = _start(client)
    exam_id = first.split("/")[2]
    other = app.test_client()
    assert other.get(first).status_code == 404
    assert other.get(f"/exams/{exam_id}/result").status_code == 404
    sign_up(other, "bo@example.com", name="Bo")
    page = other.get("/exams/")
    assert other.post(f"/exams/{exam_id}/submit", data={"csrf_token": token(page.text)}).status_code == 404


def test_an_exam_needs_an_account(app, client):
    page = client.get("/exams/")
    assert "Exams need an account" in page.text and "Start the exam" not in page.text
    # a forged start form, with a valid token from the sign-in page
    response = client.post("/exams/mini/start", data={"csrf_token": token(client.get("/account/login").text), "candidate_name": "Ana Lee"})
    assert response.status_code == 303 and "/account/login" in response.headers["Location"]
    with app.extensions["trainer.store"].session() as s:
        assert s.scalar(select(ExamAttempt)) is None


@pytest.mark.parametrize(("lang", "title", "words"), [("zh-Hant", "下注規則", "主池與邊池"), ("zh-Hans", "下注规则", "主池与边池")])
def test_the_exam_list_is_in_the_learners_language(client, lang, title, words):
    page = client.get(f"/exams/?lang={lang}").text
    assert title in page and words in page
    assert "Betting rules" not in page


# ------------------------------------------------------------------ trust: the draw, the account, retakes, /verify


def test_two_candidates_sitting_the_same_exam_get_different_spots(app):
    one, two = app.test_client(), app.test_client()
    _start(one, "betting-rules", name="Ana Lee")
    _start(two, "betting-rules", name="Bo Chen")
    with app.extensions["trainer.store"].session() as s:
        first, second = s.scalars(select(ExamAttempt.questions)).all()
    assert len(first) == len(second) == 20
    assert not set(first) & set(second)


def test_no_exam_question_is_reachable_before_its_attempt_is_submitted(app, client):
    from urllib.parse import quote

    first = _start(client, "mini")
    exam_id = first.split("/")[2]
    _start(client, "betting-rules")
    with app.extensions["trainer.store"].session() as s:
        refs = [r for qs in s.scalars(select(ExamAttempt.questions)) for r in qs]
    pool_refs = [r for r in refs if r.startswith(exams.EXAM_POOL)]
    assert sorted(pool_refs) == sorted(exams.exam_pool_ref(i) for i in POOL_IDS)
    outsider = app.test_client()
    for ref in refs:
        tried = [ref]
        parts = exams.exam_gen_parts(ref)
        if parts is not None:
            tried.append("gen:{}:{}:{}:{}".format(*parts))
        else:
            tried.append(ref.removeprefix(exams.EXAM_POOL))
        for address in tried:
            assert client.get(f"/drill/{quote(address)}").status_code == 404, address
            assert outsider.get(f"/drill/{quote(address)}").status_code == 404, address
    for topic in ("reopening", "short-all-in"):
        listed = client.get(f"/topics/{topic}").text
        assert not any(i in listed for i in POOL_IDS)
    # Nor as a classroom question: an instructor cannot put an exam spot into a session.
    from trainer.store.models import LiveSession

    instructor = app.test_client()
    sign_up(instructor, "tan@example.com", name="Ms Tan", instructor=True)
    for ref in refs[:3] + list(POOL_IDS):
        made = post_form(instructor, "/classroom/", {"title": "T", "mode": "paced", "ids": ref}, to="/classroom/new")
        assert made.status_code == 200, ref
    with app.extensions["trainer.store"].session() as s:
        assert s.scalar(select(LiveSession)) is None
    # After the submission the review shows them.
    post_form(client, f"/exams/{exam_id}/submit", {})
    result = client.get(f"/exams/{exam_id}/result").text
    assert "2,400" in result and "BTN faces a short all-in" in result


def test_the_name_on_the_result_is_the_one_typed_for_the_exam_and_a_later_account_rename_leaves_it(app, client):
    first = _start(client, "mini", name="Ana Lee")
    exam_id = first.split("/")[2]
    post_form(client, f"/exams/{exam_id}/submit", {})
    result = client.get(f"/exams/{exam_id}/result").text
    code = re.search(r'class="verify-code">([A-Z2-9]{5}-[A-Z2-9]{5})<', result).group(1)
    assert "Ana Lee" in app.test_client().get(f"/verify/{code}").text
    renamed = post_form(client, "/exams/", {"name": "Anna Leigh"}, to="/exams/name")
    assert renamed.status_code == 303
    public = app.test_client().get(f"/verify/{code}").text
    assert "Ana Lee" in public and "Anna Leigh" not in public
    assert "As the candidate gave it when the exam started." in public
    refused = post_form(client, "/exams/", {"name": "   "}, to="/exams/name")
    assert refused.status_code == 200 and "Enter your name" in refused.text
    assert post_form(client, "/exams/", {"name": "\u200b\u2066"}, to="/exams/name").status_code == 200  # nothing left


def test_verify_shows_the_facts_an_employer_needs_in_the_viewers_language(app, client):
    first = _start(client, "mini", name="Ana Lee")
    exam_id = first.split("/")[2]
    post_form(client, first, {"go": "stay", **BTN_RIGHT})
    post_form(client, f"/exams/{exam_id}/submit", {})
    result = client.get(f"/exams/{exam_id}/result").text
    code = re.search(r'class="verify-code">([A-Z2-9]{5}-[A-Z2-9]{5})<', result).group(1)
    page = app.test_client().get(f"/verify/{code}").text
    assert "1 of 2 questions all right (50%)" in page
    assert "Pass mark" in page and "50%" in page and "Passed" in page
    assert "attempt 1 at this exam by this account" in page
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" data-local="datetime">[^<]+UTC\+00:00</time>', page)
    zh = app.test_client().get(f"/verify/{code}", headers={"Accept-Language": "zh-TW"}).text
    assert "及格標準" in zh and "Pass mark" not in zh


def test_the_retake_policy_is_shown_and_enforced(app, client):
    page = client.get("/exams/")
    assert "up to 3 attempts in any 24 hours" in page.text
    assert "Starting uses one of them, and the clock starts at once." in page.text
    for _n in range(3):
        exam_id = _start(client, "mini").split("/")[2]
        post_form(client, f"/exams/{exam_id}/submit", {})
        if _n == 0:
            assert "You have used 1 of them. Starting uses one" in client.get("/exams/").text
    listed = client.get("/exams/").text
    assert "You have used 3 of them" in listed and "The next attempt opens" in listed
    refused = client.post("/exams/mini/start", data={"csrf_token": token(listed), "candidate_name": "Ana Lee"})
    assert refused.status_code == 200 and "The next one opens" in refused.text
    page = client.get("/exams/mini/start").text  # the page before the start says so instead of asking
    assert "The next one opens" in page and 'name="candidate_name"' not in page
    with app.extensions["trainer.store"].session() as s:
        assert len(s.scalars(select(ExamAttempt)).all()) == 3
        s.execute(update(ExamAttempt).values(started_at=now() - timedelta(hours=25)))
        s.commit()
    exam_id = _start(client, "mini").split("/")[2]
    with app.extensions["trainer.store"].session() as s:
        assert s.get(ExamAttempt, exam_id).attempt_number == 4


def test_a_start_while_an_attempt_is_open_continues_it(app, client):
    assert "Continue the exam" not in client.get("/exams/").text
    first = _start(client, "mini")
    page = client.get("/exams/").text
    mini = page.split('id="t-mini"', 1)[1].split("</section>", 1)[0]
    assert "Continue the exam" in mini and "Start the exam" not in mini  # the button resumes it
    assert _start(client, "mini") == first


def test_concurrent_starts_cannot_exceed_the_retake_policy(store):
    from trainer.store.learners import sign_up as make_account

    with store.session() as s:
        user, learner = make_account(s, email="c@example.com", password="password1", name="Cy", instructor=False,
                                     learner_id=None)
        s.commit()
        account, learner_id = user.id, learner.id
    one_policy = exams.ExamTemplate(slug="once", title="Once", description="", count=1, minutes=5, pass_mark=50,
                                    pool={"x": 1}, retake=exams.RetakePolicy(attempts=1, hours=24))
    outcome = {}
    with store.session() as first, store.session() as second:
        exams.start(first, one_policy, learner_id=learner_id, account_id=account, name="Cy", refs=["x"])

        def racing():
            try:
                exams.start(second, one_policy, learner_id=learner_id, account_id=account, name="Cy", refs=["x"])
                second.commit()
                outcome["second"] = "started"
            except exams.RetakeRefused:
                second.rollback()
                outcome["second"] = "refused"

        thread = threading.Thread(target=racing)
        thread.start()
        thread.join(0.5)  # the second start has read the policy and waits on the first one's row
        first.commit()
        thread.join(10)
    assert outcome == {"second": "refused"}
    with store.session() as s:
        assert len(s.scalars(select(ExamAttempt)).all()) == 1


def test_a_passed_exam_has_a_printable_certificate_whose_address_verifies_it(app, client):
    first = _start(client, "mini", name="Ana Lee")
    exam_id = first.split("/")[2]
    post_form(client, first, {"go": "stay", **BTN_RIGHT})
    post_form(client, f"/exams/{exam_id}/submit", {})
    assert "Printable certificate" in client.get(f"/exams/{exam_id}/result").text
    page = client.get(f"/exams/{exam_id}/certificate?paper=letter")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert "Ana Lee" in page.text and "Mini exam" in page.text and "Pass mark" in page.text
    assert '<body class="paper-letter">' in page.text and "<svg" in page.text
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page.text).group(1)  # else the browser asks for /favicon.ico
    assert client.get(icon).status_code == 200
    address = re.search(r'<strong class="url">(http[^<]+/verify/[A-Z2-9-]+)</strong>', page.text).group(1)
    assert f'aria-label="QR code of {address}"' in page.text
    # the result page links the same address, its code written as shown (it linked the bare code)
    result = client.get(f"/exams/{exam_id}/result").text
    code = re.search(r'<strong class="verify-code">([^<]+)</strong>', result).group(1)
    assert address.endswith("/verify/" + code) and f'<a href="{address}">{address}</a>' in result
    employer = app.test_client().get(address.split("localhost", 1)[1])
    assert employer.status_code == 200 and "Ana Lee" in employer.text and "Passed" in employer.text
    css = client.get("/static/certificate.css").text
    assert "size: A4" in css and "size: letter" in css
    assert app.test_client().get(f"/exams/{exam_id}/certificate").status_code == 404



@pytest.mark.parametrize(
    ("public_url", "host"),
    [(None, "localhost"), ("http://127.0.0.1:8000", "127.0.0.1:8000"), ("http://[::1]:8000/", "[::1]:8000"),
     ("https://trainer.example", None), ("http://192.168.1.20:8000", None)],
)
def test_the_certificate_warns_when_its_verification_link_points_at_a_loopback_address(app, client, public_url, host):
    first = _start(client, "mini", name="Ana Lee")
    exam_id = first.split("/")[2]
    post_form(client, first, {"go": "stay", **BTN_RIGHT})
    post_form(client, f"/exams/{exam_id}/submit", {})
    app.config["PUBLIC_URL"] = public_url  # unset, the test client's page is opened at http://localhost/
    page = client.get(f"/exams/{exam_id}/certificate").text
    warning = re.search(r'<p class="no-print warning" role="note">(.*?)</p>', page, re.S)
    if host is None:
        assert warning is None and "TRAINER_PUBLIC_URL" not in page
        return
    # on the screen only (certificate.css hides .no-print on paper): the printed copy stays a certificate
    assert f"Its verification link points at {host}, which only the computer that opens it can reach" in warning.group(1)
    assert "set TRAINER_PUBLIC_URL" in warning.group(1)
    assert re.search(rf'<strong class="url">https?://{re.escape(host)}/verify/', page)
    for lang, said in (("zh-Hant", "先別列印"), ("zh-Hans", "先别打印")):
        assert said in client.get(f"/exams/{exam_id}/certificate?lang={lang}").text
    client.get("/?lang=en")

def test_a_failed_exam_has_no_certificate(client):
    first = _start(client, "mini")
    exam_id = first.split("/")[2]
    post_form(client, f"/exams/{exam_id}/submit", {})
    assert "Printable certificate" not in client.get(f"/exams/{exam_id}/result").text
    response = client.get(f"/exams/{exam_id}/certificate")
    assert response.status_code == 302 and response.headers["Location"].endswith("/result")


POOLED = exams.ExamTemplate(slug="pooled", title="Pooled", description="Four rulings.", count=4, minutes=5,
                            pass_mark=50, pool={"chips-and-words": 4})


def test_an_exam_whose_pool_is_missing_says_so_instead_of_failing(database, tmp_path):
    from tests.store.conftest import running_app

    # The test library has no chips-and-words exam pool (no shipped template draws from a pool now).
    for made in running_app(database, tmp_path, EXAM_TEMPLATES=[MINI, POOLED]):
        client = made.test_client()
        _start(client, "mini")
        page = client.get("/exams/")
        assert "its pool of exam questions is missing" in page.text
        response = client.post("/exams/pooled/start", data={"csrf_token": token(page.text), "candidate_name": "Ana Lee"})
        assert response.status_code == 200 and "its pool of exam questions is missing" in response.text


def test_verify_says_when_a_name_was_typed_in_before_exams_needed_an_account(app, s):
    exam = exams.start(s, MINI, learner_id=new_id(), name="Any Name", refs=["x", "y"])
    exams.close(s, exam, _graded, by="submit")
    s.commit()
    page = app.test_client().get(f"/verify/{exam.verify_code}").text
    assert "Any Name" in page and "the name was typed in by the candidate" in page


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_the_chinese_pages_of_an_exam_and_a_drill_use_full_width_punctuation(client, lang):
    """No "第 1 題: …", "底池： 1,400", "0:38 （限時…" or "行動？：請選…" on a page a learner reads."""
    from tests.test_vocabulary import punctuation_slips

    first = _start(client, "mini", name="Ana Lee")
    exam_id = first.split("/")[2]
    client.get(f"/?lang={lang}")
    post_form(client, first, {"go": "stay", **BTN_RIGHT})
    unread = post_form(client, f"/exams/{exam_id}/q/2", {"go": "stay", **{**BTN_RIGHT, "pot": "x"}}).text
    post_form(client, f"/exams/{exam_id}/submit", {})
    drill_errors = post_form(client, "/drill/btn-faces-short-all-in", {k: v for k, v in BTN_RIGHT.items() if k != "acted"}).text
    assert "是否已經行動？" in drill_errors or "是否已经行动？" in drill_errors
    pages = {
        "home": client.get("/").text,
        "drill errors": drill_errors,
        "drill wrong": post_form(client, "/drill/btn-faces-short-all-in", BTN_TWO_WRONG).text,
        "exam question": unread,
        "exam list": client.get("/exams/").text,
        "result": client.get(f"/exams/{exam_id}/result").text,
        "certificate": client.get(f"/exams/{exam_id}/certificate").text,
        "rules": client.get("/rules").text,
    }
    slips = {name: punctuation_slips(html) for name, html in pages.items()}
    assert {name: lines for name, lines in slips.items() if lines} == {}


MOMENT = re.compile(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" data-local="(datetime|time)">[^<]+</time>')
# A form's hidden values are random (a CSRF token once held "...jWUTCPP..."): not text a reader sees.
HIDDEN_VALUE = re.compile(r'<input type="hidden" name="[^"]+" value="[^"]*">')


def _moments(html: str) -> list[str]:
    """The kinds of stored moment a page shows for the reader's zone, after checking that no other
    "UTC" is written on it (a time the browser cannot rewrite in the reader's zone)."""
    shown = HIDDEN_VALUE.sub("", MOMENT.sub("", html))
    assert "UTC" not in shown, [line for line in shown.splitlines() if "UTC" in line]
    found = MOMENT.findall(html)
    assert not found or "local-time" in html  # the script that rewrites them is on the page
    return found


def test_every_stored_moment_is_written_for_the_readers_zone(app, client):
    first = _start(client)
    exam_id = first.split("/")[2]
    assert _moments(client.get(first).text) == ["time"]  # the exam's deadline, beside the countdown
    post_form(client, f"/exams/{exam_id}/submit", {})
    assert _moments(client.get(f"/exams/{exam_id}/result").text) == ["datetime"]
    assert _moments(client.get(f"/exams/{exam_id}/certificate").text) in (["datetime"], [])
    assert _moments(client.get("/exams/").text) == ["datetime"]  # the attempts table
    speed = post_form(client, "/speed", {}, to="/speed/start").headers["Location"]
    with app.extensions["trainer.store"].session() as s:
        from trainer.store.models import SpeedRun

        s.get(SpeedRun, speed.rsplit("/", 1)[-1]).deadline = now() - timedelta(seconds=1)
        s.commit()
    assert _moments(client.get(speed + "/result").text) == ["datetime"]
    assert _moments(client.get("/speed").text) == ["datetime"]


def test_going_to_another_question_keeps_what_was_typed(app, client):
    """The question numbers and "Finish the exam…" submit the answer form: a typed answer is saved
    on the way (it was lost when they were links), a blank one leaves the question as it was."""
    first = _start(client)
    exam_id = first.split("/")[2]
    page = client.get(first).text
    assert 'form="exam-answer" name="go" value="q2"' in page and 'value="finish"' in page
    went = post_form(client, first, {"go": "q2", **BTN_TWO_WRONG})
    assert went.status_code == 303 and went.headers["Location"].endswith(f"/exams/{exam_id}/q/2")
    assert 'value="1800"' in client.get(first).text  # saved on the way
    blank = post_form(client, f"/exams/{exam_id}/q/2", {"go": "q1"})
    assert blank.status_code == 303 and blank.headers["Location"].endswith(f"/exams/{exam_id}/q/1")
    finish = post_form(client, f"/exams/{exam_id}/q/2", {"go": "finish"})
    assert finish.headers["Location"].endswith(f"/exams/{exam_id}/submit")
    with app.extensions["trainer.store"].session() as s:
        assert len(s.scalars(select(ExamAnswer).where(ExamAnswer.exam_id == exam_id)).all()) == 1
    half = post_form(client, first, {"go": "q2", **{**BTN_RIGHT, "pot": "x"}})
    assert half.status_code == 200 and "Not saved" in half.text  # unreadable: shown, not thrown away
    assert post_form(client, first, {"go": "q99", **BTN_RIGHT}).headers["Location"].endswith("/q/1")  # stays
