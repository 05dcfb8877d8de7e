"""Grading a read answer against the engine's: one mark per field, then the explanation."""

from __future__ import annotations

from .model import Answer, Feedback, Mark, Quiz


def grade(quiz: Quiz, answer: Answer) -> Feedback:
    if not answer.ok:
        raise ValueError("an answer with input errors cannot be graded")
    marks = []
    for field in quiz.fields():
        given = answer.values[field.name]
        marks.append(
            Mark(
                field=field,
                right=field.right(given),
                given=field.show(given),
                correct=field.show(field.expected),
            )
        )
    return Feedback(marks=tuple(marks), steps=quiz.steps, explain=quiz.explain)
