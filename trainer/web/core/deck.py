"""The deck's colours: the usual two (red hearts and diamonds, black clubs and spades) or a
four-colour deck (green clubs, blue diamonds), which tells a flush from a near-flush at a glance.

Picked with ``?deck=four`` or ``?deck=two`` on any page and remembered in a cookie, as the
language is. The cards' markup carries its suit either way (``card--suit-d``); the page's
``<body>`` class picks the colours, so the drawn spots stay the same markup for everyone and
only a kept page depends on the choice (its cache key names it). The suits keep their symbols
and their names (``title``, the seat table), so no card is told by its colour alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import urlencode

from flask import Flask, Response, g, has_request_context, request
from markupsafe import Markup, escape

from trainer.web.core import i18n, proxy

COOKIE = "deck"
COOKIE_AGE = 365 * 24 * 3600
DECKS = ("two", "four")
DEFAULT = "two"

# A card as the quiz writes it in words and choices: "K♦", "10♥".
_CARD = re.compile(r"(?<![\w♣♦♥♠])(10|[2-9JQKA])([♣♦♥♠])")
_SUIT_CODES = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}


def _picked() -> str | None:
    value = request.args.get("deck")
    return value if value in DECKS else None


def current() -> str:
    """``two`` or ``four``: this request's deck (the default outside a request)."""
    if not has_request_context():
        return DEFAULT
    found = g.get("_trainer_deck")
    if found is None:
        cookie = request.cookies.get(COOKIE)
        found = g._trainer_deck = _picked() or (cookie if cookie in DECKS else DEFAULT)
    return found


def links(args: Mapping[str, str | None] | None = None) -> list[dict[str, object]]:
    """The switch: each deck with a link to this page with it. The link is relative (``?deck=four``),
    so a page kept for everyone never carries the address one visitor spelt it with; a page a
    form posted to links to the home page instead, which can always be fetched.

    The link keeps the page's ``topic`` or ``level``, as the language links do (Next follows the
    topic): a view whose page is kept for every learner passes the ``args`` it validated and
    named in the page's key; otherwise the request's are read, only a value that could name one."""
    base = "" if request.method == "GET" else request.script_root + "/"
    kept = i18n.kept_args(args) if base == "" else []
    return [{"code": code, "url": f"{base}?{urlencode([*kept, ('deck', code)])}", "current": code == current()}
            for code in DECKS]


def remember(response: Response) -> Response:
    picked = _picked()
    if picked is not None and picked != request.cookies.get(COOKIE):
        response.set_cookie(COOKIE, picked, max_age=COOKIE_AGE, httponly=True, samesite="Lax",
                            secure=proxy.secure_cookies())
    return response


def suits(text: str) -> Markup:
    """``text`` with each card in it marked with its suit, so that the page's deck colours it as the
    table draws it: "K♦" in a hand-reading choice or a question is red (blue in a four-colour deck).

    >>> str(suits("BB holds K♦ Q♣."))
    'BB holds <span class="card-text card-text--red card-text--suit-d">K♦</span> <span class="card-text card-text--suit-c">Q♣</span>.'
    """

    def mark(match: re.Match[str]) -> str:
        suit = _SUIT_CODES[match.group(2)]
        red = " card-text--red" if suit in "dh" else ""
        return f'<span class="card-text{red} card-text--suit-{suit}">{match.group(0)}</span>'

    return Markup(_CARD.sub(mark, str(escape(text))))


def init_app(app: Flask) -> None:
    app.after_request(remember)
    app.jinja_env.filters["suits"] = suits

    @app.context_processor
    def deck() -> dict[str, object]:
        return {"deck": current(), "decks": links()}
