"""The exam catalogue: one YAML file per exam template (``exams/<slug>.yaml``), read and checked at
start-up like the scenarios, and the references an attempt's questions are drawn as.

A template draws each attempt's questions afresh: ``pool`` shares come from the hand-written exam
pool (spots the drill does not serve), ``weights`` share the rest among generated topics. Errors
name the file, the line and the key, as the scenario loader's do (docs/exams.md has every key).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from trainer.quiz.dealer import TABLE, part_of
from trainer.scenarios import MAX_FILE_BYTES, ScenarioError
from trainer.scenarios.read import read_bytes
from trainer.topics import BY_NAME

EXAM_GEN = "exam-gen:"
# A generated spot asked as a dealer is asked at the table: one to three answers (trainer.quiz.dealer).
EXAM_DEAL = "exam-deal:"
# ... dealt by the generator's second edition (more kinds of ruling on chips and words).
DEALER_EDITION = 2
EXAM_POOL = "exam-pool:"
# How a template asks its generated spots: every question of the spot's topic, or the dealer's.
STYLES = ("spot", "dealer")
# Exam seeds sit above every seed a drill address accepts (2^31 - 1), so the spot behind an exam
# question has no ``gen:`` address: knowing it would not open it in the drill.
EXAM_SEED_BASE = 2**62
# When an attempt's review shows the correct answers and the explanations (the score and the
# per-topic table show at once). "after-close": a class's assigned exam keeps them until its window
# has closed for everyone, so the first to finish cannot hand them to the rest; a self-study
# attempt, which has no window, shows them when it is over. "after-attempt": as soon as the
# attempt is over, class exams too. (Moodle's review options, "immediately after the attempt" and
# "after the quiz is closed".)
REVIEW_AFTER_CLOSE = "after-close"
REVIEW_AFTER_ATTEMPT = "after-attempt"
REVIEW_OPTIONS = (REVIEW_AFTER_CLOSE, REVIEW_AFTER_ATTEMPT)
# The stakes of the dealer templates (trainer.playout.STAKES names them).
REAL_STAKES = ("100-200", "1000-2000")


def exam_gen_ref(topic: str, level: int, seed: int, index: int = 0, stakes: str | None = None, *,
                 dealer: bool = False) -> str:
    """A generated exam spot: generate(topic, level, seed, stakes), spot ``index``; exam pages only.
    ``stakes`` ("100-200", "1000-2000") is written as a fifth part; references without it are the
    drawn-blinds spots of the first exams. ``dealer``: asked as a dealer's question (``exam-deal:``)."""
    return f"{EXAM_DEAL if dealer else EXAM_GEN}{topic}:{level}:{seed}:{index}" + (f":{stakes}" if stakes else "")


def is_dealer_ref(ref: str) -> bool:
    return ref.startswith(EXAM_DEAL)


def exam_pool_ref(scenario_id: str) -> str:
    """A hand-written spot of the exam pool, which the drill does not serve."""
    return f"{EXAM_POOL}{scenario_id}"


def exam_part(ref: str) -> str | None:
    """``rules`` (the written part) or ``table``: the part of a dealer exam the question ``ref``
    belongs to; None for a question of any other exam."""
    parts = exam_gen_parts(ref) if is_dealer_ref(ref) else None
    return part_of(parts[0]) if parts is not None else None


def exam_gen_parts(ref: str) -> tuple[str, int, int, int, str | None] | None:
    """(topic, level, seed, index, stakes or None) of an ``exam-gen:`` or ``exam-deal:`` reference."""
    prefix = next((p for p in (EXAM_GEN, EXAM_DEAL) if ref.startswith(p)), None)
    if prefix is None:
        return None
    parts = ref[len(prefix) :].split(":")
    if len(parts) == 4:
        parts.append("")
    try:
        topic, level, seed, index, stakes = parts
        return topic, int(level), int(seed), int(index), stakes or None
    except ValueError:
        return None




@dataclass(frozen=True, kw_only=True)
class RetakePolicy:
    """At most ``attempts`` starts of a template in any ``hours`` hours."""

    attempts: int = 3
    hours: int = 24


