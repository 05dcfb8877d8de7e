"""Compiled templates kept for the life of the process (Jinja's bytecode cache, in memory).

Every app compiles its templates (``persistence._compile_templates`` does the
pages a class opens all at once). A second app in the same process, as
``trainer serve`` builds on SIGHUP or as the tests build by the hundred,
would compile the same sources again: about a second per app. Jinja keys
each template by its name and checks a hash of its source before using what
was kept, so a changed file is compiled anew. What the compiled code also
depends on (the block delimiters, whitespace control, extensions,
autoescaping) is part of the key here, so two environments set up
differently never share code.
"""

from __future__ import annotations

import threading
from typing import Any

from cachetools import LRUCache
from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from jinja2.environment import Environment

# One compiled module per template file and environment setting: a few hundred KB for the app's
# templates. A template whose source changed replaces its entry (same key).
MAX_TEMPLATES = 1_000


def _setting(environment: Environment) -> tuple[Any, ...]:
    """What, besides the source, goes into a template's compiled code."""
    escape = environment.autoescape
    return (
        environment.block_start_string, environment.block_end_string,
        environment.variable_start_string, environment.variable_end_string,
        environment.comment_start_string, environment.comment_end_string,
        environment.line_statement_prefix, environment.line_comment_prefix,
        environment.trim_blocks, environment.lstrip_blocks, environment.newline_sequence,
        environment.keep_trailing_newline, environment.optimized, environment.is_async,
        tuple(sorted(environment.extensions)),
        escape if isinstance(escape, bool) else getattr(escape, "__module__", "") + "." + getattr(escape, "__qualname__", ""),
    )


class InMemory(BytecodeCache):
    """Jinja's ``BytecodeCache`` over a dict shared by every app of the process."""

    def __init__(self) -> None:
        self._kept: LRUCache[tuple[Any, ...], bytes] = LRUCache(maxsize=MAX_TEMPLATES)
        self._lock = threading.Lock()  # cachetools' caches are not thread-safe; gunicorn's threads compile too

    def load_bytecode(self, bucket: Bucket) -> None:
        with self._lock:
            code = self._kept.get((_setting(bucket.environment), bucket.key))
        if code is not None:
            bucket.bytecode_from_string(code)  # Jinja drops it if the source's hash differs

    def dump_bytecode(self, bucket: Bucket) -> None:
        key = (_setting(bucket.environment), bucket.key)
        code = bucket.bytecode_to_string()
        with self._lock:
            self._kept[key] = code

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


TEMPLATES = InMemory()


def warm(app: Flask) -> None:
    """Compile the pages a class opens all at once, before ``trainer serve`` forks: otherwise the
    first poll after "Next" finds every thread of every process compiling the same templates."""
    names = [
        n
        for n in app.jinja_env.list_templates()
        if n.startswith(("account/", "progress/", "exam/", "classroom/", "speed/", "partials/"))
    ]
    for name in names:
        app.jinja_env.get_template(name)
