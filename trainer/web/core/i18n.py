"""Which language a request is answered in, and how a learner changes it.

In order: ``?lang=`` in the URL (the language switcher's links), then the
``lang`` cookie that such a link leaves behind, then the browser's
``Accept-Language``, then the ``LOCALE`` setting. The languages are
``en``, ``zh-Hant`` and ``zh-Hans``; Flask-Babel gets their Babel names
(``zh_Hant``), which are also the catalog folders' names.

``Accept-Language`` is read with an explicit map rather than Werkzeug's
``best_match``: a browser in Taipei sends ``zh-TW`` and one in Shanghai
``zh-CN``, and neither tag names a script, so plain matching against
``zh-Hant``/``zh-Hans`` cannot tell them apart.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timezone
from urllib.parse import quote, urlencode

import flask_babel
from flask import Flask, Response, current_app, g, has_request_context, request
from markupsafe import Markup

from trainer.translations import AUTONYMS, DEFAULT, FOLDER, LOCALES, babel_name, tag
from trainer.web.core import proxy

COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600
# Query arguments a page reads; the switcher's links keep them, and only in a
# form that could name a topic or a level: whatever else the address carries
# is not echoed back. A page kept for every learner passes its own, validated
# values (drill._pieces).
KEPT_ARGS = ("topic", "level", "step")
_KEPT_VALUE = {"topic": re.compile(r"[a-z0-9][a-z0-9-]{0,63}"), "level": re.compile(r"[1-5]"), "step": re.compile(r"[2-9]")}
_MAX_PREFERENCES = 32  # a real browser sends a handful

# A language tag as BCP 47 spells it: letters, then subtags of letters and digits.
_TAG = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*")
# Regions whose Chinese is written in Traditional characters.
_TRADITIONAL_REGIONS = frozenset({"tw", "hk", "mo"})


def locale_for(value: str | None) -> str | None:
    """A language tag -> ``en``, ``zh-Hant``, ``zh-Hans``, or None when we do not have it.

    A script subtag decides (``zh-Hant-HK``, ``zh-Hans-TW``); otherwise
    Taiwan, Hong Kong and Macau read Traditional, and bare ``zh``, ``zh-CN``,
    ``zh-SG`` and any other region read Simplified.

    >>> [locale_for(t) for t in ("zh-TW", "zh-hk", "zh_MO", "zh-Hant", "zh-CN", "zh", "zh-Hans-HK", "en-GB", "fr")]
    ['zh-Hant', 'zh-Hant', 'zh-Hant', 'zh-Hant', 'zh-Hans', 'zh-Hans', 'zh-Hans', 'en', None]
    """
    value = (value or "").strip().replace("_", "-")
    if not _TAG.fullmatch(value):
        return None
    subtags = value.lower().split("-")
    if subtags[0] == "en":
        return "en"
    if subtags[0] != "zh":
        return None
    rest = set(subtags[1:])
    if "hant" in rest:
        return "zh-Hant"
    if "hans" in rest:
        return "zh-Hans"
    if rest & _TRADITIONAL_REGIONS:
        return "zh-Hant"
    return "zh-Hans"


def from_accept_language(header: str | None) -> str | None:
    """The first language we have among the browser's, in order of preference.

    Higher ``q`` first; equal ``q`` keeps the header's order; ``q=0`` and
    ``*`` name nothing.

    >>> from_accept_language("fr-FR, zh-TW;q=0.8, en;q=0.5")
    'zh-Hant'
    >>> from_accept_language("en;q=0.4, zh-CN;q=0.9")
    'zh-Hans'
    """
    if not header:
        return None
    preferences = []
    for order, part in enumerate(header.split(",")[:_MAX_PREFERENCES]):
        name, _, params = part.partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        name = name.strip()
        if name and name != "*" and 0 < quality <= 1:
            preferences.append((-quality, order, name))
    for _, _, name in sorted(preferences):
        locale = locale_for(name)
        if locale is not None:
            return locale
    return None


def select() -> str:
    """The request's language (for Flask-Babel, which asks once per request)."""
    chosen = (
        locale_for(request.args.get("lang"))
        or locale_for(request.cookies.get(COOKIE))
        or from_accept_language(request.headers.get("Accept-Language"))
        or current_app.config["LOCALE"]
    )
    return babel_name(chosen)


def current() -> str:
    """``en``, ``zh-Hant`` or ``zh-Hans``: the language of this request (the default outside one).

    Asked several times per request (the library, each cache key), so kept in ``g``:
    Flask-Babel's own lookup costs more than the rest of a cached drill page."""
    try:
        return g._trainer_lang
    except (AttributeError, RuntimeError):  # not asked yet in this request, or no app context at all
        pass
    if not has_request_context():
        return tag(flask_babel.get_locale() or DEFAULT)
    # The same choice Flask-Babel makes (``select`` is its selector), without the ``babel.Locale``
    # it builds from it: a kept page needs only the name.
    lang = g._trainer_lang = tag(select())
    return lang


