"""Self-study in the web app: every graded drill answer is kept, and the progress page reads them."""

from __future__ import annotations

from sqlalchemy import select

from trainer.store.models import Attempt, Learner

from tests.store.helpers import BTN, BTN_RIGHT, BTN_TWO_WRONG, HTMX, answer_drill, post_form, sign_in, sign_up, token


def _attempts(app):
    """The attempts in the database, once the writer has stored those handed to it."""
    store = app.extensions["trainer.store"]
    assert store.attempts.flush()
    with store.session() as s:
        return list(s.scalars(select(Attempt).order_by(Attempt.id)))


def test_a_graded_drill_answer_is_stored_with_every_field_and_the_time_taken(app, client):
    response = answer_drill(client, BTN, BTN_TWO_WRONG)
    assert response.status_code == 200 and "8 of 10 right" in response.text
    [attempt] = _attempts(app)
    assert attempt.scenario_id == BTN
    assert attempt.answers["legal"] == ["fold", "call", "raise"] and attempt.answers["min_to"] == ["1800"]
    assert attempt.marks["min_to"] is False and attempt.marks["to_add"] is True
    assert (attempt.right, attempt.total) == (8, 10)
    assert set(attempt.topics) == {"short-all-in", "reopening"}
    assert "R-REOPEN" in attempt.rules
    assert attempt.duration_ms is not None and 0 <= attempt.duration_ms < 60_000


def test_the_time_taken_counts_from_when_the_form_was_opened_and_survives_a_correction(app, client):
    import time

    page = client.get(f"/drill/{BTN}").text
    assert "Set-Cookie" not in client.get(f"/drill/{BTN}").headers  # opening a drill writes no cookie
    base = {"csrf_token": token(page), **BTN_TWO_WRONG}
    opened = int(time.time() * 1000) - 90_000  # opened a minute and a half ago
    first = client.post(f"/drill/{BTN}", data={**base, "opened": str(opened)}, headers=HTMX)
    assert f'name="opened" value="{opened}"' in first.text  # the corrected answer still counts from then
    for sent in ("abc", "-5", str(opened - 2 * 3600_000), str(opened + 3600_000), ""):  # unbelievable: no time
        client.post(f"/drill/{BTN}", data={**base, "opened": sent}, headers=HTMX)
    durations = [a.duration_ms for a in _attempts(app)]
    assert 90_000 <= durations[0] < 100_000
    assert durations[1:] == [None] * 5


def test_answers_that_cannot_be_read_are_not_stored(app, client):
    response = answer_drill(client, BTN, {**BTN_RIGHT, "to_add": "abc"})
    assert "Nothing was graded" in response.text or "fixing" in response.text
    assert _attempts(app) == []


def test_the_htmx_path_and_repeated_answers_are_each_stored(app, client):
    answer_drill(client, BTN, BTN_RIGHT)
    post_form(client, f"/drill/{BTN}", BTN_RIGHT, headers=HTMX)  # the same answer again: kept markup, still stored
    assert [a.right for a in _attempts(app)] == [10, 10]


def test_the_progress_page_shows_weak_topics_misses_and_the_chart(app, client):
    assert "Nothing yet" in client.get("/progress/").text
    answer_drill(client, BTN, BTN_TWO_WRONG)
    answer_drill(client, "seed001-min-raise", {})  # blank: input errors, not stored
    page = client.get("/progress/")
    assert page.status_code == 200
    text = page.text
    assert "Reopening" in text and "80%" in text
    assert "R-REOPEN" in text
    assert "Replay my misses" in text and f"/drill/{BTN}" in text
    assert '<svg class="chart chart--wide"' in text and "1 day in a row" in text
    assert client.get("/progress/replay").headers["Location"].endswith(f"/drill/{BTN}")

    answer_drill(client, BTN, BTN_RIGHT)
    assert "Replay my misses" not in client.get("/progress/?days=7").text


def test_the_window_switch_returns_only_the_tables_to_htmx(client):
    answer_drill(client, BTN, BTN_RIGHT)
    fragment = client.get("/progress/?days=90", headers=HTMX)
    assert fragment.text.lstrip().startswith('<div id="progress-tables">')
    assert "Vary" in fragment.headers and "HX-Request" in fragment.headers["Vary"]


