"""What the web app keeps: the store, rate limits, and the pages built on them
(accounts, progress, exams, classroom drills). ``create_app`` calls ``init_app``."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask, Response, request

from trainer import store

from . import identity, limits


# Pages about one person: their account, progress, exams and classes.
PRIVATE = frozenset({"accounts", "progress", "exams", "classroom", "speed", "classes", "classroom_events"})


def no_store(response: Response) -> Response:
    """A page about one person is kept by no cache: not a shared one (it would show it to the next
    person) and not the browser's (Back after signing out, or after an exam moved on, would show it)."""
    if request.blueprint in PRIVATE:
        response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    if "babel" not in app.extensions:
        from flask_babel import Babel

        Babel(app)
    # The anonymous learner id lives in the session cookie: keep it for a year.
    app.config.setdefault("PERMANENT_SESSION_LIFETIME", timedelta(days=365))
    app.config["PERMANENT_SESSION_LIFETIME"] = max(app.config["PERMANENT_SESSION_LIFETIME"], timedelta(days=365))
    # Only a response that changed the session writes the cookie (see identity.keep_alive).
    app.config["SESSION_REFRESH_EACH_REQUEST"] = False
    # A session that was signed out (anywhere) ends before anything reads it.
    app.before_request(identity.check_session)
    app.before_request(identity.keep_alive)
    store.init_app(app)

    from . import accounts, classes, classroom, events, exams, progress, speed

    for blueprint in (accounts.bp, progress.bp, exams.bp, classroom.bp, classes.bp, speed.bp):
        app.register_blueprint(blueprint)
    events.init_app(app)
    app.after_request(no_store)
    _compile_templates(app)
    limits.init_app(app)


def _compile_templates(app: Flask) -> None:
    """Compile the pages a class opens all at once, before ``trainer serve`` forks: otherwise the
    first poll after "Next" finds every thread of every process compiling the same templates."""
    names = [
        n
        for n in app.jinja_env.list_templates()
        if n.startswith(("account/", "progress/", "exam/", "classroom/", "speed/", "partials/"))
    ]
    for name in names:
        app.jinja_env.get_template(name)
