"""Signing out ends this browser's session, copies of its cookie included, and no other; "every
other device" and a new password end the others; instructors' sessions last a school day."""

from __future__ import annotations

import time

import pytest

from trainer.web.core import identity

from tests.store.helpers import BTN, BTN_RIGHT, post_form, sign_in, sign_up, token


def _copy_of(app, client):
    """Another browser holding a copy of ``client``'s session cookie."""
    name = app.config["SESSION_COOKIE_NAME"]
    thief = app.test_client()
    thief.set_cookie(name, client.get_cookie(name).value)
    return thief


def _signed_in(client) -> bool:
    return "Signed in as" in client.get("/account/").text


def _exam_result(client) -> str:
    started = post_form(client, "/exams/", {"candidate_name": "Ana Lee"}, to="/exams/betting-rules/start")
    exam_id = started.headers["Location"].split("/")[2]
    confirm = client.get(f"/exams/{exam_id}/submit")
    client.post(f"/exams/{exam_id}/submit", data={"csrf_token": token(confirm.text)})
    return f"/exams/{exam_id}/result"


def test_a_copied_cookie_opens_nothing_once_the_owner_signs_out(app, client):
    sign_up(client, "tan@example.com", instructor=True)
    result = _exam_result(client)
    created = post_form(client, "/classroom/", {"title": "T", "mode": "paced", "ids": BTN}, to="/classroom/new")
    control = created.headers["Location"]
    thief = _copy_of(app, client)
    assert thief.get(control).status_code == 200 and thief.get(result).status_code == 200

    assert post_form(client, "/account/", {}, to="/account/logout").status_code == 303

    assert thief.get(control).status_code == 302  # to the sign-in page
    assert thief.get(result).status_code == 404  # the exam belonged to the signed-out learner
    assert not _signed_in(thief)
    assert "tan@example.com" not in thief.get("/progress/").text


def test_signing_out_on_the_laptop_leaves_the_phone_signed_in(app):
    laptop, phone = app.test_client(), app.test_client()
    sign_up(laptop, "ana@example.com")
    sign_in(phone, "ana@example.com")
    assert _signed_in(phone)
    page = laptop.get("/account/").text
    assert "on every device" not in page and "this browser only" in page
    post_form(laptop, "/account/", {}, to="/account/logout")
    assert not _signed_in(laptop) and _signed_in(phone)
    assert sign_in(laptop, "ana@example.com").status_code == 303 and _signed_in(laptop)  # signing in again works
    assert _signed_in(phone)


def test_sign_out_on_every_other_device_keeps_this_one(app):
    laptop, phone = app.test_client(), app.test_client()
    sign_up(laptop, "ana@example.com")
    sign_in(phone, "ana@example.com")
    copy = _copy_of(app, laptop)
    done = post_form(laptop, "/account/", {}, to="/account/sessions/end")
    assert done.status_code == 303
    page = laptop.get(done.headers["Location"]).text
    assert "Every other device is signed out" in page and "Signed in as" in page
    assert not _signed_in(phone) and not _signed_in(copy)
    assert _signed_in(laptop)
    post_form(laptop, "/account/", {}, to="/account/sessions/end")  # again, with nothing else signed in
    assert _signed_in(laptop)


def test_changing_the_password_signs_out_every_other_session(app):
    laptop, phone = app.test_client(), app.test_client()
    sign_up(laptop, "ana@example.com")
    sign_in(phone, "ana@example.com")
    changed = post_form(laptop, "/account/", {"current_password": "password1", "new_password": "new-password-2"},
                        to="/account/password")
    assert changed.status_code == 303
    assert "Your password is changed" in laptop.get(changed.headers["Location"]).text
    assert _signed_in(laptop) and not _signed_in(phone)
    assert sign_in(phone, "ana@example.com", "password1").status_code == 200  # the old one no longer works
    assert sign_in(phone, "ana@example.com", "new-password-2").status_code == 303


