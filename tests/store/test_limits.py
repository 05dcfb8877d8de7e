"""Abuse limits: sign-up, signing in per address and per account, join codes, verification codes,
counted in Redis for every process when it is set, and the real client behind a proxy."""

from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import sys

import pytest

from tests.store.conftest import SCENARIOS, running_app
from tests.store.helpers import BTN, post_form, sign_in, sign_up, token


def _from(address: str) -> dict:
    return {"REMOTE_ADDR": address}


def _client(app, address: str):
    client = app.test_client()
    client.environ_base.update(_from(address))
    return client


def _signup(client, email: str):
    return post_form(client, "/account/signup", {"email": email, "name": "N", "password": "password1"})


def _sign_out(client):
    return post_form(client, "/account/", {}, to="/account/logout")


# ------------------------------------------------------------------ sign-up


def test_sign_ups_from_one_address_are_limited_and_others_are_not(app):
    flood = _client(app, "203.0.113.7")
    made = [_signup(flood, f"bot{n}@example.com").status_code for n in range(21)]
    assert made[:20] == [303] * 20
    assert made[20] == 429 and "Too many accounts were made from your address" in _signup(flood, "x@example.com").text
    assert _signup(_client(app, "198.51.100.2"), "ana@example.com").status_code == 303


# ------------------------------------------------------------------ signing in


def test_signing_in_is_limited_after_ten_failures_a_minute_from_one_address(app):
    guesser = _client(app, "203.0.113.7")
    for n in range(10):  # ten different accounts: the per-account limit is not what stops it
        assert sign_in(guesser, f"user{n}@example.com", "wrong-password").status_code == 200
    blocked = sign_in(guesser, "user10@example.com", "wrong-password")
    assert blocked.status_code == 429 and "from your address" in blocked.text
    assert int(blocked.headers["Retry-After"]) > 0
    assert sign_in(_client(app, "198.51.100.2"), "user10@example.com", "wrong-password").status_code == 200


def test_one_account_is_limited_after_five_failures_from_any_addresses(app):
    sign_up(_client(app, "198.51.100.1"), "cy@example.com")
    sign_up(_client(app, "198.51.100.1"), "di@example.com")
    for n in range(5):  # a guesser spread over five addresses
        assert sign_in(_client(app, f"203.0.113.{n}"), "cy@example.com", "wrong-password").status_code == 200
    blocked = sign_in(_client(app, "192.0.2.50"), " CY@example.com ", "password1")  # even the right one
    assert blocked.status_code == 429 and "for this account" in blocked.text
    assert sign_in(_client(app, "192.0.2.50"), "di@example.com").status_code == 303  # others are not


def test_a_right_password_does_not_count_against_either_limit(app):
    client = _client(app, "198.51.100.3")
    sign_up(client, "di@example.com")
    for _ in range(12):
        _sign_out(client)
        assert sign_in(client, "di@example.com").status_code == 303


# ------------------------------------------------------------------ joining a class


def _class_code(app) -> str:
    teacher = _client(app, "198.51.100.9")
    sign_up(teacher, "teacher@example.com", instructor=True)
    data = {"title": "Tuesday", "mode": "paced", "ids": BTN}
    created = post_form(teacher, "/classroom/", data, to="/classroom/new")
    page = teacher.get(created.headers["Location"])
    return re.search(r'id="join-code">([A-Z2-9]{4}-[A-Z2-9]{4})<', page.text).group(1)


def _join(client, code: str, name: str):
    return post_form(client, "/join", {"code": code, "name": name})


def test_wrong_codes_from_a_classrooms_address_never_lock_out_the_right_code(app):
    code = _class_code(app)
    room = "192.0.2.10"  # every student's browser behind the school's one address
    for n in range(20):
        assert _join(_client(app, room), "ABCD-EFGH", f"typo {n}").status_code == 200
    wrong = _join(_client(app, room), "ABCD-EFGH", "one more typo")
    assert wrong.status_code == 429 and "Check the code with your instructor" in wrong.text
    assert 'value="one more typo"' in wrong.text  # the form comes back with the name
    joined = [_join(_client(app, room), code, f"Student {n}").status_code for n in range(5)]
    assert joined == [303] * 5


