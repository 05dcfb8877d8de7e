"""The input fuzz of every route and form field (test_input_fuzz.py), on PostgreSQL.

A file of its own because pytest-xdist shares out whole files: in one file the
SQLite and PostgreSQL runs, the suite's two longest tests, ran one after the
other on one worker.

Its default run sends each input an eighth of the values (SQLite's sends a quarter), still
each input starting one value further than the one before, so every value (the NUL byte, the
integer past a column, the 5,000-character string that PostgreSQL alone refuses) still reaches
many inputs of every kind. A request costs about three times as much here as on SQLite.
``-m slow`` sends every value everywhere.
"""

from __future__ import annotations

import pytest

from .test_input_fuzz import app, fuzz_every_route  # noqa: F401 (app: the fixture, served on the test database)

SHARES = [pytest.param(8, id="eighth"), pytest.param(1, id="every-value", marks=pytest.mark.slow)]


@pytest.mark.parametrize("share", SHARES)
@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_no_input_anywhere_gets_a_server_error(app, database, capsys, share):
    fuzz_every_route(app, database, capsys, share)
