"""Quick questions in a live session, as a page words them, and the game around them: the class's taps
per choice, "% right", the leaderboard, the podium and a student's streak.

A streak (right answers in a row, as Kahoot's answer streak) is shown on the student's phone after
each reveal and on their end screen. It earns no points: the game's points are for a right answer
and for a fast one, which the projector's leaderboard shows; a streak bonus would be a third rule
the class cannot see there, and it would let an early run outweigh the questions after it.

The question, its choices and its answer come from ``trainer.quick`` (the engine); this module only
words them in the viewer's language. The speed drill's kinds are worded by the speed drill's own
functions, so one question reads the same in both places.
"""

from __future__ import annotations

from typing import Any

from flask import abort
from flask_babel import gettext as _

from trainer import quick
from trainer.library import Entry
from trainer.store import live as store
from trainer.store.models import LiveSession
from trainer.translations import text
from trainer.web.core import i18n
from trainer.web.speed.views import explained as speed_explained
from trainer.web.speed.views import prompt as speed_prompt

FIELD = "answer"  # the one field of a quick answer, as stored (typed, shown, marks)


def question(cs: LiveSession, position: int, entry: Entry) -> quick.Quick:
    """The quick question of ``cs`` at ``position`` (``entry`` is its spot)."""
    kind, pot = cs.asks[position]
    made = quick.make(entry.id, entry.scenario, kind, pot)
    if made is None:
        abort(404, description=_("This session has no such question."))
    return made


def prompt(q: quick.Quick) -> str:
    if q.kind == "can-raise":
        return _("May %(pos)s re-raise?", pos=q.why["pos"])
    if q.kind == "shows-first":
        return _("Who shows first?")
    if q.kind == "call-or-raise":
        n = text(i18n.current()).number
        return _("%(pos)s says “%(said)s” and nothing more. Call, or must %(pos)s raise to %(min)s?",
                 pos=q.why["pos"], said=n(q.why["said"]), min=n(q.why["min"]))
    return speed_prompt(q)


def shown(q: quick.Quick, value: str) -> str:
    """A choice as the page writes it: an amount with the language's separators, yes or no, a seat."""
    if q.amounts and value.isdigit():
        return text(i18n.current()).number(int(value))
    if q.kind == "can-raise":
        return _("Yes") if value == "yes" else _("No") if value == "no" else value
    if q.kind == "call-or-raise":
        if value == "call":
            return _("Call")
        if value == "raise":
            return _("Raise to %(amount)s", amount=text(i18n.current()).number(q.why["min"]))
    return value


def choices(q: quick.Quick) -> list[dict[str, str]]:
    return [{"value": c, "text": shown(q, c)} for c in q.choices]


def explained(q: quick.Quick) -> dict[str, Any]:
    """The right answer as the page writes it and the lines of its derivation."""
    if q.kind == "can-raise":
        n = text(i18n.current()).number
        if q.why["can"]:
            lines = [_("%(pos)s may re-raise: the minimum raise-to is %(min)s.", pos=q.why["pos"],
                       min=n(q.why["min"]))]
        else:
            lines = [_("%(pos)s has acted, and no full raise has come since: the betting is not reopened, so "
                       "%(pos)s may only call or fold (R-REOPEN).", pos=q.why["pos"])]
        return {"answer": shown(q, q.answer), "lines": lines, "prompt": prompt(q)}
    if q.kind == "call-or-raise":
        n, w = text(i18n.current()).number, q.why
        if q.answer == "raise":
            line = _("“%(said)s” is %(over)s over the current total %(cur)s: at least half the last full increment "
                     "%(full)s, so %(pos)s must make a full raise, to %(min)s (R-HALF).", said=n(w["said"]),
                     over=n(w["over"]), cur=n(w["cur"]), full=n(w["full"]), pos=w["pos"], min=n(w["min"]))
        else:
            line = _("“%(said)s” is %(over)s over the current total %(cur)s: less than half the last full increment "
                     "%(full)s, so it is a call of %(cur)s (R-HALF).", said=n(w["said"]), over=n(w["over"]),
                     cur=n(w["cur"]), full=n(w["full"]))
        return {"answer": shown(q, q.answer), "lines": [line], "prompt": prompt(q)}
    if q.kind == "shows-first":
        lines = [_("%(pos)s shows first: the last player to bet or raise on the last street shows first; when "
                   "nobody did, the first player left of the button (R-SHOWDOWN).", pos=q.answer)]
        return {"answer": q.answer, "lines": lines, "prompt": prompt(q)}
    return speed_explained(q)


