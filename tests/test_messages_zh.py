"""Chinese templates (messages_zh) and rule texts (rules_zh) must follow the English ones.

Every message ID in ``EN`` needs a zh-Hant and a zh-Hans template with exactly the
same placeholders; every rule in ``RULES`` needs both Chinese texts with the same
number of worked examples. The two scripts must not leak into each other, and real
derivations must render with no English left in them.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from pathlib import Path

import pytest

from trainer.engine import Action, ActionKind, Game, GameType, Hand, IllegalActionError, Message, Street
from trainer.engine.messages import EN
from trainer.engine.messages_zh import ZH_HANS, ZH_HANT
from trainer.engine.rules import RULES
from trainer.engine.rules_zh import RULE_TEXT

LOCALES = {"zh-Hant": ZH_HANT, "zh-Hans": ZH_HANS}

# Characters that exist in only one script (in the sense these texts use them).
TRADITIONAL_ONLY = set(
    "過們說這註額補蓋盤後與無個對將時輪開為從還動籌碼總邊資爭攤頭錢莊順選約單兩沒贏棄讓應該結數會給裡裏於麼當稱層處"
)
SIMPLIFIED_ONLY = set(
    "过们说这额补盖与无个对将时轮开为从还动筹码总边资争摊头钱庄顺选约单两没赢弃让应该结数会给于么当称层处"
)
# Left out on purpose: 注 (both scripts; 注额 is caught by 额), 后 and 里 (both occur in
# Traditional text too: 皇后, 公里).

# Rule IDs and rulebook citations stay in Latin letters: "TDA24 54-B", "WSOP-T 90.b.1".
CITATION = re.compile(
    r"(?<![A-Za-z0-9-])(?:R-[A-Z]+|TDA24(?: [0-9A-Z.-]+)?|WSOP-(?:T|LA)(?: [0-9a-z.]+)?|RRoP|PokerKit)"
)


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def without_fields(template: str) -> str:
    return re.sub(r"\{[^{}]*\}", " ", template)


def numbers(text: str) -> Counter[str]:
    return Counter(re.findall(r"\d+(?:[.,]\d+)*", text) + re.findall(r"[①②③④]", text))


def dummy(template: str) -> dict[str, object]:
    return {name: 123 for name in fields(template)}


def script_errors(text: str, locale: str) -> set[str]:
    return set(text) & (TRADITIONAL_ONLY if locale == "zh-Hans" else SIMPLIFIED_ONLY)


# ------------------------------------------------------------------ messages


def test_script_lists_are_disjoint():
    assert not TRADITIONAL_ONLY & SIMPLIFIED_ONLY


@pytest.mark.parametrize("locale", LOCALES)
def test_every_english_key_has_a_template(locale):
    templates = LOCALES[locale]
    assert sorted(set(EN) - set(templates)) == [], "missing"
    assert sorted(set(templates) - set(EN)) == [], "not in EN"


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("key", sorted(EN))
def test_same_placeholders(locale, key):
    template = LOCALES[locale].get(key)
    assert template is not None, f"{locale} lacks {key}"
    assert fields(template) == fields(EN[key])
    # plain names only: no conversions or format specs the English does not have
    for _, name, spec, conversion in string.Formatter().parse(template):
        if name is not None:
            assert not spec and not conversion, (key, name)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("key", sorted(EN))
def test_renders_with_dummy_params(locale, key):
    templates = LOCALES[locale]
    text = Message(key, dummy(EN[key])).render(templates)
    assert text.strip()
    assert "{" not in text and "}" not in text


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("key", sorted(EN))
def test_right_script_and_no_english(locale, key):
    template = LOCALES[locale][key]
    assert not script_errors(template, locale), f"{key}: {sorted(script_errors(template, locale))}"
    latin = re.findall(r"[A-Za-z]+", CITATION.sub(" ", without_fields(template)))
    assert not latin, f"{key}: {latin}"
    assert not re.search(r"[,:;!?]", template), f"{key}: use full-width punctuation"


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("key", sorted(EN))
def test_same_literal_numbers(locale, key):
    assert numbers(without_fields(LOCALES[locale][key])) == numbers(without_fields(EN[key]))


@pytest.mark.parametrize("locale", LOCALES)
def test_error_clauses_have_no_full_stop(locale):
    """``IllegalActionError`` strips a trailing '.' and adds the rule after the clause."""
    for key, template in LOCALES[locale].items():
        if key.startswith("err.") and key != "err.sentence":
            assert not template.endswith(("。", ".")), key


def test_glossary_terms():
    assert (ZH_HANT["term.check"], ZH_HANS["term.check"]) == ("過牌", "让牌")
    assert (ZH_HANT["term.fold"], ZH_HANS["term.fold"]) == ("蓋牌", "弃牌")
    assert (ZH_HANT["term.flop"], ZH_HANS["term.flop"]) == ("翻牌圈", "翻牌圈")
    assert "全下" in ZH_HANT["cur.allin"] and "全押" in ZH_HANS["cur.allin"]
    assert "加到" in ZH_HANT["cur.raise"] and "加注到" in ZH_HANS["cur.raise"]
    assert "增額" in ZH_HANT["inc.raise"] and "增量" in ZH_HANS["inc.raise"]
    assert "需再補" in ZH_HANT["add.formula"] and "需再补" in ZH_HANS["add.formula"]
    assert ZH_HANT["inc.raise"] == "{pos} 加到 {to}，增額 {amount}：最後有效完整增額是 {amount}。"


def test_lists_join_in_chinese():
    choices = (Message("choice.fold"), Message("choice.call", {"amount": 200}))
    assert Message("legal", {"pos": "SB", "choices": choices}).render(ZH_HANT) == "SB 可以蓋牌或跟注 200"
    assert Message("legal", {"pos": "SB", "choices": choices}).render(ZH_HANS) == "SB 可以弃牌或跟注 200"
    three = choices + (Message("choice.raise", {"min": 400, "max": 1000}),)
    assert Message("legal", {"pos": "SB", "choices": three}).render(ZH_HANT).endswith("，或加到 400–1000")
    pot = Message("res.main", {"amount": 900, "players": ["A", "B", "C"]})
    assert pot.render(ZH_HANT).endswith("C 有資格爭。") and " 與 C" in pot.render(ZH_HANT)
    assert " 和 C" in pot.render(ZH_HANS)


# ---------------------------------------------------------------- derivations

LOWER_LATIN = re.compile(r"[a-z]")


def render_all(steps, locale):
    texts = [step.render(LOCALES[locale]) for step in steps]
    for text in texts:
        assert "{" not in text and "}" not in text, text
        assert not LOWER_LATIN.search(text), text  # no "raise", "all-in", "call", ...
        assert not script_errors(text, locale), text
    return texts


def seed_003_turn() -> Hand:
    """Seed 003: turn, 100/200, SB/BB/BTN 10000, CO 1400, pot 600; SB bets 1000, BB calls, CO all-in."""
    hand = Hand(
        game=Game(type=GameType.NO_LIMIT, blinds=(100, 200)),
        stacks={"SB": 10000, "BB": 10000, "CO": 1400, "BTN": 10000},
        start=Street.TURN,
        pot=600,
    )
    hand.apply(Action(position="SB", kind=ActionKind.BET, amount=1000))
    hand.apply(Action(position="BB", kind=ActionKind.CALL))
    hand.apply(Action(position="CO", kind=ActionKind.ALLIN))
    return hand


def test_seed_003_derivation_renders_in_both_scripts():
    hand = seed_003_turn()
    assert hand.to_act == "BTN"
    hant = " ".join(render_all(hand.derivation(), "zh-Hant"))
    hans = " ".join(render_all(hand.derivation(), "zh-Hans"))
    assert "CO 全下到 1400，增額只有 400，不到完整的 1000" in hant
    assert "CO 全押到 1400，增量只有 400，不到完整的 1000" in hans
    assert "加到 ① + ② = 1400 + 1000 = 2400" in hant
    assert "加注到 ① + ② = 1400 + 1000 = 2400" in hans

    hand.apply(Action(position="BTN", kind=ActionKind.CALL))
    assert hand.to_act == "SB"
    hant = " ".join(render_all(hand.derivation(), "zh-Hant"))
    hans = " ".join(render_all(hand.derivation(), "zh-Hans"))
    assert "需再補 = 本輪目前總額 − 本輪已投入 = 1400 − 1000 = 400" in hant
    assert "只能跟注或蓋牌（R-REOPEN）。" in hant
    assert "只能跟注或弃牌" in hans


def test_illegal_action_reason_and_choices_render():
    hand = seed_003_turn()
    hand.apply(Action(position="BTN", kind=ActionKind.CALL))
    with pytest.raises(IllegalActionError) as caught:
        hand.apply(Action(position="SB", kind=ActionKind.CHECK))
    error = caught.value
    for locale, templates in LOCALES.items():
        text = error.reason.render(templates) + error.legal.render(templates)
        assert not LOWER_LATIN.search(text) and "{" not in text
        assert not script_errors(text, locale)
    assert error.legal.render(ZH_HANT) == "SB 可以蓋牌或跟注 400"


def _scenario_hands():
    from trainer.scenarios import load_paths

    here = Path(__file__).resolve().parent
    folders = [str(f) for f in (here / "scenarios", here.parent / "scenarios") if f.is_dir()]
    return [(sc.id, sc.hand()) for sc in load_paths(folders).scenarios]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_sample_scenario_derivation_renders(locale):
    hands = _scenario_hands()
    assert hands
    for _, hand in hands:
        render_all(hand.derivation(), locale)


def test_side_pots_and_splits_render():
    hand = Hand(
        game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        stacks={"SB": 300, "BB": 300, "BTN": 100},
        start=Street.RIVER,
        pot=0,
    )
    hand.apply(Action(position="SB", kind=ActionKind.BET, amount=300))
    hand.apply(Action(position="BB", kind=ActionKind.CALL))
    hand.apply(Action(position="BTN", kind=ActionKind.CALL))
    assert hand.betting_over
    _, split_steps = hand.split([["SB", "BTN"], ["SB", "BB"]], chip=25)
    for locale in LOCALES:
        texts = render_all(list(hand.derivation()) + list(split_steps), locale)
        assert any("邊池 1" in t or "边池 1" in t for t in texts)


# ------------------------------------------------------------------- rule table


def test_every_rule_has_both_texts():
    assert list(RULE_TEXT) == list(RULES)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("rule_id", list(RULES))
def test_rule_text(locale, rule_id):
    rule = RULES[rule_id]
    entry = RULE_TEXT[rule_id][locale]
    assert set(entry) == {"title", "statement", "examples"}
    assert isinstance(entry["title"], str) and entry["title"].strip()
    assert isinstance(entry["statement"], str) and entry["statement"].strip()
    examples = entry["examples"]
    assert isinstance(examples, tuple) and all(isinstance(e, str) and e.strip() for e in examples)
    assert len(examples) == len(rule.examples)
    for text in (entry["title"], entry["statement"], *examples):
        assert not script_errors(text, locale), (rule_id, sorted(script_errors(text, locale)))


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("rule_id", list(RULES))
def test_rule_numbers_and_citations_kept(locale, rule_id):
    rule = RULES[rule_id]
    entry = RULE_TEXT[rule_id][locale]
    pairs = [(rule.statement, entry["statement"]), *zip(rule.examples, entry["examples"])]
    for english, chinese in pairs:
        assert numbers(chinese) == numbers(english), (english, chinese)
        assert Counter(CITATION.findall(chinese)) == Counter(CITATION.findall(english)), (english, chinese)
