"""The scenarios the app serves: loaded once at start-up, indexed by topic and level.

A file that fails to load, or whose questions cannot be built, becomes a
``Problem`` shown on the public problems page; every other file still serves.

The files are read once; then one ``Library`` is built per language, each with
its own entries (titles, questions and seat tables in that language) in the
same order, so a request only picks the library of its language.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from cachetools import LRUCache

from trainer.engine.messages import IllegalActionError
from trainer.quiz import Quiz, QuizError, build_quiz, message_templates
from trainer.scenarios import MAX_FILE_BYTES, ScenarioError, load_paths
from trainer.scenarios.pool import scenario_files
from trainer.topics import BY_NAME, PATH
from trainer.translations import DEFAULT, LOCALES, Text, pick
from trainer.translations import text as translated

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
    lang: str = DEFAULT  # the loader's own messages are English whatever the page's language

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass(frozen=True, kw_only=True)
class Topic:
    """``entries``: the spots walked in this topic on the path, from level 1 up (those whose first
    topic this is); ``also``: the spots tagged with it too, walked in their own first topic."""

    slug: str
    entries: tuple[Entry, ...]
    also: tuple[Entry, ...] = ()
    locale: str = DEFAULT

    @cached_property
    def tagged(self) -> tuple[Entry, ...]:
        """Every spot about this topic, by level: a class drill on the topic draws from these."""
        return tuple(sorted(self.entries + self.also, key=_order))

    @property
    def name(self) -> str:
        return topic_name(self.slug, self.locale)

    @property
    def levels(self) -> tuple[int, ...]:
        return levels_of(self.entries)

    @property
    def rules(self) -> tuple[str, ...]:
        return topic_rules(self.slug)


def topic_name(slug: str, locale: str = DEFAULT) -> str:
    """A topic's title in ``locale``."""
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


def _place(slug: str) -> tuple[int, str]:
    """A topic's place on the teaching path (topics the path does not name come last, by name)."""
    return (PATH.get(slug, len(PATH)), slug)


@dataclass(frozen=True, kw_only=True)
class Step:
    """Where "Next" goes from a spot: the spot, the topic it is walked in, and what changed on the way.

    ``change`` is None within a level, "level" when the next spot starts the topic's next level,
    "topic" when the topic is done and the path goes on to ``topic``, "end" when the path starts over."""

    entry: Entry
    topic: str | None
    change: str | None = None
    done: str | None = None  # the topic just finished (for "topic" and "end")
    level: int | None = None  # the level just finished (for "level")


class Library:
    def __init__(self, entries: list[Entry], problems: list[Problem], *, locale: str = DEFAULT) -> None:
        self.locale = locale
        self.problems: tuple[Problem, ...] = tuple(problems)
        slugs = sorted({t for e in entries for t in e.topics}, key=_place)
        by_level = sorted(entries, key=_order)
        # Topics in teaching order, each with its spots from level 1 up. A spot is walked in its first
        # topic (its folder, as the library is laid out): "Who acts first" does not walk the rulings on
        # acting out of turn, which are chips-and-words spots tagged with it; its page lists them apart.
        self.topics: dict[str, Topic] = {
            slug: Topic(slug=slug, entries=tuple(e for e in by_level if e.topics[:1] == (slug,)),
                        also=tuple(e for e in by_level if slug in e.topics[1:]), locale=locale)
            for slug in slugs
        }
        # The whole path: topic by topic (those with spots of their own), then spots without a topic.
        path: dict[str, Entry] = {}
        for topic in self.topics.values():
            for e in topic.entries:
                path.setdefault(e.id, e)
        for e in by_level:
            path.setdefault(e.id, e)
        self.entries: dict[str, Entry] = path
        self._all = tuple(path.values())
        # The topics walked, in order: one that is only ever tagged is not on the path.
        self._on_path = [slug for slug, t in self.topics.items() if t.entries]
        self._order: dict[str | None, dict[str, int]] = {}

    def get(self, scenario_id: str) -> Entry | None:
        return self.entries.get(scenario_id)

    def topic(self, slug: str | None) -> Topic | None:
        return self.topics.get(slug) if slug else None

    def first(self) -> Entry | None:
        return next(iter(self.entries.values()), None)

    def home_topic(self, entry: Entry) -> str | None:
        """The topic a spot is walked in when none is chosen: its first one."""
        return entry.topics[0] if entry.topics and entry.topics[0] in self.topics else None

    def position(self, entry: Entry, topic: Topic | None) -> tuple[int, int]:
        """(k, n): the spot is the k-th of the n spots of ``topic`` (or of the whole library)."""
        pool = topic.entries if topic is not None else self._all
        index = self._index(topic, pool).get(entry.id)
        return (index + 1 if index is not None else 1), len(pool)

    def _index(self, topic: Topic | None, pool: tuple[Entry, ...]) -> dict[str, int]:
        key = topic.slug if topic is not None else None
        index = self._order.get(key)
        if index is None:
            index = self._order[key] = {e.id: i for i, e in enumerate(pool)}
        return index

    def step_after(self, entry: Entry, topic: Topic | None) -> Step:
        """The following spot: the next one of the topic and level, then the topic's next level,
        then the first spot of the next topic on the path (and after the last, the path's start)."""
        if topic is None:
            i = self._index(None, self._all).get(entry.id, -1)
            following = self._all[(i + 1) % len(self._all)]
            return Step(entry=following, topic=None, change="end" if i + 1 == len(self._all) else None)
        i = self._index(topic, topic.entries).get(entry.id)
        home = self.topic(self.home_topic(entry))
        if i is None and home is not None:
            # A spot opened from a topic it is only tagged with is walked on in its own topic.
            topic, i = home, self._index(home, home.entries).get(entry.id)
        pool = topic.entries
        if i is not None and i + 1 < len(pool):
            following = pool[i + 1]
            changed = following.level != entry.level
            return Step(entry=following, topic=topic.slug, change="level" if changed else None,
                        level=entry.level if changed else None)
        slugs = self._on_path
        at = slugs.index(topic.slug) if topic.slug in slugs else -1
        ahead = slugs[at + 1:]
        if ahead:
            nxt = self.topics[ahead[0]]
            return Step(entry=nxt.entries[0], topic=nxt.slug, change="topic", done=topic.slug)
        nxt = self.topics[slugs[0]]
        return Step(entry=nxt.entries[0], topic=nxt.slug, change="end", done=topic.slug)

    def next_after(self, entry: Entry, topic: Topic | None) -> Entry:
        return self.step_after(entry, topic).entry