@pytest.mark.parametrize(
    ("form", "field", "words"),
    [
        ({"current_password": "not-it", "new_password": "new-password-2"}, "current_password",
         "That is not your current password."),
        ({"current_password": "password1", "new_password": "short"}, "new_password", "Use at least 8 characters."),
    ],
)
def test_a_refused_password_change_says_why_and_changes_nothing(app, client, form, field, words):
    sign_up(client, "ana@example.com")
    phone = app.test_client()
    sign_in(phone, "ana@example.com")
    refused = post_form(client, "/account/", form, to="/account/password")
    assert refused.status_code == 200 and words in refused.text
    assert f'id="f-{field}-error"' in refused.text
    assert _signed_in(phone)  # nobody was signed out
    assert sign_in(app.test_client(), "ana@example.com", "password1").status_code == 303


def test_wrong_current_passwords_count_against_the_account(app, client):
    sign_up(client, "ana@example.com")
    for _ in range(5):
        post_form(client, "/account/", {"current_password": "guess", "new_password": "new-password-2"},
                  to="/account/password")
    blocked = post_form(client, "/account/", {"current_password": "password1", "new_password": "new-password-2"},
                        to="/account/password")
    assert blocked.status_code == 429 and "Too many failed sign-ins for this account" in blocked.text


def test_the_password_form_needs_a_signed_in_account(client):
    refused = post_form(client, "/join", {"current_password": "x", "new_password": "y" * 10}, to="/account/password")
    assert refused.status_code == 302 and "/account/login" in refused.headers["Location"]


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_the_account_page_and_its_messages_are_in_chinese(client, lang):
    sign_up(client, "ana@example.com")
    page = client.get(f"/account/?lang={lang}").text
    assert "Change password" not in page and "Sign out on every other device" not in page
    refused = post_form(client, f"/account/?lang={lang}", {"current_password": "x", "new_password": "new-password-2"},
                        to="/account/password")
    assert "That is not your current password." not in refused.text
    assert ("目前的密碼" if lang == "zh-Hant" else "当前的密码") in refused.text


def test_an_instructors_session_ends_after_a_school_day_and_a_learners_does_not(app, monkeypatch):
    teacher, learner = app.test_client(), app.test_client()
    sign_up(teacher, "tan@example.com", instructor=True)
    sign_up(learner, "ana@example.com")
    assert teacher.get("/classroom/").status_code == 200
    later = time.time() + 13 * 3600
    monkeypatch.setattr(identity.time, "time", lambda: later)
    assert teacher.get("/classroom/").status_code == 302
    assert not _signed_in(teacher)
    assert _signed_in(learner)


def test_a_cookie_from_before_sign_up_opens_nothing_of_the_new_account(app, client):
    """A shared computer or a planted cookie: browser A answers as an anonymous learner, the victim
    signs up with A's cookie in the browser, then starts an exam and even ends every other
    session. A's copy of the cookie must open nothing of the account."""
    post_form(client, f"/drill/{BTN}", BTN_RIGHT)  # an anonymous learner is made for this cookie
    before = _copy_of(app, client)
    sign_up(client, "victim@example.com", name="Victim Person")
    started = post_form(client, "/exams/", {"candidate_name": "Ana Lee"}, to="/exams/betting-rules/start")
    exam_id = started.headers["Location"].split("/")[2]
    post_form(client, "/account/", {}, to="/account/sessions/end")
    client.post("/account/password", data={})  # the victim carries on as the victim

    assert exam_id not in before.get("/exams/").text
    assert before.get(f"/exams/{exam_id}/q/1").status_code == 404
    refused = before.post(f"/exams/{exam_id}/submit", data={"csrf_token": token(before.get("/account/login").text)})
    assert refused.status_code == 404
    assert client.get(f"/exams/{exam_id}/q/1").status_code == 200  # the victim's exam still runs
    assert before.get(f"/exams/{exam_id}/result").status_code == 404
    assert "Victim Person" not in before.get("/progress/").text
    assert "Reopening" not in before.get("/progress/").text  # the history went with the account


def test_signing_up_moves_the_anonymous_history_into_the_account(app, client):
    post_form(client, f"/drill/{BTN}", BTN_RIGHT)
    assert "Reopening" in client.get("/progress/").text
    sign_up(client, "ana@example.com")
    assert "Reopening" in client.get("/progress/").text
    other = app.test_client()
    sign_in(other, "ana@example.com")
    assert "Reopening" in other.get("/progress/").text
