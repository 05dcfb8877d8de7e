"""The web drill: a Flask app over the scenario library and the rules engine.

Build it with ``create_app()``; serve it with ``trainer.web.serve.run``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app
from flask_babel import gettext
from htmx_flask import Htmx
from jinja2 import StrictUndefined

from trainer.translations import text

from . import assets, cache, compiled, config, csrf, deck, i18n, inputs, proxy, render
from .library import Library, load_libraries, topic_name

EXTENSION = "trainer.library"
EXAM_POOL = "trainer.exam_pool"  # hand-written exam spots: not in the library the drill serves


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    settings = config.settings(test_config)
    app = Flask(
        __name__,
        template_folder=os.path.abspath(settings["TEMPLATES_DIR"]),
        static_folder=os.path.abspath(settings["STATIC_DIR"]),
        instance_path=os.path.abspath(settings["INSTANCE_DIR"]) if settings["INSTANCE_DIR"] else None,
        instance_relative_config=True,
    )
    app.config.update(settings)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = config.instance_secret(app.instance_path)
    # Templates compiled once per process, not once per app (a reload, the tests).
    app.jinja_options = {**app.jinja_options, "bytecode_cache": compiled.TEMPLATES}
    # A misspelt template variable fails the tests instead of printing nothing.
    app.jinja_env.undefined = StrictUndefined
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    app.jinja_env.filters["chips"] = lambda n: text(i18n.current()).number(n)
    app.jinja_env.filters["levels"] = _levels
    app.jinja_env.filters["topic_name"] = topic_name
    app.jinja_env.filters["after_question"] = i18n.after_question
    app.jinja_env.filters["before_value"] = i18n.before_value

    proxy.init_app(app)
    assets.init_app(app)
    Htmx(app)
    i18n.init_app(app)
    deck.init_app(app)
    csrf.init_app(app)
    inputs.init_app(app)
    cache.init_app(app)
    render.init_app(app)

    # Loaded once, one library per language: requests only read them.
    app.extensions[EXTENSION] = load_libraries([str(d) for d in app.config["SCENARIO_DIRS"]])
    app.extensions[EXAM_POOL] = load_libraries([str(d) for d in app.config["SCENARIO_DIRS"]], exam_pool=True)

    from . import drill, errors, pages, persistence

    app.register_blueprint(pages.bp)
    app.register_blueprint(drill.bp)
    errors.init_app(app)
    persistence.init_app(app)

    @app.context_processor
    def problem_count() -> dict[str, int]:
        return {"problem_count": len(library().problems)}

    return app


def library() -> Library:
    """The scenario library in the request's language."""
    return current_app.extensions[EXTENSION][i18n.current()]


def exam_pool() -> Library:
    """The exams' own hand-written spots in the request's language."""
    return current_app.extensions[EXAM_POOL][i18n.current()]


def _levels(levels: tuple[int, ...]) -> str:
    if len(levels) == 1:
        return gettext("level %(level)s", level=levels[0])
    if list(levels) == list(range(levels[0], levels[-1] + 1)):
        return gettext("levels %(first)s–%(last)s", first=levels[0], last=levels[-1])
    return gettext("levels %(levels)s", levels=gettext(", ").join(str(n) for n in levels))
