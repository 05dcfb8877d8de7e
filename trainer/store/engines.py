"""Engines and sessions: SQLite in the instance folder by default, PostgreSQL when asked.

SQLite is the laptop default and several waitress processes may write to
the same file, so it runs in WAL mode and every transaction starts with
``BEGIN IMMEDIATE``: a writer waits its turn (busy timeout) instead of
failing with "database is locked" when a read turns into a write.
PostgreSQL connections are checked before use, so a restarted server costs
at most the requests that were running at that moment.
"""

from __future__ import annotations

import os
import sqlite3
import time
import weakref
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

DB_FILE = "trainer.sqlite3"


class DatabaseUnusable(RuntimeError):
    """The database the settings name cannot be used; the message (one line) names the setting and why."""

SQLITE_BUSY_SECONDS = 30


def default_url(instance_path: str | os.PathLike) -> str:
    folder = Path(instance_path)
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / DB_FILE}"


def normalize_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` (as hosting services write them) use psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def shown_url(url: str) -> str:
    """The URL without its password, for logs."""
    return make_url(url).render_as_string(hide_password=True)


def make_engine(url: str, *, schema: str | None = None) -> Engine:
    url = normalize_url(url)
    if make_url(url).get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_SECONDS})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    else:
        engine = create_engine(
            url,
            pool_pre_ping=True,
            pool_size=8,
            max_overflow=8,
            pool_timeout=10,
            connect_args={"connect_timeout": 5},
        )
        if schema:
            event.listen(engine, "connect", _search_path(schema))
    # A forked server process must not share its parent's open connections.
    ref = weakref.ref(engine)
    os.register_at_fork(after_in_child=lambda: (e := ref()) is not None and e.dispose(close=False))
    return engine


def _sqlite_connect(dbapi_connection, _record) -> None:
    # The driver's own transaction handling is off: _sqlite_begin says BEGIN IMMEDIATE.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    _wal(cursor)
    # Every statement runs in a transaction _sqlite_begin opens, waiting for the lock itself: once
    # it holds the write lock nothing in the transaction waits for another connection, so SQLite's
    # own busy timeout (sleeps of up to 100 ms) is off for good, not switched off and on for each
    # transaction (two more statements, each giving up the interpreter lock and waiting to get it back).
    cursor.execute("PRAGMA busy_timeout=0")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _wal(cursor) -> None:
    """Switch a new database file to WAL. The switch needs the file to itself, and the busy
    timeout does not cover it: processes starting together take turns here."""
    deadline = time.monotonic() + SQLITE_BUSY_SECONDS
    while cursor.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _sqlite_begin(connection) -> None:
    """BEGIN IMMEDIATE, waiting for another writer in short steps.

    SQLite's own busy timeout sleeps in steps of up to 100 ms, which under a
    class's worth of concurrent answers turns a sub-millisecond write into a
    wait of a tenth of a second; writers here hold the lock for well under a
    millisecond, so poll for it in steps of a fraction of one.
    """
    raw = connection.connection.dbapi_connection
    deadline = time.monotonic() + SQLITE_BUSY_SECONDS
    pause = 0.0002
    while True:
        try:
            raw.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.002)


def _search_path(schema: str):
    def connect(dbapi_connection, _record) -> None:
        autocommit = dbapi_connection.autocommit
        dbapi_connection.autocommit = True
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f'SET search_path TO "{schema}"')
        dbapi_connection.autocommit = autocommit

    return connect


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
