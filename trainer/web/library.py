"""The scenarios the app serves: loaded once at start-up, indexed by topic and level.

A file that fails to load, or whose questions cannot be built, becomes a
``Problem`` shown on the public problems page; every other file still serves.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainer.quiz import Quiz, QuizError, build_quiz
from trainer.scenarios import ScenarioError, load_paths
from trainer.topics import BY_NAME

from .spot import Spot, build_spot

log = logging.getLogger(__name__)

LEVELS = (1, 2, 3, 4, 5)


@dataclass(frozen=True, kw_only=True)
class Entry:
    id: str
    title: str
    level: int | None
    topics: tuple[str, ...]
    scenario: Any
    quiz: Quiz
    spot: Spot


@dataclass(frozen=True, kw_only=True)
class Problem:
    file: str
    line: int | None
    message: str

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass(frozen=True, kw_only=True)
class Topic:
    slug: str
    entries: tuple[Entry, ...]

    @property
    def name(self) -> str:
        return topic_name(self.slug)

    @property
    def levels(self) -> tuple[int, ...]:
        return levels_of(self.entries)

    @property
    def rules(self) -> tuple[str, ...]:
        return topic_rules(self.slug)


def topic_name(slug: str, locale: str = "en") -> str:
    known = BY_NAME.get(slug)
    if known is not None:
        return known.title.get(locale) or known.title.get("en") or slug
    return slug.replace("-", " ").capitalize()


def topic_rules(slug: str) -> tuple[str, ...]:
    known = BY_NAME.get(slug)
    return known.rules if known is not None else ()


def levels_of(entries: tuple[Entry, ...] | list[Entry]) -> tuple[int, ...]:
    return tuple(sorted({e.level for e in entries if e.level is not None}))


def _order(entry: Entry) -> tuple[int, str]:
    return (entry.level if entry.level is not None else 99, entry.id)


class Library:
    def __init__(self, entries: list[Entry], problems: list[Problem]) -> None:
        self.entries: dict[str, Entry] = {e.id: e for e in sorted(entries, key=_order)}
        self._all = tuple(self.entries.values())
        self._order: dict[str | None, dict[str, Entry]] = {}
        self.problems: tuple[Problem, ...] = tuple(problems)
        slugs = sorted({t for e in self.entries.values() for t in e.topics})
        self.topics: dict[str, Topic] = {
            slug: Topic(slug=slug, entries=tuple(e for e in self.entries.values() if slug in e.topics))
            for slug in slugs
        }

    def get(self, scenario_id: str) -> Entry | None:
        return self.entries.get(scenario_id)

    def topic(self, slug: str | None) -> Topic | None:
        return self.topics.get(slug) if slug else None

    def first(self) -> Entry | None:
        return next(iter(self.entries.values()), None)

    def next_after(self, entry: Entry, topic: Topic | None) -> Entry:
        """The following spot in the topic (wrapping round), else in the whole library."""
        in_topic = topic is not None and len(topic.entries) > 1
        pool = topic.entries if in_topic else self._all
        key = topic.slug if in_topic else None
        order = self._order.get(key)
        if order is None:
            order = self._order[key] = {e.id: pool[(i + 1) % len(pool)] for i, e in enumerate(pool)}
        return order.get(entry.id, pool[0])


def load_library(dirs: list[str], *, locale: str = "en") -> Library:
    problems: list[Problem] = []
    existing = []
    for folder in dirs:
        if Path(folder).is_dir():
            existing.append(str(folder))
        else:
            problems.append(Problem(file=_shown(folder, dirs), line=None, message="scenario folder not found"))
    scenarios: list[Any] = []
    if existing:
        try:
            result = load_paths(existing)
        except ScenarioError as exc:
            problems.append(_problem(exc, dirs))
        else:
            scenarios = list(result.scenarios)
            problems.extend(_problem(err, dirs) for err in result.errors)

    entries: list[Entry] = []
    seen: set[str] = set()
    for sc in scenarios:
        if sc.id in seen:
            problems.append(Problem(file=_shown(sc.file, dirs), line=None, message=f"duplicate id {sc.id!r}"))
            continue
        try:
            entries.append(_entry(sc, locale))
        except QuizError as exc:
            line = (getattr(sc, "lines", None) or {}).get("ask")
            problems.append(Problem(file=_shown(sc.file, dirs), line=line, message=f"cannot be drilled: {exc}"))
        except Exception as exc:  # one bad scenario must not take the others down
            log.exception("scenario %s cannot be served", sc.file)
            problems.append(Problem(file=_shown(sc.file, dirs), line=None, message=f"cannot be drilled: {exc}"))
        else:
            seen.add(sc.id)
    for problem in problems:
        log.error("scenario problem: %s: %s", problem.where, problem.message)
    log.info("loaded %d scenarios, %d problems", len(entries), len(problems))
    return Library(entries, problems)


def _entry(sc: Any, locale: str) -> Entry:
    title = sc.title.text(locale) if sc.title is not None else ""
    return Entry(
        id=sc.id,
        title=title or sc.id,
        level=sc.level,
        topics=tuple(sc.topics or ()),
        scenario=sc,
        quiz=build_quiz(sc, locale=locale),
        spot=build_spot(sc),
    )


def _problem(err: ScenarioError, dirs: list[str]) -> Problem:
    message = getattr(err, "message", None) or str(err)
    return Problem(file=_shown(getattr(err, "file", "") or "", dirs), line=getattr(err, "line", None), message=message)


def _shown(file: str | os.PathLike, dirs: list[str]) -> str:
    """A file name relative to its scenario folder, so the public page shows no server paths."""
    path = Path(file).resolve()
    for folder in dirs:
        root = Path(folder).resolve()
        if path == root or root in path.parents:
            return str(Path(root.name) / path.relative_to(root))
    return Path(file).name
