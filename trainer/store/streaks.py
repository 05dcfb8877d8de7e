"""Streaks: questions of climbing difficulty (trainer/speed.py's ``streak_question``), no clock, and
one miss ends the streak, as in lichess's Puzzle Streak. Its length is the questions answered right
in a row; the learner's best is the longest, a streak still going included (every question of it
was answered right: there is no clock for a left streak to have cheated).

An answer is counted only for the question being shown, in the same UPDATE that moves the streak on,
so two tabs (or a form sent again) cannot count one question twice or go on after the miss.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from .learners import ensure_learner, new_id
from .models import StreakRun, now


def start(s: Session, learner_id: str, *, seed: int, at: datetime | None = None) -> StreakRun:
    ensure_learner(s, learner_id)
    run = StreakRun(id=new_id(), learner_id=learner_id, seed=seed, started_at=at or now(), asked=0)
    s.add(run)
    s.flush()
    return run


def owned(s: Session, run_id: str, learner_id: str | None) -> StreakRun | None:
    if not learner_id or not isinstance(run_id, str) or len(run_id) != 32:
        return None
    run = s.get(StreakRun, run_id)
    return run if run is not None and run.learner_id == learner_id else None


def count(s: Session, run: StreakRun, *, number: int, right: bool, at: datetime | None = None) -> bool:
    """Count the answer to question ``number``: right moves the streak on, wrong ends it. False when
    it is not the question being shown (answered already, or the streak is over)."""
    values = {"asked": StreakRun.asked + 1} if right else {"missed": number, "finished_at": at or now()}
    done = s.execute(
        update(StreakRun)
        .where(StreakRun.id == run.id, StreakRun.asked == number, StreakRun.finished_at.is_(None))
        .values(**values)
        .execution_options(synchronize_session=False)
    ).rowcount
    s.refresh(run)
    return done == 1


def best(s: Session, learner_id: str, *, but: StreakRun | None = None) -> int | None:
    """The learner's longest streak (without ``but``); None before any question was answered right."""
    query = select(func.max(StreakRun.asked)).where(StreakRun.learner_id == learner_id, StreakRun.asked > 0)
    if but is not None:
        query = query.where(StreakRun.id != but.id)
    return s.scalar(query)


def recent(s: Session, learner_id: str, *, limit: int = 10) -> list[StreakRun]:
    """The learner's streaks that ended, newest first."""
    return list(s.scalars(
        select(StreakRun)
        .where(StreakRun.learner_id == learner_id, StreakRun.finished_at.is_not(None))
        .order_by(StreakRun.started_at.desc(), StreakRun.id)
        .limit(limit)
    ))