@dataclass(frozen=True, kw_only=True)
class ExamTemplate:
    slug: str
    title: str
    description: str
    count: int
    minutes: int
    pass_mark: int  # percent of questions with every field right
    weights: Mapping[str, int] = field(default_factory=dict)  # generated topic -> weight
    pool: Mapping[str, int] = field(default_factory=dict)  # exam-pool topic -> hand-written questions
    level: int = 2
    # Real stakes ("100-200", "1000-2000"; trainer.playout.STAKES) the generated spots are dealt
    # at, one drawn per question; none: the generator draws the blinds (1/2 to 100/200).
    stakes: tuple[str, ...] = ()
    retake: RetakePolicy = RetakePolicy()
    order: int = 100  # where the exams page lists it, lowest first
    # "dealer": each generated spot is asked as a dealer's question (one to three answers), the
    # written part (rules) first, then the table part (pots, showdown); see trainer.quiz.dealer.
    style: str = "spot"
    review: str = REVIEW_AFTER_CLOSE  # when a review shows the answers (REVIEW_OPTIONS)

    def __post_init__(self) -> None:
        if self.review not in REVIEW_OPTIONS:
            raise ValueError(f"exam template {self.slug}: review is one of {', '.join(REVIEW_OPTIONS)}, got {self.review!r}")
        if not self.weights and not self.pool:
            raise ValueError(f"exam template {self.slug}: give topic weights, an exam-pool share, or both")
        if sum(self.pool.values()) > self.count:
            raise ValueError(f"exam template {self.slug}: more pool questions than count {self.count}")
        if not self.weights and sum(self.pool.values()) != self.count:
            raise ValueError(f"exam template {self.slug}: the pool shares do not add up to count {self.count}")

    def can_draw(self, pool: Mapping[str, Sequence[str]] | None = None) -> bool:
        """Whether the exam pool holds enough hand-written spots for every pool share."""
        return all(len((pool or {}).get(topic, ())) >= n for topic, n in self.pool.items())

    def draw(self, seed: int, pool: Mapping[str, Sequence[str]] | None = None) -> list[str]:
        """One attempt's questions: ``pool[topic]`` lists the exam pool's spot ids by topic; each
        pool share is sampled from it, and the rest are generated spots shared out by weight
        (largest remainder, so every weighted topic gets its share), each with its own seed
        drawn from ``seed``; all in a seeded order."""
        rng = random.Random(seed)
        refs: list[str] = []
        for topic, n in self.pool.items():
            ids = sorted((pool or {}).get(topic, ()))
            if len(ids) < n:
                raise ValueError(f"exam template {self.slug}: the exam pool has {len(ids)} {topic} spots, {n} wanted")
            refs.extend(exam_pool_ref(i) for i in rng.sample(ids, n))
        generated = self.count - len(refs)
        if generated:
            total = sum(self.weights.values())
            shares = {t: generated * w / total for t, w in self.weights.items()}
            counts = {t: int(v) for t, v in shares.items()}
            for t in sorted(shares, key=lambda t: (counts[t] - shares[t], t))[: generated - sum(counts.values())]:
                counts[t] += 1
            for t, n in counts.items():
                for _ in range(n):
                    seed = EXAM_SEED_BASE + rng.getrandbits(62)
                    stakes = rng.choice(self.stakes) if self.stakes else None
                    refs.append(exam_gen_ref(t, self.level, seed, stakes=stakes, dealer=self.style == "dealer"))
        rng.shuffle(refs)
        if self.style == "dealer":  # the audition's order: the written part, then the table part
            refs.sort(key=lambda ref: exam_part(ref) == TABLE)
        return refs


@dataclass(frozen=True, kw_only=True)
class SpotListTemplate(ExamTemplate):
    """An exam of a fixed list of spots (an instructor's spots shared with a class): every spot once,
    in an order drawn from the attempt's seed."""

    refs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.review not in REVIEW_OPTIONS:
            raise ValueError(f"exam template {self.slug}: review is one of {', '.join(REVIEW_OPTIONS)}, got {self.review!r}")
        if len(self.refs) != self.count:
            raise ValueError(f"exam template {self.slug}: {len(self.refs)} spots listed, count {self.count}")

    def can_draw(self, pool: Mapping[str, Sequence[str]] | None = None) -> bool:
        return bool(self.refs)

    def draw(self, seed: int, pool: Mapping[str, Sequence[str]] | None = None) -> list[str]:
        refs = list(self.refs)
        random.Random(seed).shuffle(refs)
        return refs


KEYS = (
    "order", "title", "description", "count", "minutes", "pass_mark", "level", "stakes", "retake", "pool", "weights",
    "style", "review",
)
REQUIRED = ("title", "description", "count", "minutes", "pass_mark")
SLUG_RE = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
BOUNDS = {"order": (1, 1000), "count": (1, 200), "minutes": (1, 600), "pass_mark": (1, 100), "level": (1, 5)}