def tapped(answer: Any) -> str | None:
    """The choice a stored answer tapped."""
    typed = answer.typed if answer is not None and isinstance(answer.typed, dict) else {}
    sent = typed.get(FIELD)
    return sent[0] if isinstance(sent, list) and sent else None


def keypad(cs: LiveSession, q: quick.Quick) -> bool:
    """Whether this question's amount is typed on a number pad (the session's choice) rather than tapped."""
    return bool(cs.keypad) and q.amounts


def typed_amount(raw: str) -> str | None:
    """An amount typed on a phone as whole chips in digits ("1,400", "1 400", full-width digits);
    None when it is no such amount."""
    cleaned = "".join(raw.split()).replace(",", "").replace("，", "")
    cleaned = cleaned.translate({ord("０") + i: str(i) for i in range(10)})
    if not cleaned.isascii() or not cleaned.isdigit() or len(cleaned) > 12:
        return None
    return str(int(cleaned))


def bars(q: quick.Quick, tally: store.Tally, *, typed: bool = False) -> list[dict[str, Any]]:
    """One bar per choice, in the order the phones show them: how many tapped it, its share of the
    answers, and whether it is right. Typed amounts (``typed``): the four amounts a common slip gives
    and one bar for any other amount."""
    counts = dict.fromkeys(q.choices, 0)
    other = 0
    for sent_typed, _shown in tally.answers:
        sent = sent_typed.get(FIELD) if isinstance(sent_typed, dict) else None
        value = sent[0] if isinstance(sent, list) and sent else None
        if value in counts:
            counts[value] += 1
        elif typed:
            other += 1
    most = max([*counts.values(), other], default=0) or 1
    out = [
        {"value": c, "text": shown(q, c), "count": n, "right": c == q.answer,
         "share": round(100 * n / tally.answered) if tally.answered else 0, "height": round(100 * n / most)}
        for c, n in counts.items()
    ]
    if typed:
        out.append({"value": "", "text": _("Another amount"), "count": other, "right": False,
                    "share": round(100 * other / tally.answered) if tally.answered else 0,
                    "height": round(100 * other / most)})
    return out


def percent_right(tally: store.Tally) -> int | None:
    return round(100 * tally.all_right / tally.answered) if tally.answered else None


def streak(got: dict[int, Any], upto: int) -> int:
    """How many questions in a row, ending with question ``upto`` (a position), the student got right;
    a question missed or not answered ends a streak."""
    n = 0
    for position in range(upto, -1, -1):
        answer = got.get(position)
        if answer is None or answer.right != answer.total:
            break
        n += 1
    return n


def longest_streak(got: dict[int, Any], last: int) -> int:
    """The student's longest run of right answers among questions 0 to ``last``."""
    best = run = 0
    for position in range(last + 1):
        answer = got.get(position)
        run = run + 1 if answer is not None and answer.right == answer.total else 0
        best = max(best, run)
    return best


def board(standings: list[store.Standing], student_id: str | None = None) -> dict[str, Any]:
    """The top of the leaderboard and, for a phone, its own line."""
    mine = next((st for st in standings if st.student_id == student_id), None)
    return {"top": standings[: store.TOP], "mine": mine, "players": len(standings)}
