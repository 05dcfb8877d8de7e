"""``ScenarioError``, and how a file's values are quoted in messages (bounded, whatever the file holds)."""

from __future__ import annotations

from collections.abc import Mapping

MAX_SHOWN = 60
"""Characters of a file's value echoed in a message."""
MAX_MESSAGE = 500
"""Characters of one message: the start and the end are kept."""


class ScenarioError(ValueError):
    """A problem in a scenario file: ``str()`` is ``file:line: message``."""

    def __init__(self, file: str, line: int | None, key: str | None, message: str):
        self.file = file
        self.line = line
        self.key = key
        if len(message) > MAX_MESSAGE:  # whatever the file holds, a message stays readable
            message = message[: MAX_MESSAGE - 160] + " … " + message[-157:]
        self.message = message
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {message}")

    def __reduce__(self):
        return (ScenarioError, (self.file, self.line, self.key, self.message))


def _clip(text: str, limit: int = MAX_SHOWN) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _show(value) -> str:
    """A value as the file wrote it, at most ``MAX_SHOWN`` characters (however large the value)."""
    size = 0
    pieces = []
    for piece in _pieces(value):
        pieces.append(piece)
        size += len(piece)
        if size > MAX_SHOWN:
            return "".join(pieces)[: MAX_SHOWN - 1] + "…"
    return "".join(pieces)


def _pieces(value):
    if value is None:
        yield "null"
    elif isinstance(value, bool):
        yield "true" if value else "false"
    elif isinstance(value, str):
        yield f'"{value[:MAX_SHOWN]}"'
    elif isinstance(value, Mapping):
        yield "{"
        for i, (key, item) in enumerate(value.items()):
            yield f"{', ' if i else ''}{str(key)[:MAX_SHOWN]}: "
            yield from _pieces(item)
        yield "}"
    elif isinstance(value, list):
        yield "["
        for i, item in enumerate(value):
            if i:
                yield ", "
            yield from _pieces(item)
        yield "]"
    else:
        yield str(value)[:MAX_SHOWN]
