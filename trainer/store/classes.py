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

from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from . import codes
from .learners import new_id
from .models import Account, ClassExam, ClassExamAllowance, ClassMember, ExamAttempt, SchoolClass, now
from .user_errors import N_, UserError

CODE_LENGTH = codes.JOIN_LENGTH
MAX_TITLE = 120
MAX_NUMBER = 40  # characters of a student number (class_members, class_students)
MAX_EXTRA_MINUTES = 600


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


def join(s: Session, school_class: SchoolClass, account_id: int, *, student_number: str | None = None) -> bool:
    """Make the account a member; False if it was one already. ``student_number``: as typed, when
    the class asks for one (trainer.store.learners.clean_name has tidied it)."""
    if student_number is not None and len(student_number) > MAX_NUMBER:
        raise ClassesError(N_("A student number can have up to %(n)s characters."), n=MAX_NUMBER)
    if is_member(s, school_class.id, account_id):
        return False
    try:
        with s.begin_nested():
            s.add(ClassMember(class_id=school_class.id, account_id=account_id, student_number=student_number or None))
    except IntegrityError:  # joined from two tabs at once
        return False
    return True


def is_member(s: Session, class_id: str, account_id: int) -> bool:
    found = select(ClassMember.id).where(ClassMember.class_id == class_id, ClassMember.account_id == account_id)
    return s.scalar(found) is not None


def numbers(s: Session, school_class: SchoolClass) -> dict[int, str]:
    """The student numbers the class's members typed when they joined, by account."""
    rows = s.execute(select(ClassMember.account_id, ClassMember.student_number)
                     .where(ClassMember.class_id == school_class.id, ClassMember.student_number.is_not(None)))
    return {account_id: number for account_id, number in rows}


def member(s: Session, school_class: SchoolClass, account_id: int) -> Account | None:
    """A member of the class; anyone else is None."""
    return s.scalar(
        select(Account).join(ClassMember, ClassMember.account_id == Account.id)
        .where(ClassMember.class_id == school_class.id, Account.id == account_id)
    )


def remove_member(s: Session, school_class: SchoolClass, account_id: int) -> bool:
    """Take the account out of the class: its assigned exams are no longer offered to it, and its
    own terms go with it. Results it already has stay (a certificate may cite them). False if it
    was no member."""
    s.execute(delete(ClassExamAllowance).where(
        ClassExamAllowance.account_id == account_id,
        ClassExamAllowance.assignment_id.in_(select(ClassExam.id).where(ClassExam.class_id == school_class.id)),
    ))
    gone = s.execute(delete(ClassMember).where(ClassMember.class_id == school_class.id,
                                               ClassMember.account_id == account_id)).rowcount
    return gone == 1


def members(s: Session, school_class: SchoolClass) -> list[Account]:
    return list(
        s.scalars(
            select(Account)
            .join(ClassMember, ClassMember.account_id == Account.id)
            .where(ClassMember.class_id == school_class.id)
            .order_by(Account.name, Account.id)
        )
    )


def _check_window(opens_at: datetime, closes_at: datetime) -> None:
    if closes_at <= opens_at:
        raise ClassesError(N_("The exam must close after it opens."))
    if closes_at <= now():
        raise ClassesError(N_("That window has already closed: choose a close in the future."))


def assign(
    s: Session, school_class: SchoolClass, *, template: str, opens_at: datetime, closes_at: datetime, time_zone: str,
    review: str | None = None,
) -> ClassExam:
    """``review``: when the review shows the answers (trainer.library.exams.REVIEW_OPTIONS); None:
    as the template says."""
    _check_window(opens_at, closes_at)
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


def window_state(assignment: ClassExam, at: datetime | None = None, *, closes_at: datetime | None = None) -> str:
    """"upcoming", "open" or "closed": the window is [opens_at, closes_at) (``closes_at``: one
    student's late close)."""
    at = at or now()
    if at < assignment.opens_at:
        return "upcoming"
    return "open" if at < (closes_at or assignment.closes_at) else "closed"


def check_window(assignment: ClassExam, at: datetime | None = None, *, closes_at: datetime | None = None) -> None:
    state = window_state(assignment, at, closes_at=closes_at)
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


