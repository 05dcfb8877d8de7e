"""The app as ``trainer serve`` builds it and as a stopping server process leaves it, on either server."""

from __future__ import annotations

import gc
import logging

from flask import Flask

from trainer.web import create_app

log = logging.getLogger(__name__)


def build(scenarios: str | None) -> Flask:
    app = create_app({"SCENARIO_DIRS": [scenarios]} if scenarios else None)
    # The scenario libraries are built and never freed: keep the collector from walking them again
    # and again (its pauses were the drill page's slowest responses), and the forked processes
    # from copying their pages by touching them.
    gc.collect()
    gc.freeze()
    return app


def finish(app: Flask) -> None:
    """A stopping server process stores the graded answers it still holds (trainer/store/writer.py)."""
    try:
        app.extensions["trainer.store"].attempts.close()
    except Exception:
        log.exception("could not store the last graded answers")
