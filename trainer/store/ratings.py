"""Glicko-2 ratings, as lichess rates puzzles: each learner and each library spot has one, and a
learner's first try at a spot is a game between them. The game's score is the share of the spot's
fields the learner got right (Glicko-2 takes any score from 0 to 1): solved is a win, none right a
loss, four fields of five a near win, so a near miss costs a little and a blank answer a lot. The
maths is the ``glicko2`` package's.

A new learner starts less unsure than Glicko-2's default (``START_RD``): at its 350 the first games
swing hundreds of points (a new learner missing every field of a level-1 spot lost 357, and one wrong
field of five cost as much as all five). At 200 the first game moves a new learner 5 to 150 points.

Only a first try counts: the game is claimed first (a row in ``rating_games``, one per learner and
spot, inserted with ``ON CONFLICT DO NOTHING``), and only the games this transaction claimed move
ratings. Retries, an answer sent again, and spots answered before ratings existed claim nothing.

It runs inside the attempts writer's transaction (writer.py), once per batch: five statements
whatever the batch holds (the claim; the missing rating rows; the ratings read under a row lock;
the new figures; each game's rating after it, the learner's history). Two processes rating the same spot at once cannot lose an update: on PostgreSQL
the ratings are read ``SELECT ... FOR UPDATE`` in subject order (the second waits for the first to
commit, then reads its figures; the same order everywhere means no deadlock), and on SQLite each
transaction holds the database's write lock from ``BEGIN IMMEDIATE`` (db.py), so they run one after
the other.

A generated spot (endless practice) has no row: the learner plays its level's rating
(``level_rating``) with ``GENERATED_RD``, and only the learner's rating moves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

import glicko2
from sqlalchemy import bindparam, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from .models import Rating, RatingGame

START = glicko2.Player().getRating()  # 1500: a learner's first rating, and a spot's without a level
GLICKO2_RD = glicko2.Player().getRd()  # 350: the package's deviation for a player never rated
# A new learner's deviation: a first game moves the rating 149 points at most (a blank answer on a
# level-1 spot; solving a level-5 spot raises it as much), not the 357 GLICKO2_RD gives. Glicko's
# own advice for a prior: an RD that says how far from the start a new player is likely to be; a
# learner starts on the level-1 to level-3 spots, 150 to 300 points apart.
START_RD = 200
START_VOL = glicko2.Player().vol  # 0.06
LEVELS = (1, 2, 3, 4, 5)
# Levels on the rating scale: level 3 is the middle (a new learner's 1500), a level is 150 apart.
LEVEL_STEP = 150
GENERATED_RD = 100  # how sure a generated spot's rating (its level's) is
# A library spot starts at its level's rating, a prior worth more than a new learner's guess: at
# 350, as a learner starts, a new learner missing a level-1 spot moved it up 270 points (solving a
# level-5 one moved it down as much), so a spot's rating told little but who had met it first. At
# 150 one such game moves it tens of points.
SPOT_RD = 150


def level_rating(level: int | None) -> float:
    """Where a spot of ``level`` starts: 1200, 1350, 1500, 1650, 1800 for levels 1–5."""
    return START if level is None else START + (level - 3) * LEVEL_STEP


def level_for(rating: float) -> int:
    """The generator level whose rating is nearest to ``rating`` (endless practice draws there).

    >>> [level_for(r) for r in (900, 1300, 1500, 1580, 1720, 2400)]
    [1, 2, 3, 4, 4, 5]
    """
    level = round((rating - START) / LEVEL_STEP) + 3
    return min(max(level, LEVELS[0]), LEVELS[-1])


def learner_subject(learner_id: str) -> str:
    return f"learner:{learner_id}"


def spot_subject(scenario_id: str) -> str:
    return f"spot:{scenario_id}"


@dataclass(frozen=True, kw_only=True)
class Change:
    """A learner's rating after a game, and by how much the game moved it; ``spot``: the library
    spot's rating the learner played against (before the game), None for a generated spot."""

    rating: float
    before: float
    spot: float | None = None

    @property
    def shown(self) -> int:
        return round(self.rating)

    @property
    def delta(self) -> int:
        return round(self.rating) - round(self.before)


@dataclass(frozen=True, kw_only=True)
class Game:
    learner_id: str
    scenario_id: str  # a library spot's id, or a generated spot's reference
    level: int | None
    generated: bool
    score: float  # the share of the spot's fields answered right: 1.0 solved, 0.0 none right
    at: datetime

    @property
    def solved(self) -> bool:
        return self.score >= 1