def translations() -> flask_babel.support.Translations:
    """This request's catalog, looked up once: templates ask for a translation a dozen times a page,
    and Flask-Babel finds the catalog again for each (its context, its locale, its cache)."""
    if not has_request_context():
        return flask_babel.get_translations()
    found = g.get("_trainer_translations")
    if found is None:
        found = g._trainer_translations = flask_babel.get_translations()
    return found


def kept_args(args: Mapping[str, str | None] | None = None) -> list[tuple[str, str]]:
    """The ``topic`` and ``level`` a link to this page keeps: of ``args`` (a view's validated
    values) or else of the request's query, only values that could name one."""
    if args is None:
        args = {key: request.args.get(key) for key in KEPT_ARGS}
    return [(key, value) for key, value in args.items() if value and _KEPT_VALUE[key].fullmatch(value)]


def language_links(path: str | None = None, args: Mapping[str, str | None] | None = None) -> list[dict[str, object]]:
    """The switcher: each language with a link to this page in it.

    A view whose page is kept for every learner passes the ``path`` and ``args``
    it validated; otherwise the request's own are used, and of its query only a
    ``topic`` or ``level`` that could name one."""
    here = current()
    if path is None:
        path = quote(request.script_root + request.path, safe="/")
    kept = kept_args(args)
    return [
        {
            "code": code,
            "name": AUTONYMS[code],
            "url": f"{path}?{urlencode([*kept, ('lang', code)])}",
            "current": code == here,
        }
        for code in LOCALES
    ]


_ASKED = re.compile(r"([?？])\s*[:：]\s*")


def after_question(sentence: str) -> str:
    """A sentence that puts a colon after a field's label, for a label that asks ("是否已經行動？"):
    the question mark, then the answer, without the colon ("？：否" → "？ 否")."""
    fixed = _ASKED.sub(r"\1 ", str(sentence))
    return Markup(fixed) if isinstance(sentence, Markup) else fixed


def before_value(label: str) -> str:
    """A label ("Pot:", "底池：") and the space before the value it introduces: none after a
    full-width colon or question mark, which carries its own ("底池：1,400", not "底池： 1,400")."""
    text = str(label)
    gap = "" if text.endswith(("：", "？", "）")) else " "
    return Markup(f"{label}{gap}") if isinstance(label, Markup) else f"{text}{gap}"


def when(at: datetime) -> str:
    """A moment in the page's language, in UTC with the offset written out: the server does not
    know the reader's zone. ``moment`` wraps it for the browser to rewrite in the reader's zone."""
    return f"{flask_babel.format_datetime(_utc(at), 'medium', rebase=False)} UTC+00:00"


def _utc(at: datetime) -> datetime:
    # SQLite gives back naive datetimes: every moment the app stores is UTC.
    return at.replace(tzinfo=timezone.utc) if at.tzinfo is None else at.astimezone(timezone.utc)


def moment(at: datetime | None, part: str = "datetime") -> Markup:
    """``<time>`` for a stored moment: the UTC text for a page read without JavaScript, rewritten
    by static/local-time.js in the reader's own zone and language (``part``: "datetime", or "time"
    for a clock time such as an exam's deadline)."""
    if at is None:
        return Markup("")
    utc = _utc(at)
    text = when(utc) if part == "datetime" else f"{flask_babel.format_time(utc, 'medium', rebase=False)} UTC"
    return Markup('<time datetime="{}" data-local="{}">{}</time>').format(
        utc.strftime("%Y-%m-%dT%H:%M:%SZ"), part, text
    )


def remember(response: Response) -> Response:
    """Keep a language picked with ``?lang=``, and say what the page depends on."""
    picked = locale_for(request.args.get("lang"))
    if picked is not None and picked != request.cookies.get(COOKIE):
        response.set_cookie(
            COOKIE,
            picked,
            max_age=COOKIE_AGE,
            httponly=True,
            samesite="Lax",
            secure=proxy.secure_cookies(),
        )
    headers = response.headers
    if headers.get("Content-Type", "").startswith("text/html"):
        # The same URL is English, Traditional or Simplified depending on these.
        vary(headers, "Cookie", "Accept-Language")
        headers.setdefault("Content-Language", current())
    return response


def vary(headers, *names: str) -> None:
    """Add ``names`` to the ``Vary`` header, once each. The header as text: werkzeug's
    ``response.vary`` parses it into a set and writes it back on each change, which cost every page
    more than the rest of this hook."""
    current = headers.get("Vary")
    if not current:
        headers["Vary"] = ", ".join(names)
        return
    have = {part.strip().lower() for part in current.split(",")}
    extra = [name for name in names if name.lower() not in have]
    if extra:
        headers["Vary"] = ", ".join((current, *extra))


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(FOLDER))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", babel_name(app.config["LOCALE"]))
    flask_babel.Babel(app, locale_selector=select)
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
    )
    app.after_request(remember)
    app.jinja_env.filters["moment"] = moment

    @app.context_processor
    def language() -> dict[str, object]:
        return {"lang": current(), "languages": language_links()}
