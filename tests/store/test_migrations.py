"""The schema: Alembic builds it, it matches the models, and upgrading is safe to repeat and to race."""

from __future__ import annotations

import threading

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from click.testing import CliRunner
from sqlalchemy import inspect

from trainer.cli import main
from trainer.store import Store, migrate
from trainer.store.models import Base

from tests.store.helpers import migrated

# Every test here starts from a database nothing has migrated yet (conftest.py).
pytestmark = pytest.mark.fresh_database


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


def test_exam_trust_numbers_the_exams_sat_before_it_and_goes_back_down(store):
    from alembic import command
    from sqlalchemy import text

    at = migrated(store)

    at("0004_session_generation", command.downgrade)
    with store.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO accounts (id, email, password_hash, name, is_instructor, created_at, session_generation) "
            "VALUES (1, 'a@example.com', 'x', 'Ana', false, '2026-01-01 00:00:00', 0)"
        ))
        connection.execute(text(
            "INSERT INTO learners (id, account_id, srs_enabled, created_at) VALUES "
            "('l1', 1, false, '2026-01-01 00:00:00'), ('l2', NULL, false, '2026-01-01 00:00:00')"
        ))
        for exam_id, learner, day in (("e2", "l1", 2), ("e1", "l1", 1), ("e3", "l2", 3)):
            connection.execute(text(
                "INSERT INTO exam_attempts (id, learner_id, template, title, name, questions, time_limit_s, "
                "pass_mark, started_at, deadline) VALUES (:id, :l, 'betting-rules', 'Betting rules', 'Ana', '[]', "
                "60, 90, :t, :t)"
            ), {"id": exam_id, "l": learner, "t": f"2026-01-0{day} 00:00:00"})
    at("head", command.upgrade)
    with store.engine.connect() as connection:
        rows = connection.execute(text("SELECT id, account_id, attempt_number FROM exam_attempts ORDER BY id")).all()
    assert [tuple(r) for r in rows] == [("e1", 1, 1), ("e2", 1, 2), ("e3", None, None)]


def test_class_exams_goes_down_and_up_again_keeping_the_exams_sat(store):
    from alembic import command
    from sqlalchemy import text

    at = migrated(store)

    at("0005_exam_trust", command.downgrade)
    with store.engine.connect() as connection:
        tables = set(inspect(connection).get_table_names())
        columns = {c["name"] for c in inspect(connection).get_columns("exam_attempts")}
    assert not {"school_classes", "class_members", "class_exams"} & tables and "assignment_id" not in columns
    with store.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO learners (id, account_id, srs_enabled, created_at) VALUES ('l1', NULL, false, '2026-01-01')"
        ))
        connection.execute(text(
            "INSERT INTO exam_attempts (id, learner_id, template, title, name, questions, time_limit_s, pass_mark, "
            "started_at, deadline) VALUES ('e1', 'l1', 'mini', 'Mini', 'Ana', '[]', 60, 50, '2026-01-01', '2026-01-01')"
        ))
    at("head", command.upgrade)
    with store.engine.connect() as connection:
        assert connection.execute(text("SELECT id, assignment_id FROM exam_attempts")).all() == [("e1", None)]
        assert {"school_classes", "class_members", "class_exams"} <= set(inspect(connection).get_table_names())


def test_class_seats_keeps_the_seats_of_sessions_held_before_it(store):
    from alembic import command
    from sqlalchemy import text

    at = migrated(store)

    at("0008_ratings", command.downgrade)
    with store.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO accounts (id, email, password_hash, name, is_instructor, created_at, session_generation) "
            "VALUES (1, 't@example.com', 'x', 'T', true, '2026-01-01 00:00:00', 0)"
        ))
        connection.execute(text(
            "INSERT INTO class_sessions (id, instructor_id, title, code, mode, questions, state, current, revealed, "
            "created_at) VALUES ('c1', 1, 'x', 'ABCDEFGH', 'paced', '[]', 'live', -1, false, '2026-01-01 00:00:00')"
        ))
        # one browser took three seats (one of them removed), two of them names that read alike
        for student, name, learner, removed, second in (
            ("s1", "Alice", "l1", False, 1), ("s2", "alice", "l1", True, 2), ("s3", "Bob", "l1", False, 3),
            ("s4", "Cy", "l2", False, 4), ("s5", "Dee", None, False, 5),
        ):
            connection.execute(text(
                "INSERT INTO class_students (id, session_id, name, learner_id, removed, joined_at) "
                "VALUES (:id, 'c1', :name, :learner, :removed, :at)"
            ), {"id": student, "name": name, "learner": learner, "removed": removed,
                "at": f"2026-01-01 00:00:0{second}"})
    at("head", command.upgrade)
    with store.engine.connect() as connection:
        rows = connection.execute(text("SELECT id, name_key, learner_id FROM class_students ORDER BY id")).all()
    assert [tuple(r) for r in rows] == [
        ("s1", "alice", None), ("s2", "alice\ns2", "l1"), ("s3", "bob", None), ("s4", "cy", "l2"), ("s5", "dee", None)
    ]


