"""A learner switches the language with the switcher and does the whole drill in Chinese."""

from __future__ import annotations

import pytest

from trainer.scenarios import load_file
from trainer.translations.engine import engine_templates

from tests.e2e.conftest import SCENARIOS
from tests.e2e.test_drill_browser import DRILL, RIGHT, fill, focus_moves_to

pytestmark = pytest.mark.e2e

WRONG = {**RIGHT, "min_to": "1800"}  # step 2 (the options), after a right card
SPOT = SCENARIOS / "reopen" / "btn-faces-short-all-in.yaml"

# What each language shows, word for word (glossary: 過牌/让牌, 蓋牌/弃牌, 加到/加注到).
EXPECTED = {
    "zh-Hant": {
        "link": "繁體中文",
        "button": "檢查答案",
        "card": "四欄判讀卡",
        "legal": ["蓋牌", "過牌", "跟注", "下注", "加注"],
        "to": "加到",
        "to_act": "輪到行動",
        "heading": "✗ 5 項中答對 4 項",
        "status": "5 項中答對 4 項。",
        "wrong": "錯誤——正確答案：2,400",
        "steps": "推算過程",
        "font": "PingFang TC",
        "templates": engine_templates("zh-Hant"),
    },
    "zh-Hans": {
        "link": "简体中文",
        "button": "检查答案",
        "card": "四栏判读卡",
        "legal": ["弃牌", "让牌", "跟注", "下注", "加注"],
        "to": "加注到",
        "to_act": "轮到行动",
        "heading": "✗ 5 项中答对 4 项",
        "status": "5 项中答对 4 项。",
        "wrong": "错误——正确答案：2,400",
        "steps": "推算过程",
        "font": "PingFang SC",
        "templates": engine_templates("zh-Hans"),
    },
}


def switch_to(page, lang: str) -> None:
    with page.expect_navigation():
        page.click(f"nav.language-switch a[lang={lang}]")
    assert page.get_attribute("html", "lang") == lang


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_switch_language_then_drill_feedback_and_derivation_are_in_chinese(page, base_url, artifacts, lang):
    want = EXPECTED[lang]
    page.goto(base_url + DRILL)
    assert page.get_attribute("html", "lang") == "en"
    assert page.locator("button[type=submit]").inner_text() == "Check my answer"

    switch_to(page, lang)
    assert page.locator("nav.language-switch a[aria-current]").inner_text() == want["link"]
    # the drill: labels, the action words of the check boxes, the history's "to" column, the table drawing
    assert page.locator("button[type=submit]").inner_text() == want["button"]
    assert page.locator("#q-card-h").inner_text() == want["card"]
    assert want["to"] in page.locator("table.history thead").text_content()
    assert page.locator("svg.table-svg--wide .seat-tag").text_content().strip() == "▲ " + want["to_act"]
    # the page's language picks the Chinese fonts of its script (from the machine, nothing downloaded)
    assert want["font"] in page.evaluate("getComputedStyle(document.body).fontFamily")

    page.evaluate("window.__sameDocument = true")
    fill(page, RIGHT)  # step 1, the card, right: step 2 comes in
    page.click("button[type=submit]")
    page.wait_for_selector("#stage-done")
    labels = [label.inner_text().strip() for label in page.locator(".field--choices .choice").all()]
    assert labels == want["legal"]
    fill(page, WRONG)
    page.click("button[type=submit]")
    page.wait_for_selector("#feedback")
    assert page.evaluate("window.__sameDocument === true"), "the htmx swap reloaded the page"
    # a first miss gets hints, not the right values; the worked answer comes on request
    assert page.locator("ol.steps").count() == 0 and page.locator(".hint-rule").count() >= 1
    page.click("button[name=reveal]")
    page.wait_for_selector("ol.steps")

    # the feedback
    assert page.locator("#feedback-h").inner_text().strip() == want["heading"]
    assert want["wrong"] in page.locator("#f-min_to-mark").inner_text()
    focus_moves_to(page, "feedback-h")
    assert page.locator("#status").inner_text() == want["status"]
    # the derivation: the engine's own steps in this script, with their rule links
    assert page.locator("#feedback h3", has_text=want["steps"]).count() == 1
    steps = [li.inner_text() for li in page.locator("ol.steps li").all()]
    expected = [step.message.render(want["templates"]) for step in load_file(SPOT).hand().derivation()]
    assert len(steps) == len(expected)
    for shown, text in zip(steps, expected):
        assert shown.startswith(text)
    assert page.locator("a.rule-link", has_text="R-SHORTALLIN").count() >= 1
    page.screenshot(path=str(artifacts / f"graded-drill-{lang}.png"), full_page=True, caret="initial")

    # the choice is remembered: the next page opened without ?lang= is still in this language
    with page.expect_navigation():
        page.click("header.site-header a[href='/rules']")
    assert page.url.endswith("/rules")
    assert page.get_attribute("html", "lang") == lang


def test_switching_back_to_english(page, base_url):
    page.goto(base_url + DRILL + "?lang=zh-Hans")
    assert page.get_attribute("html", "lang") == "zh-Hans"
    switch_to(page, "en")
    assert page.locator("button[type=submit]").inner_text() == "Check my answer"
    page.goto(base_url + "/")
    assert page.get_attribute("html", "lang") == "en"
