"""``trainer db``: the database commands, on the app's command line as a Flask app's are.

They run in the app's context (``flask --app trainer.web db upgrade`` works
too), so they see the same settings as the app: ``DATABASE_URL``,
``TRAINER_DATABASE_SCHEMA``, ``TRAINER_INSTANCE``. ``trainer.cli`` builds that
app without its own upgrade at start, so ``db upgrade`` is the one that runs.
"""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import AppGroup

from trainer.store.engines import DatabaseUnusable, shown_url

db = AppGroup("db", help="The database: learners' progress, exams and classroom sessions.")


@db.command("upgrade")
def upgrade() -> None:
    """Bring the database schema up to date (the app also does this when it starts)."""
    store = current_app.extensions["trainer.store"]
    try:
        revision = store.upgrade()
    except DatabaseUnusable as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{shown_url(store.url)}: schema at revision {revision}")