def test_account_sessions_goes_down_to_the_generation_and_up_again_keeping_the_accounts(store):
    from alembic import command
    from sqlalchemy import inspect, text

    at = migrated(store)
    with store.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO accounts (id, email, password_hash, name, is_instructor, created_at) "
            "VALUES (7, 'ana@example.com', 'x', 'Ana', false, '2026-01-01')"
        ))
        connection.execute(text(
            "INSERT INTO account_sessions (id, account_id, created_at) VALUES ('s1', 7, '2026-01-01')"
        ))

    at("0008_ratings", command.downgrade)
    with store.engine.connect() as connection:
        assert "account_sessions" not in set(inspect(connection).get_table_names())
        assert connection.execute(text("SELECT id, session_generation FROM accounts")).all() == [(7, 0)]
    at("head", command.upgrade)
    with store.engine.connect() as connection:
        assert "session_generation" not in {c["name"] for c in inspect(connection).get_columns("accounts")}
        assert connection.execute(text("SELECT email FROM accounts")).all() == [("ana@example.com",)]
        assert connection.execute(text("SELECT count(*) FROM account_sessions")).scalar() == 0  # signed in again


def test_review_new_cards_keeps_the_learners_settings_and_counts_old_cards_for_no_day(store):
    from alembic import command
    from sqlalchemy import inspect, text

    from trainer.store import progress
    from trainer.store.learners import ensure_learner

    at = migrated(store)
    at("0011_history_and_misses", command.downgrade)
    with store.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO learners (id, account_id, srs_enabled, created_at) VALUES "
            "('off', NULL, false, '2026-01-01 00:00:00'), ('on', NULL, true, '2026-01-01 00:00:00')"
        ))
        connection.execute(text(
            "INSERT INTO review_cards (learner_id, scenario_id, card, due) "
            "VALUES ('on', 'spot-a', '{}', '2026-01-02 00:00:00')"
        ))
    at("head", command.upgrade)
    with store.engine.connect() as connection:
        assert "created_at" in {c["name"] for c in inspect(connection).get_columns("review_cards")}
    with store.session() as s:
        assert not progress.srs_enabled(s, "off") and progress.srs_enabled(s, "on")
        assert progress.new_today(s, "on", at=progress.now()) == 0
        made = ensure_learner(s, "new")
        s.commit()
        assert made.srs_enabled  # a learner made from now on has it on
    at("0011_history_and_misses", command.downgrade)
    with store.engine.connect() as connection:
        assert connection.execute(text("SELECT scenario_id FROM review_cards")).all() == [("spot-a",)]


def test_cert_identity_goes_down_and_up_again_keeping_the_exams_sat_unrevoked(store):
    from alembic import command
    from sqlalchemy import inspect, text

    at = migrated(store)
    at("0011_history_and_misses", command.downgrade)
    with store.engine.connect() as connection:
        columns = {c["name"] for c in inspect(connection).get_columns("exam_attempts")}
        assert not {"candidate_number", "revoked_at", "revoked_by"} & columns
        assert "review" not in {c["name"] for c in inspect(connection).get_columns("class_exams")}
    with store.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO learners (id, account_id, srs_enabled, created_at) VALUES ('l1', NULL, false, '2026-01-01')"
        ))
        connection.execute(text(
            "INSERT INTO exam_attempts (id, learner_id, template, title, name, questions, time_limit_s, pass_mark, "
            "started_at, deadline) VALUES ('e1', 'l1', 'mini', 'Mini', 'Ana', '[]', 60, 50, '2026-01-01', '2026-01-01')"
        ))
    at("head", command.upgrade)
    with store.engine.connect() as connection:
        assert connection.execute(text("SELECT name, candidate_number, revoked_at, revoked_by FROM exam_attempts")).all() == [
            ("Ana", None, None, None)]