def test_wrong_class_invite_codes_are_limited_and_the_right_one_always_works(app):
    import re

    teacher = _client(app, "198.51.100.9")
    sign_up(teacher, "tan@example.com", instructor=True)
    made = post_form(teacher, "/classroom/", {"class_title": "Dealers 101"}, to="/classroom/classes/new")
    page = teacher.get(made.headers["Location"]).text
    code = re.search(r'id="invite-code">([A-Z2-9]{4}-[A-Z2-9]{4})<', page).group(1)
    student = _client(app, "192.0.2.20")
    sign_up(student, "ana@example.com")
    guesses = [student.get(f"/classes/join/ABCD-{n:04d}").status_code for n in range(10)]
    guesses += [post_form(student, "/exams/", {}, to=f"/classes/join/WXYZ-{n:04d}").status_code for n in range(10)]
    assert guesses == [404] * 20
    blocked = student.get("/classes/join/ABCD-EFGH")
    assert blocked.status_code == 429 and "Check the code with your instructor" in blocked.text
    assert int(blocked.headers["Retry-After"]) > 0
    assert post_form(student, "/exams/", {}, to="/classes/join/ABCD-EFGH").status_code == 429
    assert student.get(f"/classes/join/{code}").status_code == 200  # a right code always works
    assert post_form(student, "/exams/", {}, to=f"/classes/join/{code}").status_code == 303


# ------------------------------------------------------------------ verification codes


def test_guessing_verification_codes_is_limited_per_address(app):
    guesser = _client(app, "203.0.113.7")
    for n in range(20):
        assert guesser.get(f"/verify/ABCDE-{n:05d}").status_code == 404
    blocked = guesser.get("/verify/ABCDE-FGHJK")
    assert blocked.status_code == 429 and "Too many failed attempts from your address" in blocked.text
    assert int(blocked.headers["Retry-After"]) > 0
    assert _client(app, "198.51.100.2").get("/verify/ABCDE-FGHJK").status_code == 404


def test_looking_up_a_real_verification_code_again_and_again_is_not_limited(app):
    learner = _client(app, "198.51.100.4")
    sign_up(learner, "ana@example.com", name="Ana Lee")
    started = post_form(learner, "/exams/", {"candidate_name": "Ana Lee"}, to="/exams/betting-rules/start")
    exam_id = started.headers["Location"].split("/")[2]
    confirm = learner.get(f"/exams/{exam_id}/submit")
    submitted = learner.post(f"/exams/{exam_id}/submit", data={"csrf_token": token(confirm.text)})
    result = learner.get(submitted.headers["Location"])
    code = re.search(r'class="verify-code">([A-Z2-9]{5}-[A-Z2-9]{5})<', result.text).group(1)
    employer = _client(app, "203.0.113.7")
    assert [employer.get(f"/verify/{code}").status_code for _ in range(25)] == [200] * 25


# ------------------------------------------------------------------ Redis: one count for every process


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


@pytest.fixture
def two_apps_on_redis(database, tmp_path):
    """Two app processes' worth of apps counting in the real Redis, under a key prefix of this test's own."""
    import redis

    from trainer.web import create_app

    url = _redis_url()
    prefix = f"trainer-test-{secrets.token_hex(4)}"
    settings = {"TESTING": True, "SECRET_KEY": "s", "SCENARIO_DIRS": [str(SCENARIOS)], "REDIS_URL": url,
                "RATELIMIT_KEY_PREFIX": prefix, **database}
    apps = [create_app({**settings, "INSTANCE_DIR": str(tmp_path / f"i{n}")}) for n in range(2)]
    yield apps
    r = redis.Redis.from_url(url)
    for key in r.scan_iter(f"*{prefix}*"):
        r.delete(key)
    for made in apps:
        made.extensions["trainer.store"].dispose()


def test_with_redis_two_processes_share_the_address_and_account_limits(two_apps_on_redis):
    first, second = two_apps_on_redis
    assert first.extensions["trainer.limits"].shared
    for n in range(6):
        assert sign_in(_client(first, "203.0.113.7"), f"u{n}@example.com", "wrong").status_code == 200
    for n in range(6, 10):
        assert sign_in(_client(second, "203.0.113.7"), f"u{n}@example.com", "wrong").status_code == 200
    assert sign_in(_client(first, "203.0.113.7"), "u11@example.com", "wrong").status_code == 429
    assert sign_in(_client(second, "203.0.113.7"), "u12@example.com", "wrong").status_code == 429
    # one account tried from many addresses, through either process
    for n in range(5):
        app = (first, second)[n % 2]
        assert sign_in(_client(app, f"198.51.100.{n}"), "ana@example.com", "wrong").status_code == 200
    assert sign_in(_client(second, "192.0.2.1"), "ana@example.com", "wrong").status_code == 429


def test_with_redis_two_processes_share_the_join_code_failures(two_apps_on_redis):
    first, second = two_apps_on_redis
    for n in range(20):
        app = (first, second)[n % 2]
        assert _join(_client(app, "192.0.2.10"), "ABCD-EFGH", f"x{n}").status_code == 200
    assert _join(_client(first, "192.0.2.10"), "ABCD-EFGH", "y").status_code == 429
    assert _join(_client(second, "192.0.2.10"), "ABCD-EFGH", "z").status_code == 429


