"""The loaded scenario: ``Scenario``, its actions and texts, and ``LoadResult``."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from trainer.engine import Action, ActionKind, Declaration, Game, Hand, Step, Street
from trainer.engine.reading import read
from trainer.engine.rulings import rule

from .errors import ScenarioError, _show
from .expect import _compare


class Localized(dict):
    """Locale -> text. ``text()`` falls back to English, then to any text there is."""

    def text(self, locale: str = "en") -> str:
        for key in (locale, "en", "*"):
            if key in self:
                return self[key]
        return next(iter(self.values()), "")


@dataclass(frozen=True, kw_only=True)
class ScenarioAction:
    street: Street
    position: str
    kind: ActionKind
    amount: int | None
    text: str
    line: int

    def action(self) -> Action:
        return Action(position=self.position, kind=self.kind, amount=self.amount)


@dataclass(frozen=True, kw_only=True)
class Scenario:
    id: str
    file: str
    title: Localized
    explain: Localized | None
    topics: tuple[str, ...]
    level: int | None
    game: Game
    start: Street
    pot: int
    stacks: dict[str, int]
    names: dict[str, str]
    board: tuple[str, ...]
    hands: dict[str, tuple[str, str]]
    actions: tuple[ScenarioAction, ...]
    ask: tuple[str, ...]
    expect: dict | None
    ruling: Declaration | None = None
    winners: tuple[tuple[str, ...], ...] | None = None
    chip: int = 1
    solution: dict = field(repr=False)
    lines: dict[str, int] = field(repr=False, default_factory=dict)
    source: str | dict | None = None  # where the spot comes from (a hand history: file, hand, decision)

    def hand(self) -> Hand:
        """A fresh hand with every action of the file applied."""
        hand = Hand(game=self.game, stacks=self.stacks, start=self.start, pot=self.pot)
        for act in self.actions:
            hand.apply(act.action())
        return hand

    def solve(self) -> dict:
        return {"id": self.id, "file": self.file, **self.solution}

    @cached_property
    def played(self) -> Hand:
        """The hand with every action applied, replayed once for all who read it (the quiz, the
        seat picture, the speed drill): read it, never apply to it; ``hand()`` gives a fresh one."""
        return self.hand()

    def derivation(self) -> list[Step]:
        """The engine's explanation of the spot, then of the ruling and the split when asked."""
        return list(self._steps)

    @cached_property
    def _steps(self) -> tuple[Step, ...]:
        # worked out once, on a hand of its own: a ruling or a split reads the hand as it is
        hand = self.hand()
        steps = hand.derivation()
        if self.ruling is not None:
            steps += rule(hand, self.ruling).steps
        if "winners" in self.ask:
            steps += read(hands=self.hands, board=self.board, pots=hand.result().pots,
                          order=[s.position for s in hand.seats]).steps
        if self.winners is not None:
            steps += hand.split([list(w) for w in self.winners], self.chip)[1]
        return tuple(steps)

    def check_expect(self) -> list[ScenarioError]:
        """Every way the engine disagrees with the file's ``expect`` block."""
        if not self.expect:
            return []
        problems: list[ScenarioError] = []
        for path, want, got, line in _compare(self.expect, self.solution, "expect"):
            problems.append(
                ScenarioError(
                    self.file,
                    line,
                    path,
                    f"{path}: the file expects {_show(want)}, the engine says {_show(got)}",
                )
            )
        return problems


@dataclass(frozen=True, kw_only=True)
class LoadResult:
    scenarios: list[Scenario]
    errors: list[ScenarioError]
    in_order: list[Scenario | ScenarioError] = field(default_factory=list)  # both, in path order
