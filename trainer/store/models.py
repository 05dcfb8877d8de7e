"""The tables: learners and accounts, drill attempts, review cards, exams, classroom sessions.

Times are stored as UTC without a zone (SQLite has no zones) and come back
as aware UTC datetimes. JSON columns hold what a learner typed and the marks,
keyed by the quiz's field names.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false as sa_false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Named constraints, so migrations can refer to them on every backend.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def now() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator):
    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("store aware datetimes only")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Account(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    name: Mapped[str] = mapped_column(String(80))
    is_instructor: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class AccountSession(Base):
    """A signed-in session: its id is in the browser's signed cookie, and the session lasts while
    the row does. Signing out deletes this browser's row (copies of its cookie end with it);
    "every other device" and a new password delete the account's others."""

    __tablename__ = "account_sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class Learner(Base):
    """Whoever drills: anonymous (an id in the signed session cookie) or an account's."""

    __tablename__ = "learners"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), unique=True)
    # Spaced repetition: on for every learner made since it became the default; those made before
    # keep what they had (off, unless they turned it on).
    srs_enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class Attempt(Base):
    """One graded answer in self-study."""

    __tablename__ = "attempts"
    __table_args__ = (Index("ix_attempts_learner_created", "learner_id", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Made by the drill form when it is shown: an answer sent again (the database was away when it
    # was graded) is the same row. None for attempts stored before there were ids.
    answer_id: Mapped[str | None] = mapped_column(String(36), unique=True)
    learner_id: Mapped[str] = mapped_column(ForeignKey("learners.id"))
    scenario_id: Mapped[str | None] = mapped_column(String(200))
    # a generated spot: generate(topic, level, seed) at index
    gen_topic: Mapped[str | None] = mapped_column(String(40))
    gen_level: Mapped[int | None] = mapped_column(Integer)
    gen_seed: Mapped[int | None] = mapped_column(Integer)
    gen_index: Mapped[int | None] = mapped_column(Integer)
    topics: Mapped[list] = mapped_column(JSON, default=list)
    rules: Mapped[list] = mapped_column(JSON, default=list)
    answers: Mapped[dict] = mapped_column(JSON)  # field -> what was typed, as sent
    marks: Mapped[dict] = mapped_column(JSON)  # field -> right?
    right: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    duration_ms: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    # One step of a spot asked in steps, not its last (the drill's card before its options): the
    # row has that step's fields only, and the spot's first try goes on in the next step's row.
    partial: Mapped[bool | None] = mapped_column(Boolean)


class ReviewCard(Base):
    """Spaced repetition state of one spot for one learner (an fsrs Card as a dict)."""

    __tablename__ = "review_cards"
    __table_args__ = (
        UniqueConstraint("learner_id", "scenario_id"),
        Index("ix_review_cards_learner_due", "learner_id", "due"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    learner_id: Mapped[str] = mapped_column(ForeignKey("learners.id"))
    scenario_id: Mapped[str] = mapped_column(String(200))
    card: Mapped[dict] = mapped_column(JSON)
    due: Mapped[datetime] = mapped_column(UTCDateTime)
    # The first review: the new cards of a day are counted by it (the daily cap). None for cards made
    # before it was kept.
    created_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ExamAttempt(Base):
    __tablename__ = "exam_attempts"
    # One row per attempt number: two starts racing for the same number cannot both be stored,
    # so the retake policy holds under concurrent starts.
    __table_args__ = (UniqueConstraint("account_id", "template", "attempt_number"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    learner_id: Mapped[str] = mapped_column(ForeignKey("learners.id"), index=True)
    template: Mapped[str] = mapped_column(String(60))
    title: Mapped[str] = mapped_column(String(200))
    name: Mapped[str] = mapped_column(String(80))  # as it is to appear on the result
    questions: Mapped[list] = mapped_column(JSON)  # question refs, in order
    time_limit_s: Mapped[int] = mapped_column(Integer)
    pass_mark: Mapped[int] = mapped_column(Integer)  # percent of questions all right
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    deadline: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    closed_by: Mapped[str | None] = mapped_column(String(10))  # "submit" | "deadline"
    score: Mapped[int | None] = mapped_column(Integer)  # questions all right
    passed: Mapped[bool | None] = mapped_column(Boolean)
    verify_code: Mapped[str | None] = mapped_column(String(16), unique=True)
    # the account that sat it (exams need one) and which of its attempts at this template it is
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    attempt_number: Mapped[int | None] = mapped_column(Integer)
    # sat as a class's assigned exam (migration 0007): its deadline is at most the window's close
    assignment_id: Mapped[str | None] = mapped_column(ForeignKey("class_exams.id"), index=True)
    # typed by the candidate for this attempt, beside the name (migration 0012); None: not given
    candidate_number: Mapped[str | None] = mapped_column(String(40))
    # an instructor who supervised the attempt (its class's) withdrew it: /verify says so and when
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))


class ExamAnswer(Base):
    __tablename__ = "exam_answers"
    __table_args__ = (UniqueConstraint("exam_id", "position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    exam_id: Mapped[str] = mapped_column(ForeignKey("exam_attempts.id"))
    position: Mapped[int] = mapped_column(Integer)
    answers: Mapped[dict] = mapped_column(JSON)
    saved_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    # filled in when the exam closes
    marks: Mapped[dict | None] = mapped_column(JSON)
    right: Mapped[int | None] = mapped_column(Integer)
    total: Mapped[int | None] = mapped_column(Integer)


class LiveSession(Base):
    """A live session an instructor runs in a room (students join with a code; no accounts).
    Not a class of accounts (``SchoolClass``); the tables keep their first names."""

    __tablename__ = "class_sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    instructor_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    title: Mapped[str] = mapped_column(String(120))
    code: Mapped[str] = mapped_column(String(16), unique=True)
    mode: Mapped[str] = mapped_column(String(10))  # "paced" | "self"
    questions: Mapped[list] = mapped_column(JSON)
    # "quick": one thing asked per spot, one tap to answer; "card": the spot's full card
    style: Mapped[str] = mapped_column(String(8), default="card", server_default="card")
    asks: Mapped[list | None] = mapped_column(JSON)  # quick: [kind, pot] per question (trainer.quick)
    seconds: Mapped[int | None] = mapped_column(Integer)  # a countdown per question, or none
    anonymous: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    # whether a student types a student number when joining (shown in the exports, never on the projector)
    ask_number: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    # quick: an amount is typed on the phone's number pad, not tapped among four
    keypad: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    shown_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # when the current question was shown
    state: Mapped[str] = mapped_column(String(10), default="lobby")  # lobby | live | ended
    current: Mapped[int] = mapped_column(Integer, default=-1)  # paced: the question shown
    revealed: Mapped[bool] = mapped_column(Boolean, default=False)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime)  # self-paced
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class LiveStudent(Base):
    __tablename__ = "class_students"
    __table_args__ = (
        UniqueConstraint("session_id", "name"),
        # names that read alike (Alice, alice, Ａｌｉｃｅ) are one name: one student has it
        UniqueConstraint("session_id", "name_key", name="uq_class_students_session_name_key"),
        # one seat per browser: a second name from it renames its seat
        UniqueConstraint("session_id", "learner_id", name="uq_class_students_session_learner"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    session_id: Mapped[str] = mapped_column(ForeignKey("class_sessions.id"))
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(200))  # the name as compared: classroom.name_key
    # the browser's learner that joined: a removed one cannot come back under another name
    learner_id: Mapped[str | None] = mapped_column(String(32))
    removed: Mapped[bool] = mapped_column(Boolean, default=False)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    student_number: Mapped[str | None] = mapped_column(String(40))  # as typed at join, when asked


class LiveAnswer(Base):
    """One student's answer to one question. ``id`` comes from the client, so a
    retried submission is the same row; one answer per student and question."""

    __tablename__ = "class_answers"
    __table_args__ = (
        UniqueConstraint("student_id", "position"),
        Index("ix_class_answers_session_position", "session_id", "position"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    session_id: Mapped[str] = mapped_column(ForeignKey("class_sessions.id"))
    student_id: Mapped[str] = mapped_column(ForeignKey("class_students.id"))
    position: Mapped[int] = mapped_column(Integer)
    typed: Mapped[dict] = mapped_column(JSON)  # field -> what was typed, as sent
    answers: Mapped[dict] = mapped_column(JSON)  # field -> the answer as it reads ("1,400"), for the tally
    marks: Mapped[dict] = mapped_column(JSON)
    right: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # quick: right and fast
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class StreakRun(Base):
    """One streak (lichess's Puzzle Streak): questions of climbing difficulty from a seed, no clock,
    one miss ends it. ``asked`` is the number of the question being shown, and every question before
    it was answered right, so it is the streak's length; ``missed`` the number of the one that ended
    it (None while it goes on)."""

    __tablename__ = "streak_runs"
    __table_args__ = (Index("ix_streak_runs_learner_started", "learner_id", "started_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    learner_id: Mapped[str] = mapped_column(ForeignKey("learners.id"))
    seed: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    asked: Mapped[int] = mapped_column(Integer, default=0)
    missed: Mapped[int | None] = mapped_column(Integer)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class SpeedRun(Base):
    """One speed drill run: a seed (its questions), a clock kept by the server, and the tally.

    ``asked`` is the number of the question being shown (questions are made from
    the seed and this number, trainer/speed.py); a wrong answer moves the
    ``deadline`` earlier. ``score`` is set when the run is over, if it was played to its end
    (store/speed.py: a run left long before is closed without one). ``missed``: the numbers of the
    questions answered wrong, in order; ``answered_at``: when the last answer was counted."""

    __tablename__ = "speed_runs"
    __table_args__ = (Index("ix_speed_runs_learner_started", "learner_id", "started_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    learner_id: Mapped[str] = mapped_column(ForeignKey("learners.id"))
    seed: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[int] = mapped_column(Integer)  # the run's length as started
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    deadline: Mapped[datetime] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    asked: Mapped[int] = mapped_column(Integer, default=0)
    right: Mapped[int] = mapped_column(Integer, default=0)
    wrong: Mapped[int] = mapped_column(Integer, default=0)
    score: Mapped[int | None] = mapped_column(Integer)
    missed: Mapped[list | None] = mapped_column(JSON)
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Rating(Base):
    """A Glicko-2 rating (``glicko2.Player``'s three figures): a learner's (``learner:<id>``) or a
    library spot's (``spot:<id>``). One row each, locked while a batch of first tries updates it."""

    __tablename__ = "ratings"

    subject: Mapped[str] = mapped_column(String(220), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    vol: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RatingGame(Base):
    """A learner's first try at a spot, played once as a rating game: the row is claimed before the
    ratings move, so a spot answered again (or the same answer sent twice) moves nothing."""

    __tablename__ = "rating_games"
    __table_args__ = (UniqueConstraint("learner_id", "scenario_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    learner_id: Mapped[str] = mapped_column(String(32))
    scenario_id: Mapped[str] = mapped_column(String(200))
    solved: Mapped[bool | None] = mapped_column(Boolean)  # None: a first try from before ratings
    score: Mapped[float | None] = mapped_column(Float)  # share of fields right; None: from before scores
    rating: Mapped[float | None] = mapped_column(Float)  # the learner's rating after this game
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class SchoolClass(Base):
    """A class of accounts an instructor assigns exams to (classroom sessions need no accounts;
    exams do). Students join it with its invite code while signed in."""

    __tablename__ = "school_classes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    instructor_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    title: Mapped[str] = mapped_column(String(120))
    code: Mapped[str] = mapped_column(String(16), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    # whether a student types a student number when joining (two students of one name told apart)
    ask_number: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())


class ClassMember(Base):
    __tablename__ = "class_members"
    __table_args__ = (UniqueConstraint("class_id", "account_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    class_id: Mapped[str] = mapped_column(ForeignKey("school_classes.id"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    student_number: Mapped[str | None] = mapped_column(String(40))  # as typed at join, when asked


class ClassExam(Base):
    """An exam template assigned to a class, to be sat inside [opens_at, closes_at)."""

    __tablename__ = "class_exams"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    class_id: Mapped[str] = mapped_column(ForeignKey("school_classes.id"), index=True)
    template: Mapped[str] = mapped_column(String(60))
    opens_at: Mapped[datetime] = mapped_column(UTCDateTime)
    closes_at: Mapped[datetime] = mapped_column(UTCDateTime)
    time_zone: Mapped[str] = mapped_column(String(64))  # the instructor's, in which the window was typed
    # when the review shows the answers ("after-attempt", "after-close"); None: as the template says
    review: Mapped[str | None] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class ClassExamAllowance(Base):
    """One member's own terms for an assigned exam: minutes added to each attempt's time limit, and
    a later close of the window for them alone (a late window)."""

    __tablename__ = "class_exam_allowances"
    __table_args__ = (UniqueConstraint("assignment_id", "account_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    assignment_id: Mapped[str] = mapped_column(ForeignKey("class_exams.id"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    extra_minutes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    closes_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # None: the class's close


class MySpot(Base):
    """An instructor's own spot (trainer.store.spots). Its text lives in ``my_spot_versions``: an edit
    adds a version, so an answer given to an earlier version is still graded against it."""

    __tablename__ = "my_spots"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    version: Mapped[int] = mapped_column(Integer)  # the latest version's number, from 1
    title: Mapped[str] = mapped_column(String(200))  # the latest version's title, for lists
    scenario_id: Mapped[str] = mapped_column(String(200))  # the ``id`` its YAML gives (or "spot")
    archived_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class MySpotVersion(Base):
    """One version of a spot, as saved: never changed once written."""

    __tablename__ = "my_spot_versions"
    __table_args__ = (UniqueConstraint("spot_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    spot_id: Mapped[str] = mapped_column(ForeignKey("my_spots.id"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    yaml: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class MySpotShare(Base):
    """A spot shared with one of its owner's classes: the class's members see it in the drill."""

    __tablename__ = "my_spot_shares"
    __table_args__ = (UniqueConstraint("spot_id", "class_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    spot_id: Mapped[str] = mapped_column(ForeignKey("my_spots.id"), index=True)
    class_id: Mapped[str] = mapped_column(ForeignKey("school_classes.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class SpotUpload(Base):
    """Hand histories an instructor uploaded: the importer's report and the spots it made, kept until
    the instructor keeps some in My spots (or lets them go)."""

    __tablename__ = "spot_uploads"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    mode: Mapped[str] = mapped_column(String(20))
    report: Mapped[dict] = mapped_column(JSON)  # {"files": [...], "refusals": [...]}
    spots: Mapped[list] = mapped_column(JSON)  # [{"id", "title", "topics", "yaml"}]
    kept: Mapped[list | None] = mapped_column(JSON)  # the indexes kept in My spots
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
