"""Live sessions in a classroom: sessions, join codes, students, answers, the live tally and the report.

Everything a classroom needs between requests is in the database, so any
app process can serve any student or the instructor. A join code is 8
characters from a 31-letter alphabet (about 8.5 × 10¹¹ codes) and wrong
guesses are rate-limited by the web layer: codes cannot be enumerated.
An answer's id comes from the client (a hidden field made when the form is
drawn, or the client's own UUID): a retried submission finds its own row and
is acknowledged again, never stored twice; a student has one answer per
question.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import case, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, object_session

from . import codes
from .learners import clean_name, new_id
from .models import LiveAnswer, LiveSession, LiveStudent, now
from .user_errors import N_, UserError

CODE_LENGTH = codes.JOIN_LENGTH
MAX_QUESTIONS = 50
MAX_NUMBER = 40  # characters of a student number
ANSWER_ID = re.compile(r"[A-Za-z0-9-]{8,36}")
STYLES = ("quick", "card")
MIN_SECONDS, MAX_SECONDS = 10, 60
# An answer sent as the countdown ends is still on its way: it counts if it arrives this much later.
GRACE = timedelta(seconds=1.5)
POINTS = 1000  # a right answer at once; half of it at the last moment
TOP = 5  # the leaderboard the projector shows


class ClassError(UserError):
    """Something a student or instructor asked that the session does not allow; the message is for them."""


format_code = codes.format_join
normalize_code = codes.normalize


def create(
    s: Session,
    *,
    instructor_id: int,
    title: str,
    mode: str,
    refs: list[str],
    deadline: datetime | None = None,
    style: str = "card",
    asks: list[list] | None = None,
    seconds: int | None = None,
    anonymous: bool = False,
    ask_number: bool = False,
    keypad: bool = False,
) -> LiveSession:
    """A new session. ``style`` "quick" asks one thing of each spot, ``asks[i]`` (kind and pot,
    ``trainer.quick``) of ``refs[i]``; ``seconds``: a countdown per question (10 to 60) or None;
    ``keypad``: a quick amount is typed on a number pad, not tapped among four."""
    if mode not in ("paced", "self"):
        raise ClassError(N_("Choose instructor-paced or self-paced."))
    if style not in STYLES:
        raise ClassError(N_("Choose quick questions or the full card."))
    if style == "quick" and (asks is None or len(asks) != len(refs)):
        raise ClassError(N_("Some of these spots have no quick question: choose the full card for them."))
    if seconds is not None and not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise ClassError(N_("A countdown is from %(low)s to %(high)s seconds, or none."), low=MIN_SECONDS,
                         high=MAX_SECONDS)
    if not refs:
        raise ClassError(N_("Choose at least one question."))
    if len(refs) > MAX_QUESTIONS:
        raise ClassError(N_("A session has at most %(n)s questions."), n=MAX_QUESTIONS)
    if mode == "self" and (deadline is None or deadline <= now()):
        raise ClassError(N_("A self-paced assignment needs a deadline in the future."))
    return codes.add_with_new_code(
        s,
        lambda code: LiveSession(
            id=new_id(),
            instructor_id=instructor_id,
            title=title.strip()[:120] or "Classroom drill",
            code=code,
            mode=mode,
            questions=list(refs),
            state="live" if mode == "self" else "lobby",
            current=-1,
            revealed=False,
            deadline=deadline if mode == "self" else None,
            style=style,
            asks=[list(a) for a in asks] if style == "quick" else None,
            seconds=seconds if mode == "paced" else None,
            anonymous=anonymous,
            ask_number=ask_number,
            keypad=keypad and style == "quick",
        ),
    )


def by_code(s: Session, code: str, *, ended: bool = False) -> LiveSession | None:
    """The live session with this code; ``ended``: the ended one, so that a student typing it is told
    the class is over."""
    code = normalize_code(code)
    if len(code) != CODE_LENGTH:
        return None
    state = LiveSession.state == "ended" if ended else LiveSession.state != "ended"
    return s.scalar(select(LiveSession).where(LiveSession.code == code, state))


def with_student(
    s: Session, code: str, student_ids: list[str]
) -> tuple[LiveSession | None, LiveStudent | None, LiveAnswer | None]:
    """The live session with this code, of ``student_ids`` (a browser's) its student, and that
    student's answer to the question shown now (if any): one query. (session, None, None) when
    none of them is in it; (None, None, None) when no live session has the code."""
    code = normalize_code(code)
    if len(code) != CODE_LENGTH:
        return None, None, None
    if student_ids:
        row = s.execute(
            select(LiveSession, LiveStudent, LiveAnswer)
            .join(LiveStudent, LiveStudent.session_id == LiveSession.id)
            .outerjoin(
                LiveAnswer,
                (LiveAnswer.student_id == LiveStudent.id) & (LiveAnswer.position == LiveSession.current),
            )
            .where(LiveSession.code == code, LiveSession.state != "ended", LiveStudent.id.in_(student_ids))
            .limit(1)
        ).first()
        if row is not None:
            return row[0], row[1], row[2]
    return by_code(s, code), None, None


def of_instructor(s: Session, session_id: str, instructor_id: int) -> LiveSession | None:
    return s.scalar(
        select(LiveSession).where(LiveSession.id == session_id, LiveSession.instructor_id == instructor_id)
    )


def sessions_of(s: Session, instructor_id: int) -> list[LiveSession]:
    return list(
        s.scalars(
            select(LiveSession)
            .where(LiveSession.instructor_id == instructor_id)
            .order_by(LiveSession.created_at.desc())
        )
    )


def is_over(session: LiveSession, at: datetime | None = None) -> bool:
    if session.state == "ended":
        return True
    return session.mode == "self" and session.deadline is not None and (at or now()) >= session.deadline


def name_key(name: str) -> str:
    """A name as compared with the others of its session: Alice, alice, ＡＬＩＣＥ and "Alice "
    are one name (NFKC, case folded, spaces collapsed)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return clean_name(folded)


@dataclass(frozen=True, kw_only=True)
class Seat:
    """A browser's student in a session, as joining left it."""

    student: LiveStudent
    renamed_from: str | None = None  # the name the seat had, when this join gave it another


_TAKEN = N_("Someone in this session already has that name: choose another.")


def join(s: Session, session: LiveSession, name: str, *, learner_id: str | None = None) -> LiveStudent:
    return take_seat(s, session, name, learner_id=learner_id).student


def take_seat(s: Session, session: LiveSession, name: str, *, learner_id: str | None = None,
              student_number: str | None = None) -> Seat:
    """The student of ``learner_id`` (the browser's learner) named ``name``: one seat per browser.

    A browser that has a seat gets it back (a retry after the first response was lost, or one
    racing the first request), renamed if it gives another name that nobody else has. A browser
    the instructor removed is refused under any name until let back. Two students never have
    names that compare alike (``name_key``).
    """
    name = clean_name(name)
    key = name_key(name)
    if not name or len(name) > 40 or len(key) > 200:
        raise ClassError(N_("Enter a display name (up to 40 characters)."))
    if is_over(session):
        raise ClassError(N_("This session has ended."))
    number = clean_name(student_number or "") or None
    if number is not None and len(number) > MAX_NUMBER:
        raise ClassError(N_("A student number can have up to %(n)s characters."), n=MAX_NUMBER)
    if learner_id is not None and (mine := _seat_of(s, session, learner_id)) is not None:
        return _numbered(_back_in(s, mine, name, key), number)
    student = LiveStudent(id=new_id(), session_id=session.id, name=name, name_key=key, learner_id=learner_id,
                          student_number=number)
    try:
        with s.begin_nested():
            s.add(student)
    except IntegrityError:
        # The name is taken, or this browser's seat was taken by a request racing this one (the
        # unique constraints, so a concurrent first request is seen too once it commits).
        if learner_id is not None and (mine := _seat_of(s, session, learner_id)) is not None:
            return _numbered(_back_in(s, mine, name, key), number)
        raise ClassError(_TAKEN) from None
    return Seat(student=student)


def _numbered(seat: Seat, number: str | None) -> Seat:
    """A seat taken again keeps the number typed last (a typo mended by joining again)."""
    if number is not None and seat.student.student_number != number:
        seat.student.student_number = number
        s = object_session(seat.student)
        if s is not None:
            s.flush()
    return seat


def _seat_of(s: Session, session: LiveSession, learner_id: str) -> LiveStudent | None:
    return s.scalar(
        select(LiveStudent).where(LiveStudent.session_id == session.id, LiveStudent.learner_id == learner_id)
    )


def _back_in(s: Session, mine: LiveStudent, name: str, key: str) -> Seat:
    if mine.removed:
        raise ClassError(N_("You were removed from this session: ask your instructor to let you back in."))
    if name == mine.name:
        return Seat(student=mine)
    before = mine.name
    try:
        with s.begin_nested():
            s.execute(update(LiveStudent).where(LiveStudent.id == mine.id).values(name=name, name_key=key))
    except IntegrityError:
        raise ClassError(_TAKEN) from None
    s.refresh(mine)
    return Seat(student=mine, renamed_from=before)


def student(s: Session, session: LiveSession, student_id: str | None) -> LiveStudent | None:
    if not student_id:
        return None
    return s.scalar(select(LiveStudent).where(LiveStudent.id == student_id, LiveStudent.session_id == session.id))


def removed_ids(s: Session, session: LiveSession) -> list[str]:
    return list(
        s.scalars(select(LiveStudent.id).where(LiveStudent.session_id == session.id, LiveStudent.removed.is_(True)))
    )


def students(s: Session, session: LiveSession, *, removed: bool = False) -> list[LiveStudent]:
    query = select(LiveStudent).where(LiveStudent.session_id == session.id)
    if not removed:
        query = query.where(LiveStudent.removed.is_(False))
    return list(s.scalars(query.order_by(LiveStudent.joined_at, LiveStudent.name)))


def accepts(session: LiveSession, position: int, at: datetime | None = None) -> bool:
    if not 0 <= position < len(session.questions) or is_over(session, at):
        return False
    if session.mode == "paced":
        return (session.state == "live" and position == session.current and not session.revealed
                and not time_up(session, at))
    return True


def closes_at(session: LiveSession) -> datetime | None:
    """When the countdown of the question shown ends (None: no countdown, or none shown)."""
    if session.seconds is None or session.shown_at is None or session.current < 0:
        return None
    return session.shown_at + timedelta(seconds=session.seconds)


def time_up(session: LiveSession, at: datetime | None = None) -> bool:
    closes = closes_at(session)
    return closes is not None and (at or now()) > closes + GRACE


def points_for(session: LiveSession, right: bool, at: datetime) -> int:
    """Points for an answer: none when wrong; ``POINTS`` at once, down to half at the end of the
    countdown (or of 20 seconds, without one)."""
    if not right:
        return 0
    if session.shown_at is None:
        return POINTS // 2
    window = session.seconds or 20
    elapsed = min(max((at - session.shown_at).total_seconds(), 0.0), window)
    return round(POINTS * (1 - elapsed / window / 2))


def submit(
    s: Session,
    session: LiveSession,
    who: LiveStudent,
    *,
    answer_id: str,
    position: int,
    typed: dict[str, list[str]],
    shown: dict[str, str],
    marks: dict[str, bool],
    at: datetime | None = None,
    points: int = 0,
) -> tuple[LiveAnswer, bool]:
    """Store an answer once. Returns (the stored answer, whether this call stored it).

    A retry with the same id returns the row stored the first time, even after
    the question has closed; a second, different answer to the same question
    returns the first one.
    """
    if not ANSWER_ID.fullmatch(answer_id):
        raise ClassError(N_("This form is damaged: reload the page."))
    if who.removed or not accepts(session, position, at):
        # Closed to new answers; a retry of one stored before is still answered with it.
        stored = s.get(LiveAnswer, answer_id)
        if stored is not None:
            if stored.student_id != who.id:
                raise ClassError(N_("This form is damaged: reload the page."))
            return stored, False
        if who.removed:
            raise ClassError(N_("You were removed from this session."))
        raise ClassError(N_("This question is closed: your answer was not recorded."))
    values = {
        "id": answer_id,
        "session_id": session.id,
        "student_id": who.id,
        "position": position,
        "typed": typed,
        "answers": shown,
        "marks": marks,
        "right": sum(1 for v in marks.values() if v),
        "total": len(marks),
        "points": points,
        "created_at": at or now(),
    }
    insert = pg_insert if s.get_bind().dialect.name == "postgresql" else sqlite_insert
    statement = insert(LiveAnswer).values(**values).on_conflict_do_nothing().returning(LiveAnswer.id)
    if s.execute(statement).first() is not None:
        # The row as stored, without reading it back (the common case: one statement).
        return LiveAnswer(**values), True
    stored = s.get(LiveAnswer, answer_id)  # a retry of this answer, or another id for the same question
    if stored is not None:
        if stored.student_id != who.id:
            raise ClassError(N_("This form is damaged: reload the page."))
        return stored, False
    first = s.scalar(select(LiveAnswer).where(LiveAnswer.student_id == who.id, LiveAnswer.position == position))
    if first is None:
        raise ClassError(N_("This form is damaged: reload the page."))
    return first, False


def answer_of(s: Session, who: LiveStudent, position: int) -> LiveAnswer | None:
    return s.scalar(select(LiveAnswer).where(LiveAnswer.student_id == who.id, LiveAnswer.position == position))


def answers_of(s: Session, who: LiveStudent) -> dict[int, LiveAnswer]:
    return {a.position: a for a in s.scalars(select(LiveAnswer).where(LiveAnswer.student_id == who.id))}


# ------------------------------------------------------------- instructor


def advance(s: Session, session: LiveSession) -> None:
    """Show the next question (the first, from the lobby)."""
    if session.mode != "paced" or session.state == "ended":
        raise ClassError(N_("Only a live instructor-paced session moves on."))
    if session.current + 1 >= len(session.questions):
        raise ClassError(N_("That was the last question: end the session to see the report."))
    session.current += 1
    session.revealed = False
    session.state = "live"
    session.shown_at = now()
    s.flush()


def reveal(s: Session, session: LiveSession) -> None:
    if session.mode != "paced" or session.state != "live" or session.current < 0:
        raise ClassError(N_("There is no question to reveal."))
    session.revealed = True
    s.flush()


def end(s: Session, session: LiveSession) -> None:
    if session.state != "ended":
        session.state = "ended"
        session.ended_at = now()
        s.flush()


def remove(s: Session, session: LiveSession, student_id: str) -> LiveStudent | None:
    return _set_removed(s, session, student_id, True)


def readmit(s: Session, session: LiveSession, student_id: str) -> LiveStudent | None:
    """Let a removed student back in, under the name they had (with their answers)."""
    return _set_removed(s, session, student_id, False)


def _set_removed(s: Session, session: LiveSession, student_id: str, removed: bool) -> LiveStudent | None:
    who = student(s, session, student_id)
    if who is not None:
        s.execute(update(LiveStudent).where(LiveStudent.id == who.id).values(removed=removed))
        s.refresh(who)
    return who


@dataclass(frozen=True, kw_only=True)
class Tally:
    """The answers to one question so far."""

    position: int
    answered: int
    expected: int  # students present
    all_right: int
    waiting: tuple[str, ...]  # names of students present who have not answered
    # field name -> [(shown value, count)], most common first; the text is in each student's
    # language, so a screen counts by value from ``answers`` instead
    distribution: dict[str, list[tuple[str, int]]]
    # each answer counted: (what was typed, as stored: language-free; the answer as it read to its student)
    answers: tuple[tuple[dict[str, list[str]], dict[str, str]], ...] = ()


def tally(s: Session, session: LiveSession, position: int) -> Tally:
    present = students(s, session)
    ids = {p.id for p in present}
    rows = [
        a
        for a in s.scalars(
            select(LiveAnswer).where(LiveAnswer.session_id == session.id, LiveAnswer.position == position)
        )
        if a.student_id in ids
    ]
    done = {a.student_id for a in rows}
    counters: dict[str, Counter] = {}
    for a in rows:
        for name, value in a.answers.items():
            counters.setdefault(name, Counter())[value] += 1
    return Tally(
        position=position,
        answered=len(rows),
        expected=len(present),
        all_right=sum(1 for a in rows if a.right == a.total),
        waiting=tuple(p.name for p in present if p.id not in done),
        distribution={name: c.most_common() for name, c in counters.items()},
        answers=tuple((a.typed or {}, a.answers or {}) for a in rows),
    )


def answered_counts(s: Session, session: LiveSession) -> dict[str, int]:
    """Student id -> answers given (for the self-paced progress view)."""
    rows = s.execute(
        select(LiveAnswer.student_id, func.count())
        .where(LiveAnswer.session_id == session.id)
        .group_by(LiveAnswer.student_id)
    )
    return {student_id: n for student_id, n in rows}


def all_answers(s: Session, session: LiveSession) -> list[tuple[LiveAnswer, LiveStudent]]:
    rows = s.execute(
        select(LiveAnswer, LiveStudent)
        .join(LiveStudent, LiveStudent.id == LiveAnswer.student_id)
        .where(LiveAnswer.session_id == session.id)
        .order_by(LiveAnswer.position, LiveStudent.name)
    )
    return [(answer, who) for answer, who in rows]


@dataclass(frozen=True, kw_only=True)
class Standing:
    """A student's place in the game: 1 for the most points (equal points share a place)."""

    student_id: str
    name: str
    points: int
    right: int  # questions all right
    place: int


def standings(s: Session, session: LiveSession) -> list[Standing]:
    """Every student present, most points first (then most right, then who joined first)."""
    present = students(s, session)
    totals = {
        student_id: (points or 0, right or 0)
        for student_id, points, right in s.execute(
            select(LiveAnswer.student_id, func.sum(LiveAnswer.points),
                   func.sum(case((LiveAnswer.right == LiveAnswer.total, 1), else_=0)))
            .where(LiveAnswer.session_id == session.id)
            .group_by(LiveAnswer.student_id)
        )
    }
    ordered = sorted(present, key=lambda p: (-totals.get(p.id, (0, 0))[0], -totals.get(p.id, (0, 0))[1]))
    out: list[Standing] = []
    for i, p in enumerate(ordered):
        points, right = totals.get(p.id, (0, 0))
        place = out[-1].place if out and out[-1].points == points and out[-1].right == right else i + 1
        out.append(Standing(student_id=p.id, name=p.name, points=points, right=right, place=place))
    return out
