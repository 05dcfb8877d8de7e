"""Questions from a scenario, and grading a learner's answer against the engine.

The answer key is the engine's ``solve()`` dict for the scenario and the
explanation is the hand's ``derivation()``: nothing here knows a betting
rule. This module only turns those values into form fields, reads what a
learner typed (forgivingly: "1,400", "1 400", "１，４００") and compares.
No Flask here: the web layer hands in anything with ``getlist(name)``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any, Protocol

ACTIONS = ("fold", "check", "call", "bet", "raise")
QUESTION_KINDS = ("card", "options", "pot", "pots", "showdown", "ruling", "split")
RULINGS = (
    ("check", "a check"),
    ("call", "a call"),
    ("bet", "a bet"),
    ("raise", "a raise"),
    ("fold", "a fold"),
    ("call-or-fold", "call or fold only"),
    ("free", "not binding: the action changed"),
)

# Longer than any chip count a table can hold; stops absurd input before int().
_MAX_DIGITS = 12
_PLAIN = re.compile(r"[0-9]+")
_GROUPED = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+")
_DIGITS_AND_COMMAS = re.compile(r"[0-9,]+")
_DECIMAL = re.compile(r"[0-9,]*\.[0-9]*")
_NEGATIVE = ("-", "\u2212", "\u2013")  # hyphen-minus (full-width folds to it), minus sign, en dash


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

    def show(self, value: Any) -> str:
        """A value of this field as a learner reads it."""
        if self.kind is FieldKind.AMOUNT:
            if value is None:
                return "none"
            return f"{value:,}"
        if self.kind is FieldKind.YESNO:
            return "yes" if value else "no"
        labels = dict(self.choices)
        if self.kind is FieldKind.CHOICE:
            return labels.get(value, str(value))
        picked = [label for key, label in self.choices if key in value]
        return ", ".join(picked) if picked else "none"


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

    @property
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

    def fields(self) -> Iterator[Field]:
        for question in self.questions:
            yield from question.fields


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


# ---------------------------------------------------------------- input


class InputError(ValueError):
    """A learner's entry that cannot be read; ``str()`` is the message to show."""


def parse_amount(text: str, *, limit: int | None = None) -> int | None:
    """Read a chip count the way people type it; ``None`` for an empty box.

    Full-width digits and commas from Chinese input methods fold to ASCII
    (NFKC); spaces anywhere and commas between groups of three digits are
    ignored.
    """
    s = "".join(unicodedata.normalize("NFKC", text).split())
    if not s:
        return None
    if s.startswith(_NEGATIVE):
        raise InputError("Amounts can't be negative.")
    if _DECIMAL.fullmatch(s):
        raise InputError("Chips are whole numbers: leave out decimals.")
    if _PLAIN.fullmatch(s) or _GROUPED.fullmatch(s):
        digits = s.replace(",", "").lstrip("0") or "0"
    elif _DIGITS_AND_COMMAS.fullmatch(s):
        raise InputError("Put commas only between groups of three digits, like 1,400.")
    else:
        raise InputError("Enter a whole number of chips, like 1400 or 1,400.")
    if len(digits) > _MAX_DIGITS or (limit is not None and int(digits) > limit):
        if limit is None:
            raise InputError("That number is far too large.")
        raise InputError(f"That is more than there is at this table: nothing here can be above {limit:,}.")
    return int(digits)


def read_answer(quiz: Quiz, form: Form) -> Answer:
    raw: dict[str, tuple[str, ...]] = {}
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for field in quiz.fields():
        sent = tuple(str(v) for v in form.getlist(field.name))
        raw[field.name] = sent
        try:
            values[field.name] = _read_field(field, sent)
        except InputError as exc:
            errors[field.name] = str(exc)
    return Answer(raw=raw, values=values, errors=errors)


