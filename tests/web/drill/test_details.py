"""The small print of issue 31 (item 8), through the test client: card colours in pickers, amount boxes
that ask for digits, rule names on learner pages, dates as each language writes them, the drill's
folded seats and actions."""

from __future__ import annotations

import re

import pytest

from trainer.web import create_app

from tests.web.conftest import BTN_RIGHT

HANDS = "two-pair-the-fifth-card"  # a library spot that asks to read the hands: cards to pick


@pytest.fixture(scope="module")
def library_client():
    """The app on the whole scenario library (the test library has no hand-reading spot)."""
    return create_app({"TESTING": True, "SECRET_KEY": "x"}).test_client()


def choice_label(html: str, value: str) -> str:
    return re.search(rf'value="{value}"\s+type="checkbox"[^>]*>\s*(.*?)\s*</label>', html, re.S).group(1)


@pytest.mark.parametrize("deck", ["two", "four"])
def test_a_hand_reading_picker_marks_each_card_with_its_suit_for_the_decks_colours(library_client, deck):
    html = library_client.get(f"/drill/{HANDS}?deck={deck}").text
    assert f'<body class="deck-{deck}' in html
    assert choice_label(html, "Kd") == '<span class="card-text card-text--red card-text--suit-d">K♦</span>'
    assert choice_label(html, "Kh") == '<span class="card-text card-text--red card-text--suit-h">K♥</span>'
    assert choice_label(html, "Qc") == '<span class="card-text card-text--suit-c">Q♣</span>'
    prompt = re.search(r'<p class="prompt">(.*?)</p>', html, re.S).group(1)
    assert '<span class="card-text card-text--red card-text--suit-d">7♦</span>' in prompt


def test_amount_boxes_ask_for_digits_and_the_server_still_checks(client, drill):
    html = client.get("/drill/btn-faces-short-all-in").text
    box = re.search(r'<input id="f-current_total"[^>]*>', html, re.S).group(0)
    assert 'inputmode="numeric"' in box and 'pattern="[0-9０-９,，\\s]*"' in box
    answered = drill("btn-faces-short-all-in").submit({**BTN_RIGHT, "current_total": "14oo"}).text
    assert "Enter a whole number of chips, like 1400 or 1,400." in answered


def test_the_seats_and_the_action_so_far_are_behind_one_summary(client):
    html = client.get("/drill/sb-not-reopened").text
    facts = re.search(r'<details class="spot-facts" id="action-so-far">(.*?)</details>', html, re.S).group(1)
    assert "<summary" in facts and "Seats and the action so far" in facts
    assert '<table class="seats">' in facts and '<table class="history">' in facts
    assert 'class="spot-bar"' in html  # the line that stays on top once checked (CSS shows it)


def test_n_and_s_say_why_they_wait_in_the_pages_language(client):
    for lang, says in (("en", "N and S work once you have checked your answer."), ("zh-Hant", "先檢查答案，N 和 S 才能用。")):
        html = client.get(f"/drill/btn-faces-short-all-in?lang={lang}").text
        assert f'<p class="key-note notice" id="key-note" aria-live="polite" hidden>{says}</p>' in html


@pytest.mark.parametrize(("lang", "name"), [("en", "Minimum raise"), ("zh-Hant", "最小加注"), ("zh-Hans", "最小加注")])
def test_the_rules_page_lists_the_rules_by_name(client, lang, name):
    html = client.get(f"/rules?lang={lang}").text
    index = re.search(r'<nav aria-label="[^"]*" class="rule-index">(.*?)</nav>', html, re.S).group(1)
    assert f'<a href="#R-MINRAISE">{name}</a>' in index
    assert ">R-" not in index  # no bare codes
    assert re.search(rf'<h2 id="R-MINRAISE-h">{name} <span class="rule-id meta">R-MINRAISE</span></h2>', html)


def test_progress_names_each_rule(client, drill):
    drill("btn-faces-short-all-in").submit({**BTN_RIGHT, "min_to": "1800"})
    for lang, name in (("en", "A short all-in does not change ②"), ("zh-Hans", "不足额全下不改变 ②")):
        html = client.get(f"/progress/?lang={lang}").text
        rules = html.split("By rule" if lang == "en" else "按规则")[1]
        assert f'#R-SHORTALLIN">{name}</a>' in rules
        assert '">R-SHORTALLIN</a>' not in rules


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_chinese_dates_read_month_and_day(client, drill, lang):
    drill("btn-faces-short-all-in").submit(BTN_RIGHT)
    html = client.get(f"/progress/?lang={lang}").text
    labels = re.findall(r'<text class="chart-label"[^>]*>([^<]*)</text>', html)
    days = [t for t in labels if "月" in t]
    assert days and all(re.fullmatch(r"\d{1,2}月\d{1,2}日", t) for t in days), labels


def test_an_exams_card_picker_marks_each_card_with_its_suit_too(library_client):
    """Exams and classrooms draw their questions with partials/_questions.html and the same field macro."""
    from flask import render_template

    app = library_client.application
    with app.test_request_context("/?deck=two"):
        from trainer.web.core.libraries import library

        html = render_template("partials/_questions.html", quiz=library().get(HANDS).quiz, answer=None)
    assert choice_label(html, "Kd") == '<span class="card-text card-text--red card-text--suit-d">K♦</span>'
    assert '<span class="card-text card-text--red card-text--suit-h">9♥</span>' in html  # in the prompt
