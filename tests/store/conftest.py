"""The store's tests run twice: on SQLite and on the real PostgreSQL.

The Alembic migrations build each database once per test process (one per
pytest-xdist worker), and each test starts from empty tables:

- SQLite: one migrated file (tests/conftest.py), copied for each test.
- PostgreSQL (``TRAINER_TEST_DATABASE_URL``, default: the local server,
  database ``test``): a schema of the process's own, migrated when a test
  first asks for it and dropped at the end; after each test its rows are
  deleted and its sequences restarted.

Where PostgreSQL cannot be reached its tests skip, except in CI (``CI`` set),
where they fail: CI must run both. Tests marked ``fresh_database``
(tests/store/test_migrations.py) get a database nothing has migrated yet: a new
SQLite file, a new PostgreSQL schema.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
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


def _new_schema() -> str:
    return f"{SCHEMA_PREFIX}{os.getpid()}_{secrets.token_hex(3)}"


def _drop_schema(engine, schema: str) -> None:
    with engine.begin() as connection:
        connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture(scope="session")
def pg_engine():
    """An engine on the test PostgreSQL, its schemas of killed runs dropped (skips or fails if unreachable)."""
    problem = _pg_problem()
    if problem:
        if os.environ.get("CI"):
            pytest.fail(problem)
        pytest.skip(problem)
    engine = create_engine(PG_URL)
    if Path("/proc").is_dir():
        with engine.begin() as connection:
            _drop_stale_schemas(connection)
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def pg_schema(pg_engine):
    """This process's schema, migrated to head once."""
    schema = _new_schema()
    migrated = Store(PG_URL, schema=schema)
    migrated.upgrade()
    migrated.dispose()
    try:
        yield schema
    finally:
        _drop_schema(pg_engine, schema)


def _empty(engine, schema: str) -> None:
    """Delete every row of the schema's tables and restart its sequences (what TRUNCATE ... RESTART
    IDENTITY does, several times faster on tables this small)."""
    with engine.begin() as connection:
        connection.exec_driver_sql(f'SET LOCAL search_path TO "{schema}"')
        present = set(connection.scalars(text("SELECT tablename FROM pg_tables WHERE schemaname = :s"), {"s": schema}))
        for table in TABLES:  # children before parents
            if table in present:
                connection.exec_driver_sql(f'DELETE FROM "{table}"')
        for sequence in connection.scalars(
            text("SELECT sequencename FROM pg_sequences WHERE schemaname = :s"), {"s": schema}
        ):
            connection.exec_driver_sql(f'ALTER SEQUENCE "{sequence}" RESTART')


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """{"DATABASE_URL": ..., "DATABASE_SCHEMA": ...} for one test: migrated with empty tables, or not
    migrated at all for a test marked ``fresh_database``."""
    fresh = request.node.get_closest_marker("fresh_database") is not None
    if request.param == "sqlite":
        path = tmp_path / "store.sqlite3"
        if not fresh:
            shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield {"DATABASE_URL": f"sqlite:///{path}", "DATABASE_SCHEMA": None}
        return
    engine = request.getfixturevalue("pg_engine")
    if fresh:
        schema = _new_schema()
        try:
            yield {"DATABASE_URL": PG_URL, "DATABASE_SCHEMA": schema}
        finally:
            _drop_schema(engine, schema)
        return
    schema = request.getfixturevalue("pg_schema")
    yield {"DATABASE_URL": PG_URL, "DATABASE_SCHEMA": schema}
    _empty(engine, schema)


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
