"""Exam questions by reference: only the exam pages resolve these.

``exam-gen:topic:level:seed:index`` is a generated spot whose seed came from the
attempt's HMAC draw and lies above every seed a ``gen:`` drill address accepts;
``exam-deal:…`` is the same spot asked as a dealer's question (one to three
answers, trainer.quiz.dealer); ``exam-pool:<id>`` is a hand-written spot of the
exam pool, which the drill's library does not hold. None of them is a drill,
classroom or topic address, so an exam question is shown only by its attempt's
own pages (and its review afterwards).
"""

from __future__ import annotations

import threading
from dataclasses import replace

from cachetools import LRUCache, cached

from trainer.library import Entry
from trainer.quiz import QuizError
from trainer.quiz.dealer import build_dealer_quiz
from trainer.store import exams as store
from trainer.web.core import i18n, spot_refs
from trainer.web.core.libraries import exam_pool


def resolve(ref: str) -> Entry | None:
    parts = store.exam_gen_parts(ref)
    if parts is not None:
        if not store.is_dealer_ref(ref):
            return spot_refs.generated(*parts)
        entry = spot_refs.generated(*parts, edition=store.DEALER_EDITION)
        if entry is None:
            return None
        return _dealer(ref, i18n.current(), entry)
    if ref.startswith(store.EXAM_POOL):
        return exam_pool().get(ref[len(store.EXAM_POOL) :])
    # Exams started before the exam pool stored drill references; their reviews still show.
    return spot_refs.resolve(ref)


# Keyed by the reference and the language alone (the entry is what they name); a sitting's
# 40 questions in three languages for a few candidates at once.
@cached(LRUCache(maxsize=512), key=lambda ref, locale, entry: (ref, locale), lock=threading.Lock())
def _dealer(ref: str, locale: str, entry: Entry) -> Entry | None:
    try:
        return replace(entry, quiz=build_dealer_quiz(entry.scenario, locale=locale))
    except QuizError:
        return None


def pool_ids() -> dict[str, list[str]]:
    """The exam pool's spot ids by topic, for the draw."""
    return {slug: [e.id for e in topic.tagged] for slug, topic in exam_pool().topics.items()}