def load_library(dirs: list[str], *, locale: str = DEFAULT) -> Library:
    return load_libraries(dirs, locales=(locale,))[locale]


EXAM_POOL_FOLDER = "exam-pool"


def in_exam_pool(file: str | os.PathLike, dirs: list[str]) -> bool:
    """Whether a scenario file lies in an ``exam-pool`` folder under one of ``dirs``: those
    spots are for exams only, never served by the drill, the topic lists or search."""
    path = Path(file).resolve()
    for folder in dirs:
        root = Path(folder).resolve()
        if root in path.parents:
            return EXAM_POOL_FOLDER in path.relative_to(root).parts[:-1]
    return False


def load_libraries(
    dirs: list[str], *, locales: tuple[str, ...] = LOCALES, exam_pool: bool = False
) -> dict[str, Library]:
    """The scenarios in ``dirs``, read once, as one library per language: the drill's (every
    file outside ``exam-pool`` folders), or with ``exam_pool`` the exams' own pool (only those)."""
    what = (tuple((str(d), os.path.abspath(d)) for d in dirs), tuple(locales), exam_pool)
    files = _files_of(dirs)
    with _BUILT_LOCK:
        kept = _BUILT.get(what)
    built = kept[1] if kept is not None and files is not None and kept[0] == files else None
    if built is None:
        built = _build(dirs, locales, exam_pool)
        # Kept under the bytes hashed before the build: a file written to meanwhile no longer
        # matches them, so the next app builds again.
        with _BUILT_LOCK:
            if files is not None:
                _BUILT[what] = (files, built)  # and the build from other bytes, if any, goes
            else:
                _BUILT.pop(what, None)
    entries, problems, count = built
    for problem in problems:
        log.error("scenario problem: %s: %s", problem.where, problem.texts[DEFAULT])
    log.info("loaded %d scenarios, %d problems", count, len(problems))
    return {
        locale: Library(list(entries[locale]), [p.problem(locale) for p in problems], locale=locale)
        for locale in locales
    }


