"""Where the app's files are: templates, static files, the sample scenario library and the exam catalogue.

The project keeps them at the top of the repository, where they are known.
A built wheel carries them inside the package, under ``trainer/_data/``
(pyproject.toml's ``force-include``), so an installed app finds them through
``importlib.resources`` from any folder; a checkout (an editable install)
has no ``_data`` and reads the repository's own folders.

>>> folder("templates").name
'templates'
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
NAMES = ("templates", "static", "scenarios", "exams")


def folder(name: str) -> Path:
    """The folder ``name`` (one of ``NAMES``) of this installation."""
    if name not in NAMES:
        raise ValueError(f"unknown resource folder {name!r}; one of {', '.join(NAMES)}")
    packaged = files("trainer") / "_data" / name
    if packaged.is_dir():
        return Path(str(packaged))
    return REPO_ROOT / name
