"""The card lesson as a learner meets it: offered before spot 1, five steps graded by the engine,
every bad entry answered with a 200 page that says what and where, in three languages.

The web tests' library holds seed 003's turn spot ``sb-not-reopened``: SB bet 1,000, BB called, CO
went all-in to 1,400 (a short all-in), BTN called; SB to act with ① 1,400, ② 1,000, ③a 1,000,
③b yes, ④ 400 < ②: call or fold only.
"""

from __future__ import annotations

import re

import pytest

from trainer.web import create_app

from tests.web.conftest import BTN_RIGHT, HTMX, token_from
from tests.test_vocabulary import punctuation_slips
from tests.web.core.test_i18n import LIBRARY, OTHER_SCRIPT, leftovers, visible

LANGS = ("en", "zh-Hant", "zh-Hans")

# What a learner who knows the card types at each step of the lesson's spot.
RIGHT = {
    1: {"current_total": "1400"},
    2: {"last_full_increment": "1000"},
    3: {"committed": "1000", "acted": "yes"},
    4: {"to_add": "400"},
    5: {"legal": ["fold", "call"]},
}
# The classic slips: the short all-in's total taken for the increment, the blind forgotten, ...
WRONG = {
    1: {"current_total": "1000"},
    2: {"last_full_increment": "400"},
    3: {"committed": "1000", "acted": "no"},
    4: {"to_add": "1400"},
    5: {"legal": ["fold", "call", "raise"]},
}
# The value a wrong step must not give away on a first miss, and shows once revealed.
SHOWN = {1: "1,400", 2: "1,000", 3: None, 4: "400", 5: None}

WORDS = {
    "en": {"right": "Right", "not_yet": "Not right yet.", "next": "Next: step", "number": "Enter a whole number of chips",
           "huge": "more chips than anyone at this table has", "missing": "Enter an amount", "yesno": "Choose yes or no.",
           "boxes": "Tick only the boxes shown.", "what": "What is this?", "lesson": "The card lesson"},
    "zh-Hant": {"right": "正確", "not_yet": "還不對。", "next": "下一步：第", "number": "請輸入整數的籌碼數",
                "huge": "這比桌上任何人的籌碼都多。", "missing": "請輸入金額", "yesno": "請選「是」或「否」。",
                "boxes": "只能勾選畫面上的選項。", "what": "這是什麼？", "lesson": "判讀卡課程"},
    "zh-Hans": {"right": "正确", "not_yet": "还不对。", "next": "下一步：第", "number": "请输入整数的筹码数",
                "huge": "这比桌上任何人的筹码都多。", "missing": "请输入金额", "yesno": "请选“是”或“否”。",
                "boxes": "只能勾选页面上的选项。", "what": "这是什么？", "lesson": "判读卡课程"},
}


class Learner:
    """A browser on the lesson in one language (the ``?lang=`` link sets the cookie)."""

    def __init__(self, client, lang: str):
        self.client = client
        page = client.get(f"/lesson/1?lang={lang}")
        assert page.status_code == 200
        self.token = token_from(page.text)

    def answer(self, step: int, data: dict, *, htmx: bool = False):
        response = self.client.post(f"/lesson/{step}", data={"csrf_token": self.token, **data},
                                    headers=HTMX if htmx else {})
        assert response.status_code == 200
        return response.text


def marks(html: str) -> dict[str, str]:
    return dict(re.findall(r'id="f-(\w+)-mark">\s*<span class="icon" aria-hidden="true">([✓✗])', html))


def answer_part(html: str) -> str:
    """The step's question and what came back, without the spot and the card so far."""
    return html.split('id="lesson-answer"')[1].split('<div class="lesson-table">')[0]


@pytest.fixture
def learner(client):
    return lambda lang="en": Learner(client, lang)


# ------------------------------------------------------------------ offered, and reachable


def test_a_new_learner_is_offered_the_lesson_on_the_home_page_and_not_once_they_have_answered(client, drill):
    home = client.get("/").text
    assert 'id="lesson-offer"' in home and 'href="/lesson/"' in home
    assert 'href="/start"' in home  # the first spot stays one click away
    drill("btn-faces-short-all-in").submit(BTN_RIGHT)
    again = client.get("/").text
    assert "Welcome back" in again and 'id="lesson-offer"' not in again


@pytest.mark.parametrize("lang", LANGS)
def test_every_drill_page_links_to_the_lesson_and_the_home_page_to_the_rules_card(client, lang):
    for spot in ("sb-not-reopened", "seed001-min-raise", "odd-chip-split"):
        page = client.get(f"/drill/{spot}?lang={lang}")
        assert page.status_code == 200
        # a newcomer (this client has answered nothing) is offered it in a line of its own; a learner
        # who has answered finds it on the meta line (tests/store/test_self_study_web.py)
        assert re.search(r'<p class="lesson-offer-line" id="lesson-offer">.*?<a href="/lesson/">', page.text, re.S)
    home = client.get(f"/?lang={lang}").text
    assert 'href="/rules#card"' in home and 'href="/lesson/"' in home


# ------------------------------------------------------------------ the lesson's pages


