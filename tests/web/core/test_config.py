"""Settings from the environment, the instance secret, and how the server is started."""

from __future__ import annotations

import os
import stat

import pytest

from trainer.web import create_app
from trainer.web import serving as serve

from tests.web.conftest import SCENARIOS


def test_secret_key_is_made_once_and_kept_in_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("TRAINER_SECRET_KEY", raising=False)
    instance = tmp_path / "instance"
    first = create_app({"INSTANCE_DIR": str(instance), "SCENARIO_DIRS": [str(SCENARIOS)]})
    second = create_app({"INSTANCE_DIR": str(instance), "SCENARIO_DIRS": [str(SCENARIOS)]})
    key = first.config["SECRET_KEY"]
    assert len(key) >= 32 and key == second.config["SECRET_KEY"]
    secret = instance / "secret_key"
    assert secret.read_text().strip() == key
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    # a session made by one process is good in the next: a learner's form survives a restart
    client = first.test_client()
    page = client.get("/drill/btn-faces-short-all-in").text
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    cookie = client.get_cookie("session")
    other = second.test_client()
    other.set_cookie("session", cookie.value)
    assert other.post("/drill/btn-faces-short-all-in", data={"csrf_token": token}).status_code == 200


def test_environment_variables_configure_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAINER_SECRET_KEY", "from-env")
    monkeypatch.setenv("TRAINER_SCENARIOS", str(SCENARIOS / "reopen"))
    monkeypatch.setenv("TRAINER_INSTANCE", str(tmp_path / "inst"))
    app = create_app()
    assert app.config["SECRET_KEY"] == "from-env"
    assert not (tmp_path / "inst" / "secret_key").exists()
    client = app.test_client()
    assert client.get("/drill/btn-faces-short-all-in").status_code == 200
    assert client.get("/drill/seed004-side-pot").status_code == 404


def test_default_scenarios_are_the_repositorys_own(monkeypatch, tmp_path):
    monkeypatch.delenv("TRAINER_SCENARIOS", raising=False)
    app = create_app({"SECRET_KEY": "x", "INSTANCE_DIR": str(tmp_path)})
    assert [os.path.basename(d) for d in app.config["SCENARIO_DIRS"]] == ["scenarios"]
    assert os.path.isdir(app.config["SCENARIO_DIRS"][0])


def test_a_missing_templates_folder_says_which_setting_to_use(tmp_path):
    with pytest.raises(RuntimeError, match="TRAINER_TEMPLATES"):
        create_app({"SECRET_KEY": "x", "TEMPLATES_DIR": str(tmp_path / "nope")})


def test_serve_runs_waitress_with_the_given_host_port_and_scenarios(monkeypatch):
    calls = {}

    def fake_serve(app, **kw):
        calls["app"] = app
        calls.update(kw)

    monkeypatch.setenv("TRAINER_SECRET_KEY", "x")
    monkeypatch.setenv("TRAINER_PROCESSES", "1")
    monkeypatch.setattr(serve.waitress, "serve", fake_serve)
    serve.run("127.0.0.1", 8123, str(SCENARIOS / "side-pots"))
    assert calls["host"] == "127.0.0.1" and calls["port"] == 8123
    client = calls["app"].test_client()
    assert client.get("/drill/seed004-side-pot").status_code == 200
    assert client.get("/drill/btn-faces-short-all-in").status_code == 404


@pytest.mark.parametrize(
    ("host", "url"),
    [("127.0.0.1", "http://127.0.0.1:8000/"), ("0.0.0.0", "http://127.0.0.1:8000/"), ("::1", "http://[::1]:8000/")],
)
def test_the_url_to_open(host, url):
    assert serve.url_for_host(host, 8000) == url


def test_passwords_are_hashed_with_scrypt_unless_a_setting_names_another_way(tmp_path, monkeypatch):
    from trainer.web.core.config import SettingError, settings

    assert settings(environ={})["PASSWORD_HASH"] == "scrypt"  # the suite's cheap hash is the suite's alone
    monkeypatch.delenv("TRAINER_PASSWORD_HASH")
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(SCENARIOS)],
                      "INSTANCE_DIR": str(tmp_path / "instance")})
    client = app.test_client()
    page = client.get("/account/signup")
    token = page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    client.post("/account/signup", data={"csrf_token": token, "email": "ana@example.com", "name": "Ana",
                                         "password": "password1"})
    from trainer.store import Store
    from trainer.store.models import Account

    store = Store(app.config["DATABASE_URL"] or f"sqlite:///{tmp_path / 'instance' / 'trainer.sqlite3'}")
    with store.session() as s:
        assert s.query(Account).one().password_hash.startswith("scrypt:32768:8:1$")
    store.dispose()
    for wrong in ("md5", "scrypt:abc", "plain"):
        with pytest.raises(SettingError, match="TRAINER_PASSWORD_HASH"):
            settings({"PASSWORD_HASH": wrong}, environ={})
