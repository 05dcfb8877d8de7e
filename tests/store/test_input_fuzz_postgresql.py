"""The input fuzz of every route and form field (test_input_fuzz.py), on PostgreSQL.

A file of its own because pytest-xdist shares out whole files: in one file the
SQLite and PostgreSQL runs, the suite's two longest tests, ran one after the
other on one worker.
"""

from __future__ import annotations

import pytest

from .test_input_fuzz import SHARES, app, fuzz_every_route  # noqa: F401 (app: the fixture, served on the test database)


@pytest.mark.parametrize("share", SHARES)
@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_no_input_anywhere_gets_a_server_error(app, database, capsys, share):
    fuzz_every_route(app, database, capsys, share)
