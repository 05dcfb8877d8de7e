"""The app's memory: learners, attempts, review cards, exams and classroom sessions.

SQLAlchemy 2.x models (``models``), Alembic migrations (``migrations/``,
applied by ``migrate.upgrade``), and one database session per request
(``db()``). SQLite in the instance folder unless the ``DATABASE_URL`` setting names
another database (PostgreSQL: ``postgresql://user@host/db``). Nothing that
matters is kept in process memory, so several app processes sharing one
PostgreSQL behave as one app.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from functools import partial
from typing import Any

from flask import Flask, current_app, g
from sqlalchemy import Engine
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from trainer.store import migrate
from trainer.store.cli import db as db_commands
from trainer.store.engines import (
    DatabaseUnusable,
    default_url,
    make_engine,
    normalize_url,
    session_factory,
    shown_url,
)
from trainer.store.progress import NEW_PER_DAY, record_many
from trainer.store.writer import BatchWriter

log = logging.getLogger(__name__)

EXTENSION = "trainer.store"


INSTANCE_SQLITE = "TRAINER_INSTANCE (the SQLite file in the instance folder)"


def _reason(exc: BaseException) -> str:
    """The driver's own first line (psycopg adds hints on the next ones)."""
    told = str(getattr(exc, "orig", None) or exc).strip()
    return told.splitlines()[0] if told else type(exc).__name__


class Store:
    def __init__(self, url: str, *, schema: str | None = None, setting: str = "DATABASE_URL",
                 new_per_day: int = NEW_PER_DAY) -> None:
        self.url = normalize_url(url)
        self.schema = schema
        self.setting = setting  # what the messages blame: where the URL came from
        try:
            self.engine: Engine = make_engine(self.url, schema=schema)
        except (ArgumentError, ImportError) as exc:  # not a URL, or no dialect or driver for it
            raise DatabaseUnusable(f"{setting}: not a database this app can use: {_reason(exc)}") from None
        self.sessions: sessionmaker[Session] = session_factory(self.engine)
        # Graded drill answers: handed to a thread that stores them in batches (writer.py).
        # At most ``new_per_day`` new review cards a learner a day (progress.py).
        self.attempts = BatchWriter(self.session, partial(record_many, new_per_day=new_per_day), name="attempts")

    def upgrade(self) -> str | None:
        self.reachable()
        return migrate.upgrade(self.engine, schema=self.schema)

    def reachable(self) -> None:
        """Connect once, so that a server that is down or a file that cannot be opened is a sentence
        naming the setting, not a traceback from the first migration."""
        try:
            with self.engine.connect():
                pass
        except DBAPIError as exc:
            raise DatabaseUnusable(f"{self.setting}: cannot open {shown_url(self.url)}: {_reason(exc)}") from None

    def session(self) -> Session:
        return self.sessions()

    def dispose(self) -> None:
        self.attempts.close()
        self.engine.dispose()


def database_url(config: Mapping[str, Any], instance_path: str) -> str:
    """The app's ``DATABASE_URL`` setting (trainer/web/core/config.py), else SQLite in the instance folder."""
    return config.get("DATABASE_URL") or default_url(instance_path)


def database_schema(config: Mapping[str, Any]) -> str | None:
    return config.get("DATABASE_SCHEMA") or None


def init_app(app: Flask) -> Store:
    store = Store(_url(app), schema=database_schema(app.config),
                  setting="DATABASE_URL" if app.config.get("DATABASE_URL") else INSTANCE_SQLITE,
                  new_per_day=app.config.get("NEW_REVIEWS_PER_DAY", NEW_PER_DAY))
    if app.config.get("DATABASE_UPGRADE", True):
        revision = store.upgrade()
        log.info("database %s at revision %s", shown_url(store.url), revision)
    # Processes forked after this point open their own connections.
    store.engine.dispose()
    app.extensions[EXTENSION] = store
    app.teardown_appcontext(_close)
    app.cli.add_command(db_commands)  # flask --app trainer.web db upgrade; trainer db upgrade
    return store


def _url(app: Flask) -> str:
    try:
        return database_url(app.config, app.instance_path)
    except OSError as exc:  # the instance folder, made for the SQLite file, cannot be
        raise DatabaseUnusable(f"{INSTANCE_SQLITE}: cannot make {app.instance_path}: {exc.strerror or exc}") from None


def store() -> Store:
    return current_app.extensions[EXTENSION]


def db() -> Session:
    """The request's database session (closed, rolled back if not committed, when the request ends)."""
    session = g.get("_trainer_db")
    if session is None:
        session = g._trainer_db = store().session()
    return session


def release_db() -> None:
    """Close the request's database session now, for a response that goes on without the database
    (an event stream); ``db()`` opens a new one if it is asked again."""
    session = g.pop("_trainer_db", None)
    if session is not None:
        session.close()


def _close(_exc: BaseException | None) -> None:
    release_db()
