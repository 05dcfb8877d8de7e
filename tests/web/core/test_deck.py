"""The four-colour deck: switched with a link on every page, remembered in a cookie, drawn by CSS."""

from __future__ import annotations

import html
import re

import pytest

SPOT = "/drill/gen:hand-reading:2:3:0"  # a generated hand-reading spot: a board and hole cards


def _body(html: str) -> str:
    """The page's deck class (the body may carry a class of its page too)."""
    classes = re.search(r"<body class=\"([^\"]+)\">", html).group(1).split()
    return next(c for c in classes if c.startswith("deck-"))


def test_the_deck_is_switched_by_a_link_and_remembered_like_the_language(client):
    page = client.get(SPOT)
    assert page.status_code == 200 and _body(page.text) == "deck-two"
    link = re.search(r'<a href="([^"]*deck=four)">four-colour deck', page.text).group(1)
    assert link == "?deck=four"  # this page, whatever address it was opened by (a kept page is shared)
    switched = client.get(SPOT + link)
    assert _body(switched.text) == "deck-four"
    assert "deck=four" in switched.headers["Set-Cookie"] and "HttpOnly" in switched.headers["Set-Cookie"]
    # remembered: the next page without the parameter, and the same spot kept in the page cache
    assert _body(client.get("/").text) == "deck-four"
    again = client.get(SPOT).text
    assert _body(again) == "deck-four"
    assert re.search(r'<a href="\?deck=four" aria-current="true">', again)
    assert _body(client.get(SPOT + "?deck=two").text) == "deck-two"
    assert _body(client.get(SPOT).text) == "deck-two"


def test_a_kept_page_is_not_shown_with_another_learners_deck(app):
    one, other = app.test_client(), app.test_client()
    assert _body(one.get(SPOT + "?deck=four").text) == "deck-four"
    assert _body(other.get(SPOT).text) == "deck-two"


def test_every_card_carries_its_suit_and_keeps_its_name(client):
    page = client.get(SPOT + "?deck=four").text
    suits = re.findall(r'class="card(?: card--red)? card--suit-([cdhs])"', page)
    assert len(suits) == 10  # the five board cards, in each of the two drawings (wide and narrow)
    named = re.findall(r'card-text--suit-([cdhs])" title="(\w+) of (clubs|diamonds|hearts|spades)"', page)
    assert named and all({"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}[s] == suit for s, _r, suit in named)
    css = client.get("/static/trainer.css").text
    assert ".deck-four .card--suit-c text" in css and ".deck-four .card-text--suit-d" in css


def test_a_page_a_form_posted_to_switches_the_deck_from_the_home_page(app, client):
    from tests.web.conftest import token_from

    page = client.get("/account/login")
    refused = client.post("/account/login", data={"csrf_token": token_from(page.text), "email": "x@example.com", "password": "nope"})
    assert re.search(r'<a href="/\?deck=four">', refused.text)


def test_an_unknown_deck_is_ignored(client):
    page = client.get(SPOT + "?deck=rainbow")
    assert page.status_code == 200 and _body(page.text) == "deck-two"
    assert "deck=" not in page.headers.get("Set-Cookie", "")


@pytest.mark.parametrize(("lang", "words"), [("zh-Hant", "四色牌"), ("zh-Hans", "四色牌")])
def test_the_switch_is_in_the_learners_language(client, lang, words):
    assert words in client.get(f"/?lang={lang}").text


def test_the_switch_keeps_the_topic_so_next_walks_the_same_path(client):
    page = client.get("/drill/btn-faces-short-all-in?topic=reopening").text
    link = re.search(r'<a href="([^"]*deck=four)">four-colour deck', page).group(1)
    assert link == "?topic=reopening&amp;deck=four"
    switched = client.get("/drill/btn-faces-short-all-in" + html.unescape(link)).text
    crumbs = re.search(r'<nav class="crumbs".*?</nav>', switched, re.S).group(0)
    assert _body(switched) == "deck-four"
    assert 'href="/topics/reopening"' in crumbs and "All spots" not in crumbs