def update_assignment(
    s: Session, assignment: ClassExam, *, template: str, opens_at: datetime, closes_at: datetime, time_zone: str,
    review: str | None = None,
) -> None:
    """Change an assigned exam's window (extend it, or bring its close forward), its review setting,
    or, while nobody has started it, the exam itself. Attempts still running end at the new close
    (each student's late window still counts), or at their own time limit if that comes first."""
    _check_window(opens_at, closes_at)
    if template != assignment.template and started_count(s, assignment):
        raise ClassesError(N_("Students have started this exam: it cannot be changed for another one. "
                              "Assign the other exam as well."))
    assignment.template, assignment.opens_at, assignment.closes_at = template, opens_at, closes_at
    assignment.time_zone, assignment.review = time_zone, review
    s.flush()
    _refit_running(s, assignment)


def started_count(s: Session, assignment: ClassExam) -> int:
    return s.scalar(select(func.count()).select_from(ExamAttempt).where(ExamAttempt.assignment_id == assignment.id))


def delete_assignment(s: Session, assignment: ClassExam) -> None:
    """Take back an assigned exam nobody has started. Once someone has, its results stand (a
    certificate may cite them): bring its close forward instead."""
    if started_count(s, assignment):
        raise ClassesError(N_("Students have started this exam, so it cannot be deleted: their results stay. "
                              "To stop further attempts, move its close to now."))
    s.execute(delete(ClassExamAllowance).where(ClassExamAllowance.assignment_id == assignment.id))
    s.delete(assignment)
    s.flush()


def allowance(s: Session, assignment: ClassExam, account_id: int) -> ClassExamAllowance | None:
    return s.scalar(select(ClassExamAllowance).where(ClassExamAllowance.assignment_id == assignment.id,
                                                     ClassExamAllowance.account_id == account_id))


def allowances(s: Session, assignment: ClassExam) -> dict[int, ClassExamAllowance]:
    rows = s.scalars(select(ClassExamAllowance).where(ClassExamAllowance.assignment_id == assignment.id))
    return {a.account_id: a for a in rows}


def set_allowance(
    s: Session, assignment: ClassExam, account_id: int, *, extra_minutes: int, closes_at: datetime | None,
    minutes: int,
) -> None:
    """One member's extra minutes on each attempt and a late window (a close of their own, after
    the class's; None: the class's). ``minutes``: the template's time limit. An attempt of theirs
    still running gets the new terms at once; 0 and None take them back."""
    if not 0 <= extra_minutes <= MAX_EXTRA_MINUTES:
        raise ClassesError(N_("Extra time is a whole number of minutes from 0 to %(n)s."), n=MAX_EXTRA_MINUTES)
    if closes_at is not None and closes_at <= assignment.closes_at:
        raise ClassesError(N_("A late window must close after the class's close."))
    found = allowance(s, assignment, account_id)
    if not extra_minutes and closes_at is None:
        if found is not None:
            s.delete(found)
    elif found is None:
        s.add(ClassExamAllowance(assignment_id=assignment.id, account_id=account_id, extra_minutes=extra_minutes,
                                 closes_at=closes_at))
    else:
        found.extra_minutes, found.closes_at = extra_minutes, closes_at
    s.flush()
    for exam in _running(s, assignment, account_id):
        exam.time_limit_s = (minutes + extra_minutes) * 60
    _refit_running(s, assignment)


def closes_for(assignment: ClassExam, terms: ClassExamAllowance | None) -> datetime:
    """When the window closes for one student: the class's close, or their late window's."""
    if terms is not None and terms.closes_at is not None and terms.closes_at > assignment.closes_at:
        return terms.closes_at
    return assignment.closes_at


def _running(s: Session, assignment: ClassExam, account_id: int | None = None) -> list[ExamAttempt]:
    query = select(ExamAttempt).where(ExamAttempt.assignment_id == assignment.id, ExamAttempt.finished_at.is_(None),
                                      ExamAttempt.deadline > now())
    if account_id is not None:
        query = query.where(ExamAttempt.account_id == account_id)
    return list(s.scalars(query))


def _refit_running(s: Session, assignment: ClassExam) -> None:
    """Each attempt still running ends at its time limit or its student's close, whichever is first."""
    terms = allowances(s, assignment)
    for exam in _running(s, assignment):
        close_at = closes_for(assignment, terms.get(exam.account_id))
        exam.deadline = min(exam.started_at + timedelta(seconds=exam.time_limit_s), close_at)
    s.flush()
