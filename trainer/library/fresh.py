"""How much two attempts at one exam template share: the answer-key check.

A question is known by what the candidate sees and answers (the game, the stacks, the action, the
cards, the chips and words of a ruling, who won), never by its reference: two seeds that dealt the
same spot would be one question twice. Two attempts share a question when both hold a spot with
the same key; ``shared`` is the count over the template's ``count``.

>>> from trainer.library.exams import ExamTemplate
>>> t = ExamTemplate(slug="t", title="T", description="", count=4, minutes=5, pass_mark=50,
...                  weights={"min-raise": 1})
>>> worst(t, pairs=3).fraction
0.0
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from trainer.generate import GenerateError, generate

from .exams import DEALER_EDITION, EXAM_POOL, ExamTemplate, exam_gen_parts, is_dealer_ref

# The parts of a generated spot's file that are the question; the id (its seed), titles, notes,
# level, topics and the engine's answers are not.
SEEN = ("game", "stacks", "pot", "start", "actions", "board", "hands", "ruling", "winners", "chip", "ask")
# A spot the generator cannot build is replaced by the next of its seed (trainer/web/exams/sitting.py).
TRIES = 20


def question_key(ref: str) -> str:
    """What a candidate sees of the question behind ``ref``, as a short digest."""
    parts = exam_gen_parts(ref)
    if parts is None:
        return ref.removeprefix(EXAM_POOL)  # a hand-written spot is the same question every time
    topic, level, seed, index, stakes = parts
    edition = DEALER_EDITION if is_dealer_ref(ref) else 1
    for tried in range(TRIES):
        try:
            document = generate(topic, level=level, seed=seed, start=index + tried, stakes=stakes,
                                edition=edition)[0].document
        except GenerateError:
            continue
        seen = {key: document[key] for key in SEEN if key in document}
        return hashlib.sha256(json.dumps(seen, sort_keys=True, default=str).encode()).hexdigest()[:24]
    return ref


@dataclass(frozen=True, kw_only=True)
class Overlap:
    slug: str
    pairs: int
    count: int  # questions per attempt
    most: int  # the most questions two attempts shared

    @property
    def fraction(self) -> float:
        return self.most / self.count if self.count else 0.0


def worst(template: ExamTemplate, *, pairs: int, seed: int = 0,
          pool: Mapping[str, Sequence[str]] | None = None) -> Overlap:
    """The most questions any of ``pairs`` pairs of attempts at ``template`` share (attempt seeds
    drawn from ``seed``, as the app draws each attempt's from an HMAC of its id)."""
    rng = random.Random(seed)
    most = 0
    for _ in range(pairs):
        one, two = (_keys(template, rng.getrandbits(64), pool) for _ in range(2))
        most = max(most, sum(min(one.count(k), two.count(k)) for k in set(one)))
    return Overlap(slug=template.slug, pairs=pairs, count=template.count, most=most)


def _keys(template: ExamTemplate, seed: int, pool: Mapping[str, Sequence[str]] | None) -> list[str]:
    return [question_key(ref) for ref in template.draw(seed, pool)]
