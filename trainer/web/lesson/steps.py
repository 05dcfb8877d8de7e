"""The lesson's spot and its five steps: which fields of the spot's quiz each step asks, and what it
says before and after. The numbers come from the spot's own card (the engine's), so the texts fit
whichever spot the library offers."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _

from trainer.library import Entry, Library
from trainer.quiz import Group, Question, Quiz

# Seed article 003's spot: a bet, a short all-in, a call, and the bettor may only call or fold.
SPOT = "flop-bettor-after-short-allin-is-called"


@dataclass(frozen=True, kw_only=True)
class Step:
    number: int
    column: str  # the card's sign: ①, ②, ③, ④, or the reading
    fields: tuple[str, ...]  # names of fields of the spot's quiz
    topics: tuple[str, ...]  # the derivation's topics shown after the answer


STEPS = (
    Step(number=1, column="①", fields=("current_total",), topics=("current_total",)),
    Step(number=2, column="②", fields=("last_full_increment",), topics=("last_full_increment",)),
    Step(number=3, column="③", fields=("committed", "acted"), topics=("committed",)),
    Step(number=4, column="④", fields=("to_add",), topics=("to_add",)),
    Step(number=5, column="→", fields=("legal",), topics=("options",)),
)


def step(number: int) -> Step | None:
    return STEPS[number - 1] if 1 <= number <= len(STEPS) else None


def _teaches(entry: Entry) -> bool:
    """A spot that shows the whole card and its reading rule: acted, and ④ < ②."""
    names = {f.name for f in entry.quiz.fields()}
    card = entry.quiz.solution.get("card")
    return (
        {n for s in STEPS for n in s.fields} <= names
        and card is not None
        and bool(card["acted"])
        and 0 < card["to_add"] < card["last_full_increment"]
    )


def lesson_entry(lib: Library) -> Entry | None:
    """The lesson's spot: seed 003's, else the easiest spot of the library that teaches the same."""
    entry = lib.get(SPOT)
    if entry is not None and _teaches(entry):
        return entry
    fitting = [e for e in lib.entries.values() if _teaches(e)]
    return min(fitting, key=lambda e: e.level or 0) if fitting else None


def quiz_of(entry: Entry, s: Step) -> Quiz:
    """The spot's quiz, asking only this step's fields: read and graded by the quiz package as the drill's."""
    by_name = {f.name: f for f in entry.quiz.fields()}
    fields = tuple(by_name[name] for name in s.fields)
    question = Question(kind="lesson", title=title(s, entry.quiz.to_act or ""), prompt="",
                        groups=(Group(legend="", fields=fields),))
    full = entry.quiz
    return Quiz(scenario_id=full.scenario_id, to_act=full.to_act, questions=(question,), steps=full.steps,
                explain=None, solution=full.solution)


def title(s: Step, pos: str) -> str:
    titles = {
        1: _("① The current total"),
        2: _("② The last full increment"),
        3: _("③ Already in: committed, and acted?"),
        4: _("④ To add"),
        5: _("Reading the card: what may %(pos)s do?", pos=pos),
    }
    return titles[s.number]


def before(s: Step, pos: str) -> list[str]:
    """What the step teaches before it asks: the column's meaning and where to look, no numbers."""
    if s.number == 1:
        return [
            _("① is the current total: the largest total anyone has put in on this street so far. It is what "
              "%(pos)s must come up to in order to call.", pos=pos),
            _("Look at the column “To” in the action so far: each row is that player's total on this street "
              "after the action (a raise to), not the chips the action added."),
        ]
    if s.number == 2:
        return [
            _("② is the last full increment: how much the last full bet or raise added on top of the total "
              "before it."),
            _("A raise to is a total; its increment is that total minus the previous highest total. An all-in "
              "that adds less than a full increment is a short all-in: it does not change ②."),
        ]
    if s.number == 3:
        return [
            _("③ is one column in two parts, both about %(pos)s on this street only.", pos=pos),
            _("③a: the chips %(pos)s has already put in (a blind counts, an ante does not). ③b: whether %(pos)s "
              "has already acted (posting a blind is not acting).", pos=pos),
        ]
    if s.number == 4:
        return [_("④ is what %(pos)s must add now to call: ① − ③a.", pos=pos)]
    return [
        _("Now read the card:"),
        _("③b not acted: fold, call, or raise to at least ① + ②."),
        _("③b acted and ④ ≥ ②: the betting is reopened; raise to at least ① + ②."),
        _("③b acted and ④ < ②: call or fold only."),
    ]


def after(s: Step, pos: str, card: dict, number) -> list[str]:
    """What the step adds once answered (right, or shown): why, with the spot's numbers.
    ``number`` formats an amount for the page's language."""
    cur, inc, com, add = (number(card[k]) for k in ("current_total", "last_full_increment", "committed", "to_add"))
    if s.number == 1:
        return [_("① = %(cur)s. A call by %(pos)s must bring %(pos)s's total up to %(cur)s.", cur=cur, pos=pos)]
    if s.number == 2:
        least = number(card["current_total"] + card["last_full_increment"])
        return [_("② = %(inc)s. A full raise now would have to reach at least ① + ② = %(cur)s + %(inc)s = "
                  "%(least)s: the short all-in's smaller increment does not count.",
                  inc=inc, cur=cur, least=least)]
    if s.number == 3:
        acted = _("yes") if card["acted"] else _("no")
        return [_("③a = %(com)s, ③b = %(acted)s. Whether %(pos)s has acted decides the reading at the end.",
                  com=com, acted=acted, pos=pos)]
    if s.number == 4:
        return [_("④ = ① − ③a = %(cur)s − %(com)s = %(add)s.", cur=cur, com=com, add=add)]
    if card["acted"] and card["to_add"] < card["last_full_increment"]:
        return [_("%(pos)s has acted and ④ %(add)s < ② %(inc)s: the short all-in does not reopen the betting, "
                  "so %(pos)s may call %(add)s or fold, and may not raise.", pos=pos, add=add, inc=inc)]
    return []


def card_so_far(s: Step | None, card: dict, number) -> list[tuple[str, str]]:
    """The columns filled before step ``s`` (all of them after the last step), as (label, value)."""
    done = s.number - 1 if s is not None else len(STEPS)
    rows = [
        (1, _("① Current total"), number(card["current_total"])),
        (2, _("② Last full increment"), number(card["last_full_increment"])),
        (3, _("③a Already committed"), number(card["committed"])),
        (3, _("③b Acted?"), _("yes") if card["acted"] else _("no")),
        (4, _("④ To add"), number(card["to_add"])),
    ]
    return [(label, value) for n, label, value in rows if n <= done]
