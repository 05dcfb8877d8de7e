"""Hand histories in, drills out: PHH and the poker clients' text -> scenario spots.

Parsers per format (``phh``, ``text``) read a file into neutral
``HandRecord``s; ``spots`` replays each through the engine, which checks the
hand and answers every decision; ``api.import_files`` ties them together and
reports each hand it refuses with its file, hand number, line and reason.
"""

from .api import FileCount, Limits, Report, import_files, records
from .model import HandError, HandRecord, Move, Refusal, Refused, Verb
from .spots import Mode, Spot, replay

__all__ = [
    "FileCount", "HandError", "HandRecord", "Limits", "Mode", "Move", "Refusal", "Refused", "Report", "Spot", "Verb",
    "import_files", "records", "replay",
]