def play(conn: Connection, games: Iterable[Game]) -> dict[tuple[str, str], Change]:
    """Claim each first try and move the ratings of the games claimed; their learners' changes."""
    first: dict[tuple[str, str], Game] = {}
    for game in games:
        first.setdefault((game.learner_id, game.scenario_id), game)
    if not first:
        return {}
    claim = _claim(conn.dialect.name).returning(RatingGame.learner_id, RatingGame.scenario_id)
    won = conn.execute(
        claim,
        [{"learner_id": g.learner_id, "scenario_id": g.scenario_id, "solved": g.solved, "score": g.score,
          "created_at": g.at}
         for g in first.values()],
    ).all()
    played = [first[(learner, spot)] for learner, spot in won]
    if not played:
        return {}
    played.sort(key=lambda g: g.at)
    starts: dict[str, tuple[float, float]] = {}  # subject -> (rating, deviation) it starts at
    for g in played:
        starts[learner_subject(g.learner_id)] = (START, START_RD)
        if not g.generated:
            starts[spot_subject(g.scenario_id)] = (level_rating(g.level), SPOT_RD)
    subjects = sorted(starts)
    conn.execute(
        _new_rating(conn.dialect.name),
        [{"subject": s, "rating": starts[s][0], "rd": starts[s][1], "vol": START_VOL, "games": 0} for s in subjects],
    )
    rows = conn.execute(
        select(Rating.subject, Rating.rating, Rating.rd, Rating.vol, Rating.games)
        .where(Rating.subject.in_(subjects))
        .order_by(Rating.subject)
        .with_for_update()
    ).all()
    now = {subject: [rating, rd, vol, games] for subject, rating, rd, vol, games in rows}
    changes: dict[tuple[str, str], Change] = {}
    for g in played:
        learner = now[learner_subject(g.learner_id)]
        spot = [level_rating(g.level), GENERATED_RD, START_VOL, 0] if g.generated else now[spot_subject(g.scenario_id)]
        before, faced = learner[0], spot[0]
        new_learner = _after(learner, spot, g.score)
        new_spot = _after(spot, learner, 1 - g.score)
        learner[:] = new_learner
        if not g.generated:
            spot[:] = new_spot
        changes[(g.learner_id, g.scenario_id)] = Change(
            rating=learner[0], before=before, spot=None if g.generated else faced
        )
    conn.execute(
        update(Rating)
        .where(Rating.subject == bindparam("s"))
        .values(rating=bindparam("r"), rd=bindparam("d"), vol=bindparam("v"), games=bindparam("n")),
        [{"s": s, "r": r, "d": d, "v": v, "n": n} for s, (r, d, v, n) in now.items()],
    )
    conn.execute(  # the history: each game keeps the learner's rating after it
        update(RatingGame)
        .where(RatingGame.learner_id == bindparam("l"), RatingGame.scenario_id == bindparam("g"))
        .values(rating=bindparam("r")),
        [{"l": learner, "g": spot, "r": change.rating} for (learner, spot), change in changes.items()],
    )
    return changes


def _after(player: list, opponent: list, outcome: float) -> list:
    """``player``'s figures after one game against ``opponent`` (both as they were before it)."""
    rating, rd, vol, games = player
    p = glicko2.Player(rating=rating, rd=rd, vol=vol)
    p.update_player([opponent[0]], [opponent[1]], [outcome])
    return [p.getRating(), p.getRd(), p.vol, games + 1]


def rating_of(conn: Connection, learner_id: str) -> tuple[float, int] | None:
    """A learner's rating and games played, or None before their first rated try."""
    row = conn.execute(
        select(Rating.rating, Rating.games).where(Rating.subject == learner_subject(learner_id))
    ).first()
    return None if row is None else (row[0], row[1])


@dataclass(frozen=True, kw_only=True)
class Point:
    """One rated game in a learner's history: when, the rating after it, and the game's score."""

    at: datetime
    rating: float
    score: float | None


def history(conn: Connection, learner_id: str, *, limit: int = 200) -> list[Point]:
    """A learner's rating after each of their last ``limit`` rating games, oldest first (games
    played before the history was kept are left out)."""
    rows = conn.execute(
        select(RatingGame.created_at, RatingGame.rating, RatingGame.score)
        .where(RatingGame.learner_id == learner_id, RatingGame.rating.is_not(None))
        .order_by(RatingGame.created_at.desc(), RatingGame.id.desc())
        .limit(limit)
    ).all()
    return [Point(at=at, rating=rating, score=score) for at, rating, score in reversed(rows)]


@lru_cache(maxsize=None)
def _claim(dialect: str):
    module = postgresql if dialect == "postgresql" else sqlite
    return module.insert(RatingGame.__table__).on_conflict_do_nothing(index_elements=["learner_id", "scenario_id"])


@lru_cache(maxsize=None)
def _new_rating(dialect: str):
    module = postgresql if dialect == "postgresql" else sqlite
    return module.insert(Rating.__table__).on_conflict_do_nothing(index_elements=["subject"])
