"""One vocabulary: every Chinese text a learner can read follows docs/glossary.md for its script.

Checked over every catalog (the ``messages`` and ``engine`` domains), the
scenario library's titles and explanations, the topic names, and what the
engine and the generator render (``tests/engine_texts.py``): the word the
glossary gives for each script, and full-width punctuation.
"""

from __future__ import annotations

import html as entities
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from trainer.scenarios import load_paths
from trainer.topics import TOPICS
from trainer.translations import FOLDER

from tests.engine_texts import collect

REPO = Path(__file__).resolve().parent.parent
CHINESE = {"zh-Hant": "zh_Hant", "zh-Hans": "zh_Hans"}

# A word a script must not use -> the glossary's word for it in that script.
FORBIDDEN = {
    "zh-Hant": {
        "全押": "全下",  # all-in
        "讓牌": "過牌",  # check
        "加注到": "加到",  # raise to
        "增量": "增額",  # increment
    },
    "zh-Hans": {
        "全押": "全下",  # all-in: 全下 in both scripts, as the Simplified seed article (001) writes it
        "盖牌": "弃牌",  # fold
        "蓋牌": "弃牌",
        "放盲注": "下盲注",  # post a blind, as the action list says it (下大盲)
    },
}

CJK = r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef①②③④]"
HALF_WIDTH = re.compile(rf"(?<={CJK})\s*[,:;!?()]|[,:;!?()]\s*(?={CJK})")
SPACE_AFTER_STOP = re.compile(r"[。；：，！？] +(?=\S)")
# A label that asks takes no colon after its question mark (是否已經行動？：否).
SPACE_AFTER_COLON = re.compile(r"： +(?=\S)")
COLON_AFTER_QUESTION = re.compile(r"[？?]\s*[：:]")
# Inline markup joins the text around it; anything else separates lines.
_INLINE = re.compile(r"</?(?:a|abbr|b|code|em|i|kbd|small|span|strong|time)\b[^>]*>")
_HIDDEN = re.compile(r"<(script|style|title|svg)\b.*?</\1>", re.S)


def page_text(html: str) -> str:
    """What a reader sees of a page, roughly: its text, with inline markup run together."""
    text = _INLINE.sub("", _HIDDEN.sub("", html))
    text = re.sub(r"<[^>]+>", "\n", text)
    return "\n".join(re.sub(r"\s+", " ", line).strip() for line in entities.unescape(text).splitlines())


def punctuation_slips(html: str) -> list[str]:
    """The lines of a Chinese page whose punctuation is wrong: half-width next to Chinese, a space
    after a full-width colon (it has its own: "底池：1,400"), or ？ then ：. (A sentence and the rule
    tag after it, "。 R-ORDER", are two pieces, kept apart.)"""
    return [
        line
        for line in page_text(html).splitlines()
        if HALF_WIDTH.search(line) or SPACE_AFTER_COLON.search(line) or COLON_AFTER_QUESTION.search(line)
    ]


def catalog_texts():
    for domain in ("messages", "engine"):
        for locale, folder in CHINESE.items():
            path = FOLDER / folder / "LC_MESSAGES" / f"{domain}.po"
            with open(path, "rb") as fh:
                for message in read_po(fh, locale=folder):
                    strings = message.string if isinstance(message.string, tuple) else (message.string,)
                    for text in strings:
                        if message.id and text:
                            yield f"{domain}.po {folder} {message.context or str(message.id)[:40]}", locale, text


def scenario_texts():
    loaded = load_paths([REPO / "scenarios", REPO / "tests" / "scenarios"])
    assert loaded.scenarios
    for scenario in loaded.scenarios:
        for key, texts in (("title", scenario.title), ("explain", scenario.explain or {})):
            for locale in CHINESE:
                if texts.get(locale):
                    yield f"{Path(scenario.file).name} {key}", locale, texts[locale]


def topic_texts():
    for topic in TOPICS:
        for locale in CHINESE:
            yield f"topic {topic.name}", locale, topic.title[locale]


def rendered_texts():
    for key, text in collect():
        locale = next((loc for loc in CHINESE if f"/{loc}" in key), None)
        if locale is not None:
            yield key, locale, text


@pytest.fixture(scope="module")
def every_text():
    texts = [*catalog_texts(), *scenario_texts(), *topic_texts(), *rendered_texts()]
    assert len(texts) > 10000
    return texts


def test_every_chinese_text_uses_the_glossarys_words_for_its_script(every_text):
    wrong = [
        (where, f"{word} -> {right}", text)
        for where, locale, text in every_text
        for word, right in FORBIDDEN[locale].items()
        if word in text
    ]
    assert wrong == [], f"{len(wrong)} texts, e.g. {wrong[:5]}"


