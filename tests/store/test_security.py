"""CSRF on every form, session cookie flags, rate limits on signing in (shared through Redis)."""

from __future__ import annotations

import os
import secrets

import pytest

from .conftest import SCENARIOS
from .helpers import post_form, sign_in, sign_up, token

POSTS = [
    "/account/signup",
    "/account/login",
    "/account/logout",
    "/progress/spaced-repetition",
    "/exams/betting-rules/start",
    "/exams/0123456789abcdef0123456789abcdef/q/1",
    "/exams/0123456789abcdef0123456789abcdef/submit",
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


def test_signing_in_is_rate_limited_after_ten_failures_a_minute(client):
    sign_up(client, "cy@example.com")
    post_form(client, "/account/", {}, to="/account/logout")
    for _ in range(10):
        assert sign_in(client, "cy@example.com", "wrong-password").status_code == 200
    assert sign_in(client, "cy@example.com", "password1").status_code == 429


def test_a_right_password_does_not_count_against_the_limit(client):
    sign_up(client, "di@example.com")
    for _ in range(12):
        post_form(client, "/account/", {}, to="/account/logout")
        assert sign_in(client, "di@example.com").status_code == 303


def _redis_url() -> str:
    url = os.environ.get("TRAINER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except Exception as exc:  # say why
        message = f"Redis at {url} cannot be reached: {exc}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return url


def test_with_redis_two_app_processes_share_the_login_limit(database, tmp_path):
    from trainer.web import create_app

    url = _redis_url()
    prefix = f"trainer-test-{secrets.token_hex(4)}"
    apps = [
        create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "s",
                "SCENARIO_DIRS": [str(SCENARIOS)],
                "INSTANCE_DIR": str(tmp_path / f"i{n}"),
                "REDIS_URL": url,
                "RATELIMIT_KEY_PREFIX": prefix,
                **database,
            }
        )
        for n in range(2)
    ]
    first, second = (a.test_client() for a in apps)
    for _ in range(6):
        assert sign_in(first, "nobody@example.com", "wrong-password").status_code == 200
    for _ in range(4):
        assert sign_in(second, "nobody@example.com", "wrong-password").status_code == 200
    assert sign_in(first, "nobody@example.com", "wrong-password").status_code == 429
    page = second.get("/account/login")
    blocked = second.post("/account/login", data={"csrf_token": token(page.text), "email": "x@y.z", "password": "p"})
    assert blocked.status_code == 429
    import redis

    r = redis.Redis.from_url(url)
    for key in r.scan_iter(f"*{prefix}*"):
        r.delete(key)
    for a in apps:
        a.extensions["trainer.store"].dispose()
