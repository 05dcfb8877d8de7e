"""Questions from a scenario, and grading a learner's answer against the engine.

The answer key is the engine's ``solve()`` dict for the scenario and the
explanation is the hand's ``derivation()``: nothing here knows a betting
rule. This package only turns those values into form fields, reads what a
learner typed (forgivingly: "1,400", "1 400", "１，４００") and compares.
No Flask here: the web layer hands in anything with ``getlist(name)``.

A quiz is built for one language (``build_quiz(..., locale="zh-Hant")``): its
labels come from the message catalogs, the derivation from the engine's
templates for that language, and amounts are formatted for it.

- ``build``: a scenario -> a ``Quiz`` (its questions, fields and expected values)
- ``read``: what was typed -> an ``Answer`` (values, or a message per field)
- ``grade``: an ``Answer`` -> ``Feedback`` (a mark per field, the explanation)
- ``model``: the values passed between them

The names below are the package's public API; import them from ``trainer.quiz``.
"""

from .build import ACTIONS, QUESTION_KINDS, RULINGS, SUIT_SIGNS, build_quiz
from .grade import grade
from .model import (
    Answer,
    Blank,
    Feedback,
    Field,
    FieldKind,
    Form,
    Group,
    Mark,
    Question,
    Quiz,
    QuizError,
    StepView,
    message_templates,
)
from .read import InputError, parse_amount, read_answer

__all__ = [
    "ACTIONS", "QUESTION_KINDS", "RULINGS", "SUIT_SIGNS",
    "Answer", "Blank", "Feedback", "Field", "FieldKind", "Form", "Group", "InputError", "Mark", "Question",
    "Quiz", "QuizError", "StepView",
    "build_quiz", "grade", "message_templates", "parse_amount", "read_answer",
]
