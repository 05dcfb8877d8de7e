"""The ``engine`` domain: the engine's templates, the rule table and the generator's notes, per language.

The engine holds its texts in English only (``trainer/engine/messages.py``
and ``rules.py``) and renders through whatever templates it is handed; the
translations live in ``<babel locale>/LC_MESSAGES/engine.po`` (and ``.mo``),
each entry keyed by the message ID as its context. The web layer and the CLI
hand the engine ``engine_templates(locale)``. Everything here is resolved
once per language and kept: rendering a derivation looks texts up in a
plain mapping, never in the catalog.

An entry missing from a catalog (not translated yet, or fuzzy) falls back to
the English source text; ``tests/test_messages_zh.py`` fails when a Chinese
catalog lacks one.

>>> engine_templates("zh-Hant")["term.check"], engine_templates("zh-Hans")["term.check"]
('過牌', '让牌')
>>> rule_text("R-MINRAISE", "zh-Hans").title
'最小加注'
>>> engine_text("zh-Hant")("title.over", "{topic}: {live} of {players} players left after the betting ({street})")
'{topic}：{street}下注結束後，{players} 位玩家剩 {live} 位'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import lru_cache

from babel.support import NullTranslations, Translations

from . import DEFAULT, FOLDER, LOCALES, babel_name

DOMAIN = "engine"


def _known(locale: str) -> str:
    return locale if locale in LOCALES else DEFAULT


@lru_cache(maxsize=None)
def catalog(locale: str) -> NullTranslations:
    """The compiled engine catalog of ``locale`` (English: the source texts themselves)."""
    return Translations.load(str(FOLDER), [babel_name(_known(locale))], DOMAIN)


def engine_text(locale: str) -> Callable[[str, str], str]:
    """``pgettext`` of the engine catalog: (message ID, English text) -> the text in ``locale``."""
    return catalog(_known(locale)).pgettext


@lru_cache(maxsize=None)
def engine_templates(locale: str) -> dict[str, str]:
    """Message ID -> template in ``locale`` for every ID of ``messages.EN``; English for an unknown locale.

    Numbers come out as the page writes them (``29,689``, Babel's grouping for
    the locale, as in the form). One mapping per language, shared by every
    caller: read it, never change it.
    """
    from trainer.engine.messages import EN, Templates

    from . import text as language

    text = engine_text(locale)
    return Templates({mid: text(mid, english) for mid, english in EN.items()}, number=language(_known(locale)).number)


@lru_cache(maxsize=None)
def rule_text(rule_id: str, locale: str):
    """The rule ``rule_id`` as learners read it (``rules.for_learners``), its texts in ``locale``."""
    from trainer.engine.rules import RULES, for_learners

    rule = for_learners(RULES[rule_id])
    text = engine_text(locale)
    return dataclasses.replace(
        rule,
        title=text(f"{rule.id}.title", rule.title),
        statement=text(f"{rule.id}.statement", rule.statement),
        examples=tuple(text(f"{rule.id}.example", example) for example in rule.examples),
    )
