"""Speed drill runs: start, count an answer against the server's clock, close, best and history.

The clock is the server's. An answer is counted only if it arrives before the
run's deadline and is for the question being shown; both are checked in the
same UPDATE that counts it, so two tabs (or a resent form) cannot count one
question twice, and a wrong answer moves the deadline earlier by
``WRONG_PENALTY`` (lichess's Puzzle Storm takes time off for a mistake too).

A run counts for the learner's best only if it was played to its end: a run whose last answer came
more than ``IDLE`` before its time was up was left, and is closed without a score (an abandoned run
of two answers had set "Your best: 1"). The questions answered wrong are kept, in order, for the
list of misses with their worked answers at the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from .learners import ensure_learner, new_id
from .models import SpeedRun, now

RUN_SECONDS = 180
WRONG_PENALTY = timedelta(seconds=10)
HISTORY = 20
# A run whose last answer (or its start, without one) came longer than this before its end was left.
IDLE = timedelta(seconds=60)


class Counted(StrEnum):
    RIGHT = "right"
    WRONG = "wrong"
    LATE = "late"  # at or after the deadline: not counted, the run is over
    STALE = "stale"  # not the question being shown (answered already, or from another tab)


def start(s: Session, learner_id: str, *, seed: int, seconds: int = RUN_SECONDS, at: datetime | None = None) -> SpeedRun:
    at = at or now()
    ensure_learner(s, learner_id)
    run = SpeedRun(id=new_id(), learner_id=learner_id, seed=seed, seconds=seconds, started_at=at,
                   deadline=at + timedelta(seconds=seconds), asked=0, right=0, wrong=0)
    s.add(run)
    s.flush()
    return run


def owned(s: Session, run_id: str, learner_id: str | None) -> SpeedRun | None:
    if not learner_id or not isinstance(run_id, str) or len(run_id) != 32:
        return None
    run = s.get(SpeedRun, run_id)
    return run if run is not None and run.learner_id == learner_id else None


def is_open(run: SpeedRun, at: datetime | None = None) -> bool:
    return run.finished_at is None and (at or now()) < run.deadline


def seconds_left(run: SpeedRun, at: datetime | None = None) -> int:
    left = (run.deadline - (at or now())).total_seconds()
    return max(0, int(left + 0.999))


def count(s: Session, run: SpeedRun, *, number: int, right: bool, at: datetime | None = None) -> Counted:
    """Count the answer to question ``number`` if it is the one shown and time is not up."""
    at = at or now()
    if not is_open(run, at):
        close(s, run, at=at, answering=True)
        return Counted.LATE
    values = {"asked": SpeedRun.asked + 1, "answered_at": at}
    if right:
        values["right"] = SpeedRun.right + 1
    else:
        values["wrong"] = SpeedRun.wrong + 1
        values["deadline"] = run.deadline - WRONG_PENALTY
        # The list as loaded is the row's: it changes only with ``asked``, which the UPDATE checks.
        values["missed"] = [*(run.missed or []), number]
    done = s.execute(
        update(SpeedRun)
        .where(SpeedRun.id == run.id, SpeedRun.asked == number, SpeedRun.finished_at.is_(None),
               SpeedRun.deadline > at)
        .values(**values)
        .execution_options(synchronize_session=False)
    ).rowcount
    s.refresh(run)
    if done != 1:
        if not is_open(run, at):
            close(s, run, at=at, answering=True)
            return Counted.LATE
        return Counted.STALE
    if not is_open(run, at):  # the penalty used up the time that was left
        close(s, run, at=at)
    return Counted.RIGHT if right else Counted.WRONG


def close(s: Session, run: SpeedRun, *, at: datetime | None = None, answering: bool = False) -> bool:
    """End the run (as of its deadline if that has passed); False if it was over already.

    Its score is the answers right if it was played to its end (``played_out``), else none;
    ``answering``: closed by an answer that came at ``at``, after the end."""
    at = at or now()
    ended = min(at, run.deadline)
    done = s.execute(
        update(SpeedRun)
        .where(SpeedRun.id == run.id, SpeedRun.finished_at.is_(None))
        .values(finished_at=ended,
                score=SpeedRun.right if played_out(run, ended, at if answering else None) else None)
        .execution_options(synchronize_session=False)
    ).rowcount
    s.refresh(run)
    return done == 1


def played_out(run: SpeedRun, ended: datetime, answering: datetime | None = None) -> bool:
    """Whether the learner was still answering near the run's end ``ended``: the last answer (or
    the start, before any) came at most ``IDLE`` before it. ``answering``: an answer that came too
    late to count, which says the learner was there if it came within ``IDLE`` after the end."""
    last = run.answered_at or run.started_at
    if answering is not None and answering <= ended + IDLE:
        last = max(last, min(answering, ended))
    return ended - last <= IDLE


def close_expired(s: Session, learner_id: str, *, at: datetime | None = None) -> None:
    at = at or now()
    for run in s.scalars(select(SpeedRun).where(SpeedRun.learner_id == learner_id, SpeedRun.finished_at.is_(None),
                                                SpeedRun.deadline <= at)).all():
        close(s, run, at=at)


def best(s: Session, learner_id: str, *, before: SpeedRun | None = None) -> int | None:
    """The learner's best score over finished runs (started before ``before``, if given)."""
    query = select(func.max(SpeedRun.score)).where(SpeedRun.learner_id == learner_id, SpeedRun.score.is_not(None))
    if before is not None:
        query = query.where(SpeedRun.id != before.id, SpeedRun.started_at <= before.started_at)
    return s.scalar(query)


@dataclass(frozen=True, kw_only=True)
class Result:
    run: SpeedRun
    best: int  # including this run
    new_best: bool  # this run beat every earlier one (and scored)
    counted: bool  # played to its end: its score counts (a run left before has none)


def result(s: Session, run: SpeedRun) -> Result:
    earlier = best(s, run.learner_id, before=run)
    score = run.score or 0
    return Result(run=run, best=max(score, earlier or 0), new_best=score > 0 and (earlier is None or score > earlier),
                  counted=run.score is not None)


def history(s: Session, learner_id: str, *, limit: int = HISTORY) -> list[SpeedRun]:
    """The learner's finished runs, newest first."""
    return list(s.scalars(
        select(SpeedRun)
        .where(SpeedRun.learner_id == learner_id, SpeedRun.finished_at.is_not(None))
        .order_by(SpeedRun.started_at.desc(), SpeedRun.id)
        .limit(limit)
    ))
