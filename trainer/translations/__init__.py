"""The message catalogs (``<babel locale>/LC_MESSAGES/messages.po`` and ``.mo``) and
how code that runs outside a request reads them.

The app speaks three languages, named as in HTML and in scenario files:
``en``, ``zh-Hant`` (Taiwan usage) and ``zh-Hans`` (mainland usage). Babel
names the catalog folders with an underscore (``zh_Hant``): gettext looks
for exactly that folder, then for ``zh``, so the folder names matter.

Things built once per language at start-up — the quiz questions, the seat
table, the problems list — are made with a ``Text`` for that language; pages
rendered per request use Flask-Babel, which reads the same catalogs.

>>> Text("zh-Hant").gettext("Pot %(amount)s", amount=Text("zh-Hant").number(4000))
'底池 4,000'
>>> Text("en").ngettext("%(num)d spot", "%(num)d spots", 2)
'2 spots'
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

FOLDER = Path(__file__).resolve().parent
DOMAIN = "messages"

LOCALES = ("en", "zh-Hant", "zh-Hans")
DEFAULT = "en"
# How each language names itself in the language switcher.
AUTONYMS = {"en": "English", "zh-Hant": "繁體中文", "zh-Hans": "简体中文"}


def babel_name(locale: str) -> str:
    """``zh-Hant`` -> ``zh_Hant``: the name of the catalog folder and of the Babel locale."""
    return locale.replace("-", "_")


def tag(babel_locale: object) -> str:
    """A Babel locale (or its name) -> one of ``LOCALES``; English for anything else."""
    name = str(babel_locale).replace("_", "-")
    return name if name in LOCALES else DEFAULT


# A text missing in one Chinese script is shown in the other before English:
# a reader of either script reads the other far more easily than English.
FALLBACKS = {"en": ("en",), "zh-Hant": ("zh-Hant", "zh-Hans", "en"), "zh-Hans": ("zh-Hans", "zh-Hant", "en")}


def pick(texts: Mapping[str, str] | None, locale: str) -> str:
    """A scenario's ``title`` or ``explain`` (locale -> text) in ``locale``, else the nearest there is."""
    if not texts:
        return ""
    for key in FALLBACKS.get(locale, (DEFAULT,)):
        if texts.get(key):
            return texts[key]
    return texts.get("*") or next(iter(texts.values()), "")


@lru_cache(maxsize=None)
def catalog(locale: str) -> NullTranslations:
    return Translations.load(str(FOLDER), [babel_name(locale)], DOMAIN)


class Text:
    """gettext bound to one language, with Flask-Babel's ``%(name)s`` formatting."""

    def __init__(self, locale: str = DEFAULT) -> None:
        self.locale = locale if locale in LOCALES else DEFAULT
        self._catalog = catalog(self.locale)

    def gettext(self, message: str, **values: object) -> str:
        text = self._catalog.gettext(message)
        return text % values if values else text

    def ngettext(self, singular: str, plural: str, num: int, **values: object) -> str:
        values.setdefault("num", num)
        return self._catalog.ngettext(singular, plural, num) % values

    def number(self, value: int) -> str:
        """A chip count as this language writes it (Babel's grouping for the locale)."""
        return _number(value, babel_name(self.locale))


def _number(value: int, babel_locale: str) -> str:
    if type(value) is int and _grouped_by_three(babel_locale):
        return f"{value:,}"
    return _formatted(value, babel_locale)


# Formatting goes through Babel's locale data; the same few amounts come up
# again and again while grading, so the strings are kept.
@lru_cache(maxsize=8192)
def _formatted(value: int, babel_locale: str) -> str:
    return format_decimal(value, locale=babel_locale)


@lru_cache(maxsize=None)
def _grouped_by_three(babel_locale: str) -> bool:
    """Whether Babel writes this locale's whole numbers as Python's ``f"{n:,}"`` does (ASCII digits,
    a comma every three): then that is the quicker way to the same text. Every amount a class types
    is new, and Babel's formatting was a tenth of grading one (its cache above does not help them)."""
    samples = (0, 7, 999, 1000, 29689, -1234567, 10**15 + 1)
    return all(format_decimal(n, locale=babel_locale) == f"{n:,}" for n in samples)


@lru_cache(maxsize=None)
def text(locale: str) -> Text:
    return Text(locale)
