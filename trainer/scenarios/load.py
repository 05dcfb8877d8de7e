"""One scenario from a file, its bytes, its text, or the values a program would write into one."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path

from .errors import ScenarioError
from .model import Scenario
from .read import MAX_FILE_BYTES, _decode, _from_values, _read_yaml
from .validate import validated


def load_file(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        # O_NONBLOCK: opening a named pipe must not wait for a writer.
        with open(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise ScenarioError(str(path), 1, None, "not a regular file: a scenario is a text file")
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ScenarioError(str(path), None, None, f"cannot read the file: {exc.strerror}") from None
    return load_bytes(data, str(path))


def load_bytes(data: bytes, file: str) -> Scenario:
    """``load_text`` for a file's bytes: UTF-8 (a leading BOM is allowed), at most ``MAX_FILE_BYTES``."""
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError(file, 1, None, f"the file is larger than {MAX_FILE_BYTES:,} bytes: a scenario is one spot")
    return load_text(_decode(data, file), file)


def load_text(text: str, file: str) -> Scenario:
    """Parse, validate and replay one scenario; raise ``ScenarioError`` on the first problem."""
    return validated(_read_yaml(text, file), file)


def load_document(document: Mapping, file: str) -> Scenario:
    """``load_text`` for a scenario given as Python values, e.g. a generated spot's ``document``.

    The same checks as for a file, without writing and reading YAML: the values are
    those ``yaml.safe_dump`` would write (texts, whole numbers, booleans, ``None``,
    lists and mappings; tuples count as lists), and the scenario is the one
    ``load_text`` gives for that dump, except that nothing has a line (``None``).
    """
    return validated(_from_values(document, file), file)
