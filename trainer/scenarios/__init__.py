"""Scenario files (YAML) -> validated ``Scenario`` objects.

The format is a contract shared with other tools (SCENARIO-FORMAT.md):
every key it allows loads, anything else is an error that names the file,
the line, the key and what is wrong.

Reading goes one way through the modules of this package:

- ``read``: YAML text -> mappings and lists that remember their lines, within bounds
- ``validate``: those values -> a ``Scenario``, checked key by key and replayed through the engine
- ``model``: ``Scenario``, ``ScenarioAction``, ``Localized``, ``LoadResult``
- ``expect``: a file's ``expect`` block compared with the engine's solution
- ``load``: one scenario from a file, its bytes, its text, or Python values (``load_document``)
- ``pool``: many files, with unique ids, in loading processes for large libraries
- ``errors``: ``ScenarioError`` and how a file's values are quoted in messages

The names below are the package's public API; import them from ``trainer.scenarios``.
"""

from .errors import MAX_MESSAGE, MAX_SHOWN, ScenarioError
from .load import load_bytes, load_document, load_file, load_text
from .model import Localized, LoadResult, Scenario, ScenarioAction
from .pool import FILE_SECONDS, PARALLEL_FROM, NoScenarioFiles, load_paths, scenario_files
from .read import MAX_DEPTH, MAX_DIGITS, MAX_FILE_BYTES, MAX_VALUES
from .validate import (
    AMOUNT_RE,
    BEST_HAND_KEYS,
    CARD_KEYS,
    CARD_RE,
    EXPECT_KEYS,
    GAME_KEYS,
    ID_RE,
    LOCALES,
    MAX_AMOUNT,
    OPTION_KEYS,
    POT_KEYS,
    QUESTION_KINDS,
    RULE_KEYS,
    RULING_KEYS,
    SHOWDOWN_KEYS,
    TOO_LARGE,
    TOP_KEYS,
    TOPIC_RE,
    VERBS,
)

__all__ = [
    "AMOUNT_RE", "BEST_HAND_KEYS", "CARD_KEYS", "CARD_RE", "EXPECT_KEYS", "FILE_SECONDS", "GAME_KEYS",
    "ID_RE", "LOCALES", "MAX_AMOUNT", "MAX_DEPTH", "MAX_DIGITS", "MAX_FILE_BYTES", "MAX_MESSAGE",
    "MAX_SHOWN", "MAX_VALUES", "NoScenarioFiles", "OPTION_KEYS", "PARALLEL_FROM", "POT_KEYS", "QUESTION_KINDS", "RULE_KEYS",
    "RULING_KEYS", "SHOWDOWN_KEYS", "TOO_LARGE", "TOP_KEYS", "TOPIC_RE", "VERBS",
    "Localized", "LoadResult", "Scenario", "ScenarioAction", "ScenarioError",
    "load_bytes", "load_document", "load_file", "load_paths", "load_text", "scenario_files",
]