def test_spaced_repetition_is_on_for_a_new_learner_and_a_miss_comes_back_within_minutes(client):
    answer_drill(client, BTN, BTN_TWO_WRONG)
    page = client.get("/progress/").text
    assert "Turn spaced repetition off" in page
    assert "Review: nothing due now." in page  # missed seconds ago: its first learning step is a minute
    post_form(client, "/progress/", {"enabled": "no"}, to="/progress/spaced-repetition")
    page = client.get("/progress/").text
    assert "Review:" not in page and "Turn spaced repetition on" in page
    post_form(client, "/progress/", {"enabled": "yes"}, to="/progress/spaced-repetition")
    assert client.get("/progress/review").headers["Location"].endswith("/?reviewed=1")


def test_learners_see_only_their_own_progress(app, client):
    answer_drill(client, BTN, BTN_TWO_WRONG)
    stranger = app.test_client()
    assert "Nothing yet" in stranger.get("/progress/").text
    assert stranger.get("/progress/replay").headers["Location"].endswith("/progress/")


def test_signing_up_keeps_the_history_and_signing_in_elsewhere_merges(app, client):
    answer_drill(client, BTN, BTN_TWO_WRONG)
    sign_up(client, "ana@example.com", name="Ana")
    assert "Reopening" in client.get("/progress/").text

    laptop = app.test_client()
    answer_drill(laptop, "seed001-min-raise", {"current_total": "0"})  # input errors: nothing
    answer_drill(laptop, BTN, BTN_RIGHT)
    response = sign_in(laptop, "ana@example.com")
    assert response.status_code == 303
    attempts = _attempts(app)
    assert len(attempts) == 2 and len({a.learner_id for a in attempts}) == 1
    with app.extensions["trainer.store"].session() as s:
        assert s.scalar(select(Learner.account_id).where(Learner.id == attempts[0].learner_id)) is not None

    # Signed out, the browser starts afresh.
    post_form(laptop, "/account/", {}, to="/account/logout")
    assert "Nothing yet" in laptop.get("/progress/").text


def test_a_wrong_password_rerenders_the_form_with_status_200(client):
    sign_up(client, "bo@example.com")
    post_form(client, "/account/", {}, to="/account/logout")
    response = sign_in(client, "bo@example.com", "wrong-password")
    assert response.status_code == 200
    assert "do not match" in response.text


def test_every_drill_form_makes_its_own_answer_id_and_the_attempt_keeps_it(app, client):
    from tests.store.helpers import ANSWER_ID

    page = client.get(f"/drill/{BTN}").text
    again = client.get(f"/drill/{BTN}").text  # the same kept page, another form
    first, second = ANSWER_ID.search(page).group(1), ANSWER_ID.search(again).group(1)
    assert first != second
    graded = client.post(f"/drill/{BTN}", data={"csrf_token": token(page), "answer_id": first, **BTN_RIGHT}, headers=HTMX)
    assert graded.status_code == 200 and "All 10 right" in graded.text
    assert "Not saved yet" not in graded.text and "Saved to your progress" not in graded.text  # nothing to report
    corrected = ANSWER_ID.search(graded.text).group(1)  # the graded form, sent again, is a new answer
    assert corrected not in (first, second)
    client.post(f"/drill/{BTN}", data={"csrf_token": token(page), "answer_id": corrected, **BTN_TWO_WRONG}, headers=HTMX)
    client.post(f"/drill/{BTN}", data={"csrf_token": token(page), "answer_id": "not-an-id", **BTN_RIGHT})
    stored = _attempts(app)
    assert [a.answer_id for a in stored[:2]] == [first, corrected]
    assert len(stored) == 3 and len(stored[2].answer_id) == 32  # an unusable id: the server makes one


def test_an_answer_posted_twice_under_one_id_is_stored_once(app, client):
    from tests.store.helpers import ANSWER_ID

    page = client.get(f"/drill/{BTN}").text
    data = {"csrf_token": token(page), "answer_id": ANSWER_ID.search(page).group(1), **BTN_RIGHT}
    for _ in range(3):  # a double click, a resend after a lost response
        assert "All 10 right" in client.post(f"/drill/{BTN}", data=data).text
    assert len(_attempts(app)) == 1


def test_the_rule_table_counts_spots_not_answers_as_the_topic_table_does(client):
    import re

    answer_drill(client, BTN, BTN_TWO_WRONG)
    for _ in range(4):  # the same spot checked again and again stays one spot
        answer_drill(client, BTN, BTN_RIGHT)
    text = client.get("/progress/").text
    row = re.search(r'#R-REOPEN">[^<]+</a> <span class="rule-id meta">R-REOPEN</span></th>(.*?)</tr>', text).group(1)
    assert re.findall(r'<td class="num">([^<]*)</td>', row) == ["96%", "48 / 50", "1"]
    assert re.search(r'<td class="num">0 / 1</td>', text)  # the topic table: one spot, missed
    assert "Spots answered" not in text


