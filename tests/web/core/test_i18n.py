"""Three languages: English, Traditional Chinese (Taiwan usage), Simplified Chinese (mainland usage).

The catalogs must be complete and compiled, the language must be chosen the
way a learner in Taipei, Shanghai or London expects, and every page must come
out in the chosen language and script: labels, feedback, the engine's
derivation and errors, the rules and the scenarios' own text.
"""

from __future__ import annotations

import doctest
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import flask_babel
import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape

import trainer.translations
import trainer.web.core.i18n
from trainer.engine.rules import RULES
from trainer.scenarios import load_paths
from trainer.translations import FOLDER
from trainer.translations.engine import engine_templates, rule_text
from trainer.web import create_app

from tests.test_messages_zh import SIMPLIFIED_ONLY, TRADITIONAL_ONLY
from tests.web.conftest import BROKEN, BTN_RIGHT, HTMX, SCENARIOS, Drill, token_from
from tests.web.core.test_samples import right_answer

REPO = Path(__file__).resolve().parents[3]
LIBRARY = REPO / "scenarios"
CHINESE = {"zh-Hant": "zh_Hant", "zh-Hans": "zh_Hans"}
TEMPLATES = {"zh-Hant": engine_templates("zh-Hant"), "zh-Hans": engine_templates("zh-Hans")}
OTHER_SCRIPT = {"zh-Hant": SIMPLIFIED_ONLY, "zh-Hans": TRADITIONAL_ONLY}
KEYWORDS = {**DEFAULT_KEYWORDS, "lazy_gettext": None, "lazy_ngettext": (1, 2)}
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%%")

# A library spot that asks the card, the options and the pot, with its right answer and a classic mistake.
SPOT = "short-big-blind-limper-pays-full"
SPOT_RIGHT = {
    "current_total": "200", "last_full_increment": "200", "committed": "0", "acted": "no", "to_add": "200",
    "legal": ["fold", "call", "raise"], "call": "200", "min_to": "400", "max_to": "5000", "pot": "420",
}
SPOT_WRONG = {**SPOT_RIGHT, "last_full_increment": "120", "min_to": "320"}  # the short blind taken as the price


def po(babel_name: str):
    with open(FOLDER / babel_name / "LC_MESSAGES" / "messages.po", "rb") as fh:
        return read_po(fh, locale=babel_name)


def pot():
    with open(FOLDER / "messages.pot", "rb") as fh:
        return read_po(fh)


def singular(msgid) -> str:
    return msgid[0] if isinstance(msgid, tuple) else msgid


def page_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


@pytest.fixture(scope="module")
def library_app(tmp_path_factory):
    """The real scenario library: every file has its title and explanation in all three languages."""
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "SCENARIO_DIRS": [str(LIBRARY)],
            "INSTANCE_DIR": str(tmp_path_factory.mktemp("instance")),
        }
    )


# ------------------------------------------------------------- the catalogs


def test_the_catalog_folders_are_the_ones_babel_resolves(app):
    """Babel looks for ``zh_Hant``/``zh_Hans`` (then ``zh``): a folder named zh_TW or zh-Hant is never read."""
    for code, name in {"en": "en", **CHINESE}.items():
        assert (FOLDER / name / "LC_MESSAGES" / "messages.po").is_file()
        assert (FOLDER / name / "LC_MESSAGES" / "messages.mo").is_file()
        with app.test_request_context(f"/?lang={code}"):
            locale = flask_babel.get_locale()
            assert (locale.language, locale.script) == (("en", None) if code == "en" else ("zh", code[3:]))
            assert str(locale) == name
    expected = {"zh-Hant": "開始練習", "zh-Hans": "开始练习", "en": "Start practising"}
    for code, words in expected.items():
        with app.test_request_context(f"/?lang={code}"):
            # the catalog is really loaded: a Chinese string comes back
            assert flask_babel.gettext("Start practising") == words
            assert flask_babel.get_translations().gettext("Next spot") != "Next spot" or code == "en"