def load_templates(folder: Path) -> tuple[tuple[ExamTemplate, ...], list[ScenarioError]]:
    """Every ``*.yaml`` of ``folder`` as a template, in file-name order, and the files that failed."""
    templates, problems = [], []
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else ():
        try:
            templates.append(load_template(path))
        except ScenarioError as exc:
            problems.append(exc)
    return tuple(sorted(templates, key=lambda t: (t.order, t.slug))), problems


def load_template(path: Path) -> ExamTemplate:
    """One template file; its slug is the file's name without ``.yaml``; listed by ``order``, then slug."""
    file = str(path)
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ScenarioError(file, None, None, f"the file is larger than {MAX_FILE_BYTES:,} bytes")
    doc = read_bytes(path.read_bytes(), file)
    slug = path.stem
    if not SLUG_RE.fullmatch(slug):
        raise ScenarioError(file, None, None, f"the file's name {slug!r} is not a slug (lower-case words and hyphens)")
    if not isinstance(doc, dict):
        raise ScenarioError(file, getattr(doc, "line", None), None, "an exam template is a mapping of keys")

    def line(key: str) -> int | None:
        return doc.key_lines.get(key) if hasattr(doc, "key_lines") else None

    for key in doc:
        if key not in KEYS:
            raise ScenarioError(file, line(key), key, f"{key}: not a key of an exam template (keys: {', '.join(KEYS)})")
    for key in REQUIRED:
        if key not in doc:
            raise ScenarioError(file, doc.line or None, key, f"{key}: missing (every template has {', '.join(REQUIRED)})")

    def text(key: str) -> str:
        value = doc[key]
        if not isinstance(value, str) or not value.strip():
            raise ScenarioError(file, line(key), key, f"{key}: a text in English (its translations are in the catalogs)")
        return " ".join(value.split())

    def whole(key: str, default: int | None = None) -> int:
        value = doc.get(key, default)
        low, high = BOUNDS[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ScenarioError(file, line(key), key, f"{key}: a whole number from {low} to {high}, got {value!r}")
        return value

    def shares(key: str) -> dict[str, int]:
        value = doc.get(key) or {}
        if not isinstance(value, dict):
            raise ScenarioError(file, line(key), key, f"{key}: a mapping of topic -> number of questions")
        for topic, n in value.items():
            if topic not in BY_NAME:
                raise ScenarioError(file, value.key_lines.get(topic), f"{key}.{topic}",
                                    f"{key}.{topic}: not a topic (topics: {', '.join(sorted(BY_NAME))})")
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise ScenarioError(file, value.key_lines.get(topic), f"{key}.{topic}",
                                    f"{key}.{topic}: a whole number of at least 1, got {n!r}")
        return dict(value)

    stakes = doc.get("stakes") or []
    if not isinstance(stakes, list) or any(s not in REAL_STAKES for s in stakes):
        raise ScenarioError(file, line("stakes"), "stakes", f"stakes: a list of {', '.join(REAL_STAKES)}, got {stakes!r}")
    retake = doc.get("retake") or {}
    if not isinstance(retake, dict) or set(retake) - {"attempts", "hours"} or any(
        isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in retake.values()
    ):
        raise ScenarioError(file, line("retake"), "retake", "retake: attempts and hours, whole numbers of at least 1")
    style = doc.get("style", "spot")
    if style not in STYLES:
        raise ScenarioError(file, line("style"), "style", f"style: one of {', '.join(STYLES)}, got {style!r}")
    review = doc.get("review", REVIEW_AFTER_CLOSE)
    if review not in REVIEW_OPTIONS:
        raise ScenarioError(file, line("review"), "review",
                            f"review: when the review shows the answers, one of {', '.join(REVIEW_OPTIONS)}; got {review!r}")
    fields = dict(
        style=style, slug=slug, review=review, order=whole("order", 100), title=text("title"), description=text("description"),
        count=whole("count"), minutes=whole("minutes"), pass_mark=whole("pass_mark"), level=whole("level", 2),
        stakes=tuple(stakes), retake=RetakePolicy(**retake), pool=shares("pool"), weights=shares("weights"),
    )
    try:
        return ExamTemplate(**fields)
    except ValueError as exc:  # the template's own checks: shares against count
        raise ScenarioError(file, None, None, str(exc)) from None