def test_sign_up_says_every_field_that_is_wrong_at_once_and_keeps_what_was_typed(client):
    response = post_form(client, "/account/signup", {"name": " ", "email": "ana.example.com", "password": "abcde"})
    assert response.status_code == 200
    text = response.text
    assert "Enter your name (up to 80 characters)." in text
    assert "Enter an email address, like ana@example.com." in text
    assert "Use at least 8 characters." in text
    assert text.count('aria-invalid="true"') == 3
    assert 'value="ana.example.com"' in text and "abcde" not in text
    # a taken email is said beside a short password too
    sign_up(client, "bo@example.com")
    post_form(client, "/account/", {}, to="/account/logout")
    again = post_form(client, "/account/signup", {"name": "Bo", "email": "bo@example.com", "password": "abc"}).text
    assert "There is already an account with this email" in again and "Use at least 8 characters." in again


def test_a_name_over_80_characters_is_refused_with_the_limit_not_cut_short(app, client):
    long = "Anastasia " + "Q" * 71  # 81 characters
    refused = post_form(client, "/account/signup", {"name": long, "email": "ana@example.com", "password": "password1"})
    assert refused.status_code == 200
    assert "A name can have up to 80 characters; this one has 81." in refused.text
    assert f'value="{long}"' in refused.text and 'maxlength="80"' not in refused.text
    assert "Signed in as" not in client.get("/account/").text

    sign_up(client, "ana@example.com", name="Ana")
    longer = "Ana " + "Z" * 86  # 90 characters
    renamed = post_form(client, "/exams/", {"name": longer}, to="/exams/name")
    assert renamed.status_code == 200
    assert "A name can have up to 80 characters; this one has 90." in renamed.text
    assert f'value="{longer}"' in renamed.text
    assert "Signed in as Ana (ana@example.com)." in client.get("/account/").text  # the name unchanged


def _form_fields(html: str) -> dict[str, str]:
    """The hidden fields of the drill's answer form on ``html`` (its step, its answer id...)."""
    import re

    form = html[html.index('id="answer-form"'):]
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form[:form.index("</form>")]))


def test_checking_a_solved_spot_again_does_not_put_it_on_spots_still_missed(app, client):
    # the issue: "re-checking a solved spot puts it on Spots still missed" (not reproduced since steps
    # were graded apart: kept as a guard). Solved in its two steps, then checked again as the page
    # stands, then opened again and its first step checked right again.
    card = ("current_total", "last_full_increment", "committed", "acted", "to_add")
    first = {k: v for k, v in BTN_RIGHT.items() if k in card}
    rest = {k: v for k, v in BTN_RIGHT.items() if k not in card}
    step_two = client.post(f"/drill/{BTN}", data={**_form_fields(client.get(f"/drill/{BTN}").text), **first})
    solved = client.post(f"/drill/{BTN}", data={**_form_fields(step_two.text), **rest})
    assert "Spots still missed" in client.get("/progress/").text
    assert f"/drill/{BTN}" not in client.get("/progress/").text.split("Spots still missed")[1]
    client.post(f"/drill/{BTN}", data={**_form_fields(solved.text), **rest})  # Check again
    client.post(f"/drill/{BTN}", data={**_form_fields(client.get(f"/drill/{BTN}").text), **first})
    assert [a.scenario_id for a in _attempts(app)] == [BTN] * 4
    page = client.get("/progress/").text
    assert "Replay my misses" not in page and f"/drill/{BTN}" not in page.split("Spots still missed")[1]


def test_the_drill_offers_the_card_lesson_until_the_learner_answers_a_spot_or_takes_the_lesson(app, client):
    page = client.get(f"/drill/{BTN}").text
    assert 'id="lesson-offer"' in page and 'href="/lesson/"' in page
    assert 'id="lesson-offer"' in client.get(f"/drill/{BTN}?lang=zh-Hant").text
    answer_drill(client, BTN, BTN_TWO_WRONG)  # a first answer, even a wrong one: no longer a newcomer
    assert 'id="lesson-offer"' not in client.get("/drill/seed001-min-raise").text
    assert 'class="lesson-link"' in client.get("/drill/seed001-min-raise").text  # still a tap away

    newcomer = app.test_client()
    assert 'id="lesson-offer"' in newcomer.get("/drill/seed001-min-raise").text
    assert newcomer.get("/lesson/done").status_code == 200  # the lesson's last page
    assert 'id="lesson-offer"' not in newcomer.get("/drill/seed001-min-raise").text