def test_every_chinese_text_uses_full_width_punctuation(every_text):
    wrong = [
        (where, text)
        for where, _, text in every_text
        if HALF_WIDTH.search(text) or SPACE_AFTER_STOP.search(text) or COLON_AFTER_QUESTION.search(text)
    ]
    assert wrong == [], f"{len(wrong)} texts, e.g. {wrong[:5]}"


def test_the_glossary_names_these_words():
    glossary = (REPO / "docs" / "glossary.md").read_text(encoding="utf-8")
    assert "| all-in | 全下 | 全下 / 全押 |" in glossary
    for words in FORBIDDEN.values():
        for right in words.values():
            assert right in glossary


# The four columns as the glossary names them in each script: the drill's field labels and the home
# page's description of the card say the same words.
CARD_COLUMNS = {
    "zh-Hant": ("四欄判讀卡", "① 本輪目前總額", "② 最後有效完整增額", "本輪已投入總額", "這一輪是否已經行動", "④ 需再補"),
    "zh-Hans": ("四栏判读卡", "① 本轮目前总额", "② 最后有效完整增量", "本轮已投入总额", "这一轮是否已经行动", "④ 需再补"),
}
HAN = re.compile(r"[\u3400-\u9fff]")


@pytest.mark.parametrize("lang", CHINESE)
def test_the_home_page_and_the_card_name_each_column_alike(lang):
    from trainer.web import create_app

    client = create_app({"TESTING": True, "SECRET_KEY": "x"}).test_client()
    home = page_text(client.get(f"/?lang={lang}").text)
    drill = page_text(client.get(f"/drill/heads-up-button-acts-first?lang={lang}").text)
    glossary = (REPO / "docs" / "glossary.md").read_text(encoding="utf-8")
    for words in CARD_COLUMNS[lang]:
        assert words in home and words in drill, words
        assert words.lstrip("①②③④ ") in glossary, words


def test_english_pages_carry_no_chinese_glosses():
    """A gloss in a script the reader may not read does not help: the English card, action list and
    home page are in English only (the language links are the way to the Chinese words)."""
    from trainer.web import create_app

    client = create_app({"TESTING": True, "SECRET_KEY": "x"}).test_client()
    for url in ("/?lang=en", "/drill/heads-up-button-acts-first?lang=en", "/drill/preflop-big-blind-acts-last?lang=en"):
        text = page_text(client.get(url).text)
        # the header's language switch names the two Chinese languages in their own scripts
        text = text.replace("繁體中文", "").replace("简体中文", "")
        assert HAN.findall(text) == [], url


# ------------------------------------------------------------- the rules page

DEVELOPER_WORDS = re.compile(r"PokerKit|\bseeds?\b|our engine|oracle|limit_cap|本引擎", re.IGNORECASE)


@pytest.mark.parametrize("lang", ["en", *CHINESE])
def test_the_rules_page_speaks_to_learners_only(lang):
    """No notes meant for developers (how PokerKit differs, which seed article an example is from);
    the rulebook citations stay."""
    from trainer.web import create_app

    html = create_app({"TESTING": True, "SECRET_KEY": "x"}).test_client().get(f"/rules?lang={lang}").text
    assert "TDA24 43-A" in html and "WSOP-T 96" in html
    assert DEVELOPER_WORDS.findall(html) == []


UNGROUPED = re.compile(r"(?<![\d,.\w-])[1-9]\d{3,}(?![\d]|[.,]\d|\w)")


def test_the_librarys_titles_and_explanations_write_amounts_as_the_form_does():
    """29,689 in every language, as the form and the engine's derivation write it."""
    loaded = load_paths([REPO / "scenarios", REPO / "tests" / "scenarios"])
    ungrouped = [
        (Path(scenario.file).name, locale, UNGROUPED.findall(text))
        for scenario in loaded.scenarios
        for texts in (scenario.title, scenario.explain or {})
        for locale, text in texts.items()
        if UNGROUPED.search(text)
    ]
    assert ungrouped == [], f"{len(ungrouped)} texts, e.g. {ungrouped[:5]}"


@pytest.mark.parametrize("lang", ["en", *CHINESE])
def test_the_rules_page_writes_amounts_as_the_form_does(lang):
    from trainer.engine.rules import RULES
    from trainer.translations.engine import rule_text

    texts = [t for rule_id in RULES for t in (rule_text(rule_id, lang).statement, *rule_text(rule_id, lang).examples)]
    assert [UNGROUPED.findall(t) for t in texts if UNGROUPED.search(t)] == []