@pytest.mark.parametrize("lang", LANGS)
def test_the_introduction_tells_a_raise_to_from_an_increment_and_shows_the_spot(client, lang):
    html = client.get(f"/lesson/?lang={lang}").text
    words = {"en": ("A raise to is a total", "increment"), "zh-Hant": ("加到", "增額"), "zh-Hans": ("加注到", "增量")}[lang]
    assert all(w in html for w in words)
    assert 'href="/lesson/1"' in html and 'href="/rules#card"' in html
    assert "SB faces 400 more after a short all-in" in html  # the library's own spot, as the drill names it
    assert html.count('aria-current="step"') == 1


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("step", sorted(RIGHT))
def test_a_right_answer_is_marked_right_explained_and_leads_on(learner, lang, step):
    html = learner(lang).answer(step, RIGHT[step])
    part = answer_part(html)
    assert set(marks(part).values()) == {"✓"}
    assert WORDS[lang]["right"] in part
    assert '<ol class="lesson-reasons">' in part  # the engine's own derivation of this column
    following = f'href="/lesson/{step + 1}"' if step < 5 else 'href="/lesson/done"'
    assert following in part
    assert 'name="reveal"' not in part


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("step", sorted(WRONG))
def test_a_first_miss_hints_without_the_value_and_a_second_miss_shows_it(learner, lang, step):
    someone = learner(lang)
    first = answer_part(someone.answer(step, WRONG[step]))
    assert "✗" in marks(first).values()
    assert WORDS[lang]["not_yet"] in first
    assert 'name="missed" value="1"' in first and 'name="reveal" value="1"' in first
    assert '<ol class="lesson-reasons">' not in first and 'id="lesson-next"' not in first
    if SHOWN[step]:
        assert f"<strong>{SHOWN[step]}</strong>" not in first
    second = answer_part(someone.answer(step, {**WRONG[step], "missed": "1"}))
    assert '<ol class="lesson-reasons">' in second and 'id="lesson-next"' in second
    if SHOWN[step]:
        assert f"<strong>{SHOWN[step]}</strong>" in second


def test_show_me_the_answer_reveals_it_after_a_first_miss(learner):
    html = answer_part(learner().answer(2, {**WRONG[2], "missed": "1", "reveal": "1"}))
    assert "Wrong — correct: <strong>1,000</strong>" in html
    assert "2,400" in html  # ① + ② = 1,400 + 1,000: the full raise the short all-in did not change
    assert 'href="/rules#R-SHORTALLIN"' in html


def test_the_reading_step_says_call_or_fold_only_with_the_rule(learner):
    html = answer_part(learner().answer(5, RIGHT[5]))
    assert "may call 400 or fold, and may not raise" in html
    assert 'href="/rules#R-REOPEN"' in html


def test_the_last_step_shows_the_whole_card_and_leads_to_practice(client):
    html = client.get("/lesson/done").text
    card = re.search(r'<section class="lesson-card-so-far".*?</section>', html, re.S).group(0)
    values = re.findall(r'<dd>([^<]+)</dd>', card)
    assert values == ["1,400", "1,000", "1,000", "yes", "400"]
    assert 'href="/start"' in html and 'href="/rules#card"' in html


def test_a_step_shows_the_card_filled_so_far_and_only_that(client):
    html = client.get("/lesson/4").text
    card = re.search(r'<section class="lesson-card-so-far".*?</section>', html, re.S).group(0)
    assert re.findall(r'<dd>([^<]+)</dd>', card) == ["1,400", "1,000", "1,000", "yes"]
    assert "④" not in card
    assert 'class="lesson-card-so-far"' not in client.get("/lesson/1").text


def test_htmx_gets_the_step_fragment_and_the_status_line(learner):
    html = learner().answer(1, RIGHT[1], htmx=True)
    assert html.lstrip().startswith('<section id="lesson-answer"')
    assert '<div id="status" hx-swap-oob="innerHTML">Right.</div>' in html
    assert "<!doctype" not in html


def test_every_step_form_posts_to_itself_without_javascript(client):
    for step in range(1, 6):
        html = client.get(f"/lesson/{step}").text
        assert re.search(rf'<form id="lesson-form"[^>]* method="post" action="/lesson/{step}"', html)


# ------------------------------------------------------------------ bad input: 200, said where