def _read_field(field: Field, sent: tuple[str, ...]) -> Any:
    first = sent[0] if sent else ""
    if field.kind is FieldKind.AMOUNT:
        value = parse_amount(first, limit=field.limit)
        if value is None:
            if field.blank is Blank.REQUIRED:
                raise InputError("Enter an amount (0 if there is none).")
            if field.blank is Blank.ZERO:
                return 0
        return value
    if field.kind is FieldKind.YESNO:
        if first not in ("yes", "no"):
            raise InputError("Choose yes or no.")
        return first == "yes"
    keys = {key for key, _ in field.choices}
    if field.kind is FieldKind.CHOICE:
        if first not in keys:
            raise InputError("Choose one of the answers.")
        return first
    if not set(sent) <= keys:
        raise InputError("Tick only the boxes shown.")
    return frozenset(sent)


# -------------------------------------------------------------- grading


def grade(quiz: Quiz, answer: Answer) -> Feedback:
    if not answer.ok:
        raise ValueError("an answer with input errors cannot be graded")
    marks = []
    for field in quiz.fields():
        given = answer.values[field.name]
        marks.append(
            Mark(
                field=field,
                right=given == field.expected,
                given=field.show(given),
                correct=field.show(field.expected),
            )
        )
    return Feedback(marks=tuple(marks), steps=quiz.steps, explain=quiz.explain)


# ------------------------------------------------------------- building


def build_quiz(scenario: Any, *, locale: str = "en") -> Quiz:
    """The questions a scenario's ``ask`` names, with the engine's answers."""
    solution = scenario.solve()
    hand = scenario.hand()
    seats = hand.seats
    positions = tuple(s.position for s in seats)
    in_hand = tuple(s.position for s in seats if not s.folded)
    stacks = dict(scenario.stacks)
    street_limit = max(stacks.values())
    table_limit = int(scenario.pot or 0) + sum(stacks.values())
    to_act = solution.get("to_act")

    questions = []
    for kind in scenario.ask:
        if kind == "card":
            questions.append(_card(solution, to_act, street_limit))
        elif kind == "options":
            questions.append(_options(solution, to_act, street_limit))
        elif kind == "pot":
            questions.append(_pot(solution, table_limit))
        elif kind == "pots":
            questions.append(_pots(solution, positions, table_limit))
        elif kind == "showdown":
            questions.append(_showdown(solution, in_hand))
        elif kind == "ruling":
            questions.append(_ruling(solution, scenario, to_act, street_limit))
        elif kind == "split":
            questions.append(_split(solution, scenario, table_limit))
        else:
            raise QuizError(f"the web drill cannot ask {kind!r} questions yet")
    if not questions:
        raise QuizError("the scenario asks nothing")

    # The scenario's derivation adds the ruling's and the split's steps to the hand's.
    derivation = scenario.derivation() if hasattr(scenario, "derivation") else hand.derivation()
    templates = _message_templates(locale)
    steps = tuple(
        StepView(topic=step.topic, text=step.message.render(templates), rule=step.rule) for step in derivation
    )
    explain = scenario.explain.text(locale) if scenario.explain is not None else None
    return Quiz(
        scenario_id=scenario.id,
        to_act=to_act,
        questions=tuple(questions),
        steps=steps,
        explain=explain or None,
        solution=solution,
    )


def _message_templates(locale: str) -> dict[str, str]:
    from trainer.engine import messages

    if locale.startswith("zh"):
        from trainer.engine import messages_zh

        return messages_zh.ZH_HANS if locale == "zh-Hans" else messages_zh.ZH_HANT
    return messages.EN


def _need(solution: dict, key: str, kind: str) -> Any:
    value = solution.get(key)
    if value is None:
        why = "nobody is to act" if key in ("card", "options") else "betting is not over"
        raise QuizError(f"the scenario asks {kind!r}, but {why}")
    return value


def _card(solution: dict, pos: str, limit: int) -> Question:
    card = _need(solution, "card", "card")

    def amount(name: str, label: str) -> Field:
        return Field(name=name, label=label, kind=FieldKind.AMOUNT, expected=card[name], limit=limit)

    return Question(
        kind="card",
        title="The four-column card (四欄判讀卡)",
        prompt=f"Fill in the card for {pos}, whose turn it is.",
        groups=(
            Group(
                legend=f"Card for {pos}",
                fields=(
                    amount("current_total", "① Current total (本輪目前總額)"),
                    amount("last_full_increment", "② Last full increment (最後有效完整增額)"),
                    amount("committed", f"③ Already committed by {pos} this street (本輪已投入)"),
                    Field(
                        name="acted",
                        label=f"③ Has {pos} acted this street? (本輪已行動)",
                        kind=FieldKind.YESNO,
                        expected=bool(card["acted"]),
                        choices=(("yes", "yes"), ("no", "no")),
                    ),
                    amount("to_add", "④ To add (需再補)"),
                ),
            ),
        ),
    )


