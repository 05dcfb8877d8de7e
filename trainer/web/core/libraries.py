"""The scenario library and the exams' own spots, loaded once per app, in the request's language."""

from __future__ import annotations

import logging

from flask import Flask, current_app

from trainer.library.exams import ExamTemplate, load_templates
from trainer.resources import folder

from trainer.library import Library, load_libraries
from trainer.library import topic_name as _topic_name

from .i18n import current

EXTENSION = "trainer.library"
EXAM_POOL = "trainer.exam_pool"  # hand-written exam spots: not in the library the drill serves
EXAMS = "trainer.exams"

log = logging.getLogger(__name__)


def init_app(app: Flask) -> None:
    # Loaded once, one library per language: requests only read them.
    folders = [str(d) for d in app.config["SCENARIO_DIRS"]]
    app.extensions[EXTENSION] = load_libraries(folders)
    app.extensions[EXAM_POOL] = load_libraries(folders, exam_pool=True)
    templates, problems = load_templates(folder("exams"))
    for problem in problems:  # the other templates are still sat
        log.error("exam template not loaded: %s", problem)
    app.extensions[EXAMS] = templates


def exam_templates() -> tuple[ExamTemplate, ...]:
    """The exam catalogue (exams/*.yaml), as loaded at start."""
    return current_app.extensions[EXAMS]


def library() -> Library:
    """The scenario library in the request's language."""
    return current_app.extensions[EXTENSION][current()]


def exam_pool() -> Library:
    """The exams' own hand-written spots in the request's language."""
    return current_app.extensions[EXAM_POOL][current()]


def topic_name(slug: str) -> str:
    """A topic's title in the request's language."""
    return _topic_name(slug, current())