BAD = [
    (1, {"current_total": "abc"}, "current_total", "number"),
    (1, {"current_total": "9" * 40}, "current_total", "huge"),
    (1, {"current_total": "99999999"}, "current_total", "huge"),
    (1, {}, "current_total", "missing"),
    (2, {"last_full_increment": "十"}, "last_full_increment", "number"),
    (3, {"committed": "1000"}, "acted", "yesno"),
    (3, {"committed": "1000", "acted": "maybe"}, "acted", "yesno"),
    (4, {"to_add": ""}, "to_add", "missing"),
    (5, {"legal": ["fold", "teleport"]}, "legal", "boxes"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("step", "data", "field", "message"), BAD)
def test_bad_input_comes_back_with_the_message_at_the_field(learner, lang, step, data, field, message):
    html = learner(lang).answer(step, data)
    error = re.search(rf'id="f-{field}-error">(.*?)</p>', html, re.S)
    assert error and WORDS[lang][message] in error.group(1)
    assert 'id="error-summary"' in html
    assert not marks(html) and 'id="lesson-next"' not in html


def test_a_control_character_is_refused_at_its_field_with_200(learner):
    html = learner().answer(1, {"current_total": "14\x0000"})
    assert re.search(r'id="f-current_total-error">.*control characters', html, re.S)


def test_an_expired_form_is_shown_again_filled_in_and_not_checked(client):
    client.get("/lesson/1")
    response = client.post("/lesson/1", data={"csrf_token": "stale", "current_total": "1400"})
    assert response.status_code == 200
    assert "this page had expired" in response.text
    assert 'value="1400"' in response.text and not marks(response.text)


def test_a_step_that_does_not_exist_is_a_404_page(client):
    assert client.get("/lesson/9").status_code == 404
    assert client.get("/lesson/0").status_code == 404
    assert client.get("/lesson/abc").status_code == 404


# ------------------------------------------------------------------ the card on the drill and the rules


def helps(html: str) -> dict[str, tuple[str, str]]:
    """Each field's "What is this?": field name -> (summary, what it says)."""
    found = re.findall(r'(?:<label for="f-(\w+)">[^<]*</label>|<legend>[^<]*</legend>)\s*'
                       r'<details class="what-is"><summary>([^<]+)</summary>(.*?)</details>', html, re.S)
    return {name: (summary, body) for name, summary, body in found}


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_field_of_the_drill_has_a_what_is_this_that_no_spot_changes(client, lang):
    """The same words at every spot: a definition and an example of its own, never this spot's answer."""
    pages = [client.get(f"/drill/{spot}?lang={lang}").text for spot in ("sb-not-reopened", "btn-faces-short-all-in")]
    first, second = (helps(html) for html in pages)
    assert len(first) == 5 and {summary for summary, _ in first.values()} == {WORDS[lang]["what"]}
    # ① 1,400 / ② 1,000 / ④ 400 at one spot, ① 1,400 / ② 1,000 / ④ 1,400 at the other: the help is the same.
    assert [body for _, body in first.values()] == [body for _, body in second.values()]
    assert all(body.count("<p>") == 2 for _, body in first.values())  # the definition, then a tiny example


@pytest.mark.parametrize("lang", LANGS)
def test_the_cards_third_column_is_one_column_in_two_parts(client, lang):
    html = client.get(f"/drill/sb-not-reopened?lang={lang}").text
    labels = re.findall(r'<label for="f-\w+">([^<]+)</label>|<legend>([^<]+)</legend>', html)
    text = " ".join(a or b for a, b in labels)
    assert "③a" in text and "③b" in text and not re.search(r"③(?![ab])", text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_page_has_a_section_on_the_card_linked_to_the_lesson(client, lang):
    html = client.get(f"/rules?lang={lang}").text
    section = re.search(r'<section class="rule rules-card" id="card".*?</section>', html, re.S).group(0)
    assert section.count("<dt>") == 5 and "③a" in section and "③b" in section
    assert 'href="/lesson/"' in section
    assert '<a href="#card">' in html


# ------------------------------------------------------------------ the whole lesson in Chinese, on the real library


@pytest.fixture(scope="module")
def library_client(tmp_path_factory):
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(LIBRARY)],
                      "INSTANCE_DIR": str(tmp_path_factory.mktemp("instance"))})
    return app.test_client()


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_every_lesson_page_is_in_chinese_with_no_english_ui_left(library_client, lang):
    """Seed 003's own spot in the library: SB ① 650, ② 400, ③a 400, ③b yes, ④ 250."""
    client = library_client
    client.get(f"/?lang={lang}")
    token = token_from(client.get("/lesson/1").text)
    pages = {"intro": client.get("/lesson/"), "done": client.get("/lesson/done"), "rules": client.get("/rules")}
    answers = ({"current_total": "650"}, {"last_full_increment": "400"}, {"committed": "400", "acted": "yes"},
               {"to_add": "250"}, {"legal": ["fold", "call"]})
    for step, right in enumerate(answers, start=1):
        pages[f"step {step}"] = client.get(f"/lesson/{step}")
        pages[f"step {step} right"] = client.post(f"/lesson/{step}", data={"csrf_token": token, **right})
    pages["first miss"] = client.post("/lesson/2", data={"csrf_token": token, "last_full_increment": "250"})
    pages["shown"] = client.post("/lesson/2", data={"csrf_token": token, "last_full_increment": "250", "missed": "1"})
    pages["bad input"] = client.post("/lesson/1", data={"csrf_token": token, "current_total": "lots"})
    for name, response in pages.items():
        assert response.status_code == 200, name
        assert leftovers(response.text) == [], f"{name} ({lang}) still has English"
        leaked = set(visible(response.text)) & OTHER_SCRIPT[lang]
        assert not leaked, f"{name} ({lang}): characters of the other script {sorted(leaked)}"
        assert punctuation_slips(response.text) == [], name
    assert {"zh-Hant": "加到", "zh-Hans": "加注到"}[lang] in pages["intro"].text
