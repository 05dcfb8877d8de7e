"""The engine catalogs (``engine.po``, zh_Hant and zh_Hans) must follow the English source texts.

Every message ID in ``EN`` needs a zh-Hant and a zh-Hans translation in its
catalog, not fuzzy, with exactly the same placeholders; so does every rule
text of ``RULES`` and every note and title of the spot generator. The
template (``engine.pot``) must hold what extraction finds, each catalog
exactly the template's entries, and the committed ``.mo`` what compiling the
``.po`` gives. The two scripts must not leak into each other, and real
derivations must render with no English left in them.
"""

from __future__ import annotations

import io
import re
import string
from collections import Counter
from pathlib import Path

import pytest
from babel.numbers import format_decimal
from hypothesis import given, settings
from hypothesis import strategies as st
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from trainer.engine import Action, ActionKind, Game, GameType, Hand, IllegalActionError, Message, Street
from trainer.engine.messages import EN
from trainer.engine.rules import RULES, for_learners
from trainer.generate import CARD_CHECK_EXPLAIN, CARD_EXPLAIN, RECIPES, TITLE
from trainer.translations import FOLDER, LOCALES, babel_name, text
from trainer.translations.engine import DOMAIN, engine_templates

REPO = Path(__file__).resolve().parent.parent
BABEL_NAMES = {"en": "en", "zh-Hant": "zh_Hant", "zh-Hans": "zh_Hans"}
# What the engine renders with: the compiled catalogs, as the web layer and the CLI hand them over.
LOCALES = {locale: engine_templates(locale) for locale in ("zh-Hant", "zh-Hans")}


