"""The schema: Alembic builds it, it matches the models, and upgrading is safe to repeat and to race."""

from __future__ import annotations

import threading

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from click.testing import CliRunner
from sqlalchemy import inspect

from trainer.cli import main
from trainer.store import Store, migrate
from trainer.store.models import Base


def test_upgrade_builds_every_table_and_matches_the_models(store):
    with store.engine.connect() as connection:
        tables = set(inspect(connection).get_table_names())
        assert {t.name for t in Base.metadata.sorted_tables} | {"alembic_version"} <= tables
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert diff == [], "the models and the migrations disagree: write a migration"
    assert migrate.current(store.engine) == migrate.head()


def test_upgrading_again_changes_nothing(store):
    assert store.upgrade() == migrate.head()
    assert store.upgrade() == migrate.head()


def test_two_processes_starting_at_once_both_find_the_schema_ready(database):
    stores = [Store(database["DATABASE_URL"], schema=database["DATABASE_SCHEMA"]) for _ in range(3)]
    results: list[object] = []

    def run(st: Store) -> None:
        try:
            results.append(st.upgrade())
        except Exception as exc:  # reported below
            results.append(exc)

    threads = [threading.Thread(target=run, args=(st,)) for st in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for st in stores:
        st.dispose()
    assert results == [migrate.head()] * 3


def test_the_app_upgrades_at_start(app):
    store = app.extensions["trainer.store"]
    assert migrate.current(store.engine) == migrate.head()


def test_trainer_db_upgrade(database, monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", database["DATABASE_URL"])
    if database["DATABASE_SCHEMA"]:
        monkeypatch.setenv("TRAINER_DATABASE_SCHEMA", database["DATABASE_SCHEMA"])
    result = CliRunner().invoke(main, ["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert f"schema at revision {migrate.head()}" in result.output
    store = Store(database["DATABASE_URL"], schema=database["DATABASE_SCHEMA"])
    assert migrate.current(store.engine) == migrate.head()
    store.dispose()


def test_without_database_url_the_database_is_sqlite_in_the_instance_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("TRAINER_INSTANCE", str(tmp_path / "inst"))
    result = CliRunner().invoke(main, ["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "inst" / "trainer.sqlite3").is_file()