def test_no_template_writes_an_english_label_for_screen_readers():
    """aria-label, title, alt and placeholder are read out or shown: written in English they stay English
    in Chinese (the classroom's breadcrumbs did)."""
    literal = re.compile(r'\b(aria-label|title|alt|placeholder)="[^"{]*[A-Za-z]{3,}[^"{]*"')
    found = [
        f"{path.relative_to(REPO)}:{number}: {match.group(0)}"
        for path in sorted((REPO / "templates").rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in literal.finditer(line)
    ]
    assert found == []


def test_the_template_holds_every_message_in_the_code_and_templates():
    """Adding a ``_()`` without re-extracting fails here (docs/i18n.md has the commands)."""
    with open(REPO / "babel.cfg", encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    found = {
        message
        for _, _, message, _, _ in extract_from_dir(str(REPO), method_map, options_map, keywords=KEYWORDS)
    }
    found = {singular(m) for m in found}
    template = {singular(m.id) for m in pot() if m.id}
    assert sorted(found - template) == [], "strings not extracted into messages.pot"
    assert sorted(template - found) == [], "messages.pot holds strings the code no longer has"


@pytest.mark.parametrize("babel_name", ["en", *CHINESE.values()])
def test_each_catalog_has_exactly_the_templates_messages(babel_name):
    ids = {singular(m.id) for m in po(babel_name) if m.id}
    template = {singular(m.id) for m in pot() if m.id}
    assert sorted(template - ids) == [], f"{babel_name}: not updated from messages.pot"
    assert sorted(ids - template) == [], f"{babel_name}: entries no longer in messages.pot"


@pytest.mark.parametrize("code", CHINESE)
def test_every_chinese_entry_is_translated_not_fuzzy_and_keeps_its_placeholders(code):
    catalog = po(CHINESE[code])
    untranslated, fuzzy, english = [], [], []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            untranslated.append(singular(message.id))
        if message.fuzzy:
            fuzzy.append(singular(message.id))
        # A "translation" that is still English; Latin left in a translation is
        # position names, rule and rulebook IDs, and the ids of quoted values.
        for text in strings:
            # acronyms (BTN, WSOP, CSV, UTC), setting names and command-line options may stay
            latin = re.sub(r"--[\w-]+|\b[A-Z][A-Z0-9_]+\b", " ", PLACEHOLDER.sub(" ", text))
            if re.search(r"[A-Za-z]{3,}", latin.replace("Straddle", "")):
                english.append((singular(message.id), text))
        leaked = set("".join(strings)) & OTHER_SCRIPT[code]
        assert not leaked, f"{singular(message.id)!r}: characters of the other script {sorted(leaked)}"
    assert untranslated == [], f"{len(untranslated)} untranslated in {code}"
    assert fuzzy == [], f"fuzzy entries in {code}"
    assert english == [], f"left in English in {code}"
    # python-format placeholders must match the English ones (Babel's own checkers)
    problems = [(singular(m.id), [str(e) for e in errors]) for m, errors in catalog.check()]
    assert problems == []


@pytest.mark.parametrize("babel_name", ["en", *CHINESE.values()])
def test_the_committed_mo_files_are_compiled_from_the_po_files(babel_name):
    """A fresh clone shows Chinese without a build step, so the .mo files are committed:
    they must hold exactly what compiling the .po files gives (run `pybabel compile`
    after editing). Compared message by message, so the Babel version that wrote
    them does not matter."""
    fresh = io.BytesIO()
    write_mo(fresh, po(babel_name))
    fresh.seek(0)
    with open(FOLDER / babel_name / "LC_MESSAGES" / "messages.mo", "rb") as fh:
        committed = read_mo(fh)

    def entries(catalog) -> dict:
        return {
            (_tuple(m.id), m.context): _tuple(m.string)
            for m in catalog
            if m.id
        }

    assert entries(committed) == entries(read_mo(fresh))


def _tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else value


def test_the_doctests_of_the_language_modules_pass():
    for module in (trainer.translations, trainer.web.i18n):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


# ----------------------------------------------------------- which language


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        # Taiwan, Hong Kong, Macau, and any explicit Traditional script
        ("zh-TW", "zh-Hant"),
        ("zh-HK", "zh-Hant"),
        ("zh-MO", "zh-Hant"),
        ("zh-Hant", "zh-Hant"),
        ("zh-Hant-TW", "zh-Hant"),
        ("zh-Hant-CN", "zh-Hant"),
        ("zh-tw", "zh-Hant"),
        ("zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7", "zh-Hant"),  # Chrome in Taipei
        # the mainland, Singapore, bare zh, any explicit Simplified script
        ("zh-CN", "zh-Hans"),
        ("zh-SG", "zh-Hans"),
        ("zh-Hans", "zh-Hans"),
        ("zh-Hans-HK", "zh-Hans"),
        ("zh", "zh-Hans"),
        ("zh-CN,zh;q=0.9", "zh-Hans"),  # Chrome in Shanghai
        # everything else is English
        ("en-GB,en;q=0.9", "en"),
        ("en-US", "en"),
        ("fr-FR", "en"),
        ("*", "en"),
        ("", "en"),
        # the order of preference, by q then by position
        ("fr, zh-TW;q=0.5", "zh-Hant"),
        ("en;q=0.5, zh-CN", "zh-Hans"),
        ("zh-TW;q=0.3, zh-CN;q=0.8", "zh-Hans"),
        ("zh-HK, en", "zh-Hant"),
        ("en, zh-HK", "en"),
        ("de;q=0.9, en-GB;q=0.8, zh-TW;q=0.7", "en"),
        ("zh-CN;q=0, zh-TW;q=0.1", "zh-Hant"),  # q=0 means "not this one"
        ("zh-CN;q=abc, en;q=0.2", "en"),
        (",,;q=,zh-SG", "zh-Hans"),
    ],
)
def test_accept_language_picks_the_script_by_region(client, header, lang):
    html = client.get("/", headers={"Accept-Language": header}).text
    assert page_lang(html) == lang


