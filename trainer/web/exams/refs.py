"""Exam questions by reference: only the exam pages resolve these.

``exam-gen:topic:level:seed:index`` is a generated spot whose seed came from the
attempt's HMAC draw and lies above every seed a ``gen:`` drill address accepts;
``exam-pool:<id>`` is a hand-written spot of the exam pool, which the drill's
library does not hold. Neither kind is a drill, classroom or topic address, so an
exam question is shown only by its attempt's own pages (and its review afterwards).
"""

from __future__ import annotations

from trainer.library import Entry
from trainer.store import exams as store
from trainer.web.core import spot_refs
from trainer.web.core.libraries import exam_pool


def resolve(ref: str) -> Entry | None:
    parts = store.exam_gen_parts(ref)
    if parts is not None:
        return spot_refs.generated(*parts)
    if ref.startswith(store.EXAM_POOL):
        return exam_pool().get(ref[len(store.EXAM_POOL) :])
    # Exams started before the exam pool stored drill references; their reviews still show.
    return spot_refs.resolve(ref)


def pool_ids() -> dict[str, list[str]]:
    """The exam pool's spot ids by topic, for the draw."""
    return {slug: [e.id for e in topic.tagged] for slug, topic in exam_pool().topics.items()}