def _options(solution: dict, pos: str, limit: int) -> Question:
    options = _need(solution, "options", "options")
    legal = frozenset(
        a
        for a, ok in (
            ("fold", options["fold"]),
            ("check", options["check"]),
            ("call", options["call"] is not None),
            ("bet", options["bet"] is not None),
            ("raise", options["raise"] is not None),
        )
        if ok
    )
    if options["bet"] is not None:
        low, high = options["bet"]["min"], options["bet"]["max"]
    elif options["raise"] is not None:
        low, high = options["raise"]["min_to"], options["raise"]["max_to"]
    else:
        low = high = None

    def amount(name: str, label: str, expected: int | None, hint: str) -> Field:
        return Field(
            name=name,
            label=label,
            kind=FieldKind.AMOUNT,
            expected=expected,
            blank=Blank.NONE,
            hint=hint,
            limit=limit,
        )

    return Question(
        kind="options",
        title="Legal options",
        prompt=f"What may {pos} do now?",
        groups=(
            Group(
                legend=f"Which actions are legal for {pos}?",
                fields=(
                    Field(
                        name="legal",
                        label="Legal actions",
                        kind=FieldKind.CHOICES,
                        expected=legal,
                        choices=tuple((a, a) for a in ACTIONS),
                    ),
                ),
            ),
            Group(
                legend="Amounts",
                fields=(
                    amount("call", "Call: chips to add", options["call"], "Leave empty if calling is not legal."),
                    amount(
                        "min_to",
                        "Minimum bet or raise-to (加到)",
                        low,
                        "A total for the street. Leave empty if neither betting nor raising is legal.",
                    ),
                    amount(
                        "max_to",
                        "Maximum bet or raise-to (加到)",
                        high,
                        "Leave empty if neither betting nor raising is legal.",
                    ),
                ),
            ),
        ),
    )


def _pot(solution: dict, limit: int) -> Question:
    return Question(
        kind="pot",
        title="The pot",
        prompt="How much is in the pot now?",
        groups=(
            Group(
                legend="Pot",
                fields=(
                    Field(
                        name="pot",
                        label="Pot now",
                        kind=FieldKind.AMOUNT,
                        expected=solution["pot"],
                        hint="Everything put in this hand, this street's bets included.",
                        limit=limit,
                    ),
                ),
            ),
        ),
    )


def _pot_name(i: int) -> str:
    return "Main pot" if i == 0 else f"Side pot {i}"


def _pots(solution: dict, positions: tuple[str, ...], limit: int) -> Question:
    pots = _need(solution, "pots", "pots")
    returned = solution.get("returned") or {}
    # As many rows as there could be pots, so the row count gives nothing away.
    rows = max(len(positions) - 1, len(pots), 1)
    seat_choices = tuple((p, p) for p in positions)
    groups = []
    for i in range(rows):
        pot = pots[i] if i < len(pots) else None
        groups.append(
            Group(
                legend=_pot_name(i),
                fields=(
                    Field(
                        name=f"pot{i + 1}_amount",
                        label=f"{_pot_name(i)}: amount",
                        kind=FieldKind.AMOUNT,
                        expected=None if pot is None else pot["amount"],
                        blank=Blank.NONE,
                        hint="Leave empty if there is no such pot." if i else "",
                        limit=limit,
                    ),
                    Field(
                        name=f"pot{i + 1}_eligible",
                        label=f"{_pot_name(i)}: who can win it",
                        kind=FieldKind.CHOICES,
                        expected=frozenset(() if pot is None else pot["eligible"]),
                        choices=seat_choices,
                    ),
                ),
            )
        )
    groups.append(
        Group(
            legend="Chips returned (uncalled)",
            fields=tuple(
                Field(
                    name=f"returned_{p}",
                    label=f"Returned to {p}",
                    kind=FieldKind.AMOUNT,
                    expected=int(returned.get(p, 0)),
                    blank=Blank.ZERO,
                    limit=limit,
                )
                for p in positions
            ),
        )
    )
    return Question(
        kind="pots",
        title="Pots",
        prompt="Betting is over. Make the pots: each pot's amount and who can win it, main pot first, "
        "and the chips that go back uncalled.",
        groups=tuple(groups),
    )


