"""Exam mode: templates, drawing the questions, saving answers, closing exactly once, verifying.

The clock is the server's: an answer saved at or after the deadline is
refused, and an exam still open at its deadline is closed as of the deadline
with what was answered (whoever touches it first closes it). Closing is a
conditional update, so an exam is graded and gets its verification code once.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .learners import ensure_learner, new_id
from .models import ExamAnswer, ExamAttempt, now
from .user_errors import N_

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_LENGTH = 10


def gen_ref(topic: str, level: int, seed: int, index: int) -> str:
    """A generated spot as a question reference: generate(topic, level, seed), spot ``index``."""
    return f"gen:{topic}:{level}:{seed}:{index}"


@dataclass(frozen=True, kw_only=True)
class ExamTemplate:
    slug: str
    title: str
    description: str
    count: int
    minutes: int
    pass_mark: int  # percent of questions with every field right
    fixed: tuple[str, ...] = ()  # question refs, in order
    weights: Mapping[str, int] = field(default_factory=dict)  # topic -> weight, for a random draw
    level: int = 2

    def __post_init__(self) -> None:
        if bool(self.fixed) == bool(self.weights):
            raise ValueError(f"exam template {self.slug}: give either a fixed list or topic weights")
        if self.fixed and len(self.fixed) != self.count:
            raise ValueError(f"exam template {self.slug}: {len(self.fixed)} questions listed, count is {self.count}")

    def draw(self, seed: int) -> list[str]:
        """The questions: the fixed list, or ``count`` generated spots shared out by weight
        (largest remainder, so every weighted topic gets its share), in a seeded order."""
        if self.fixed:
            return list(self.fixed)
        total = sum(self.weights.values())
        shares = {t: self.count * w / total for t, w in self.weights.items()}
        counts = {t: int(v) for t, v in shares.items()}
        for t in sorted(shares, key=lambda t: (counts[t] - shares[t], t))[: self.count - sum(counts.values())]:
            counts[t] += 1
        rng = random.Random(seed)
        refs = [gen_ref(t, self.level, seed, i) for t, n in counts.items() for i in range(n)]
        rng.shuffle(refs)
        return refs


TEMPLATES: tuple[ExamTemplate, ...] = (
    ExamTemplate(
        slug="betting-rules",
        title=N_("Betting rules"),
        description=N_(
            "20 spots drawn from the betting topics: action order, the round's end, minimum bets "
            "and raises, short all-ins, reopening, blinds, straddles and antes."
        ),
        count=20,
        minutes=15,
        pass_mark=90,
        weights={
            "action-order": 2,
            "round-end": 2,
            "min-bet": 2,
            "min-raise": 3,
            "short-all-in": 3,
            "reopening": 3,
            "no-opponent": 1,
            "short-blind": 1,
            "straddle": 1,
            "ante": 1,
            "pot-limit": 1,
        },
    ),
    ExamTemplate(
        slug="pots-and-showdown",
        title=N_("Pots and showdown"),
        description=N_(
            "The same 10 spots for everyone: uncalled bets, main and side pots, who shows first, "
            "splitting a pot."
        ),
        count=10,
        minutes=12,
        pass_mark=80,
        level=3,
        fixed=(
            gen_ref("uncalled", 2, 1, 0),
            gen_ref("side-pots", 2, 1, 0),
            gen_ref("showdown", 2, 1, 0),
            gen_ref("side-pots", 3, 1, 1),
            gen_ref("uncalled", 3, 1, 1),
            gen_ref("showdown", 3, 1, 2),
            gen_ref("side-pots", 3, 1, 2),
            gen_ref("odd-chip", 2, 1, 0),
            gen_ref("showdown", 2, 1, 3),
            gen_ref("side-pots", 3, 1, 3),
        ),
    ),
)


class ExamClosed(Exception):
    """The exam is over: submitted, or past its deadline."""


@dataclass(frozen=True, kw_only=True)
class Graded:
    marks: dict[str, bool]

    @property
    def right(self) -> int:
        return sum(1 for v in self.marks.values() if v)

    @property
    def total(self) -> int:
        return len(self.marks)


# (question ref, what was typed or None) -> the marks; unanswered questions get all fields wrong
Grader = Callable[[str, dict[str, list[str]] | None], Graded]


def start(
    s: Session, template: ExamTemplate, *, learner_id: str, name: str, refs: list[str], at: datetime | None = None
) -> ExamAttempt:
    at = at or now()
    ensure_learner(s, learner_id)
    exam = ExamAttempt(
        id=new_id(),
        learner_id=learner_id,
        template=template.slug,
        title=template.title,
        name=name,
        questions=list(refs),
        time_limit_s=template.minutes * 60,
        pass_mark=template.pass_mark,
        started_at=at,
        deadline=at + timedelta(minutes=template.minutes),
    )
    s.add(exam)
    s.flush()
    return exam


def owned(s: Session, exam_id: str, learner_id: str | None) -> ExamAttempt | None:
    """The exam, only for the learner who sat it."""
    if not learner_id:
        return None
    return s.scalar(select(ExamAttempt).where(ExamAttempt.id == exam_id, ExamAttempt.learner_id == learner_id))


def answers(s: Session, exam: ExamAttempt) -> dict[int, ExamAnswer]:
    return {a.position: a for a in s.scalars(select(ExamAnswer).where(ExamAnswer.exam_id == exam.id))}


def is_open(exam: ExamAttempt, at: datetime | None = None) -> bool:
    return exam.finished_at is None and (at or now()) < exam.deadline


def save_answer(
    s: Session, exam: ExamAttempt, position: int, typed: dict[str, list[str]], at: datetime | None = None
) -> ExamAnswer:
    at = at or now()
    # Row lock (PostgreSQL): a save and the closing of the same exam take turns.
    s.execute(select(ExamAttempt.id).where(ExamAttempt.id == exam.id).with_for_update())
    s.refresh(exam)
    if not is_open(exam, at):
        raise ExamClosed()
    if not 0 <= position < len(exam.questions):
        raise IndexError(position)
    row = s.scalar(select(ExamAnswer).where(ExamAnswer.exam_id == exam.id, ExamAnswer.position == position))
    if row is None:
        try:
            with s.begin_nested():
                row = ExamAnswer(exam_id=exam.id, position=position, answers=typed, saved_at=at)
                s.add(row)
            return row
        except IntegrityError:  # a double click from two tabs: the second one updates
            row = s.scalar(select(ExamAnswer).where(ExamAnswer.exam_id == exam.id, ExamAnswer.position == position))
            assert row is not None
    row.answers, row.saved_at = typed, at
    s.flush()
    return row


def close(s: Session, exam: ExamAttempt, grader: Grader, *, by: str, at: datetime | None = None) -> bool:
    """Grade and close the exam; False if it was closed already (by a submission or its deadline)."""
    at = at or now()
    finished = min(at, exam.deadline)
    won = s.execute(
        update(ExamAttempt)
        .where(ExamAttempt.id == exam.id, ExamAttempt.finished_at.is_(None))
        .values(finished_at=finished, closed_by=by)
        .execution_options(synchronize_session=False)
    ).rowcount
    if won != 1:
        s.refresh(exam)
        return False
    saved = answers(s, exam)
    score = 0
    for position, ref in enumerate(exam.questions):
        row = saved.get(position)
        graded = grader(ref, row.answers if row is not None else None)
        if row is not None:
            row.marks, row.right, row.total = graded.marks, graded.right, graded.total
        if graded.total and graded.right == graded.total:
            score += 1
    s.refresh(exam)
    exam.score = score
    exam.passed = percent(score, len(exam.questions)) >= exam.pass_mark
    exam.verify_code = _unique_code(s)
    s.flush()
    return True


def close_if_due(s: Session, exam: ExamAttempt, grader: Grader, at: datetime | None = None) -> None:
    at = at or now()
    if exam.finished_at is None and at >= exam.deadline:
        close(s, exam, grader, by="deadline", at=at)


def close_expired(s: Session, grader: Grader, at: datetime | None = None) -> int:
    """Close every exam whose deadline has passed; returns how many this call closed."""
    at = at or now()
    due = s.scalars(
        select(ExamAttempt).where(ExamAttempt.finished_at.is_(None), ExamAttempt.deadline <= at).limit(200)
    ).all()
    return sum(close(s, exam, grader, by="deadline", at=at) for exam in due)


def percent(score: int, count: int) -> int:
    return int(100 * score / count) if count else 0


def _unique_code(s: Session) -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if s.scalar(select(ExamAttempt.id).where(ExamAttempt.verify_code == code)) is None:
            return code


def normalize_code(code: str) -> str:
    return "".join(c for c in code.upper() if c.isalnum())


def verified(s: Session, code: str) -> ExamAttempt | None:
    code = normalize_code(code)
    if len(code) != CODE_LENGTH:
        return None
    return s.scalar(select(ExamAttempt).where(ExamAttempt.verify_code == code))


def of_learner(s: Session, learner_id: str) -> list[ExamAttempt]:
    return list(
        s.scalars(
            select(ExamAttempt).where(ExamAttempt.learner_id == learner_id).order_by(ExamAttempt.started_at.desc())
        )
    )
