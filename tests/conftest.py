"""Fixtures for the whole suite: a SQLite database the migrations built once per test process."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from trainer.store import Store
from trainer.store.engines import DB_FILE

# Passwords hashed cheaply in every app the suite builds or starts (the servers it starts inherit
# the environment): thousands of sign-ups and sign-ins at scrypt's 60 ms of CPU each were a tenth
# of the suite. tests/web/core/test_config.py checks that the app's own default is scrypt.
os.environ.setdefault("TRAINER_PASSWORD_HASH", "pbkdf2:sha256:1000")


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker more than the machine has cores. Part of the suite waits rather than
    computes (real read timeouts, servers starting, a browser's timers), and a worker more keeps
    the cores busy meanwhile: on 2 cores the suite took 5:24 with 3 workers against 6:02 with 2."""
    return (os.cpu_count() or 1) + 1


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> Path:
    """A SQLite file migrated to head once per test process (each pytest-xdist worker is one); tests
    get copies, so that only tests/store/test_migrations.py runs the migrations from nothing."""
    path = tmp_path_factory.mktemp("schema") / "template.sqlite3"
    migrated = Store(f"sqlite:///{path}")
    migrated.upgrade()
    migrated.dispose()
    return path


@pytest.fixture
def migrated_instance(tmp_path, sqlite_template) -> Path:
    """An instance folder whose SQLite database is already at the newest revision."""
    folder = tmp_path / "instance"
    folder.mkdir()
    shutil.copyfile(sqlite_template, folder / DB_FILE)
    return folder