def _showdown(solution: dict, in_hand: tuple[str, ...]) -> Question:
    _need(solution, "pots", "showdown")
    showdown = solution.get("showdown")
    if showdown is None:
        expected = "none"
    elif showdown["all_tabled"]:
        expected = "all"
    else:
        expected = showdown["first"]
    choices = (
        (("all", "All hands are tabled at once"),)
        + tuple((p, f"{p} shows first") for p in in_hand)
        + (("none", "No showdown: only one player is left"),)
    )
    if expected not in dict(choices):
        raise QuizError(f"the engine's showdown answer {expected!r} is not a player in the hand")
    return Question(
        kind="showdown",
        title="Showdown",
        prompt="Who shows first?",
        groups=(
            Group(
                legend="At showdown",
                fields=(
                    Field(
                        name="showdown",
                        label="Who shows first",
                        kind=FieldKind.CHOICE,
                        expected=expected,
                        choices=choices,
                    ),
                ),
            ),
        ),
    )


def _chips(chips: tuple[int, ...]) -> str:
    return " + ".join(f"{c:,}" for c in chips)


def _ruling(solution: dict, scenario: Any, to_act: str | None, limit: int) -> Question:
    ruling = _need(solution, "ruling", "ruling")
    said = getattr(scenario, "ruling", None)
    who = (said.by if said is not None and said.by else None) or to_act or "The player"
    told = []
    if said is not None:
        if said.then:
            told.append("Before the turn gets there: " + ", ".join(str(a) for a in said.then) + ".")
        if said.said:
            with_chips = f" and puts forward {_chips(said.chips)} in one motion." if said.chips else "."
            told.append(f"{who} says “{said.said}”{with_chips}")
        elif said.chips:
            told.append(f"{who} silently puts forward {_chips(said.chips)} in one motion.")
        if said.later:
            told.append(f"Then {who} goes back to the stack and adds {_chips(said.later)}.")
    prompt = " ".join(told) + " What does it count as?"
    return Question(
        kind="ruling",
        title="Chips and words: the ruling",
        prompt=prompt.strip(),
        groups=(
            Group(
                legend="The ruling",
                fields=(
                    Field(
                        name="ruling_action",
                        label="It counts as",
                        kind=FieldKind.CHOICE,
                        expected=ruling["action"],
                        choices=RULINGS,
                    ),
                    Field(
                        name="ruling_to",
                        label=f"{who}'s total on this street afterwards (加到)",
                        kind=FieldKind.AMOUNT,
                        expected=ruling["to"],
                        blank=Blank.NONE,
                        hint="Leave empty for a check, a fold, call-or-fold, or an action that does not bind.",
                        limit=limit,
                    ),
                    Field(
                        name="ruling_returned",
                        label="Chips that go back to the player",
                        kind=FieldKind.AMOUNT,
                        expected=ruling["returned"],
                        blank=Blank.ZERO,
                        hint="Empty means 0.",
                        limit=limit,
                    ),
                ),
            ),
        ),
    )


def _split(solution: dict, scenario: Any, limit: int) -> Question:
    shares = _need(solution, "split", "split")
    groups = []
    for i, pot in enumerate(shares):
        winners = list(pot)
        groups.append(
            Group(
                legend=f"{_pot_name(i)}: won by {', '.join(winners)}",
                fields=tuple(
                    Field(
                        name=f"split{i + 1}_{pos}",
                        label=f"{_pot_name(i)}: {pos} gets",
                        kind=FieldKind.AMOUNT,
                        expected=int(pot[pos]),
                        limit=limit,
                    )
                    for pos in winners
                ),
            )
        )
    chip = getattr(scenario, "chip", 1)
    return Question(
        kind="split",
        title="Splitting the pots",
        prompt=f"Split each pot among the players who won it. The smallest chip in play is {chip:,}.",
        groups=tuple(groups),
    )
