"""``trainer db upgrade``: the same settings as the app (DATABASE_URL, TRAINER_INSTANCE), no app."""

from __future__ import annotations

import os

from flask import Flask

from . import Store, database_schema, database_url
from .db import shown_url


def upgrade() -> str:
    instance = os.environ.get("TRAINER_INSTANCE", "").strip() or None
    # Flask works out the default instance folder exactly as the app does.
    instance_path = Flask("trainer.web", instance_path=os.path.abspath(instance) if instance else None).instance_path
    store = Store(database_url({}, instance_path), schema=database_schema({}))
    try:
        revision = store.upgrade()
    finally:
        store.dispose()
    return f"{shown_url(store.url)}: schema at revision {revision}"
