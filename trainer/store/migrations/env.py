"""Alembic environment: the caller hands in a connection (see trainer.store.migrate)."""

from alembic import context
from sqlalchemy import create_engine

from trainer.store.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        # `alembic` run by hand with -x url=...: make our own connection.
        url = context.get_x_argument(as_dictionary=True).get("url")
        if not url:
            raise SystemExit("use `trainer db upgrade`, or pass -x url=DATABASE_URL")
        with create_engine(url).begin() as own:
            _migrate(own)
        return
    _migrate(connection)


def _migrate(connection) -> None:
    # render_as_batch: SQLite alters tables by copying them; Alembic's batch mode does that.
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported; run `trainer db upgrade`")
run()