def test_when_redis_cannot_be_reached_the_limits_still_hold_and_nothing_fails(database, tmp_path, caplog):
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    made = running_app(database, tmp_path, REDIS_URL=f"redis://127.0.0.1:{port}/0")
    app = next(made)
    for n in range(10):
        assert sign_in(_client(app, "203.0.113.7"), f"u{n}@example.com", "wrong").status_code == 200
    assert sign_in(_client(app, "203.0.113.7"), "u10@example.com", "wrong").status_code == 429
    assert "rate limit storage unreachable" in caplog.text.lower()
    # every other limited page answers as usual
    assert _signup(_client(app, "198.51.100.5"), "ana@example.com").status_code == 303
    assert _join(_client(app, "198.51.100.5"), "ABCD-EFGH", "typo").status_code == 200
    assert _client(app, "198.51.100.5").get("/verify/ABCDE-FGHJK").status_code == 404
    next(made, None)


# ------------------------------------------------------------------ several processes without Redis


def test_without_redis_several_processes_are_warned_that_each_counts_alone(app):
    from trainer.web.core import limits

    said = limits.warning(app, 2)
    assert "REDIS_URL" in said and "20" in said
    assert limits.warning(app, 1) is None


def test_with_redis_there_is_nothing_to_warn_about(two_apps_on_redis):
    from trainer.web.core import limits

    assert limits.warning(two_apps_on_redis[0], 4) is None


# ------------------------------------------------------------------ behind a reverse proxy


@pytest.fixture
def proxied(database, tmp_path):
    yield from running_app(database, tmp_path, PROXIES=1)


def _via_proxy(app, client_address: str, **headers):
    client = app.test_client()
    client.environ_base.update(
        {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": client_address, "HTTP_X_FORWARDED_PROTO": "https",
         "HTTP_X_FORWARDED_HOST": "trainer.school.example", **headers}
    )
    return client


def test_behind_a_proxy_limits_count_per_real_client(proxied):
    for n in range(10):
        assert sign_in(_via_proxy(proxied, "203.0.113.7"), f"u{n}@example.com", "wrong").status_code == 200
    assert sign_in(_via_proxy(proxied, "203.0.113.7"), "u10@example.com", "wrong").status_code == 429
    assert sign_in(_via_proxy(proxied, "198.51.100.2"), "u10@example.com", "wrong").status_code == 200


def test_without_the_setting_forwarded_headers_are_not_believed(app):
    for n in range(10):
        assert sign_in(_via_proxy(app, f"203.0.113.{n}"), f"u{n}@example.com", "wrong").status_code == 200
    # every one came from the proxy's own address, whatever the header claimed
    assert sign_in(_via_proxy(app, "198.51.100.2"), "u10@example.com", "wrong").status_code == 429


def test_behind_a_proxy_cookies_are_secure_and_join_links_have_the_public_address(proxied):
    teacher = _via_proxy(proxied, "198.51.100.9")
    response = sign_up(teacher, "teacher@example.com", instructor=True)
    assert "Secure" in response.headers["Set-Cookie"]
    created = post_form(teacher, "/classroom/", {"title": "T", "mode": "paced", "ids": BTN}, to="/classroom/new")
    page = teacher.get(created.headers["Location"])
    assert re.search(r"https://trainer\.school\.example/join/[A-Z2-9]{4}-[A-Z2-9]{4}", page.text)
    assert "localhost" not in page.text


def test_without_a_proxy_a_plain_http_cookie_is_not_secure(app):
    response = sign_up(app.test_client(), "ana@example.com")
    assert "Secure" not in response.headers["Set-Cookie"]


@pytest.mark.parametrize("value", ["yes", "-1", "1.5"])
def test_a_bad_proxies_setting_stops_the_app_and_names_the_variable(tmp_path, monkeypatch, value):
    from trainer.web import create_app
    from trainer.web.core.config import SettingError

    monkeypatch.setenv("TRAINER_PROXIES", value)
    with pytest.raises(SettingError, match="TRAINER_PROXIES=.*number of reverse proxies"):
        create_app({"SECRET_KEY": "x", "SCENARIO_DIRS": [str(SCENARIOS)], "INSTANCE_DIR": str(tmp_path)})


def test_trainer_serve_says_what_is_wrong_with_a_setting_without_a_traceback(tmp_path):
    env = {**os.environ, "TRAINER_PROXIES": "two", "TRAINER_INSTANCE": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "trainer.cli", "serve", "--port", "1"], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert "TRAINER_PROXIES=two is not a whole number" in result.stderr and "Traceback" not in result.stderr
