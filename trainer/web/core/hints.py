"""A first miss teaches instead of telling: which fields are wrong and the rule that decides each,
without the right values.

The full derivation (every value, step by step) comes on the second miss at a spot, or when the
learner asks for it ("Show answer"): after one wrong answer the right values on screen would make
"Try again" copying. The hint for a field is the rule the engine's derivation cites for it — its
ID and title, linking to the rules page — never a step's text, which carries the numbers; a column
of the card also says in words what it counts (its derivation's first step, without the numbers).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from flask import url_for
from flask_babel import gettext as _
from markupsafe import Markup

from trainer.quiz import Feedback, Mark, StepView
from trainer.translations.engine import rule_text

# Which step of the derivation decides a field (its ``topic``), by the field's name.
_CARD = ("current_total", "last_full_increment", "committed", "to_add")
_BY_PATTERN = (
    (re.compile(r"(legal|call|min_to|max_to)"), "options"),
    (re.compile(r"pot"), "pot"),
    (re.compile(r"(pot\d+_\w+|returned_\w+)"), "pots"),
    (re.compile(r"showdown"), "showdown"),
    (re.compile(r"(hand_\w+|five_\w+|winners\d+)"), "winners"),
    (re.compile(r"split\d+_\w+"), "split"),
    (re.compile(r"ruling_\w+"), "ruling"),
)


def step_topic(field: str) -> str | None:
    """The derivation topic that decides ``field`` (``acted`` is decided with ③)."""
    if field in _CARD:
        return field
    if field == "acted":
        return "committed"
    for pattern, topic in _BY_PATTERN:
        if pattern.fullmatch(field):
            return topic
    return None


def rule_for(field: str, steps: Iterable[StepView]) -> str | None:
    """The first rule the derivation cites in the steps that decide ``field``, if any."""
    topic = step_topic(field)
    ruled = [s.rule for s in steps if s.topic == topic and s.rule]
    if not ruled:
        return None
    if field == "min_to":  # among the options' steps, the one that sets the minimum
        return next((r for r in ruled if r.startswith("R-MIN")), ruled[0])
    if field == "max_to":  # the last of them sets the most (all-in, the pot limit, the fixed bet)
        return ruled[-1]
    return ruled[0]


@dataclass(frozen=True, kw_only=True)
class HintMark(Mark):
    """A wrong field after a first miss: the hint takes the place of the right value."""

    hint: Markup


def _column(topic: str | None) -> str | None:
    """What a column of the card counts, as the card teaches it: the derivation's first step in
    words, without its numbers (the card's columns often cite no rule of their own)."""
    if topic == "current_total":
        return _("① is the largest total any player has put in on this street so far: what a call must come up to.")
    if topic == "last_full_increment":
        return _("② is the size of the last full bet or raise on this street; a short all-in does not change it.")
    if topic == "committed":
        return _("③ counts only this player's chips on this street (a blind counts, an ante does not); posting a blind is not acting.")
    if topic == "to_add":
        return _("④ is ① − ③: what this player must add to call.")
    return None


@lru_cache(maxsize=4096)
def _hint(rule: str | None, topic: str | None, locale: str, rules_url: str) -> Markup:
    column = _column(topic)
    if rule is None:
        return Markup(column or _("Look again at the table and the action so far."))
    title = rule_text(rule, locale).title
    link = Markup('<a href="{}#{}">{} — {}</a>').format(rules_url, rule, rule, title)
    ruled = Markup(_("Hint: %(rule)s decides this.", rule=link))
    gap = "" if locale.startswith("zh") else " "  # a full stop in Chinese carries its own space
    return ruled if column is None else Markup("{}{}{}").format(column, gap, ruled)


def hinted(feedback: Feedback, steps: Iterable[StepView], locale: str) -> Feedback:
    """The feedback of a first miss: wrong fields carry a hint instead of the right value, and no
    derivation is shown."""
    steps = tuple(steps)
    rules_url = url_for("home.rules")
    marks = tuple(
        m if m.right else HintMark(**{**vars(m), "hint": _hint(rule_for(m.field.name, steps), step_topic(m.field.name),
                                                                locale, rules_url)})
        for m in feedback.marks
    )
    return replace(feedback, marks=marks, steps=(), explain=None)


def is_hint(mark: Mark | None) -> bool:
    return isinstance(mark, HintMark)