# The entries last built from each set of folders, with the bytes of every file they held: a
# second app of the process (``trainer serve`` reloaded with the files unchanged; the tests build
# hundreds) finds its spots built, about a second each. Entries are frozen and each app builds its
# own ``Library`` over them; once a file is changed, added or removed the folders are built anew
# and the old build is let go.
_BUILT: LRUCache[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = LRUCache(maxsize=8)
_BUILT_LOCK = threading.Lock()


def _files_of(dirs: list[str]) -> tuple[Any, ...] | None:
    """Every scenario file under ``dirs`` with a hash of its bytes; None (nothing is kept) when one
    cannot be read or is too big to be a scenario: the loader then says why, every time."""
    files = []
    try:
        folders = [d for d in dirs if Path(d).is_dir()]
        for file in scenario_files(folders):
            with open(file, "rb") as f:
                data = f.read(MAX_FILE_BYTES + 1)
            if len(data) > MAX_FILE_BYTES:
                return None
            files.append((str(file), hashlib.sha256(data).digest()))
    except (OSError, ValueError):
        return None
    return tuple(folders), tuple(files)


def _build(
    dirs: list[str], locales: tuple[str, ...], exam_pool: bool
) -> tuple[dict[str, tuple[Entry, ...]], tuple[_Found, ...], int]:
    problems: list[_Found] = []
    existing = []
    for folder in dirs:
        if Path(folder).is_dir():
            existing.append(str(folder))
        else:
            texts = _texts(lambda t: t.gettext("scenario folder not found"))
            problems.append(_Found(file=_shown(folder, dirs), line=None, texts=texts))
    scenarios: list[Any] = []
    if existing:
        try:
            files = [f for f in scenario_files(existing) if in_exam_pool(f, existing) == exam_pool]
            result = load_paths(files)
        except ScenarioError as exc:
            problems.append(_problem(exc, dirs))
        else:
            scenarios = list(result.scenarios)
            problems.extend(_problem(err, dirs) for err in result.errors)

    entries: dict[str, list[Entry]] = {locale: [] for locale in locales}
    seen: set[str] = set()
    for sc in scenarios:
        if sc.id in seen:
            texts = _texts(lambda t, sid=sc.id: t.gettext("duplicate id %(id)r", id=sid))
            problems.append(_Found(file=_shown(sc.file, dirs), line=None, texts=texts))
            continue
        try:
            built = {locale: entry_of(sc, locale) for locale in locales}
        except QuizError:
            line = (getattr(sc, "lines", None) or {}).get("ask")
            problems.append(_Found(file=_shown(sc.file, dirs), line=line, texts=_quiz_problem(sc)))
        except Exception as exc:  # one bad scenario must not take the others down
            log.exception("scenario %s cannot be served", sc.file)
            texts = _texts(lambda t, why=exc: t.gettext("cannot be drilled: %(why)s", why=why))
            problems.append(_Found(file=_shown(sc.file, dirs), line=None, texts=texts))
        else:
            seen.add(sc.id)
            for locale, entry in built.items():
                entries[locale].append(entry)
    return {locale: tuple(found) for locale, found in entries.items()}, tuple(problems), len(seen)


@dataclass(frozen=True, kw_only=True)
class _Found:
    """A problem in every language, until each library takes its own."""

    file: str
    line: int | None
    texts: dict[str, str]
    translated: bool = True

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file

    def problem(self, locale: str) -> Problem:
        return Problem(
            file=self.file,
            line=self.line,
            message=self.texts.get(locale, self.texts[DEFAULT]),
            lang=locale if self.translated else DEFAULT,
        )


def _texts(say: Callable[[Text], str]) -> dict[str, str]:
    return {locale: say(translated(locale)) for locale in LOCALES}


def _quiz_problem(sc: Any) -> dict[str, str]:
    texts = {}
    for locale in LOCALES:
        try:
            build_quiz(sc, locale=locale)
        except QuizError as exc:
            texts[locale] = translated(locale).gettext("cannot be drilled: %(why)s", why=exc)
        else:  # pragma: no cover - a quiz error does not depend on the language
            texts[locale] = texts[DEFAULT]
    return texts


def entry_of(sc: Any, locale: str) -> Entry:
    """A loaded scenario as the web app shows it in ``locale`` (library and generated spots alike)."""
    title = pick(sc.title, locale)
    return Entry(
        id=sc.id,
        title=title or sc.id,
        level=sc.level,
        topics=tuple(sc.topics or ()),
        scenario=sc,
        quiz=build_quiz(sc, locale=locale),
        spot=build_spot(sc, locale),
    )


def _problem(err: ScenarioError, dirs: list[str]) -> _Found:
    message = getattr(err, "message", None) or str(err)
    texts = {locale: message for locale in LOCALES}
    translated = False
    # The loader words its own messages in English for scenario authors; an
    # illegal action's reason comes from the engine as message IDs, so that
    # part can be said in each language. The engine's error is the context of
    # the loader's (raised "from None": hidden from tracebacks, still kept).
    cause = err.__context__
    if isinstance(cause, IllegalActionError):
        english = cause.clause()
        if message.endswith(english):
            head = message[: len(message) - len(english)]
            for locale in LOCALES:
                texts[locale] = head + cause.clause(message_templates(locale))
            translated = True
    return _Found(
        file=_shown(getattr(err, "file", "") or "", dirs),
        line=getattr(err, "line", None),
        texts=texts,
        translated=translated,
    )


def _shown(file: str | os.PathLike, dirs: list[str]) -> str:
    """A file name relative to its scenario folder, so the public page shows no server paths."""
    path = Path(file).resolve()
    for folder in dirs:
        root = Path(folder).resolve()
        if path == root or root in path.parents:
            return str(Path(root.name) / path.relative_to(root))
    return Path(file).name