def test_an_explicit_choice_beats_the_browser_and_is_remembered_in_a_cookie(client):
    taipei = {"Accept-Language": "zh-TW"}
    first = client.get("/?lang=zh-Hans", headers=taipei)
    assert page_lang(first.text) == "zh-Hans"
    cookie = client.get_cookie("lang")
    assert cookie is not None and cookie.value == "zh-Hans" and cookie.http_only
    # every later page, without ?lang=, stays Simplified though the browser asks for Taiwan
    assert page_lang(client.get("/rules", headers=taipei).text) == "zh-Hans"
    # ?lang= wins over the cookie, and replaces it
    assert page_lang(client.get("/rules?lang=en", headers=taipei).text) == "en"
    assert client.get_cookie("lang").value == "en"
    assert page_lang(client.get("/", headers=taipei).text) == "en"


@pytest.mark.parametrize("value", ["xx", "", "zh-Hant<script>", "fr"])
def test_an_unknown_lang_is_ignored_and_sets_no_cookie(client, value):
    response = client.get("/", query_string={"lang": value}, headers={"Accept-Language": "zh-TW"})
    assert page_lang(response.text) == "zh-Hant"
    assert client.get_cookie("lang") is None


def test_a_tampered_cookie_is_ignored(client):
    client.set_cookie("lang", "../../etc")
    assert page_lang(client.get("/", headers={"Accept-Language": "zh-CN"}).text) == "zh-Hans"


def test_pages_say_what_their_language_depends_on(client):
    for url in ("/", "/rules", "/drill/btn-faces-short-all-in", "/no/such/page"):
        response = client.get(url, headers={"Accept-Language": "zh-TW"})
        vary = {v.strip() for v in response.headers["Vary"].split(",")}
        assert {"Cookie", "Accept-Language", "HX-Request"} <= vary, url
        assert response.headers["Content-Language"] == "zh-Hant"


