"""Bring the schema up to date with Alembic, from the app at start or ``trainer db upgrade``.

Several app processes may start at once against one PostgreSQL: an advisory
lock lets one migrate while the others wait, then find nothing to do.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

MIGRATIONS = Path(__file__).parent / "migrations"
LOCK_ID = 7_162_534  # any number that is this app's own


def config(connection=None, schema: str | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    cfg.attributes["schema"] = schema
    return cfg


def upgrade(engine: Engine, revision: str = "head", *, schema: str | None = None) -> str | None:
    """Upgrade to ``revision``; returns the revision the database is at afterwards."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": LOCK_ID})
            if schema:
                connection.exec_driver_sql(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
                connection.exec_driver_sql(f'SET LOCAL search_path TO "{schema}"')
        at = MigrationContext.configure(connection).get_current_revision()
        if revision == "head" and at is not None and at == head():
            return at  # nothing to do: Alembic would read every migration file to find that out
        command.upgrade(config(connection, schema), revision)
        return MigrationContext.configure(connection).get_current_revision()


@cache
def head() -> str | None:
    """The newest revision of the migrations this package ships (read once a process: the files
    do not change under a running app)."""
    return ScriptDirectory.from_config(config()).get_current_head()


def current(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
