"""CSRF on every form, session cookie flags (rate limits: test_limits.py)."""

from __future__ import annotations

import pytest

from tests.store.conftest import SCENARIOS
from tests.store.helpers import post_form, sign_up, token

POSTS = [
    "/account/signup",
    "/account/login",
    "/account/logout",
    "/progress/spaced-repetition",
    "/exams/betting-rules/start",
    "/exams/0123456789abcdef0123456789abcdef/q/1",
    "/exams/0123456789abcdef0123456789abcdef/submit",
    "/exams/assigned/0123456789abcdef0123456789abcdef/start",
    "/classroom/results/0123456789abcdef0123456789abcdef/revoke",
    "/classroom/new",
    "/classroom/0123456789abcdef0123456789abcdef/next",
    "/join",
    "/c/ABCD-EFGH/answer",
]


@pytest.mark.parametrize("path", POSTS)
def test_every_form_is_refused_without_its_csrf_token(client, path):
    client.get("/join")  # a session with a token exists; the form just does not send it
    response = client.post(path, data={"name": "x", "email": "a@b.c", "password": "password1", "code": "ABCD-EFGH"})
    assert response.status_code == 400


def test_the_session_cookie_is_httponly_and_samesite(client):
    response = sign_up(client, "ana@example.com")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_behind_https_the_session_cookie_is_secure(database, tmp_path, monkeypatch):
    from trainer.web import create_app

    monkeypatch.setenv("TRAINER_SECURE_COOKIES", "1")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "s",
            "SCENARIO_DIRS": [str(SCENARIOS)],
            "INSTANCE_DIR": str(tmp_path / "i"),
            **database,
        }
    )
    response = sign_up(app.test_client(), "bo@example.com")
    assert "Secure" in response.headers["Set-Cookie"]
    app.extensions["trainer.store"].dispose()


def _stale_response(app, cookie: str, path: str):
    """A response to a request that set out carrying ``cookie`` (say, a slow favicon)."""
    stale = app.test_client()
    stale.set_cookie(app.config["SESSION_COOKIE_NAME"], cookie)
    response = stale.get(path)
    response.close()
    return response


@pytest.mark.parametrize("path", ["/static/favicon.svg", "/progress/", "/"])
def test_a_slow_response_does_not_take_back_the_token_a_form_was_given(app, client, path):
    name = app.config["SESSION_COOKIE_NAME"]
    sign_up(client, "tan@example.com", instructor=True)
    before = client.get_cookie(name).value  # signed in, no CSRF token yet
    page = client.get("/classroom/")  # the form gets a token, the cookie keeps it
    late = _stale_response(app, before, path)  # ...then the late response arrives
    assert "Set-Cookie" not in late.headers, "a response that changed nothing re-wrote the cookie"
    created = client.post(
        "/classroom/new", data={"csrf_token": token(page.text), "title": "Reopening", "mode": "paced", "ids": "btn-faces-short-all-in"}
    )
    assert created.status_code == 303, created.text


def test_a_returning_learners_cookie_is_rewritten_once_a_week(client, monkeypatch):
    from trainer.web.core import identity

    name = "session"
    sign_up(client, "ana@example.com")
    assert "Set-Cookie" not in client.get("/progress/").headers  # nothing changed, nothing written
    day = 86400
    now = __import__("time").time()
    monkeypatch.setattr(identity.time, "time", lambda: now + 6 * day)
    assert "Set-Cookie" not in client.get("/progress/").headers
    monkeypatch.setattr(identity.time, "time", lambda: now + 8 * day)
    rewritten = client.get("/progress/").headers.get("Set-Cookie", "")
    assert rewritten.startswith(name + "=") and "Expires=" in rewritten
    assert "Set-Cookie" not in client.get("/progress/").headers  # and then not again that week


def test_an_expired_new_session_form_comes_back_filled_in(client):
    sign_up(client, "tan@example.com", instructor=True)
    typed = {"title": "Tuesday drill", "mode": "paced", "ids": "btn-faces-short-all-in"}
    refused = client.post("/classroom/new", data={"csrf_token": "from-an-old-page", **typed})
    assert refused.status_code == 400
    assert "What you typed is kept" in refused.text
    assert 'value="Tuesday drill"' in refused.text and ">btn-faces-short-all-in</textarea>" in refused.text
    again = client.post("/classroom/new", data={"csrf_token": token(refused.text), **typed})
    assert again.status_code == 303


def test_an_expired_form_elsewhere_in_the_classroom_is_a_plain_400(client):
    refused = client.post("/classroom/new", data={"csrf_token": "x", "title": "t"})  # not signed in
    assert refused.status_code == 400 and "What you typed is kept" not in refused.text


@pytest.mark.parametrize(
    ("lang", "words"), [("zh-Hant", "請至少使用 8 個字元。"), ("zh-Hans", "请至少使用 8 个字符。"), ("en", "Use at least 8 characters.")]
)
def test_the_stores_messages_are_shown_in_the_learners_language(client, lang, words):
    data = {"email": "ana@example.com", "name": "Ana", "password": "short"}
    refused = post_form(client, f"/account/signup?lang={lang}", data)
    assert refused.status_code == 200 and words in refused.text


def test_an_expired_join_form_keeps_the_students_name(client, app):
    refused = client.post("/join", data={"csrf_token": "old", "code": "ABCD-EFGH", "name": "Ana"})
    assert refused.status_code == 400
    assert "you have not joined yet" in refused.text and 'value="Ana"' in refused.text and "ABCD-EFGH" in refused.text


def test_expired_account_forms_keep_all_but_the_password(client):
    refused = client.post(
        "/account/signup",
        data={"csrf_token": "old", "email": "ana@example.com", "name": "Ana Lee", "password": "password1", "instructor": "yes"},
    )
    assert refused.status_code == 400 and "enter your password again" in refused.text
    assert 'value="ana@example.com"' in refused.text and 'value="Ana Lee"' in refused.text
    assert "password1" not in refused.text
    again = client.post("/account/signup", data={"csrf_token": token(refused.text), "email": "ana@example.com",
                                                  "name": "Ana Lee", "password": "password1"})
    assert again.status_code == 303
    client.post("/account/logout", data={"csrf_token": token(client.get("/account/").text)})
    refused = client.post("/account/login", data={"csrf_token": "old", "email": "ana@example.com", "password": "password1"})
    assert refused.status_code == 400 and 'value="ana@example.com"' in refused.text and "password1" not in refused.text
