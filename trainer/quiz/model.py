"""What a quiz is made of: fields, questions, the learner's answer, the marks and the feedback."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any, Protocol

from trainer.translations import DEFAULT
from trainer.translations import text as translated


class FieldKind(StrEnum):
    AMOUNT = "amount"  # a chip count typed in a text box
    YESNO = "yesno"  # two radio buttons
    CHOICE = "choice"  # one radio button out of several
    CHOICES = "choices"  # any number of check boxes


class Blank(StrEnum):
    """What an empty amount box means."""

    REQUIRED = "required"  # nothing: the learner must type a number
    NONE = "none"  # "there is no such amount" (no call, no bet or raise, no such pot)
    ZERO = "zero"  # 0


class Form(Protocol):
    def getlist(self, key: str) -> list[str]: ...


class QuizError(ValueError):
    """The scenario asks something its solved spot cannot answer."""


@dataclass(frozen=True, kw_only=True)
class Field:
    name: str  # the form field name; unique within a quiz
    label: str
    kind: FieldKind
    expected: Any  # int | None for amounts, bool, str, or frozenset[str]
    blank: Blank = Blank.REQUIRED
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    hint: str = ""
    limit: int | None = None  # no sensible amount for this field is larger
    accepts: frozenset = frozenset()  # other values as right as ``expected`` (five cards of equal worth)
    locale: str = DEFAULT  # the language of the labels, and of values shown and messages

    def right(self, value: Any) -> bool:
        return value == self.expected or value in self.accepts

    def show(self, value: Any) -> str:
        """A value of this field as a learner reads it."""
        t = translated(self.locale)
        if self.kind is FieldKind.AMOUNT:
            if value is None:
                return t.gettext("none")
            return t.number(value)
        labels = dict(self.choices)
        if self.kind is FieldKind.YESNO:
            return labels["yes" if value else "no"]
        if self.kind is FieldKind.CHOICE:
            return labels.get(value, str(value))
        picked = [label for key, label in self.choices if key in value]
        return message_templates(self.locale)["list.sep"].join(picked) if picked else t.gettext("none")


@dataclass(frozen=True, kw_only=True)
class Group:
    legend: str
    fields: tuple[Field, ...]


@dataclass(frozen=True, kw_only=True)
class Question:
    kind: str
    title: str
    prompt: str
    groups: tuple[Group, ...]

    @cached_property
    def fields(self) -> tuple[Field, ...]:
        return tuple(f for g in self.groups for f in g.fields)


@dataclass(frozen=True, kw_only=True)
class StepView:
    topic: str
    text: str
    rule: str | None


@dataclass(frozen=True, kw_only=True)
class Quiz:
    scenario_id: str
    to_act: str | None
    questions: tuple[Question, ...]
    steps: tuple[StepView, ...]
    explain: str | None
    solution: dict

    def fields(self) -> tuple[Field, ...]:
        return self._fields

    @cached_property
    def _fields(self) -> tuple[Field, ...]:
        return tuple(f for question in self.questions for f in question.fields)

    @cached_property
    def stages(self) -> tuple[tuple[Question, ...], ...]:
        """The steps the drill asks the questions in, each graded on its own: the card first, then
        everything else (options, the pot, pots, showdown, a ruling); one step without a card or
        when the card is all there is to ask."""
        card = tuple(q for q in self.questions if q.kind == "card")
        rest = tuple(q for q in self.questions if q.kind != "card")
        return (card, rest) if card and rest else (self.questions,)

    def stage(self, number: int) -> Quiz:
        """The quiz of step ``number`` (from 1): the same spot, only that step's questions."""
        if len(self.stages) == 1:
            return self
        return _staged(self, number)


def _staged(quiz: Quiz, number: int) -> Quiz:
    """A step's quiz, made once per quiz object and step (the quiz keeps it alive as its attribute)."""
    kept = quiz.__dict__.setdefault("_stage_quizzes", {})
    if number not in kept:
        kept[number] = Quiz(
            scenario_id=quiz.scenario_id, to_act=quiz.to_act, questions=quiz.stages[number - 1],
            steps=quiz.steps, explain=quiz.explain, solution=quiz.solution,
        )
    return kept[number]


@dataclass(frozen=True, kw_only=True)
class Answer:
    raw: dict[str, tuple[str, ...]]  # what was sent, to fill the form in again
    values: dict[str, Any]  # parsed values of the fields without errors
    errors: dict[str, str]  # field name -> message shown next to the field

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True, kw_only=True)
class Mark:
    field: Field
    right: bool
    given: str
    correct: str


@dataclass(frozen=True, kw_only=True)
class Feedback:
    marks: tuple[Mark, ...]
    steps: tuple[StepView, ...]
    explain: str | None

    @property
    def right(self) -> int:
        return sum(m.right for m in self.marks)

    @property
    def total(self) -> int:
        return len(self.marks)

    @property
    def all_right(self) -> bool:
        return self.right == self.total

    def mark(self, name: str) -> Mark | None:
        return self._by_name.get(name)

    @cached_property
    def _by_name(self) -> dict[str, Mark]:
        return {m.field.name: m for m in self.marks}


def message_templates(locale: str) -> dict[str, str]:
    """The engine's templates for its message IDs in ``locale`` (English for any other), from the engine catalogs."""
    from trainer.translations.engine import engine_templates

    return engine_templates(locale)