def test_the_locale_setting_is_the_default_when_nothing_else_decides(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAINER_LOCALE", "zh-Hant")
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(SCENARIOS)]})
    client = app.test_client()
    assert page_lang(client.get("/").text) == "zh-Hant"
    assert page_lang(client.get("/", headers={"Accept-Language": "fr"}).text) == "zh-Hant"
    assert page_lang(client.get("/", headers={"Accept-Language": "zh-CN"}).text) == "zh-Hans"
    monkeypatch.setenv("TRAINER_LOCALE", "klingon")
    with pytest.raises(RuntimeError, match="TRAINER_LOCALE"):
        create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(SCENARIOS)]})


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.in_switch = False
        self.links: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "nav" and "language-switch" in (attrs.get("class") or ""):
            self.in_switch = True
        elif tag == "a" and self.in_switch:
            self.links.append(attrs)

    def handle_endtag(self, tag):
        if tag == "nav":
            self.in_switch = False


def switcher(html: str) -> list[dict]:
    parser = Links()
    parser.feed(html)
    return parser.links


def test_every_page_has_a_switcher_of_real_links_that_keeps_the_topic(client):
    for url in ("/", "/scenarios", "/topics/reopening?level=2", "/rules", "/problems", "/nope"):
        links = switcher(client.get(url).text)
        assert [link["lang"] for link in links] == ["en", "zh-Hant", "zh-Hans"], url
        assert [link.get("aria-current") for link in links] == ["true", None, None]
    links = switcher(client.get("/drill/btn-faces-short-all-in?topic=reopening").text)
    hant = links[1]["href"]
    assert hant == "/drill/btn-faces-short-all-in?topic=reopening&lang=zh-Hant"
    page = client.get(hant).text
    assert page_lang(page) == "zh-Hant" and "轉牌圈 BTN 面對不足額全下" in page
    assert [link.get("aria-current") for link in switcher(page)] == [None, "true", None]
    assert 'href="/topics/reopening">重新開放加注權</a>' in page
    # the level filter keeps its level when the language changes
    assert switcher(client.get("/topics/reopening?level=2").text)[2]["href"] == "/topics/reopening?level=2&lang=zh-Hans"


# ------------------------------------------------------------- what is shown


