"""An employer's trust in "Dealer: full certification": no question of a drawn attempt can be
reached before its submission by any route, and concurrent starts cannot beat the retake policy."""

from __future__ import annotations

import re
import threading
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from sqlalchemy import select

from trainer.store import exams
from trainer.store.models import Account, ExamAttempt, now

from tests.store.helpers import post_form, sign_in, sign_up

SHIPPED = Path(__file__).resolve().parents[2] / "scenarios"
FULL = "dealer-full"

from trainer.library.exams import load_template
from trainer.resources import folder


@pytest.fixture
def app(database, tmp_path):
    from tests.store.conftest import running_app

    yield from running_app(database, tmp_path, SCENARIO_DIRS=[str(SHIPPED)])


def _start(client) -> str:
    response = post_form(client, "/exams/", {"candidate_name": "Ana Lee"}, to=f"/exams/{FULL}/start")
    assert response.status_code == 303, response.text
    return response.headers["Location"].split("/")[2]


def _addresses(ref: str, entry) -> list[str]:
    """Every address a candidate could try for the question behind ``ref`` outside its exam."""
    tried = [ref, entry.id, entry.scenario.id]
    parts = exams.exam_gen_parts(ref)
    if parts is not None:
        topic, level, seed, index, stakes = parts
        tried += [
            f"gen:{topic}:{level}:{seed}:{index}",  # the drill's generator scheme, with the attempt's seed
            f"gen:{topic}:{level}:{seed}:{index}:{stakes}",  # ... and its stakes
            f"gen-{topic}-{level}-{seed}-{index}-{stakes}",  # the generated file's id
        ]
    else:
        tried.append(ref.removeprefix(exams.EXAM_POOL))
    return list(dict.fromkeys(tried))


def _spot(entry) -> tuple:
    scenario = entry.scenario
    return (scenario.game, tuple(sorted(scenario.stacks.items())), tuple((a.position, a.kind, a.amount) for a in scenario.actions))


def test_no_question_of_a_drawn_certification_can_be_reached_before_it_is_submitted(app):
    from trainer.web.core import spot_refs
    from trainer.web.exams.refs import resolve

    candidate, other, anonymous = app.test_client(), app.test_client(), app.test_client()
    sign_up(candidate, "mei@example.com", name="Mei Lin")
    sign_up(other, "bo@example.com", name="Bo Chen")
    exam_id = _start(candidate)
    with app.extensions["trainer.store"].session() as s:
        refs = s.get(ExamAttempt, exam_id).questions
    assert len(refs) == 40
    with app.test_request_context():
        entries = {ref: resolve(ref) for ref in refs}
    assert all(entries.values())
    tried = 0
    for ref, entry in entries.items():
        for address in _addresses(ref, entry):
            for client in (candidate, other, anonymous):
                response = client.get(f"/drill/{quote(address, safe='')}")
                assert response.status_code == 404, (address, response.status_code)
                tried += 1
        parts = exams.exam_gen_parts(ref)
        if parts is not None:  # the seed cut to what a drill address takes is a drill, but another spot
            topic, level, seed, index, _stakes = parts
            near = f"gen:{topic}:{level}:{seed % 2**31}:{index}"
            assert candidate.get(f"/drill/{near}").status_code == 200
            with app.test_request_context():
                served = spot_refs.resolve(near)
            assert _spot(served) != _spot(entry), near
        # nor listed in a topic, nor put into a classroom session
        for topic in entry.topics:
            assert entry.id not in candidate.get(f"/topics/{topic}").text
    instructor = app.test_client()
    sign_up(instructor, "tan@example.com", name="Ms Tan", instructor=True)
    made = post_form(instructor, "/classroom/", {"title": "T", "mode": "paced", "ids": "\n".join(refs)}, to="/classroom/new")
    assert made.status_code == 200
    from trainer.store.models import LiveSession

    with app.extensions["trainer.store"].session() as s:
        assert s.scalar(select(LiveSession)) is None
    # The question routes: someone else's attempt is not found; the candidate's own shows no answer.
    for number in range(1, 41):
        for client in (other, anonymous):
            assert client.get(f"/exams/{exam_id}/q/{number}").status_code == 404
        page = candidate.get(f"/exams/{exam_id}/q/{number}").text
        assert 'class="steps' not in page and "mark--" not in page and "Wrong — correct" not in page
        tried += 3
    for client in (other, anonymous):
        for route in ("result", "submit", "certificate"):
            assert client.get(f"/exams/{exam_id}/{route}").status_code == 404, route
    for route in ("result", "certificate"):  # the candidate's own, before submitting: back to the questions
        response = candidate.get(f"/exams/{exam_id}/{route}")
        assert response.status_code == 302 and response.headers["Location"].endswith("/q/1"), route
    assert tried >= 40 * 3 * 4  # three addresses or more per question, by three people, and its page
    # After the submission the review shows every question, with the engine's answers.
    post_form(candidate, f"/exams/{exam_id}/submit", {})
    result = candidate.get(f"/exams/{exam_id}/result").text
    assert len(re.findall(r'class="review-item', result)) == 40
    assert other.get(f"/exams/{exam_id}/result").status_code == 404


def test_concurrent_starts_of_the_certification_cannot_exceed_its_retake_policy(app):
    template = load_template(folder("exams") / f"{FULL}.yaml")
    allowed = template.retake.attempts
    first = app.test_client()
    sign_up(first, "cy@example.com", name="Cy")
    with app.extensions["trainer.store"].session() as s:
        account = s.scalar(select(Account.id).where(Account.email == "cy@example.com"))
        for n in range(allowed - 1):  # all but one attempt used, each finished
            exam = exams.start(s, template, learner_id=exams.new_id(), account_id=account, name="Cy", refs=["x"],
                               at=now() - timedelta(hours=2 + n))
            exam.finished_at = exam.started_at + timedelta(minutes=1)
        s.commit()
    clients = [first] + [app.test_client() for _ in range(5)]
    for client in clients[1:]:
        assert sign_in(client, "cy@example.com").status_code == 303
    tokens = [re.search(r'name="csrf_token" value="([^"]+)"', c.get("/exams/").text).group(1) for c in clients]
    barrier = threading.Barrier(len(clients))
    responses = [None] * len(clients)

    def start(i: int) -> None:
        barrier.wait()
        responses[i] = clients[i].post(f"/exams/{FULL}/start", data={"csrf_token": tokens[i], "candidate_name": "Ana Lee"})

    threads = [threading.Thread(target=start, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(r is not None and r.status_code in (200, 303) for r in responses), [r and r.status_code for r in responses]
    with app.extensions["trainer.store"].session() as s:
        attempts = s.scalars(select(ExamAttempt).where(ExamAttempt.account_id == account)).all()
    assert len(attempts) == allowed  # exactly one of the racing starts became an attempt
    started = {a.id for a in attempts if a.finished_at is None}
    assert len(started) == 1
    for r in responses:  # the others continue it, or are told another start took the attempt
        if r.status_code == 303:
            assert r.headers["Location"].split("/")[2] in started
        else:
            assert "started at the same moment" in r.text or "The next one opens" in r.text
    # and now the policy is used up: one more start is refused, and says when the next one opens
    refused = post_form(first, "/exams/", {"candidate_name": "Ana Lee"}, to=f"/exams/{FULL}/start")
    assert refused.status_code in (200, 303)
    with app.extensions["trainer.store"].session() as s:
        assert len(s.scalars(select(ExamAttempt).where(ExamAttempt.account_id == account)).all()) == allowed
