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
