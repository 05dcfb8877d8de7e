"""The web app: a Flask app over the scenario library and the rules engine.

Build it with ``create_app()``; ``trainer serve`` serves it (trainer/web/serving). Each area a user
would name is a package with its own blueprint: ``home`` (home, topics, rules), ``drill``
(self-study: a spot, progress, review), ``live`` (live sessions in a classroom), ``exams`` (exams,
certificates, classes of accounts and their assigned exams, ``/verify``), ``accounts`` and
``speed`` (speed drills), ``lesson`` (the card lesson). ``core`` is what every area uses and imports no area.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from flask import Flask
from flask_babel import gettext
from jinja2 import StrictUndefined

from trainer import store
from trainer.translations import text

from .accounts import bp as accounts_bp
from .authoring import bp as authoring_bp
from .core import (
    assets,
    compiled,
    config,
    csrf,
    deck,
    errors,
    field_help,
    headers,
    i18n,
    identity,
    inputs,
    libraries,
    limits,
    proxy,
    render,
    uploads,
)
from .drill import bp as drill_bp
from .drill import progress_bp
from .editor import bp as editor_bp
from .exams import bp as exams_bp
from .exams import classes_bp
from .home import bp as home_bp
from .lesson import bp as lesson_bp
from .live import bp as live_bp
from .live import feed, streams_bp
from .speed import bp as speed_bp
from .speed import streak_bp

BLUEPRINTS = (home_bp, lesson_bp, drill_bp, progress_bp, accounts_bp, exams_bp, live_bp, streams_bp, classes_bp, speed_bp,
              streak_bp, editor_bp, authoring_bp)


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
    # The anonymous learner id lives in the session cookie: keep it for a year.
    app.config["PERMANENT_SESSION_LIFETIME"] = max(
        app.config.get("PERMANENT_SESSION_LIFETIME", timedelta(days=365)), timedelta(days=365)
    )
    # Only a response that changed the session writes the cookie (see identity.keep_alive).
    app.config["SESSION_REFRESH_EACH_REQUEST"] = False
    # Templates compiled once per process, not once per app (a reload, the tests).
    app.jinja_options = {**app.jinja_options, "bytecode_cache": compiled.TEMPLATES}
    # A misspelt template variable fails the tests instead of printing nothing.
    app.jinja_env.undefined = StrictUndefined
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    app.jinja_env.filters["chips"] = lambda n: text(i18n.current()).number(n)
    app.jinja_env.filters["levels"] = _levels
    app.jinja_env.filters["topic_name"] = libraries.topic_name
    app.jinja_env.filters["after_question"] = i18n.after_question
    app.jinja_env.filters["before_value"] = i18n.before_value
    app.jinja_env.filters["rule_name"] = _rule_name

    proxy.init_app(app)
    assets.init_app(app)
    i18n.init_app(app)
    deck.init_app(app)
    field_help.init_app(app)
    csrf.init_app(app)
    inputs.init_app(app)
    uploads.init_app(app)
    render.init_app(app)
    libraries.init_app(app)
    errors.init_app(app)
    # A session that was signed out (anywhere) ends before anything reads it.
    app.before_request(identity.check_session)
    app.before_request(identity.keep_alive)
    store.init_app(app)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    feed.init_app(app)
    headers.init_app(app)
    limits.init_app(app)
    compiled.warm(app)

    @app.context_processor
    def problem_count() -> dict[str, int]:
        return {"problem_count": len(libraries.library().problems)}

    return app


def _rule_name(rule_id: str) -> str:
    """A rule's name in the page's language ("Minimum raise"), for learners who do not know its ID."""
    from trainer.translations.engine import rule_text

    try:
        return rule_text(rule_id, i18n.current()).title
    except KeyError:  # a rule the engine no longer has, in an old answer's record
        return rule_id


def _levels(levels: tuple[int, ...]) -> str:
    if len(levels) == 1:
        return gettext("level %(level)s", level=levels[0])
    if list(levels) == list(range(levels[0], levels[-1] + 1)):
        return gettext("levels %(first)s–%(last)s", first=levels[0], last=levels[-1])
    return gettext("levels %(levels)s", levels=gettext(", ").join(str(n) for n in levels))
