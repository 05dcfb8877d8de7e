"""Self-study: every graded attempt, accuracy by topic and rule, streaks, misses, spaced repetition.

The headline counts spots, not fields: a spot is *solved* when every field
of the learner's first attempt at it was right, and the first attempt alone
decides it (later ones follow a shown answer). The rule table still counts
fields: a spot with ten fields answered eight right adds 8 of 10. A spot is
"missed" while the learner's latest attempt at it has a wrong field. Days
are UTC days.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from datetime import UTC, date, datetime, time, timedelta

from fsrs import Card, Rating, Scheduler, State
from sqlalchemy import bindparam, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from . import ratings
from .learners import ensure_learner
from .models import Attempt, Learner, ReviewCard, now

WINDOWS = (7, 30, 90)
LAST_LOOKED_AT = 50  # recent answers searched for the spot to continue from
# No fuzzing: the same history gives the same due dates (and testable ones).
SCHEDULER = Scheduler(enable_fuzzing=False)
# New cards a learner's review takes in a (UTC) day, as Anki's "new cards/day" (its default is 20
# too): the app's NEW_REVIEWS_PER_DAY setting. A spot answered for the first time after that waits,
# and joins the review on a later day with room (``due``).
NEW_PER_DAY = 20


@dataclass(frozen=True, kw_only=True)
class Accuracy:
    key: str  # a topic slug or a rule ID
    right: int  # fields right, over every answer (a spot asked in steps answers once a step)
    total: int
    spots: int  # distinct spots answered, however many times and in however many steps

    @property
    def percent(self) -> int:
        return round(100 * self.right / self.total) if self.total else 0


@dataclass(frozen=True, kw_only=True)
class Solved:
    """First tries in one topic: ``solved`` of ``spots`` had every field right."""

    key: str
    solved: int
    spots: int

    @property
    def percent(self) -> int:
        return round(100 * self.solved / self.spots) if self.spots else 0


@dataclass(frozen=True, kw_only=True)
class Column:
    """One column of the card (or one other question) over first tries: how often it was wrong, and where."""

    key: str
    wrong: int
    answered: int
    topics: tuple[tuple[str, int, int], ...]  # (topic, wrong, answered), most missed first; only topics with a miss

    @property
    def percent(self) -> int:
        return round(100 * self.wrong / self.answered) if self.answered else 0


# Which column of the card, or which other question, a quiz field belongs to.
COLUMNS = ("current_total", "last_full_increment", "committed", "acted", "to_add", "options", "pot", "pots",
           "returned", "showdown", "ruling")


def column_of(field: str) -> str:
    if field in ("legal", "call", "min_to", "max_to"):
        return "options"
    if field.startswith("pot") and field != "pot":
        return "pots"
    if field.startswith("returned_"):
        return "returned"
    if field.startswith("ruling_"):
        return "ruling"
    return field


@dataclass(frozen=True, kw_only=True)
class Day:
    day: date
    right: int
    total: int

    @property
    def percent(self) -> float | None:
        return 100 * self.right / self.total if self.total else None


def record(
    s: Session,
    *,
    learner_id: str,
    scenario_id: str | None,
    topics: list[str],
    rules: list[str],
    answers: dict[str, list[str]],
    marks: dict[str, bool],
    duration_ms: int | None,
    generated: tuple[str, int, int, int] | None = None,
    at: datetime | None = None,
    answer_id: str | None = None,
    rating: dict | None = None,
) -> ratings.Change | None:
    """Store one graded attempt; with spaced repetition on, review the spot's card; with ``rating``,
    play a first try as a rating game (``record_many``)."""
    return record_many(
        s,
        [
            {
                "learner_id": learner_id,
                "scenario_id": scenario_id,
                "topics": topics,
                "rules": rules,
                "answers": answers,
                "marks": marks,
                "duration_ms": duration_ms,
                "generated": generated,
                "at": at or now(),
                "answer_id": answer_id,
                "rating": rating,
            }
        ],
    )[0]


def record_many(s: Session, attempts: list[dict], *, new_per_day: int = NEW_PER_DAY) -> list[ratings.Change | None]:
    """Store graded attempts (``record``'s arguments, one dict each, ``at`` given) in three statements
    in the common case: the learners' spaced-repetition settings, a row per new learner, one insert.
    At most ``new_per_day`` new review cards a day per learner (``review_many``).

    An attempt with an ``answer_id`` already stored (an answer sent again) is left out, and so is its
    review: an answer counts once, however often it was sent.

    An attempt with a ``rating`` (``{"level": ..., "generated": ...}``) is a first try if its learner
    never answered the spot before: then, in the same transaction, it is played as a rating game
    (ratings.py). The result has, for each attempt in order, its learner's rating change, if it moved."""
    if not attempts:
        return []
    given = attempts
    seen: set[str] = set()
    unique = []
    for a in attempts:
        answer_id = a.get("answer_id")
        if answer_id is None or answer_id not in seen:
            unique.append(a)
            if answer_id is not None:
                seen.add(answer_id)
    attempts = unique
    learners = {a["learner_id"] for a in attempts}
    # Core statements on the session's connection: the ORM's execution path costs the writer more
    # than the statements themselves, and these rows are never loaded as objects.
    conn = s.connection()
    srs = dict(conn.execute(_SRS_OF, {"ids": sorted(learners)}).all())
    for learner_id in sorted(learners - srs.keys()):
        srs[learner_id] = ensure_learner(s, learner_id).srs_enabled
    rows = []
    for a in attempts:
        marks = a["marks"]
        topic, level, seed, index = a.get("generated") or (None, None, None, None)
        rows.append(
            {
                "answer_id": a.get("answer_id"),
                "learner_id": a["learner_id"],
                "scenario_id": a["scenario_id"],
                "gen_topic": topic,
                "gen_level": level,
                "gen_seed": seed,
                "gen_index": index,
                "topics": list(a["topics"]),
                "rules": list(a["rules"]),
                "answers": a["answers"],
                "marks": marks,
                "right": sum(1 for v in marks.values() if v),
                "total": len(marks),
                "duration_ms": a["duration_ms"],
                "created_at": a["at"],
                "partial": bool(a.get("partial")) or None,
            }
        )
    insert = _insert_once(conn.dialect.name)
    reviewing = any(srs[a["learner_id"]] and a["scenario_id"] is not None for a in attempts)
    if not reviewing:
        conn.execute(insert, rows)
    else:
        new = set(conn.execute(insert.returning(Attempt.answer_id), rows).scalars())
        reviews = []
        for a, row in zip(attempts, rows, strict=True):
            if row["answer_id"] is not None and row["answer_id"] not in new:
                continue  # stored before: reviewed then
            # A step of a spot tells the review what it is told (``review``: nothing, for a right card
            # whose options are still to come); an answer to the whole spot, whether it was right.
            right = a["review"] if "review" in a else row["right"] == row["total"]
            if srs[a["learner_id"]] and a["scenario_id"] is not None and right is not None:
                reviews.append(Review(a["learner_id"], a["scenario_id"], right, a["at"]))
        review_many(s, reviews, new_per_day=new_per_day)
    return _rate(conn, given, attempts, rows)


def _rate(conn, given: list[dict], attempts: list[dict], rows: list[dict]) -> list[ratings.Change | None]:
    """Play the rated attempts' first tries (a resent answer's game was claimed when it was first
    stored, so it plays nothing); each given attempt's change, the first of a learner and spot only."""
    games = [
        ratings.Game(
            learner_id=a["learner_id"], scenario_id=a["scenario_id"], level=a["rating"].get("level"),
            generated=bool(a["rating"].get("generated")), score=row["right"] / row["total"] if row["total"] else 1.0, at=a["at"],
        )
        for a, row in zip(attempts, rows, strict=True)
        if a.get("rating") is not None and a["scenario_id"] is not None
    ]
    changes = ratings.play(conn, games) if games else {}
    out: list[ratings.Change | None] = []
    for a in given:
        out.append(changes.pop((a["learner_id"], a.get("scenario_id")), None))
    return out


# The learners' spaced-repetition settings, one statement built once: the writer runs it per batch,
# and building a select (coercing its columns and the IN list) cost about as much as running it.
_SRS_OF = select(Learner.id, Learner.srs_enabled).where(Learner.id.in_(bindparam("ids", expanding=True)))


@lru_cache(maxsize=None)
def _insert_once(dialect: str):
    """The attempts INSERT that leaves out an answer already stored, built once per database kind."""
    module = postgresql if dialect == "postgresql" else sqlite
    return module.insert(Attempt.__table__).on_conflict_do_nothing(index_elements=["answer_id"])


@dataclass(frozen=True)
class Review:
    """One answer's review of its spot's card (``review``)."""

    learner_id: str
    scenario_id: str
    right: bool
    at: datetime


def _reviewed(card: Card | None, right: bool, at: datetime) -> Card:
    """Wrong → Again (the learning steps: back within minutes); right → Good; and right at the
    first try, when the spot has no card yet → Easy, so a spot solved at once comes back in days."""
    rating = Rating.Again if not right else Rating.Good if card is not None else Rating.Easy
    card, _log = SCHEDULER.review_card(card if card is not None else Card(due=at), rating, review_datetime=at)
    return card


# The cards of a batch's learners, and their changes, in statements built once (as _SRS_OF).
_CARDS_OF = select(ReviewCard.id, ReviewCard.learner_id, ReviewCard.scenario_id, ReviewCard.card).where(
    ReviewCard.learner_id.in_(bindparam("learners", expanding=True)),
    ReviewCard.scenario_id.in_(bindparam("scenarios", expanding=True)),
)
_MADE_SINCE = select(ReviewCard.learner_id, ReviewCard.created_at).where(
    ReviewCard.learner_id.in_(bindparam("learners", expanding=True)),
    ReviewCard.created_at >= bindparam("since"),
)
_UPDATE_CARD = (
    update(ReviewCard.__table__)
    .where(ReviewCard.__table__.c.id == bindparam("card_row"))
    .values(card=bindparam("card"), due=bindparam("due"))
)


@lru_cache(maxsize=None)
def _insert_card_once(dialect: str):
    """The review-card INSERT that leaves out a card another process stored meanwhile."""
    module = postgresql if dialect == "postgresql" else sqlite
    return module.insert(ReviewCard.__table__).on_conflict_do_nothing(index_elements=["learner_id", "scenario_id"])


def start_of_day(at: datetime) -> datetime:
    return datetime.combine(at.astimezone(UTC).date(), time(), tzinfo=UTC)


def review_many(s: Session, reviews: list[Review], *, new_per_day: int = NEW_PER_DAY) -> None:
    """Review each answer's card, in order, in a few statements for the whole batch: one read of the
    cards, one insert of the new ones, one update of the others (the writer stores a batch of answers
    at once, and a read and a flush per answer were a sixth of a graded answer's cost).

    A learner's review takes ``new_per_day`` new cards a UTC day at most (one more read, when the
    batch has new cards): an answer to a spot without a card beyond that makes none, and the spot
    waits for a day with room (``due``).

    A card another server process made meanwhile (the same learner in two tabs) is not inserted
    over: its answers are reviewed again one by one on top of it (``review``)."""
    if not reviews:
        return
    s.flush()  # the ORM's pending changes first: the statements below go around it
    conn = s.connection()
    pairs = {(r.learner_id, r.scenario_id) for r in reviews}
    found = conn.execute(
        _CARDS_OF,
        {"learners": sorted({p[0] for p in pairs}), "scenarios": sorted({p[1] for p in pairs})},
    ).all()
    rows: dict[tuple[str, str], int] = {}  # the card rows there already, by learner and spot
    cards: dict[tuple[str, str], Card] = {}
    for row_id, learner, scenario, card in found:
        if (learner, scenario) in pairs:  # the IN lists also match other pairs of the same learners and spots
            rows[learner, scenario], cards[learner, scenario] = row_id, Card.from_dict(card)
    made_on = _made_on(conn, [r for r in reviews if (r.learner_id, r.scenario_id) not in rows])
    created: dict[tuple[str, str], datetime] = {}
    for r in reviews:
        pair = (r.learner_id, r.scenario_id)
        if pair not in cards:
            day = (r.learner_id, r.at.astimezone(UTC).date())
            if made_on[day] >= new_per_day:
                continue  # today's new cards are taken: the spot waits
            made_on[day] += 1
            created[pair] = r.at
        cards[pair] = _reviewed(cards.get(pair), r.right, r.at)
    changed = [
        {"card_row": rows[pair], "card": card.to_dict(), "due": card.due} for pair, card in cards.items() if pair in rows
    ]
    made = [
        {"learner_id": pair[0], "scenario_id": pair[1], "card": card.to_dict(), "due": card.due,
         "created_at": created[pair]}
        for pair, card in sorted(cards.items())
        if pair not in rows
    ]
    if changed:
        conn.execute(_UPDATE_CARD, changed)
    for loaded in [o for o in s.identity_map.values() if isinstance(o, ReviewCard)]:
        s.expire(loaded)  # a card this session read before is read again, as changed here
    if made:
        insert = _insert_card_once(conn.dialect.name).returning(ReviewCard.learner_id, ReviewCard.scenario_id)
        lost = {(m["learner_id"], m["scenario_id"]) for m in made} - {tuple(p) for p in conn.execute(insert, made)}
        for r in reviews:
            if (r.learner_id, r.scenario_id) in lost:
                review(s, learner_id=r.learner_id, scenario_id=r.scenario_id, right=r.right, at=r.at)
                s.flush()


def _made_on(conn, new: list[Review]) -> defaultdict[tuple[str, date], int]:
    """The review cards each learner of ``new`` made on each UTC day since the first of ``new``."""
    made: defaultdict[tuple[str, date], int] = defaultdict(int)
    if new:
        since = start_of_day(min(r.at for r in new))
        for learner, at in conn.execute(_MADE_SINCE, {"learners": sorted({r.learner_id for r in new}), "since": since}):
            made[learner, at.astimezone(UTC).date()] += 1
    return made


def review(s: Session, *, learner_id: str, scenario_id: str, right: bool, at: datetime) -> ReviewCard:
    """Review one spot's card (``_reviewed``), through the ORM: the card row, made if new (only where
    ``review_many`` found room for it: the cap is counted there)."""
    row = s.scalar(select(ReviewCard).where(ReviewCard.learner_id == learner_id, ReviewCard.scenario_id == scenario_id))
    card = _reviewed(Card.from_dict(row.card) if row is not None else None, right, at)
    if row is None:
        row = ReviewCard(learner_id=learner_id, scenario_id=scenario_id, card=card.to_dict(), due=card.due,
                         created_at=at)
        try:
            with s.begin_nested():
                s.add(row)
        except IntegrityError:  # the same learner answering in two tabs at once
            return review(s, learner_id=learner_id, scenario_id=scenario_id, right=right, at=at)
    else:
        row.card, row.due = card.to_dict(), card.due
    return row


def set_spaced_repetition(s: Session, learner_id: str, enabled: bool, *, new_per_day: int = NEW_PER_DAY) -> None:
    """Turning it on schedules every spot already attempted, replaying the history in order (at most
    ``new_per_day`` new cards on each day of it: the rest wait, as they would have)."""
    learner = ensure_learner(s, learner_id)
    if enabled and not learner.srs_enabled:
        known = set(s.scalars(select(ReviewCard.scenario_id).where(ReviewCard.learner_id == learner_id)))
        history = s.execute(
            select(Attempt.scenario_id, Attempt.right, Attempt.total, Attempt.created_at)
            .where(Attempt.learner_id == learner_id, Attempt.scenario_id.is_not(None))
            .order_by(Attempt.created_at, Attempt.id)
        ).all()
        review_many(s, [Review(learner_id, scenario_id, right == total, at)
                        for scenario_id, right, total, at in history if scenario_id not in known],
                    new_per_day=new_per_day)
    learner.srs_enabled = enabled
    s.flush()


def end_of_day(at: datetime) -> datetime:
    return datetime.combine(at.astimezone(UTC).date() + timedelta(days=1), time(), tzinfo=UTC)


def due(
    s: Session, learner_id: str, at: datetime | None = None, *, new_per_day: int = NEW_PER_DAY,
    known: Callable[[str], bool] = lambda _id: True,
) -> list[str]:
    """The review queue among the spots ``known`` (the library's), most overdue first: as in Anki, a
    card in review is due all of its day, a card in its learning steps (just missed) only once its
    minutes have passed. Then, while today has room for new cards (``new_per_day``), the spots
    answered without getting a card (a day's cap was reached, or review was off), first answered
    first: answered in the review, each gets its card."""
    at = at or now()
    rows = s.execute(
        select(ReviewCard.scenario_id, ReviewCard.due, ReviewCard.card)
        .where(ReviewCard.learner_id == learner_id, ReviewCard.due < end_of_day(at))
        .order_by(ReviewCard.due, ReviewCard.scenario_id)
    ).all()
    queue = [sid for sid, when, card in rows
             if known(sid) and (when <= at or (card or {}).get("state") == State.Review.value)]
    room = new_per_day - new_today(s, learner_id, at)
    return queue + (waiting(s, learner_id, known)[:room] if room > 0 else [])


def new_today(s: Session, learner_id: str, at: datetime | None = None) -> int:
    """The review cards this learner made today (UTC): what the daily cap on new cards counts."""
    at = at or now()
    return s.scalar(
        select(func.count()).select_from(ReviewCard).where(
            ReviewCard.learner_id == learner_id,
            ReviewCard.created_at >= start_of_day(at),
            ReviewCard.created_at < end_of_day(at),
        )
    ) or 0


def waiting(s: Session, learner_id: str, known: Callable[[str], bool] = lambda _id: True) -> list[str]:
    """The spots among ``known`` this learner answered (a whole spot, or a step of it wrong) that
    have no review card, first answered first."""
    carded = select(ReviewCard.id).where(
        ReviewCard.learner_id == learner_id, ReviewCard.scenario_id == Attempt.scenario_id
    )
    first = func.min(Attempt.created_at)
    rows = s.execute(
        select(Attempt.scenario_id, first)
        .where(
            Attempt.learner_id == learner_id,
            Attempt.scenario_id.is_not(None),
            or_(Attempt.partial.is_not(True), Attempt.right < Attempt.total),
            ~carded.exists(),
        )
        .group_by(Attempt.scenario_id)
        .order_by(first, Attempt.scenario_id)
    ).scalars()
    return [sid for sid in rows if known(sid)]


def comes_back(s: Session, learner_id: str, scenario_id: str) -> datetime | None:
    """When the spot's review card is due next; None when it has none (review off, or it waits)."""
    return s.scalar(
        select(ReviewCard.due).where(ReviewCard.learner_id == learner_id, ReviewCard.scenario_id == scenario_id)
    )


def srs_enabled(s: Session, learner_id: str) -> bool:
    return bool(s.scalar(select(Learner.srs_enabled).where(Learner.id == learner_id)))


def _since(days: int, at: datetime) -> datetime:
    return at - timedelta(days=days)


def accuracy(
    s: Session, learner_id: str, days: int, at: datetime | None = None
) -> tuple[list[Accuracy], list[Accuracy]]:
    """(by topic, by rule ID) over the last ``days`` days, weakest first: fields right of fields
    answered over every answer, and the distinct spots those answers were to."""
    at = at or now()
    rows = s.execute(
        select(Attempt.id, Attempt.scenario_id, Attempt.topics, Attempt.rules, Attempt.right, Attempt.total).where(
            Attempt.learner_id == learner_id, Attempt.created_at >= _since(days, at)
        )
    ).all()
    by_topic: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_rule: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    spots: dict[str, set] = defaultdict(set)
    for row_id, sid, topics, rules, right, total in rows:
        spot = sid if sid is not None else row_id  # an answer from before spots had ids: its own spot
        for table, prefix, keys in ((by_topic, "t", topics or ()), (by_rule, "r", rules or ())):
            for key in dict.fromkeys(keys):
                cell = table[key]
                cell[0] += right
                cell[1] += total
                spots[prefix + key].add(spot)

    def ranked(table: dict[str, list[int]], prefix: str) -> list[Accuracy]:
        items = [Accuracy(key=k, right=r, total=t, spots=len(spots[prefix + k])) for k, (r, t) in table.items()]
        return sorted(items, key=lambda a: (a.right / a.total if a.total else 1, -a.total, a.key))

    return ranked(by_topic, "t"), ranked(by_rule, "r")


def daily(s: Session, learner_id: str, days: int, at: datetime | None = None) -> list[Day]:
    """Answers with every field right, and answers, per UTC day: one entry per day of the window (oldest first)."""
    at = at or now()
    first = (at - timedelta(days=days - 1)).date()
    rows = s.execute(
        select(Attempt.created_at, Attempt.right, Attempt.total).where(
            Attempt.learner_id == learner_id,
            Attempt.created_at >= datetime.combine(first, time(), tzinfo=UTC),
        )
    ).all()
    totals: dict[date, list[int]] = defaultdict(lambda: [0, 0])
    for created, right, total in rows:
        cell = totals[created.astimezone(UTC).date()]
        cell[0] += right == total
        cell[1] += 1
    return [
        Day(day=d, right=totals[d][0], total=totals[d][1]) for d in (first + timedelta(days=i) for i in range(days))
    ]


def streak(s: Session, learner_id: str, at: datetime | None = None) -> int:
    """Days in a row with at least one attempt, ending today (or yesterday, if not yet today)."""
    at = at or now()
    days = {
        d.astimezone(UTC).date()
        for d in s.scalars(
            select(Attempt.created_at).where(Attempt.learner_id == learner_id, Attempt.created_at >= _since(400, at))
        )
    }
    day = at.astimezone(UTC).date()
    if day not in days:
        day -= timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= timedelta(days=1)
    return count


def misses(s: Session, learner_id: str, days: int, at: datetime | None = None) -> list[str]:
    """Spots whose latest attempt in the window had a wrong field, most recent first. A right step
    that is not a spot's last (``partial``) decides nothing: a spot missed at step 2 stays missed
    when only its step 1 is answered again, right."""
    at = at or now()
    latest = (
        select(Attempt.scenario_id, func.max(Attempt.id).label("last"))
        .where(
            Attempt.learner_id == learner_id,
            Attempt.scenario_id.is_not(None),
            Attempt.created_at >= _since(days, at),
            or_(Attempt.partial.is_not(True), Attempt.right < Attempt.total),
        )
        .group_by(Attempt.scenario_id)
        .subquery()
    )
    rows = s.execute(
        select(Attempt.scenario_id)
        .join(latest, Attempt.id == latest.c.last)
        .where(Attempt.right < Attempt.total)
        .order_by(Attempt.id.desc())
    )
    return list(rows.scalars())


def has_answered(s: Session, learner_id: str) -> bool:
    """Whether the learner has any graded drill answer (one row read, not counted)."""
    return s.scalar(select(Attempt.id).where(Attempt.learner_id == learner_id).limit(1)) is not None


def attempt_count(s: Session, learner_id: str) -> int:
    return s.scalar(select(func.count()).select_from(Attempt).where(Attempt.learner_id == learner_id)) or 0


def _first_tries(s: Session, learner_id: str, since: datetime | None = None):
    """The learner's first try at each library spot (begun in the window, when ``since`` is given):
    (spot, topics, marks, right, total), oldest first.

    A spot asked in steps is answered in several rows, a step each (``partial`` but the last): its
    first try is each field's first mark, and it is decided once a field was wrong or its last step
    was answered; a spot whose first step alone was answered, right, is left out until then."""
    rows = s.execute(
        select(Attempt.scenario_id, Attempt.topics, Attempt.marks, Attempt.partial, Attempt.created_at)
        .where(Attempt.learner_id == learner_id, Attempt.scenario_id.is_not(None))
        .order_by(Attempt.created_at, Attempt.id)
    ).all()
    return _fold(rows, since)


def _fold(rows, since: datetime | None = None) -> list[tuple[str, list, dict, int, int]]:
    tries: dict[str, list] = {}  # spot -> [topics, marks, decided, began]
    for sid, topics, marks, partial, at in rows:
        kept = tries.get(sid)
        if kept is None:
            kept = tries[sid] = [topics, {}, False, at]
        elif kept[2]:
            continue
        for name, right in marks.items():
            kept[1].setdefault(name, right)
        kept[2] = not partial or not all(kept[1].values())
    out = []
    for sid, (topics, marks, decided, began) in tries.items():
        if decided and (since is None or began >= since):
            out.append((sid, topics, marks, sum(1 for v in marks.values() if v), len(marks)))
    return out


def first_tries(s: Session, learner_id: str) -> dict[str, bool]:
    """Each spot the learner has answered: solved (every field right at the first try) or not."""
    return {sid: right == total for sid, _t, _m, right, total in _first_tries(s, learner_id)}


def _rows_of(s: Session, learner_id: str, scenario_id: str):
    return s.execute(
        select(Attempt.scenario_id, Attempt.topics, Attempt.marks, Attempt.partial, Attempt.created_at)
        .where(Attempt.learner_id == learner_id, Attempt.scenario_id == scenario_id)
        .order_by(Attempt.created_at, Attempt.id)
        .limit(LAST_LOOKED_AT)
    ).all()


def first_try(s: Session, learner_id: str, scenario_id: str) -> bool | None:
    """Whether the learner solved this spot at the first try (every field of every step right);
    None when they never answered it, or answered only its first step, right."""
    folded = _fold(_rows_of(s, learner_id, scenario_id))
    return None if not folded else folded[0][3] == folded[0][4]


def later_step(s: Session, learner_id: str, scenario_id: str) -> bool | None:
    """For a spot asked in steps: None when the learner has answered no step of it before its last
    (a ``partial`` row); else whether their first try is still undecided, every step so far right."""
    rows = _rows_of(s, learner_id, scenario_id)
    if not any(partial for _sid, _t, _m, partial, _at in rows):
        return None
    return not _fold(rows)


def solved(s: Session, learner_id: str, days: int, at: datetime | None = None) -> list[Solved]:
    """Per topic, of the spots first tried in the window, how many were solved at once; weakest first."""
    at = at or now()
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for _sid, topics, _marks, right, total in _first_tries(s, learner_id, _since(days, at)):
        for key in dict.fromkeys(topics or ()):
            table[key][0] += right == total
            table[key][1] += 1
    items = [Solved(key=k, solved=n, spots=t) for k, (n, t) in table.items()]
    return sorted(items, key=lambda a: (a.solved / a.spots, -a.spots, a.key))


def columns(s: Session, learner_id: str, days: int, at: datetime | None = None) -> list[Column]:
    """Per column of the card (and per other question), over first tries in the window: how often it
    was wrong and in which topics. Most missed first; columns never asked are left out."""
    at = at or now()
    wrong: dict[str, int] = defaultdict(int)
    answered: dict[str, int] = defaultdict(int)
    where: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for _sid, topics, marks, _right, _total in _first_tries(s, learner_id, _since(days, at)):
        per_column: dict[str, bool] = {}
        for field, right in (marks or {}).items():
            key = column_of(field)
            per_column[key] = per_column.get(key, True) and bool(right)
        for key, right in per_column.items():
            answered[key] += 1
            wrong[key] += not right
            for topic in dict.fromkeys(topics or ()):
                cell = where[key][topic]
                cell[0] += not right
                cell[1] += 1
    order = {key: i for i, key in enumerate(COLUMNS)}
    result = [
        Column(
            key=key,
            wrong=wrong[key],
            answered=answered[key],
            topics=tuple(
                sorted(((t, w, n) for t, (w, n) in where[key].items() if w), key=lambda c: (-c[1] / c[2], -c[1], c[0]))
            ),
        )
        for key in answered
    ]
    return sorted(result, key=lambda c: (-c.percent, -c.wrong, order.get(c.key, len(order)), c.key))


def last_spot(s: Session, learner_id: str, known: Callable[[str], bool] = lambda _id: True) -> tuple[str, list[str]] | None:
    """The spot the learner answered last among those ``known`` (the library's; a generated spot is not
    one to continue from), with its topics (the one being walked first)."""
    rows = s.execute(
        select(Attempt.scenario_id, Attempt.topics)
        .where(Attempt.learner_id == learner_id, Attempt.scenario_id.is_not(None))
        .order_by(Attempt.created_at.desc(), Attempt.id.desc())
        .limit(LAST_LOOKED_AT)
    )
    return next(((sid, list(topics or ())) for sid, topics in rows if known(sid)), None)