def read_catalog(babel_name: str):
    with open(FOLDER / babel_name / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as fh:
        return read_po(fh, locale=babel_name)


def entries(catalog) -> dict[tuple[str | None, str], object]:
    return {(m.context, m.id): m for m in catalog if m.id}


PO = {locale: entries(read_catalog(BABEL_NAMES[locale])) for locale in LOCALES}


def source_texts() -> dict[tuple[str, str], str]:
    """(context, English) -> what it is, for every text the engine domain must translate."""
    found = {(mid, text): f"message {mid}" for mid, text in EN.items()}
    for rule in map(for_learners, RULES.values()):
        found[(f"{rule.id}.title", rule.title)] = f"{rule.id} title"
        found[(f"{rule.id}.statement", rule.statement)] = f"{rule.id} statement"
        for n, example in enumerate(rule.examples):
            found[(f"{rule.id}.example", example)] = f"{rule.id} example {n + 1}"
    found.update({(f"title.{when}", text): f"generated title {when}" for when, text in TITLE.items()})
    found[("explain.card", CARD_EXPLAIN)] = "generated card note"
    found[("explain.card_check", CARD_CHECK_EXPLAIN)] = "generated card note, nothing to add"
    found.update({(f"explain.{topic}", r.explain): f"generated note {topic}" for topic, r in RECIPES.items()})
    return found


def translation(locale: str, context: str, english: str) -> str:
    message = PO[locale].get((context, english))
    assert message is not None, f"{locale}: engine.po lacks {context!r} ({english[:50]!r}); run pybabel update"
    assert message.string, f"{locale}: {context!r} is not translated"
    assert not message.fuzzy, f"{locale}: {context!r} is fuzzy"
    return message.string


# Characters that exist in only one script (in the sense these texts use them).
TRADITIONAL_ONLY = set(
    "過們說這註額補蓋盤後與無個對將時輪開為從還動籌碼總邊資爭攤頭錢莊順選約單兩沒贏棄讓應該結數會給裡裏於麼當稱層處撲網"
)
SIMPLIFIED_ONLY = set(
    "过们说这额补盖与无个对将时轮开为从还动筹码总边资争摊头钱庄顺选约单两没赢弃让应该结数会给于么当称层处扑网"
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


# ------------------------------------------------------------------ the catalogs


def test_the_template_holds_what_extraction_finds():
    """Changing an English text without re-extracting fails here (docs/i18n.md has the commands)."""
    with open(REPO / "babel-engine.cfg", encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    found = {(context, message) for _, _, message, _, context in extract_from_dir(str(REPO), method_map, options_map)}
    assert found == set(source_texts())
    with open(FOLDER / f"{DOMAIN}.pot", "rb") as fh:
        template = set(entries(read_po(fh)))
    assert sorted(found - template) == [], "texts not extracted into engine.pot"
    assert sorted(template - found) == [], "engine.pot holds texts the code no longer has"


@pytest.mark.parametrize("babel_name", BABEL_NAMES.values())
def test_each_catalog_has_exactly_the_templates_entries(babel_name):
    with open(FOLDER / f"{DOMAIN}.pot", "rb") as fh:
        template = set(entries(read_po(fh)))
    ids = set(entries(read_catalog(babel_name)))
    assert sorted(template - ids) == [], f"{babel_name}: not updated from engine.pot"
    assert sorted(ids - template) == [], f"{babel_name}: entries no longer in engine.pot"


@pytest.mark.parametrize("babel_name", BABEL_NAMES.values())
def test_the_committed_mo_files_are_compiled_from_the_po_files(babel_name):
    """The .mo files are committed (as for the messages domain): they must hold what the .po says."""
    fresh = io.BytesIO()
    write_mo(fresh, read_catalog(babel_name))
    fresh.seek(0)
    with open(FOLDER / babel_name / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as fh:
        committed = read_mo(fh)
    assert {(m.id, m.context): m.string for m in committed if m.id} == {
        (m.id, m.context): m.string for m in read_mo(fresh) if m.id
    }


def test_the_english_catalog_is_empty():
    """English is the source text: a translation in en/engine.po would silently override it."""
    assert [m.context for m in read_catalog("en") if m.id and m.string] == []


@pytest.mark.parametrize("locale", LOCALES)
def test_the_renderer_gets_every_translation(locale):
    """What the engine is handed is the catalog's text for every message ID, never the English fallback."""
    assert set(LOCALES[locale]) == set(EN)
    for key in EN:
        assert LOCALES[locale][key] == translation(locale, key, EN[key]), key


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("key", sorted(EN))
def test_same_placeholders(locale, key):
    template = translation(locale, key, EN[key])
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
    template = translation(locale, key, EN[key])
    assert not script_errors(template, locale), f"{key}: {sorted(script_errors(template, locale))}"
    latin = re.findall(r"[A-Za-z]+", CITATION.sub(" ", without_fields(template)))
    assert not latin, f"{key}: {latin}"
    assert not re.search(r"[,:;!?]", template), f"{key}: use full-width punctuation"


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("key", sorted(EN))
def test_same_literal_numbers(locale, key):
    assert numbers(without_fields(translation(locale, key, EN[key]))) == numbers(without_fields(EN[key]))


@pytest.mark.parametrize("locale", LOCALES)
def test_error_clauses_have_no_full_stop(locale):
    """``IllegalActionError`` strips a trailing '.' and adds the rule after the clause."""
    for key, template in LOCALES[locale].items():
        if key.startswith("err.") and key != "err.sentence":
            assert not template.endswith(("。", ".")), key


def test_glossary_terms():
    ZH_HANT, ZH_HANS = LOCALES["zh-Hant"], LOCALES["zh-Hans"]
    assert (ZH_HANT["term.check"], ZH_HANS["term.check"]) == ("過牌", "让牌")
    assert (ZH_HANT["term.fold"], ZH_HANS["term.fold"]) == ("蓋牌", "弃牌")
    assert (ZH_HANT["term.flop"], ZH_HANS["term.flop"]) == ("翻牌圈", "翻牌圈")
    assert "全下" in ZH_HANT["cur.allin"] and "全下" in ZH_HANS["cur.allin"]
    assert "加到" in ZH_HANT["cur.raise"] and "加注到" in ZH_HANS["cur.raise"]
    assert "增額" in ZH_HANT["inc.raise"] and "增量" in ZH_HANS["inc.raise"]
    assert "需再補" in ZH_HANT["add.formula"] and "需再补" in ZH_HANS["add.formula"]
    assert ZH_HANT["inc.raise"] == "{pos} 加到 {to}，增額 {amount}：最後有效完整增額是 {amount}。"


def test_lists_join_in_chinese():
    ZH_HANT, ZH_HANS = LOCALES["zh-Hant"], LOCALES["zh-Hans"]
    choices = (Message("choice.fold"), Message("choice.call", {"amount": 200}))
    assert Message("legal", {"pos": "SB", "choices": choices}).render(ZH_HANT) == "SB 可以蓋牌或跟注 200"
    assert Message("legal", {"pos": "SB", "choices": choices}).render(ZH_HANS) == "SB 可以弃牌或跟注 200"
    three = choices + (Message("choice.raise", {"min": 400, "max": 1000}),)
    assert Message("legal", {"pos": "SB", "choices": three}).render(ZH_HANT).endswith("，或加到 400–1,000")
    pot = Message("res.main", {"amount": 900, "players": ["A", "B", "C"]})
    assert pot.render(ZH_HANT).endswith("C 有資格爭。") and " 與 C" in pot.render(ZH_HANT)
    assert " 和 C" in pot.render(ZH_HANS)


# ---------------------------------------------------------------- derivations

LOWER_LATIN = re.compile(r"[a-z]")


def render_all(steps, locale):
    texts = [step.render(LOCALES[locale]) for step in steps]
    for shown in texts:
        assert "{" not in shown and "}" not in shown, shown
        assert not LOWER_LATIN.search(shown), shown  # no "raise", "all-in", "call", ...
        assert not script_errors(shown, locale), shown
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
    assert "CO 全下到 1,400，增額只有 400，不到完整的 1,000" in hant
    assert "CO 全下到 1,400，增量只有 400，不到完整的 1,000" in hans
    assert "加到 ① + ② = 1,400 + 1,000 = 2,400" in hant
    assert "加注到 ① + ② = 1,400 + 1,000 = 2,400" in hans

    hand.apply(Action(position="BTN", kind=ActionKind.CALL))
    assert hand.to_act == "SB"
    hant = " ".join(render_all(hand.derivation(), "zh-Hant"))
    hans = " ".join(render_all(hand.derivation(), "zh-Hans"))
    assert "需再補 = 本輪目前總額 − 本輪已投入 = 1,400 − 1,000 = 400" in hant
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
    assert error.legal.render(LOCALES["zh-Hant"]) == "SB 可以蓋牌或跟注 400"


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


def _river_all_in_three_ways() -> Hand:
    """SB bets 300 on the river, BB calls, BTN calls all-in for 100: a main pot and a side pot."""
    hand = Hand(
        game=Game(type=GameType.NO_LIMIT, blinds=(50, 100)),
        stacks={"SB": 300, "BB": 300, "BTN": 100},
        start=Street.RIVER,
        pot=0,
    )
    hand.apply(Action(position="SB", kind=ActionKind.BET, amount=300))
    hand.apply(Action(position="BB", kind=ActionKind.CALL))
    hand.apply(Action(position="BTN", kind=ActionKind.CALL))
    return hand


def test_side_pots_and_splits_render():
    hand = _river_all_in_three_ways()
    assert hand.betting_over
    _, split_steps = hand.split([["SB", "BTN"], ["SB", "BB"]], chip=25)
    for locale in LOCALES:
        texts = render_all(list(hand.derivation()) + list(split_steps), locale)
        assert any("邊池 1" in t or "边池 1" in t for t in texts)


def test_a_pot_won_alone_is_not_split_and_pots_are_named_as_the_question_names_them():
    """"底池 0 由 UTG 平分" and an odd chip given to the lone winner read wrong: a pot one player
    wins goes to them, and each pot is the main pot or side pot N, as the question says."""
    hand = _river_all_in_three_ways()
    _, steps = hand.split([["SB", "BTN"], ["BB"]], chip=100)
    assert [s.message.id for s in steps] == ["res.split", "res.odd_chip", "res.single"]
    texts = {locale: render_all(steps, locale) for locale in LOCALES}
    english = [step.render() for step in steps]
    assert english[0].startswith("Main pot (300) is split between") and english[2].startswith("Side pot 1 (400) goes to BB alone")
    assert texts["zh-Hant"][0].startswith("主池（300）由") and texts["zh-Hant"][2].startswith("邊池 1（400）全歸 BB")
    assert texts["zh-Hans"][2].startswith("边池 1（400）全归 BB")


# ------------------------------------------------------------------- rule table


def rule_entry(rule, locale: str) -> dict:
    return {
        "title": translation(locale, f"{rule.id}.title", rule.title),
        "statement": translation(locale, f"{rule.id}.statement", rule.statement),
        "examples": tuple(translation(locale, f"{rule.id}.example", e) for e in rule.examples),
    }


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("rule_id", list(RULES))
def test_rule_text(locale, rule_id):
    rule = for_learners(RULES[rule_id])
    entry = rule_entry(rule, locale)
    assert entry["title"].strip() and entry["statement"].strip()
    assert len(entry["examples"]) == len(rule.examples)
    for shown in (entry["title"], entry["statement"], *entry["examples"]):
        assert shown.strip()
        assert not script_errors(shown, locale), (rule_id, sorted(script_errors(shown, locale)))


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("rule_id", list(RULES))
def test_rule_numbers_and_citations_kept(locale, rule_id):
    rule = for_learners(RULES[rule_id])
    entry = rule_entry(rule, locale)
    pairs = [(rule.statement, entry["statement"]), *zip(rule.examples, entry["examples"])]
    for english, chinese in pairs:
        assert numbers(chinese) == numbers(english), (english, chinese)
        assert Counter(CITATION.findall(chinese)) == Counter(CITATION.findall(english)), (english, chinese)


# ------------------------------------------------------------ generated spots


def generator_texts() -> dict[str, str]:
    texts = {f"title.{when}": text for when, text in TITLE.items()}
    texts["explain.card"] = CARD_EXPLAIN
    texts["explain.card_check"] = CARD_CHECK_EXPLAIN
    texts.update({f"explain.{topic}": recipe.explain for topic, recipe in RECIPES.items()})
    return texts


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("key", sorted(generator_texts()))
def test_generator_notes_are_translated_with_their_placeholders(locale, key):
    english = generator_texts()[key]
    chinese = translation(locale, key, english)
    assert fields(chinese) == fields(english), key
    assert not script_errors(chinese, locale), (key, sorted(script_errors(chinese, locale)))
    assert numbers(without_fields(chinese)) == numbers(without_fields(english)), key


def test_the_doctests_of_the_engine_domain_module_pass():
    import doctest

    import trainer.translations.engine

    result = doctest.testmod(trainer.translations.engine)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("locale", ["en", *LOCALES])
def test_explanations_write_amounts_as_the_form_does(locale):
    """The form shows 29,689; the derivation handed to the page says 29,689 too, not 29689."""
    hand = Hand(
        game=Game(type=GameType.NO_LIMIT, blinds=(100, 200)),
        stacks={"SB": 50000, "BB": 50000, "BTN": 50000},
        start=Street.FLOP,
    )
    hand.apply(Action(position="SB", kind=ActionKind.BET, amount=29689))
    text = " ".join(step.render(engine_templates(locale)) for step in hand.derivation())
    assert "29,689" in text and "29689" not in text


@given(st.integers(min_value=-(10**18), max_value=10**18))
@settings(max_examples=300, deadline=None)
def test_amounts_are_written_as_babel_writes_them_in_every_language(amount):
    """Amounts are written with Python's grouping where that is what Babel's locale data says (it
    is quicker): the text must be Babel's, in each of the three languages."""
    for locale in LOCALES:
        assert text(locale).number(amount) == format_decimal(amount, locale=babel_name(locale))
