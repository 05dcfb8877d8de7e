"""The store's tests run twice: on SQLite (a file per test) and on the real PostgreSQL.

PostgreSQL: ``TRAINER_TEST_DATABASE_URL`` (default: the local server, database
``test``). Each test session works in a schema of its own, made on first use
and dropped at the end; after each test its tables are emptied. Where
PostgreSQL cannot be reached those tests skip, except in CI (``CI`` set),
where they fail: CI must run both.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from trainer.store import Store
from trainer.store.engines import normalize_url
from trainer.store.models import Base

PG_URL = normalize_url(os.environ.get("TRAINER_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"))
SCENARIOS = Path(__file__).resolve().parents[1] / "web" / "scenarios"
SCHEMA_PREFIX = "trainer_test_"
TABLES = [t.name for t in reversed(Base.metadata.sorted_tables)]


def _pg_problem() -> str | None:
    try:
        engine = create_engine(PG_URL, connect_args={"connect_timeout": 3})
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        engine.dispose()
    except Exception as exc:  # any reason at all: say it
        return f"PostgreSQL at {PG_URL} cannot be reached: {exc.__class__.__name__}: {str(exc).splitlines()[0]}"
    return None


def _drop_stale_schemas(connection) -> None:
    """Schemas left by test runs that were killed (their process is gone)."""
    for (name,) in connection.execute(
        text("SELECT nspname FROM pg_namespace WHERE nspname LIKE :p"), {"p": SCHEMA_PREFIX + "%"}
    ):
        match = re.fullmatch(SCHEMA_PREFIX + r"(\d+)_[0-9a-f]+", name)
        if match and not Path(f"/proc/{match.group(1)}").exists():
            connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


@pytest.fixture(scope="session")
def pg_schema():
    problem = _pg_problem()
    if problem:
        if os.environ.get("CI"):
            pytest.fail(problem)
        pytest.skip(problem)
    schema = f"{SCHEMA_PREFIX}{os.getpid()}_{secrets.token_hex(3)}"
    engine = create_engine(PG_URL)
    with engine.begin() as connection:
        if Path("/proc").is_dir():
            _drop_stale_schemas(connection)
    try:
        yield schema
    finally:
        with engine.begin() as connection:
            connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """{"DATABASE_URL": ..., "DATABASE_SCHEMA": ...} for one test, empty at the start."""
    if request.param == "sqlite":
        yield {"DATABASE_URL": f"sqlite:///{tmp_path / 'store.sqlite3'}", "DATABASE_SCHEMA": None}
        return
    schema = request.getfixturevalue("pg_schema")
    yield {"DATABASE_URL": PG_URL, "DATABASE_SCHEMA": schema}
    engine = create_engine(PG_URL)
    with engine.begin() as connection:
        exists = connection.scalar(text("SELECT 1 FROM pg_namespace WHERE nspname = :s"), {"s": schema})
        if exists:
            connection.exec_driver_sql(f'SET LOCAL search_path TO "{schema}"')
            present = set(
                connection.scalars(text("SELECT tablename FROM pg_tables WHERE schemaname = :s"), {"s": schema})
            )
            names = ", ".join(f'"{t}"' for t in TABLES if t in present)
            if names:
                connection.exec_driver_sql(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
    engine.dispose()


@pytest.fixture
def store(database):
    made = Store(database["DATABASE_URL"], schema=database["DATABASE_SCHEMA"])
    made.upgrade()
    yield made
    made.dispose()


@pytest.fixture
def s(store):
    with store.session() as session:
        yield session


def running_app(database, tmp_path, **settings):
    """An app on the test database (for a fixture to yield), its store disposed afterwards."""
    from trainer.web import create_app

    made = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SCENARIO_DIRS": [str(SCENARIOS)],
            "INSTANCE_DIR": str(tmp_path / "instance"),
            **settings,
            **database,
        }
    )
    yield made
    made.extensions["trainer.store"].dispose()


@pytest.fixture
def app(database, tmp_path):
    yield from running_app(database, tmp_path)


@pytest.fixture
def client(app):
    return app.test_client()
