"""``trainer serve``: the app under waitress, a production WSGI server.

Waitress is pure Python, runs the same on Linux, macOS and Windows, and
serves with a pool of threads in one process; the app keeps its scenario
library in memory and only reads it, so threads share it safely.
"""

from __future__ import annotations

import logging
import os

import waitress

from . import create_app

DEFAULT_THREADS = 8


def url_for_host(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def run(host: str, port: int, scenarios: str | None) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app({"SCENARIO_DIRS": [scenarios]} if scenarios else None)
    threads = int(os.environ.get("TRAINER_THREADS", DEFAULT_THREADS))
    logging.getLogger(__name__).info("Holdem Rules Trainer: open %s in a browser", url_for_host(host, port))
    waitress.serve(app, host=host, port=port, threads=threads, ident="holdem-rules-trainer")
