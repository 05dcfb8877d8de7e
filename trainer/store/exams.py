"""Exam mode: starting an attempt, saving answers, closing exactly once, verifying.

The clock is the server's: an answer saved at or after the deadline is
refused, and an exam still open at its deadline is closed as of the deadline
with what was answered (whoever touches it first closes it). Closing is a
conditional update, so an exam is graded and gets its verification code once.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from trainer.library.exams import (  # noqa: F401 - the exam references and templates, for the store's callers
    DEALER_EDITION,
    EXAM_DEAL,
    EXAM_GEN,
    EXAM_POOL,
    EXAM_SEED_BASE,
    REAL_STAKES,
    REVIEW_AFTER_ATTEMPT,
    REVIEW_AFTER_CLOSE,
    REVIEW_OPTIONS,
    ExamTemplate,
    RetakePolicy,
    exam_gen_parts,
    exam_gen_ref,
    exam_part,
    exam_pool_ref,
    is_dealer_ref,
)

from . import codes
from .learners import ensure_learner, new_id
from .models import Account, ClassExam, ExamAnswer, ExamAttempt, SchoolClass, now

CODE_LENGTH = 10
MAX_CANDIDATE_NUMBER = 40  # characters of exam_attempts.candidate_number


def attempt_seed(secret: str | bytes, exam_id: str) -> int:
    """The seed of one attempt's draw: an HMAC of the app's secret and the attempt's id, so
    neither a candidate nor anyone who sees the attempt's id can compute the questions."""
    key = secret.encode() if isinstance(secret, str) else secret
    digest = hmac.new(key, f"exam-draw:{exam_id}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


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


class RetakeRefused(Exception):
    """The retake policy does not allow another attempt yet; ``until`` is when it will (None: a
    start at the same moment took the attempt number, so try again)."""

    def __init__(self, until: datetime | None) -> None:
        super().__init__(until)
        self.until = until


@dataclass(frozen=True, kw_only=True)
class Standing:
    """Where an account stands with a template's retake policy."""

    used: int  # attempts started within the policy's window
    allowed: int
    next_at: datetime | None  # when another attempt may start; None: now
    number: int  # the number the next attempt gets


def _scope(assignment_id: str | None):
    """Self-study attempts (no assignment) and each assignment's attempts are counted apart: a
    student's practice retakes never use up a class exam's attempts, nor the reverse."""
    if assignment_id is None:
        return ExamAttempt.assignment_id.is_(None)
    return ExamAttempt.assignment_id == assignment_id


def standing(s: Session, template: ExamTemplate, account_id: int, at: datetime | None = None, *,
             assignment_id: str | None = None) -> Standing:
    """Where the account stands with the template's retake policy, for its self-study attempts or
    (``assignment_id``) for those sat for one assigned exam."""
    at = at or now()
    # One statement, so one snapshot: with the count and the number read apart, a concurrent start
    # committed between them went uncounted yet moved the number past it, and made one attempt too
    # many (tests/store/test_exam_trust.py races six starts).
    rows = s.execute(
        select(ExamAttempt.attempt_number, ExamAttempt.started_at, ExamAttempt.assignment_id).where(
            ExamAttempt.account_id == account_id, ExamAttempt.template == template.slug
        )
    ).all()
    window = timedelta(hours=template.retake.hours)
    recent = sorted(started for _n, started, assigned in rows if assigned == assignment_id and started > at - window)
    allowed = template.retake.attempts
    # The oldest of the last `allowed` starts leaves the window first; then one more is allowed.
    next_at = recent[-allowed] + window if len(recent) >= allowed else None
    # Numbers run over all of the account's attempts at the template (one number, one attempt).
    number = max((n or 0 for n, _started, _assigned in rows), default=0) + 1
    return Standing(used=len(recent), allowed=allowed, next_at=next_at, number=number)


def start(
    s: Session,
    template: ExamTemplate,
    *,
    learner_id: str,
    name: str,
    refs: list[str],
    account_id: int | None = None,
    exam_id: str | None = None,
    at: datetime | None = None,
    assignment_id: str | None = None,
    closes_at: datetime | None = None,
    candidate_number: str | None = None,
    extra_minutes: int = 0,
) -> ExamAttempt:
    """A new attempt; with an account, only as its template's retake policy allows
    (``RetakeRefused`` otherwise, also when a concurrent start took this attempt's number).
    ``closes_at`` (an assigned exam's window) cuts the deadline short: no answer counts after it.
    ``extra_minutes``: one student's extra time, added to the template's limit."""
    at = at or now()
    limit_s = (template.minutes + extra_minutes) * 60
    deadline = at + timedelta(seconds=limit_s)
    if closes_at is not None:
        deadline = min(deadline, closes_at)
    ensure_learner(s, learner_id)
    number = None
    if account_id is not None:
        stand = standing(s, template, account_id, at, assignment_id=assignment_id)
        if stand.next_at is not None:
            raise RetakeRefused(stand.next_at)
        number = stand.number
    exam = ExamAttempt(
        id=exam_id or new_id(),
        learner_id=learner_id,
        account_id=account_id,
        attempt_number=number,
        template=template.slug,
        title=template.title,
        name=name,
        candidate_number=candidate_number or None,
        questions=list(refs),
        time_limit_s=limit_s,
        pass_mark=template.pass_mark,
        started_at=at,
        deadline=deadline,
        assignment_id=assignment_id,
    )
    try:
        with s.begin_nested():
            s.add(exam)
    except IntegrityError:
        raise RetakeRefused(None) from None
    return exam


def open_attempt(
    s: Session, template: ExamTemplate, account_id: int, at: datetime | None = None, *, assignment_id: str | None = None
) -> ExamAttempt | None:
    """The account's self-study attempt at this template still running, if any (for
    ``assignment_id``: one sat for that assigned exam)."""
    query = select(ExamAttempt).where(
        ExamAttempt.account_id == account_id,
        ExamAttempt.template == template.slug,
        ExamAttempt.finished_at.is_(None),
        ExamAttempt.deadline > (at or now()),
    )
    query = query.where(_scope(assignment_id))
    return s.scalars(query.order_by(ExamAttempt.started_at.desc())).first()


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


def window_cut_short(exam: ExamAttempt) -> bool:
    """Whether the attempt's deadline was its class window's close, before its time limit ran out."""
    return exam.assignment_id is not None and exam.deadline < exam.started_at + timedelta(seconds=exam.time_limit_s)


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


def exact_percent(score: int, count: int) -> float:
    """The share of questions right to one decimal, for a gradebook (87.5, not 87)."""
    return round(100 * score / count, 1) if count else 0.0


def _unique_code(s: Session) -> str:
    while True:
        code = codes.draw(CODE_LENGTH)
        if s.scalar(select(ExamAttempt.id).where(ExamAttempt.verify_code == code)) is None:
            return code


normalize_code = codes.normalize


def verified(s: Session, code: str) -> ExamAttempt | None:
    code = normalize_code(code)
    if len(code) != CODE_LENGTH:
        return None
    return s.scalar(select(ExamAttempt).where(ExamAttempt.verify_code == code))


@dataclass(frozen=True, kw_only=True)
class Provenance:
    """Under whom a result was sat: a class's assigned exam names its class and instructor (their
    names as they are now); a self-assessment has neither. ``revoked_by`` names who withdrew it."""

    class_title: str | None = None
    instructor: str | None = None
    revoked_by: str | None = None

    @property
    def supervised(self) -> bool:
        return self.instructor is not None


def provenance(s: Session, exam: ExamAttempt) -> Provenance:
    under = assigned_by(s, exam.assignment_id) if exam.assignment_id is not None else Provenance()
    if exam.revoked_by is None:
        return under
    revoked_by = s.scalar(select(Account.name).where(Account.id == exam.revoked_by))
    return Provenance(class_title=under.class_title, instructor=under.instructor, revoked_by=revoked_by)


def assigned_by(s: Session, assignment_id: str) -> Provenance:
    """The class an exam was assigned to and its instructor."""
    row = s.execute(
        select(SchoolClass.title, Account.name)
        .join(ClassExam, ClassExam.class_id == SchoolClass.id)
        .join(Account, Account.id == SchoolClass.instructor_id)
        .where(ClassExam.id == assignment_id)
    ).first()
    return Provenance(class_title=row[0], instructor=row[1]) if row is not None else Provenance()


def revoke(s: Session, exam: ExamAttempt, *, by: int, at: datetime | None = None) -> bool:
    """Withdraw a closed result (its instructor's decision); False if it was revoked already or is
    not closed. The verification code stays: /verify answers "revoked" rather than "no such code"."""
    won = s.execute(
        update(ExamAttempt)
        .where(ExamAttempt.id == exam.id, ExamAttempt.finished_at.is_not(None), ExamAttempt.revoked_at.is_(None))
        .values(revoked_at=at or now(), revoked_by=by)
        .execution_options(synchronize_session=False)
    ).rowcount
    s.refresh(exam)
    return won == 1


def answers_open_at(s: Session, exam: ExamAttempt, template_review: str = REVIEW_AFTER_CLOSE) -> datetime | None:
    """When the closed attempt's review shows the correct answers: when it closed, or, for a class's
    assigned exam whose review waits for the close (its own setting, else its template's), when the
    window closes for everyone. None while the attempt is open."""
    if exam.finished_at is None:
        return None
    closes = review_waits_for(s, exam, template_review)
    return exam.finished_at if closes is None else max(exam.finished_at, closes)


def review_waits_for(s: Session, exam: ExamAttempt, template_review: str = REVIEW_AFTER_CLOSE) -> datetime | None:
    """The close of the class window the attempt's review waits for; None: it waits for nothing
    but the attempt's own end (a self-assessment, or an assignment that shows answers at once)."""
    if exam.assignment_id is None:
        return None
    assignment = s.get(ClassExam, exam.assignment_id)
    if assignment is None or (assignment.review or template_review) == REVIEW_AFTER_ATTEMPT:
        return None
    return assignment.closes_at


def of_learner(s: Session, learner_id: str) -> list[ExamAttempt]:
    return list(
        s.scalars(
            select(ExamAttempt).where(ExamAttempt.learner_id == learner_id).order_by(ExamAttempt.started_at.desc())
        )
    )
