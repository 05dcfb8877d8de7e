"""Classes of accounts and the exams assigned to them.

A classroom session needs no accounts (students type a display name), but an
exam does: its result names the account that sat it. So a class is its own
thing: an instructor makes one (a title) and gets an invite code; students
join it while signed in; the instructor assigns exam templates to it, each
with a window. Inside the window a member may start the exam (as often as
the template's retake policy allows); an attempt's deadline is its time
limit or the window's close, whichever comes first, so nothing is answered
after the close.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from . import codes
from .learners import new_id
from .models import Account, ClassExam, ClassMember, ExamAttempt, SchoolClass, now
from .user_errors import N_, UserError

CODE_LENGTH = codes.JOIN_LENGTH
MAX_TITLE = 120


class ClassesError(UserError):
    """Something a class does not allow; the message is for the person who asked."""


normalize_code = codes.normalize
format_code = codes.format_join


def create(s: Session, *, instructor_id: int, title: str) -> SchoolClass:
    title = " ".join(title.split())
    if not title or len(title) > MAX_TITLE:
        raise ClassesError(N_("Give the class a title (up to %(n)s characters)."), n=MAX_TITLE)
    return codes.add_with_new_code(
        s, lambda code: SchoolClass(id=new_id(), instructor_id=instructor_id, title=title, code=code)
    )


def of_instructor(s: Session, class_id: str, instructor_id: int) -> SchoolClass | None:
    return s.scalar(select(SchoolClass).where(SchoolClass.id == class_id, SchoolClass.instructor_id == instructor_id))


def classes_of(s: Session, instructor_id: int) -> list[SchoolClass]:
    return list(
        s.scalars(
            select(SchoolClass).where(SchoolClass.instructor_id == instructor_id).order_by(SchoolClass.created_at.desc())
        )
    )


def by_code(s: Session, code: str) -> SchoolClass | None:
    code = normalize_code(code)
    if len(code) != CODE_LENGTH:
        return None
    return s.scalar(select(SchoolClass).where(SchoolClass.code == code))


def join(s: Session, school_class: SchoolClass, account_id: int) -> bool:
    """Make the account a member; False if it was one already."""
    if is_member(s, school_class.id, account_id):
        return False
    try:
        with s.begin_nested():
            s.add(ClassMember(class_id=school_class.id, account_id=account_id))
    except IntegrityError:  # joined from two tabs at once
        return False
    return True


def is_member(s: Session, class_id: str, account_id: int) -> bool:
    found = select(ClassMember.id).where(ClassMember.class_id == class_id, ClassMember.account_id == account_id)
    return s.scalar(found) is not None


def members(s: Session, school_class: SchoolClass) -> list[Account]:
    return list(
        s.scalars(
            select(Account)
            .join(ClassMember, ClassMember.account_id == Account.id)
            .where(ClassMember.class_id == school_class.id)
            .order_by(Account.name, Account.id)
        )
    )


def assign(
    s: Session, school_class: SchoolClass, *, template: str, opens_at: datetime, closes_at: datetime, time_zone: str,
    review: str | None = None,
) -> ClassExam:
    """``review``: when the review shows the answers (trainer.library.exams.REVIEW_OPTIONS); None:
    as the template says."""
    if closes_at <= opens_at:
        raise ClassesError(N_("The exam must close after it opens."))
    if closes_at <= now():
        raise ClassesError(N_("That window has already closed: choose a close in the future."))
    made = ClassExam(
        id=new_id(), class_id=school_class.id, template=template, opens_at=opens_at, closes_at=closes_at,
        time_zone=time_zone, review=review,
    )
    s.add(made)
    s.flush()
    return made


def assignments(s: Session, school_class: SchoolClass) -> list[ClassExam]:
    return list(
        s.scalars(select(ClassExam).where(ClassExam.class_id == school_class.id).order_by(ClassExam.opens_at.desc()))
    )


def assignment_of_instructor(s: Session, assignment_id: str, instructor_id: int) -> ClassExam | None:
    return s.scalar(
        select(ClassExam)
        .join(SchoolClass, SchoolClass.id == ClassExam.class_id)
        .where(ClassExam.id == assignment_id, SchoolClass.instructor_id == instructor_id)
    )


def assigned_to(s: Session, account_id: int) -> list[tuple[ClassExam, SchoolClass]]:
    """The exams assigned to the classes the account is in, soonest to close first."""
    rows = s.execute(
        select(ClassExam, SchoolClass)
        .join(SchoolClass, SchoolClass.id == ClassExam.class_id)
        .join(ClassMember, ClassMember.class_id == SchoolClass.id)
        .where(ClassMember.account_id == account_id)
        .order_by(ClassExam.closes_at, ClassExam.id)
    )
    return [(a, c) for a, c in rows]


def for_member(s: Session, assignment_id: str, account_id: int) -> ClassExam | None:
    """The assigned exam, only for a member of its class."""
    return s.scalar(
        select(ClassExam)
        .join(ClassMember, ClassMember.class_id == ClassExam.class_id)
        .where(ClassExam.id == assignment_id, ClassMember.account_id == account_id)
    )


def window_state(assignment: ClassExam, at: datetime | None = None) -> str:
    """"upcoming", "open" or "closed": the window is [opens_at, closes_at)."""
    at = at or now()
    if at < assignment.opens_at:
        return "upcoming"
    return "open" if at < assignment.closes_at else "closed"


def check_window(assignment: ClassExam, at: datetime | None = None) -> None:
    state = window_state(assignment, at)
    if state == "upcoming":
        raise ClassesError(N_("This exam is not open yet."))
    if state == "closed":
        raise ClassesError(N_("This exam has closed: it can no longer be started."))


def attempts(s: Session, assignment: ClassExam) -> list[tuple[ExamAttempt, Account]]:
    """Every attempt sat for the assigned exam, with its account, by name then attempt."""
    rows = s.execute(
        select(ExamAttempt, Account)
        .join(Account, Account.id == ExamAttempt.account_id)
        .where(ExamAttempt.assignment_id == assignment.id)
        .order_by(Account.name, Account.id, ExamAttempt.attempt_number)
    )
    return [(e, a) for e, a in rows]


def assigned_attempts(s: Session, account_id: int) -> list[ExamAttempt]:
    """The account's attempts sat for an assigned exam."""
    return list(
        s.scalars(
            select(ExamAttempt).where(ExamAttempt.account_id == account_id, ExamAttempt.assignment_id.is_not(None))
        )
    )


def supervised_attempt(s: Session, exam_id: str, instructor_id: int) -> ExamAttempt | None:
    """An attempt sat for an exam assigned to one of the instructor's classes; anyone else's is None."""
    return s.scalar(
        select(ExamAttempt)
        .join(ClassExam, ClassExam.id == ExamAttempt.assignment_id)
        .join(SchoolClass, SchoolClass.id == ClassExam.class_id)
        .where(ExamAttempt.id == exam_id, SchoolClass.instructor_id == instructor_id)
    )
