"""The neutral hand every parser produces, and the reasons a hand is refused.

A parser reads a site's text into ``HandRecord``s; it checks the text's shape
(is this a hold'em hand, are its amounts numbers) but not the rules: the
engine checks those when the hand is replayed (``trainer.importer.spots``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from trainer.engine import GameType, Street


class Verb(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    CHECK_OR_CALL = "check or call"  # PHH's ``cc``: which one is the engine's to say
    ALLIN = "allin"  # partypoker's "is all-In [X]": a call, bet or raise, as the engine says


@dataclass(frozen=True, kw_only=True)
class Move:
    """One voluntary action as the hand history wrote it.

    ``to`` is the player's street total after a bet or raise; ``added`` the
    chips a call put in, when the site wrote them (PHH does not), or the chips
    a raise put in, for a site that writes those instead of the total."""

    street: Street
    player: str  # the name the hand history uses
    verb: Verb
    to: int | None = None
    added: int | None = None
    all_in: bool = False
    line: int


@dataclass(frozen=True, kw_only=True)
class HandRecord:
    """One hand, read but not yet checked against the rules.

    ``players`` are the players dealt in, from the small blind clockwise to
    the button (heads-up: the big blind, then the button)."""

    file: str
    hand: str  # the hand's number as the site wrote it
    line: int  # where the hand starts in its file
    game_type: GameType
    blinds: tuple[int, int]
    ante: int = 0
    bb_ante: int = 0
    straddles: tuple[int, ...] = ()
    players: tuple[str, ...]
    stacks: dict[str, int]  # name -> chips before the blinds and antes
    moves: tuple[Move, ...]
    end_line: int  # the hand's last line: where a hand that stops too soon is reported


class Refused(StrEnum):
    """Why a hand (or a whole file) is not imported; the report counts by these."""

    OTHER_GAME = "another game"
    RULES = "breaks the rules"
    TRUNCATED = "truncated"
    UNSUPPORTED = "not supported"
    UNREADABLE = "unreadable"
    TOO_LARGE = "over the limits"
    REPEAT = "a repeat"


class HandError(Exception):
    """A hand that cannot be imported: where it is and why, in a sentence."""

    def __init__(self, kind: Refused, line: int | None, message: str, hand: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.line = line
        self.message = message
        self.hand = hand


@dataclass(frozen=True, kw_only=True)
class Refusal:
    file: str
    hand: str | None  # None when the whole file is refused
    line: int | None
    kind: Refused
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        hand = f" hand {self.hand}" if self.hand is not None else ""
        return f"{where}:{hand} {self.kind}: {self.message}"
