"""Answers shared by the web, store and browser tests.

The seed-003 BTN spot (SCENARIO-FORMAT.md's example; the file is
tests/web/scenarios/reopen/btn-faces-short-all-in.yaml): what a learner who
knows the rules types into each field.
"""

import re

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
OPENED = re.compile(r'name="opened" value="(\d+)"')  # when the drill form was opened (ms)


ANSWER_ID = re.compile(r'name="answer_id" value="([0-9a-f]{32})"')  # the id a drill form made for its answer


def without_opened(html: str) -> str:
    """A page with its form's opening time and answer id blanked, to compare two responses."""
    return ANSWER_ID.sub('name="answer_id" value=""', OPENED.sub('name="opened" value=""', html))
HTMX = {"HX-Request": "true"}

BTN = "btn-faces-short-all-in"
BTN_RIGHT = {
    "current_total": "1400",
    "last_full_increment": "1000",
    "committed": "0",
    "acted": "no",
    "to_add": "1400",
    "legal": ["fold", "call", "raise"],
    "call": "1400",
    "min_to": "2400",
    "max_to": "10000",
    "pot": "4000",
}
# the typed fields only (a browser test ticks the choices itself)
BTN_TYPED = {name: value for name, value in BTN_RIGHT.items() if name not in ("acted", "legal")}


def typed_right(quiz) -> dict:
    """What a learner who knows the rules types into a quiz's fields: the engine's expected values."""
    from trainer.quiz import FieldKind

    typed: dict = {}
    for f in quiz.fields():
        if f.kind is FieldKind.AMOUNT:
            typed[f.name] = "" if f.expected is None else str(f.expected)
        elif f.kind is FieldKind.YESNO:
            typed[f.name] = "yes" if f.expected else "no"
        elif f.kind is FieldKind.CHOICE:
            typed[f.name] = f.expected
        else:
            typed[f.name] = sorted(f.expected)
    return typed