class VisibleText(HTMLParser):
    """What a reader sees or hears: text and labelling attributes, minus
    scripts and anything explicitly marked as English (the switcher's
    "English", the loader's own messages)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.parts: list[str] = []

    def skipping(self) -> bool:
        return any(skip for _, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        marked_english = tag != "html" and (attrs.get("lang") or "").startswith("en")
        skip = tag in ("script", "style") or marked_english
        if not skip and not self.skipping():
            self.parts.extend(attrs[a] for a in ("aria-label", "title", "alt", "placeholder") if attrs.get(a))
        if tag not in self.VOID:
            self.stack.append((tag, skip))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if not self.skipping():
            self.parts.append(data)


def visible(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def english_labels() -> list[str]:
    """The app's English UI, as phrases: every literal run of two words or more
    between the placeholders of the catalog's English messages, plus the
    one-word labels a reader would spot."""
    phrases = set()
    for message in pot():
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            text = re.sub(r"<[^>]+>", " ", text or "")
            for run in PLACEHOLDER.split(text):
                for phrase in re.findall(r"[A-Za-z][A-Za-z'’-]*(?:[ ,]+[A-Za-z][A-Za-z'’-]*)+", run):
                    if len(phrase) >= 6:
                        phrases.add(phrase.strip(" ,"))
    return sorted(phrases)


PHRASES = english_labels()
# One-word labels count when they are a whole piece of text (a heading, a link,
# a table cell): "Rules" in the navigation, not in a citation of Robert's Rules.
WORDS = {"Home", "Rules", "Topics", "Seat", "Behind", "Status", "Player", "Action", "Pot", "Board", "Right",
         "Wrong", "Showdown", "Amounts", "Pots", "File", "Problem", "Problems", "Sources", "Language", "button",
         "folded", "folds", "calls", "raises", "checks", "bets", "yes", "no", "none"}


# longest first, so that a phrase is reported rather than a shorter one inside it
ANY_PHRASE = re.compile(
    r"(?<![A-Za-z])(?:" + "|".join(re.escape(p) for p in sorted(PHRASES, key=len, reverse=True)) + r")(?![A-Za-z])"
)


def leftovers(html: str) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    text = " ".join(" ".join(parser.parts).split())
    nodes = {" ".join(part.split()).strip(" :：") for part in parser.parts}
    return sorted(set(ANY_PHRASE.findall(text))) + sorted(WORDS & nodes)


def test_the_leftover_check_finds_english():
    """The check below must be able to fail: the English pages are full of labels."""
    html = create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(SCENARIOS)]}).test_client().get(
        "/drill/btn-faces-short-all-in"
    ).text
    found = leftovers(html)
    assert {"Check my answer", "Your answer", "to act", "Seat", "The action so far", "Rules", "Pot"} <= set(found)


@pytest.mark.parametrize("lang", CHINESE)
def test_every_page_is_in_chinese_with_no_english_ui_left(library_app, lang):
    client = library_app.test_client()
    client.get(f"/?lang={lang}")  # pick the language once, as with the switcher
    pages = {
        "home": client.get("/"),
        "topic": client.get("/topics/short-blind?level=2"),
        "all spots": client.get("/scenarios"),
        "bad level": client.get("/topics/short-blind?level=9"),
        "drill": client.get(f"/drill/{SPOT}?topic=short-blind"),
        "rules": client.get("/rules"),
        "problems": client.get("/problems"),
        "404": client.get("/drill/no-such-spot"),
        "404 page": client.get("/no/such/page"),
        "405": client.delete("/rules"),
    }
    drill = Drill(client, SPOT)
    pages["wrong answer"] = drill.submit(SPOT_WRONG)
    pages["right answer"] = drill.submit(SPOT_RIGHT, htmx=True)
    pages["input errors"] = drill.submit({**SPOT_RIGHT, "pot": "lots", "legal": ["fold", "nope"], "acted": ""})
    pages["expired form"] = client.post(drill.url, data=SPOT_RIGHT)
    for name, response in pages.items():
        assert response.status_code < 500, name
        if not response.text.lstrip().startswith("<section"):
            assert page_lang(response.text) == lang, name
        assert leftovers(response.text) == [], f"{name} ({lang}) still has English"
        leaked = set(visible(response.text)) & OTHER_SCRIPT[lang]
        # scenario titles and notes are written per script; rule texts and labels too
        assert not leaked, f"{name} ({lang}): characters of the other script {sorted(leaked)}"


@pytest.mark.parametrize("lang", CHINESE)
def test_every_spot_and_its_feedback_is_in_chinese(library_app, lang):
    client = library_app.test_client()
    client.get(f"/?lang={lang}")
    from trainer.library import in_exam_pool

    for scenario in load_paths([LIBRARY]).scenarios:
        url = f"/drill/{scenario.id}"
        page = client.get(url)
        if in_exam_pool(scenario.file, [str(LIBRARY)]):  # exam questions: the drill does not serve them
            assert page.status_code == 404, scenario.id
            continue
        assert leftovers(page.text) == [], f"{scenario.id} ({lang})"
        answer = right_answer(scenario.solve(), scenario.ask, list(scenario.stacks))
        graded = client.post(url, data={"csrf_token": token_from(page.text), **answer}).text
        assert "mark--wrong" not in graded, scenario.id
        assert leftovers(graded) == [], f"{scenario.id} feedback ({lang})"


@pytest.mark.parametrize("lang", CHINESE)
def test_feedback_and_derivation_come_from_the_engine_in_the_chosen_script(library_app, lang):
    scenario = next(s for s in load_paths([LIBRARY]).scenarios if s.id == SPOT)
    client = library_app.test_client()
    client.get(f"/?lang={lang}")
    html = Drill(client, scenario.id).submit({**SPOT_WRONG, "reveal": "1"}).text
    words = {
        "zh-Hant": ("錯誤——正確答案：<strong>400</strong>", "10 項中答對 8 項", "過牌", "蓋牌"),
        "zh-Hans": ("错误——正确答案：<strong>400</strong>", "10 项中答对 8 项", "让牌", "弃牌"),
    }[lang]
    assert words[0] in html and words[1] in html
    # the check boxes use the engine's own words for the actions (glossary: 過牌/让牌, 蓋牌/弃牌)
    assert f"\n      {words[2]}\n" in html and f"\n      {words[3]}\n" in html
    steps = re.search(r'<ol class="steps">.*?</ol>', html, re.S).group(0)
    for step in scenario.derivation():
        assert str(escape(step.message.render(TEMPLATES[lang]))) in steps
    assert str(escape(scenario.title[lang])) in html
    assert str(escape(scenario.explain[lang])) in html


def test_a_scenario_without_its_script_falls_back_to_the_other_chinese_then_english(client):
    # this test spot has an English and a Traditional title, and no Simplified one
    assert "<h1>轉牌圈 BTN 面對不足額全下</h1>" in client.get("/drill/btn-faces-short-all-in?lang=zh-Hans").text
    assert "<h1>轉牌圈 BTN 面對不足額全下</h1>" in client.get("/drill/btn-faces-short-all-in?lang=zh-Hant").text
    assert "<h1>BTN faces a short all-in on the turn</h1>" in client.get("/drill/btn-faces-short-all-in?lang=en").text
    # a spot with an English title only keeps it
    assert "Main pot 300, side pot 400" in client.get("/scenarios?lang=zh-Hant").text


@pytest.mark.parametrize("lang", CHINESE)
def test_the_rules_page_states_every_rule_in_chinese(client, lang):
    html = client.get(f"/rules?lang={lang}").text
    for rule_id in RULES:
        text = rule_text(rule_id, lang)
        assert f'id="{rule_id}"' in html
        assert str(escape(text.title)) in html
        assert str(escape(text.statement)) in html
        for example in text.examples:
            assert str(escape(example)) in html


@pytest.mark.parametrize("lang", CHINESE)
def test_the_problems_page_gives_the_engines_error_in_chinese(lang):
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(BROKEN)]})
    html = app.test_client().get(f"/problems?lang={lang}").text
    error = next(e for e in load_paths([BROKEN]).errors if e.file.endswith("illegal-raise.yaml"))
    clause = error.__context__.clause(TEMPLATES[lang])
    assert "R-MINRAISE" in clause and str(escape(clause)) in html
    assert "the minimum raise is to 500" not in html
    # the loader's own messages are for scenario authors and stay English, marked as such
    assert re.search(r'<td lang="en">[^<]*(betting is over|still to act)', html)


def test_amounts_are_formatted_for_the_language(client):
    for lang in ("en", "zh-Hant", "zh-Hans"):
        html = client.get(f"/drill/btn-faces-short-all-in?lang={lang}").text
        assert "10,000" in html  # Babel's grouping for each of the three: the same, but decided by Babel
    zh = client.get("/drill/btn-faces-short-all-in?lang=zh-Hant").text
    assert "剩 9,000" in zh and "底池 4,000" in zh


def test_input_errors_are_in_the_chosen_language(drill, client):
    client.get("/?lang=zh-Hans")
    html = drill("btn-faces-short-all-in").submit({**BTN_RIGHT, "pot": "1,4", "to_add": "-5"}).text
    assert "逗号只能放在每三位数字之间，例如 1,400。" in html
    assert "金额不能是负数。" in html
    assert "没有评分：有 2 个答案需要修正。" in html


def test_kept_pages_and_pieces_are_kept_per_language(app):
    """The drill page, the form, each field and each graded answer are cached:
    a learner in Shanghai must never get the copy made for one in London."""
    client = app.test_client()
    order = ["en", "zh-Hans", "zh-Hant", "en", "zh-Hans"]
    expect = {"en": "Check my answer", "zh-Hant": "檢查答案", "zh-Hans": "检查答案"}
    graded = {"en": "8 of 10 right", "zh-Hant": "10 項中答對 8 項", "zh-Hans": "10 项中答对 8 项"}
    steps = {"en": "How it is worked out", "zh-Hant": "推算過程", "zh-Hans": "推算过程"}
    marks = {"en": "Wrong:", "zh-Hant": "錯誤：", "zh-Hans": "错误："}
    for lang in order:
        client.get(f"/?lang={lang}")
        page = client.get("/drill/btn-faces-short-all-in").text
        assert expect[lang] in page and page_lang(page) == lang
        wrong = {**BTN_RIGHT, "last_full_increment": "400", "min_to": "1800", "reveal": "1", "csrf_token": token_from(page)}
        for htmx in (False, True):
            response = client.post("/drill/btn-faces-short-all-in", data=wrong, headers=HTMX if htmx else {})
            for words in (graded, steps, marks):
                assert words[lang] in response.text, (lang, htmx)
                assert all(other not in response.text for code, other in words.items() if code != lang)


def test_the_page_language_drives_the_css_font_stacks():
    css = (REPO / "static" / "trainer.css").read_text(encoding="utf-8")
    for selector, fonts in {
        ":lang(zh-Hant)": ("PingFang TC", "Microsoft JhengHei", "Noto Sans CJK TC", "WenQuanYi Micro Hei"),
        ":lang(zh-Hans)": ("PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "WenQuanYi Micro Hei"),
    }.items():
        block = re.search(re.escape(selector) + r"\s*\{(.*?)\}", css, re.S)
        assert block, selector
        for font in fonts:
            assert f'"{font}"' in block.group(1), (selector, font)
    # fonts already on the machine: nothing fetched (a face may only name local fonts)
    assert "url(" not in css and "@import" not in css
    for face in re.findall(r"@font-face\s*\{(.*?)\}", css, re.S):
        src = re.search(r"src:(.*?);", face, re.S).group(1)
        assert all(part.strip().startswith("local(") for part in src.split("),") if part.strip()), face


text = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30)
# What a header or cookie can carry at all: no control characters, latin-1.
header_text = st.text(
    alphabet=st.characters(min_codepoint=0x20, max_codepoint=0xFF, blacklist_characters="\x7f"), max_size=40
)
tags = st.sampled_from(["zh-TW", "zh-CN", "zh", "zh-Hant", "en", "fr", "*", ";q=0", ";q=0.5", ",", " ", "-", "_"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lang=text, cookie=header_text, accept=st.one_of(header_text, st.lists(tags, max_size=8).map("".join)))
def test_no_language_input_gets_a_server_error(client, lang, cookie, accept):
    client.set_cookie("lang", cookie)
    headers = {"Accept-Language": accept}
    response = client.get("/drill/btn-faces-short-all-in", query_string={"lang": lang}, headers=headers)
    # a control character in the address is refused, with a page in a language of the app
    assert response.status_code == (400 if re.search(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", lang) else 200)
    assert page_lang(response.text) in ("en", "zh-Hant", "zh-Hans")


def test_a_label_that_asks_takes_its_answer_without_a_colon_after_the_question_mark(client, drill):
    """"③ BTN 這一輪是否已經行動？" in the answer list: "？ 你的答案 否", not "？：你的答案 否"."""
    client.get("/?lang=zh-Hant")
    shown = drill("btn-faces-short-all-in").submit(BTN_RIGHT, htmx=True).text
    assert "是否已經行動？ " in shown and "？：" not in shown
    client.get("/?lang=en")
    assert "acted this street? — you said" in drill("btn-faces-short-all-in").submit(BTN_RIGHT, htmx=True).text


def test_vary_names_each_header_once_whatever_its_case():
    from werkzeug.datastructures import Headers

    from trainer.web.core.i18n import vary

    headers = Headers()
    vary(headers, "HX-Request")
    vary(headers, "Cookie", "Accept-Language")
    vary(headers, "cookie", "HX-REQUEST", "Accept-Encoding")
    assert headers["Vary"] == "HX-Request, Cookie, Accept-Language, Accept-Encoding"
    kept = Headers({"Vary": "Origin"})
    vary(kept, "Origin")
    assert kept["Vary"] == "Origin"


def test_a_fragment_names_what_it_varies_on_once_each(client):
    page = client.get("/drill/btn-faces-short-all-in", headers={"HX-Request": "true", "Accept-Encoding": "gzip"})
    names = [v.strip().lower() for v in page.headers["Vary"].split(",")]
    assert sorted(names) == sorted(set(names)) and {"hx-request", "cookie", "accept-language"} <= set(names)
