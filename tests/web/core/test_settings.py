"""One settings module: every setting read once from the environment, in trainer/web/core/config.py,
a bad value or a missing backend driver stopping the app with one line that says what to do."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from trainer.cli import main
from trainer.web import create_app
from trainer.web.core.config import SettingError

from tests.web.conftest import SCENARIOS

PACKAGE = Path(__file__).resolve().parents[3] / "trainer"
SETTINGS_MODULE = PACKAGE / "web" / "core" / "config.py"
READS_ENVIRONMENT = re.compile(r"\bos\.environ\b|\bgetenv\(|from os import [^\n]*\benviron\b")  # not a request's WSGI environ


def test_only_the_settings_module_reads_the_environment():
    readers = sorted(
        str(path.relative_to(PACKAGE.parent))
        for path in PACKAGE.rglob("*.py")
        if path != SETTINGS_MODULE and READS_ENVIRONMENT.search(path.read_text(encoding="utf-8"))
    )
    assert readers == []


def base(tmp_path) -> dict:
    return {"SECRET_KEY": "x", "INSTANCE_DIR": str(tmp_path), "SCENARIO_DIRS": [str(SCENARIOS / "reopen")]}


def test_server_settings_come_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAINER_PROCESSES", "3")
    monkeypatch.setenv("TRAINER_THREADS", "16")
    monkeypatch.setenv("TRAINER_LIVE_RENDERS", "4")
    app = create_app(base(tmp_path))
    assert (app.config["PROCESSES"], app.config["THREADS"], app.config["LIVE_RENDERS"]) == (3, 16, 4)


@pytest.mark.parametrize(("variable", "value"), [("TRAINER_PROCESSES", "0"), ("TRAINER_THREADS", "many"),
                                                ("TRAINER_LIVE_RENDERS", "0")])
def test_a_bad_server_setting_names_the_variable(tmp_path, monkeypatch, variable, value):
    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingError, match=f"^{variable}={value} is not a whole number of 1 or more"):
        create_app(base(tmp_path))


def test_the_issuing_organisation_is_read_from_the_environment_one_line_and_bounded(tmp_path, monkeypatch):
    assert create_app(base(tmp_path)).config["ORGANISATION"] is None  # documented: the pages say it is unnamed
    monkeypatch.setenv("TRAINER_ORGANISATION", "  Taipei   Dealer School ")
    assert create_app(base(tmp_path)).config["ORGANISATION"] == "Taipei Dealer School"
    monkeypatch.setenv("TRAINER_ORGANISATION", "x" * 121)
    with pytest.raises(SettingError, match="^TRAINER_ORGANISATION has 121 characters or a control character"):
        create_app(base(tmp_path))


def test_database_and_redis_urls_are_read_by_the_settings(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.delenv("REDIS_URL", raising=False)
    app = create_app(base(tmp_path))
    assert app.config["DATABASE_URL"] == url and app.extensions["trainer.store"].url == url
    assert (tmp_path / "elsewhere.sqlite3").is_file() and not (tmp_path / "trainer.sqlite3").exists()
    assert not app.extensions["trainer.limits"].shared
    app.extensions["trainer.store"].dispose()


@pytest.mark.parametrize(
    ("variable", "value", "module", "extra"),
    [("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test", "psycopg", "postgres"),
     ("REDIS_URL", "redis://127.0.0.1:6379/0", "redis", "redis")],
)
def test_a_backend_without_its_driver_says_which_extra_to_install(tmp_path, monkeypatch, variable, value, module,
                                                                  extra):
    monkeypatch.setenv(variable, value)
    monkeypatch.setitem(sys.modules, module, None)  # as if not installed: import finds nothing
    result = CliRunner().invoke(main, ["db", "upgrade"], env={"TRAINER_INSTANCE": str(tmp_path)})
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: {variable} names {'PostgreSQL' if extra == 'postgres' else 'Redis'}, whose driver {module!r} "
        f"is not installed: pip install 'holdem-rules-trainer[{extra}]'"
    ]


def test_db_upgrade_with_a_bad_setting_is_one_line_not_a_traceback(tmp_path):
    result = CliRunner().invoke(main, ["db", "upgrade"], env={"TRAINER_INSTANCE": str(tmp_path),
                                                              "TRAINER_PROXIES": "yes"})
    assert result.exit_code == 1
    assert result.output.startswith("Error: TRAINER_PROXIES=yes is not a whole number") and "Traceback" not in result.output


def test_db_upgrade_is_a_command_of_the_app(tmp_path):
    app = create_app({**base(tmp_path), "DATABASE_UPGRADE": False})
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert "schema at revision" in result.output and (tmp_path / "trainer.sqlite3").is_file()
    app.extensions["trainer.store"].dispose()


def test_without_gunicorn_several_processes_are_served_by_one_waitress_process(tmp_path, monkeypatch):
    """Where gunicorn cannot run (Windows: it is not installed there), waitress serves."""
    from trainer.web import serving as serve

    calls = {}
    monkeypatch.setattr(serve.waitress, "serve", lambda app, **kw: calls.update(kw, app=app))
    monkeypatch.setitem(sys.modules, "gunicorn", None)
    monkeypatch.setenv("TRAINER_PROCESSES", "2")
    monkeypatch.setenv("TRAINER_SECRET_KEY", "x")
    monkeypatch.setenv("TRAINER_INSTANCE", str(tmp_path))
    serve.run("127.0.0.1", 8124, str(SCENARIOS / "reopen"))
    assert calls["port"] == 8124 and calls["threads"] == 32
    assert calls["app"].test_client().get("/drill/btn-faces-short-all-in").status_code == 200
    calls["app"].extensions["trainer.store"].dispose()


@pytest.mark.parametrize(("host", "bind"), [("127.0.0.1", "127.0.0.1:80"), ("", "0.0.0.0:80"), ("::1", "[::1]:80")])
def test_the_address_gunicorn_binds(host, bind):
    from trainer.web.serving import bind_address

    assert bind_address(host, 80) == bind


def test_serve_on_a_port_in_use_is_one_line(tmp_path):
    import os
    import socket
    import subprocess

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "trainer.cli", "serve", "--port", str(port), "--scenarios", str(SCENARIOS / "reopen")],
            env={**os.environ, "TRAINER_INSTANCE": str(tmp_path), "TRAINER_PROCESSES": "1"},
            capture_output=True, text=True, timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == f"Error: cannot serve on 127.0.0.1:{port}: Address already in use"
    assert "Traceback" not in done.stderr
