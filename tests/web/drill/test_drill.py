"""The drill page and grading, through the Flask test client."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.web import create_app

from tests.web.conftest import BTN_RIGHT, HTMX, Drill, token_from

MARK = re.compile(r'class="mark mark--(right|wrong)" id="f-([\w+-]+)-mark"')


CARD = ("current_total", "last_full_increment", "committed", "acted", "to_add")
CARD_RIGHT = {k: v for k, v in BTN_RIGHT.items() if k in CARD}
OPTIONS_RIGHT = {k: v for k, v in BTN_RIGHT.items() if k not in CARD}


def marks(html: str) -> dict[str, str]:
    """field name -> "right" / "wrong", read from the marks printed beside the fields."""
    return {name: verdict for verdict, name in MARK.findall(html)}


def field_error(html: str, name: str) -> str | None:
    match = re.search(rf'<p class="field-error" id="f-{re.escape(name)}-error">.*?</span>\s*(.*?)</p>', html, re.S)
    return match.group(1).strip() if match else None


# ------------------------------------------------------------------ the page


def test_drill_page_draws_the_table_and_the_text_version(client):
    html = client.get("/drill/btn-faces-short-all-in").text
    svg = re.search(r"<svg class=\"table-svg table-svg--wide\".*?</svg>", html, re.S).group(0)
    for text in ("SB", "BB", "CO · Kenji", "BTN · Mei", "Pot 4,000", "▲ to act", ">D<", "all-in"):
        assert text in svg, text
    # chips in front this street: SB 1,000, BB 1,000, CO 1,400
    assert re.findall(r'<g class="bet">.*?<text[^>]*>([\d,]+)</text>', svg, re.S) == ["1,000", "1,000", "1,400"]
    assert 'class="seat seat--to-act"' in svg
    # the board, in the drawing and in text
    assert svg.count('class="card') == 4
    assert "K♣" in html and "10♥" in html
    seats = re.search(r'<table class="seats">.*?</table>', html, re.S).group(0)
    assert re.search(r'<tr class="is-to-act">\s*<th scope="row">BTN <span class="seat-player">Mei</span>', seats)
    assert "<strong>to act</strong>" in seats
    assert "Pot: </span>4,000" in html and "600 from before the turn" in html


def test_the_key_hint_says_enter_checks_the_answer_not_the_betting_action(client):
    hint = re.search(r'<p class="key-hints meta" hidden[^>]*>(.*?)</p>', client.get("/drill/btn-faces-short-all-in").text).group(1)
    assert "<kbd>Enter</kbd> checks your answer" in hint and "</kbd> check ·" not in hint


def test_the_action_so_far_shows_to_totals_and_what_each_added(client):
    html = client.get("/drill/sb-not-reopened").text
    history = re.search(r'<table class="history">.*?</table>', html, re.S).group(0)
    rows = re.findall(r'<tr><th scope="row">(\w+)</th><td>([^<]*)</td><td class="num">([^<]*)</td><td class="num">([^<]*)</td></tr>', history)
    assert rows == [
        ("SB", "bets", "1,000", "1,000"),
        ("BB", "calls", "1,000", "1,000"),
        ("CO", "raises all-in", "1,400", "1,400"),
        ("BTN", "calls", "1,400", "1,400"),
    ]
    assert "Street total" in history and "加到" not in history  # no gloss in a script the reader may not read


def test_preflop_history_shows_blinds_posted(client):
    html = client.get("/drill/seed001-min-raise").text
    assert re.search(r'<th scope="row">SB</th><td>posts the small blind</td><td class="num">50</td><td class="num">50</td>', html)
    assert re.search(r'<th scope="row">UTG</th><td>raises</td><td class="num">300</td><td class="num">300</td>', html)


def test_questions_follow_the_scenarios_ask(client, drill):
    btn = client.get("/drill/btn-faces-short-all-in").text
    # step 1: the card; step 2: the options and the pot
    for name in ("current_total", "last_full_increment", "committed", "to_add"):
        assert f'name="{name}"' in btn
    assert btn.count('name="acted"') == 2 and 'name="legal"' not in btn
    assert 'name="stage" value="1"' in btn and "Step 1 of 2" in btn
    second = drill("btn-faces-short-all-in").submit({**CARD_RIGHT, "stage": "1"}).text
    for name in ("call", "min_to", "max_to", "pot"):
        assert f'name="{name}"' in second
    assert second.count('name="legal"') == 5 and 'name="stage" value="2"' in second
    pots = client.get("/drill/seed004-side-pot").text
    assert 'name="current_total"' not in pots
    assert 'name="pot1_amount"' in pots and 'name="pot2_amount"' in pots
    assert 'name="returned_BTN"' in pots and 'name="showdown"' in pots


def test_scenario_text_is_escaped_never_trusted(client):
    html = client.get("/drill/seed001-min-raise").text
    assert "Raise to &lt;b&gt;500&lt;/b&gt; &amp; not 600" in html
    assert "<b>500</b>" not in html


# ------------------------------------------------------------------ grading


def test_a_wrong_answer_marks_each_field_and_shows_the_correct_value(drill):
    learner = drill("btn-faces-short-all-in")
    # the classic mistakes: the short all-in's 400 taken as the increment, 1,800 as the min raise
    answer = {**BTN_RIGHT, "last_full_increment": "400", "min_to": "1800", "reveal": "1"}
    html = learner.submit(answer).text
    assert marks(html)["last_full_increment"] == "wrong"
    assert marks(html)["min_to"] == "wrong"
    assert marks(html)["current_total"] == "right"
    wrong_min = re.search(r'id="f-min_to-mark">.*?</p>', html, re.S).group(0)
    assert "Wrong — correct: <strong>2,400</strong>" in wrong_min
    assert "8 of 10 right" in html
    summary = re.search(r'<ul class="marks">.*?</ul>', html, re.S).group(0)
    assert "you said <span class=\"given\">400</span>; correct: <strong class=\"correct\">1,000</strong>" in summary


def test_a_first_miss_marks_the_wrong_fields_with_the_rule_that_decides_each_and_no_right_value(drill):
    learner = drill("btn-faces-short-all-in")
    html = learner.submit({**BTN_RIGHT, "last_full_increment": "400", "min_to": "1800"}).text
    assert marks(html)["last_full_increment"] == "wrong" and marks(html)["min_to"] == "wrong"
    assert "8 of 10 right" in html
    assert "1,000" not in html.split('id="answer"')[1] and "2,400" not in html.split('id="answer"')[1]
    assert "correct:" not in html and '<ol class="steps">' not in html
    wrong_min = re.search(r'id="f-min_to-mark">.*?</p>', html, re.S).group(0)
    assert "Not right yet." in wrong_min and 'href="/rules#R-MINRAISE"' in wrong_min
    assert re.search(r'id="f-last_full_increment-mark">.*?href="/rules#R-[A-Z]+"', html, re.S)
    assert 'name="missed" value="1"' in html and 'name="reveal" value="1"' in html  # Show answer


@pytest.mark.parametrize(("field", "typed", "says"), [
    ("current_total", "1000", "① is the largest total any player has put in on this street so far"),
    ("committed", "100", "③ counts only this player's chips on this street"),
    ("to_add", "1000", "④ is ① − ③: what this player must add to call."),
])
def test_a_column_of_the_card_that_cites_no_rule_still_gets_a_hint_that_teaches(drill, field, typed, says):
    """①, ③ and ④ said only "Look again at the table and the action so far."""
    html = drill("btn-faces-short-all-in").submit({**BTN_RIGHT, field: typed}).text
    mark = re.search(rf'id="f-{field}-mark">.*?</p>', html, re.S).group(0)
    assert says in mark and "Look again" not in mark
    assert "correct:" not in html and "<ol class=\"steps\">" not in html  # still no right value


def test_the_second_miss_or_show_answer_gives_the_worked_answer(drill):
    learner = drill("btn-faces-short-all-in")
    wrong = {**BTN_RIGHT, "min_to": "1800"}
    for second in ({**wrong, "missed": "1"}, {**wrong, "reveal": "1"}):
        html = learner.submit(second).text
        assert "Wrong — correct: <strong>2,400</strong>" in html and '<ol class="steps">' in html


def test_a_right_answer_after_a_hint_shows_the_derivation(drill):
    html = drill("btn-faces-short-all-in").submit({**BTN_RIGHT, "missed": "1"}).text
    assert "All 10 right" in html and '<ol class="steps">' in html


def test_a_right_answer_is_all_right_with_the_derivation_and_the_note(drill):
    html = drill("btn-faces-short-all-in").submit(BTN_RIGHT).text
    assert "All 10 right" in html
    assert "wrong" not in "".join(marks(html).values())
    steps = re.search(r'<ol class="steps">.*?</ol>', html, re.S).group(0)
    assert "does not change the last full increment" in steps
    assert '<a class="rule-link" href="/rules#R-SHORTALLIN">R-SHORTALLIN</a>' in steps
    assert "CO&#39;s all-in adds only 400, less than SB&#39;s 1000" in html
    assert re.search(r'href="/drill/[\w-]+(\?topic=[\w-]+)?">Next spot</a>', html)
    assert 'hx-get="/drill/btn-faces-short-all-in"' in html and "Try again" in html


def test_after_a_miss_the_button_that_clears_the_answers_says_so(drill):
    html = drill("btn-faces-short-all-in").submit({**BTN_RIGHT, "to_add": "1"}).text
    assert "Clear and start again" in html and "Try again" not in html
    assert re.search(r'<input[^>]*id="f-to_add"[^>]*value="1"', html) or re.search(r'<input[^>]*value="1"[^>]*id="f-to_add"', html)  # kept to be fixed


def test_every_rule_link_in_an_explanation_exists_on_the_rules_page(client, drill):
    rules_page = client.get("/rules").text
    html = drill("sb-not-reopened").submit(
        {"current_total": "1400", "last_full_increment": "1000", "committed": "1000", "acted": "yes",
         "to_add": "400", "legal": ["fold", "call"], "call": "400"}
    ).text
    assert "All 9 right" in html
    linked = set(re.findall(r'href="/rules#([\w-]+)"', html))
    assert "R-REOPEN" in linked
    for rule in linked:
        assert f'id="{rule}"' in rules_page


def test_not_reopened_spot_is_graded_against_the_engine(drill):
    # SB already acted and faces 400 < 1000: call or fold only, no raise amounts
    html = drill("sb-not-reopened").submit(
        {"current_total": "1400", "last_full_increment": "1000", "committed": "1000", "acted": "no",
         "to_add": "400", "legal": ["fold", "call", "raise"], "call": "400", "min_to": "2400", "max_to": "10000",
         "reveal": "1"}
    ).text
    got = marks(html)
    assert got["acted"] == "wrong" and got["legal"] == "wrong" and got["min_to"] == "wrong"
    assert "Wrong — correct: <strong>fold, call</strong>" in html
    assert "Wrong — correct: <strong>none</strong>" in html


def test_pots_and_showdown(drill):
    learner = drill("seed004-side-pot")
    right = {
        "pot1_amount": "300", "pot1_eligible": ["SB", "BB", "BTN"],
        "pot2_amount": "400", "pot2_eligible": ["SB", "BB"],
        "showdown": "all",
    }
    assert "All 8 right" in learner.submit(right).text
    swapped = {**right, "pot1_amount": "400", "pot2_amount": "300", "showdown": "BTN"}
    got = marks(learner.submit(swapped).text)
    assert got["pot1_amount"] == "wrong" and got["pot2_amount"] == "wrong" and got["showdown"] == "wrong"
    assert got["pot1_eligible"] == "right" and got["returned_SB"] == "right"


def test_uncalled_chips_are_asked_and_graded(drill):
    learner = drill("uncalled-river")
    answer = {"pot": "2300", "pot1_amount": "2000", "pot1_eligible": ["BB", "BTN"], "showdown": "all"}
    html = learner.submit({**answer, "reveal": "1"}).text
    assert marks(html)["returned_BB"] == "wrong"
    assert re.search(r'id="f-returned_BB-mark">.*?correct: <strong>300</strong>', html, re.S)
    assert "All 6 right" in learner.submit({**answer, "returned_BB": "300"}).text


def test_showdown_first_to_show(drill):
    learner = drill("river-raiser-shows")
    assert "All 1 right" in learner.submit({"showdown": "BB"}).text
    html = learner.submit({"showdown": "SB", "missed": "1"}).text  # a second miss: the worked answer
    assert "Wrong — correct: <strong>BB shows first</strong>" in html


# ------------------------------------------------------------- page vs fragment


def test_plain_post_returns_the_full_page_with_feedback(drill):
    response = drill("btn-faces-short-all-in").submit(BTN_RIGHT)
    assert response.status_code == 200
    assert response.text.lstrip().startswith("<!doctype html>")
    assert '<svg class="table-svg table-svg--wide"' in response.text
    assert 'id="feedback-h" tabindex="-1" autofocus' in response.text
    assert "HX-Request" in response.headers["Vary"]


def test_htmx_post_returns_only_the_answer_fragment(drill):
    response = drill("btn-faces-short-all-in").submit(BTN_RIGHT, htmx=True)
    assert response.status_code == 200
    body = response.text.lstrip()
    assert body.startswith('<section id="answer"')
    assert "<html" not in body and "table-svg" not in body
    assert 'id="feedback-h" tabindex="-1" autofocus' in body
    assert '<div id="status" hx-swap-oob="innerHTML">10 of 10 right.</div>' in body
    assert "HX-Request" in response.headers["Vary"]


@pytest.mark.parametrize("header", ["HX-Boosted", "HX-History-Restore-Request"])
def test_boosted_or_history_restore_post_gets_the_full_page(drill, header):
    response = drill("btn-faces-short-all-in").submit(BTN_RIGHT, htmx=True, headers={header: "true"})
    assert response.text.lstrip().startswith("<!doctype html>")


def test_try_again_fetches_a_fresh_form_focused_on_its_first_field(client):
    response = client.get("/drill/btn-faces-short-all-in", headers=HTMX)
    assert response.text.lstrip().startswith('<section id="answer"')
    assert re.search(r'id="f-current_total"[^>]*autofocus', response.text)
    assert "feedback" not in response.text
    full = client.get("/drill/btn-faces-short-all-in")
    assert "autofocus" not in full.text  # a fresh page starts at the top, not in a field


# ------------------------------------------------------------------ input


@pytest.mark.parametrize(
    "typed",
    ["1,400", "1 400", " 1400 ", "１，４００", "１４００", "1\u3000400", "01400", "1,400\n"],
)
def test_amounts_are_read_the_way_people_type_them(drill, typed):
    html = drill("btn-faces-short-all-in").submit({**BTN_RIGHT, "to_add": typed}).text
    assert "All 10 right" in html


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("abc", "Enter a whole number of chips, like 1400 or 1,400."),
        ("-5", "Amounts can't be negative."),
        ("－５", "Amounts can't be negative."),
        ("1.5", "Chips are whole numbers: leave out decimals."),
        ("14,00", "Put commas only between groups of three digits, like 1,400."),
        ("10001", "That is more chips than anyone at this table has."),
        ("9" * 40, "That is more chips than anyone at this table has."),
        ("", "Enter an amount (0 if there is none)."),
        ("1e3", "Enter a whole number of chips, like 1400 or 1,400."),
        ("<b>1</b>", "Enter a whole number of chips, like 1400 or 1,400."),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_bad_amounts_get_a_message_next_to_the_field_and_nothing_is_graded(drill, typed, message, htmx):
    response = drill("btn-faces-short-all-in").submit({**BTN_RIGHT, "to_add": typed}, htmx=htmx)
    assert response.status_code == 200
    html = response.text
    assert field_error(html, "to_add") == str(escape_text(message))
    assert 'id="feedback"' not in html and "mark--" not in html
    assert re.search(r'id="f-to_add"[^>]*aria-invalid="true"[^>]*autofocus', html)
    assert "1 answer needs fixing; nothing was graded." in html
    # what the learner typed is still in the box
    assert f'value="{escape_text(typed)}"' in html


def escape_text(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


def test_missing_choices_are_asked_for(drill):
    answer = {k: v for k, v in BTN_RIGHT.items() if k != "acted"}
    html = drill("btn-faces-short-all-in").submit(answer).text
    assert field_error(html, "acted") == "Choose yes or no."
    html = drill("river-raiser-shows").submit({"showdown": "UTG"}).text
    assert field_error(html, "showdown") == "Choose one of the answers."


def test_tampered_check_boxes_are_refused(drill):
    html = drill("btn-faces-short-all-in").submit({**BTN_RIGHT, "legal": ["fold", "shove"]}).text
    assert field_error(html, "legal") == "Tick only the boxes shown."


def test_optional_amounts_may_be_left_empty(drill):
    html = drill("sb-not-reopened").submit(
        {"current_total": "1400", "last_full_increment": "1000", "committed": "1000", "acted": "yes",
         "to_add": "400", "legal": ["fold", "call"], "call": "400", "min_to": "", "max_to": " "}
    ).text
    assert "All 9 right" in html


printable = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.dictionaries(st.sampled_from(sorted(BTN_RIGHT) + ["junk"]), printable, max_size=12))
def test_no_input_ever_gives_a_server_error(drill, values):
    response = drill("btn-faces-short-all-in").submit(values, htmx=bool(len(values) % 2))
    assert response.status_code == 200


def test_an_oversized_body_is_refused_politely(drill):
    response = drill("btn-faces-short-all-in").submit({**BTN_RIGHT, "junk": "x" * 200_000})
    assert response.status_code == 413
    assert "<!doctype html>" in response.text


# ------------------------------------------------------------------ CSRF


@pytest.mark.parametrize("token", [None, "", "forged"])
def test_posts_without_the_right_token_are_rejected_and_not_graded(client, token):
    client.get("/drill/btn-faces-short-all-in")
    data = dict(BTN_RIGHT)
    if token is not None:
        data["csrf_token"] = token
    response = client.post("/drill/btn-faces-short-all-in", data=data)
    assert response.status_code == 400
    assert "Your answer was not checked: this page had expired." in response.text
    assert 'id="feedback"' not in response.text and "mark--" not in response.text
    # the learner's answer is kept for the retry, with a fresh token
    assert 'value="2400"' in response.text and 'name="csrf_token" value="' in response.text


def test_every_learner_gets_a_token_of_their_own_that_works(app):
    tokens = []
    for _ in range(2):
        learner = app.test_client()
        for url in ("/drill/btn-faces-short-all-in", "/drill/btn-faces-short-all-in?topic=reopening"):
            page = learner.get(url).text
            token = token_from(page)
            response = learner.post(url, data={**BTN_RIGHT, "csrf_token": token}, headers=HTMX)
            assert response.status_code == 200 and "All 10 right" in response.text
        tokens.append(token)
    assert tokens[0] != tokens[1]


def test_a_token_from_another_session_is_rejected(app, drill):
    token = drill("btn-faces-short-all-in").token
    stranger = app.test_client()
    stranger.get("/drill/btn-faces-short-all-in")
    response = stranger.post("/drill/btn-faces-short-all-in", data={**BTN_RIGHT, "csrf_token": token})
    assert response.status_code == 400


def test_htmx_csrf_failure_swaps_in_the_retry_form(client):
    client.get("/drill/btn-faces-short-all-in")
    response = client.post("/drill/btn-faces-short-all-in", data=BTN_RIGHT, headers=HTMX)
    assert response.status_code == 400
    assert response.text.lstrip().startswith('<section id="answer"')
    assert re.search(r'id="answer-notice" tabindex="-1" autofocus', response.text)


@pytest.mark.parametrize("with_token", [True, False])
@pytest.mark.parametrize("htmx", [False, True])
def test_post_to_an_unknown_scenario_is_a_404(drill, client, with_token, htmx):
    token = drill("btn-faces-short-all-in").token
    data = {"csrf_token": token} if with_token else {"to_add": "1"}
    response = client.post("/drill/nope", data=data, headers=HTMX if htmx else {})
    assert response.status_code == 404
    assert "There is no scenario with that name." in response.text


def test_splitting_pots_with_an_odd_chip(drill):
    learner = drill("odd-chip-split")
    page = learner.client.get(learner.url).text
    assert "Main pot: won by SB, BB" in page and "The smallest chip in play is 100." in page
    html = learner.submit({"split1_SB": "150", "split1_BB": "150", "split2_SB": "200", "split2_BB": "200", "reveal": "1"}).text
    got = marks(html)
    assert got["split1_SB"] == "wrong" and got["split2_SB"] == "right"
    assert re.search(r'id="f-split1_SB-mark">.*?correct: <strong>200</strong>', html, re.S)
    assert "All 4 right" in learner.submit(
        {"split1_SB": "200", "split1_BB": "100", "split2_SB": "200", "split2_BB": "200"}
    ).text


def test_a_ruling_on_chips_and_words(tmp_path):
    (tmp_path / "r.yaml").write_text(
        "id: one-chip-call\n"
        "game: {type: no-limit, blinds: [100, 200]}\n"
        "stacks: {SB: 5000, BB: 5000, UTG: 5000}\n"
        "actions: [UTG raise 500]\n"
        "ruling: {chips: [1000]}\n"
        "ask: [ruling]\n",
        encoding="utf-8",
    )
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(tmp_path)]})
    learner = Drill(app.test_client(), "one-chip-call")
    page = learner.client.get(learner.url).text
    assert "SB silently puts forward a single 1,000 chip." in page
    # one oversized chip pushed silently facing a bet is a call (R-OVERCHIP): SB has 100 in, calls to 500
    html = learner.submit({"ruling_action": "raise", "ruling_to": "1100", "ruling_returned": "", "reveal": "1"}).text
    got = marks(html)
    assert got == {"ruling_action": "wrong", "ruling_to": "wrong", "ruling_returned": "wrong"}
    assert "Wrong — correct: <strong>a call</strong>" in html
    assert re.search(r'id="f-ruling_to-mark">.*?correct: <strong>500</strong>', html, re.S)
    assert re.search(r'id="f-ruling_returned-mark">.*?correct: <strong>600</strong>', html, re.S)


def test_a_kept_graded_answer_still_carries_each_learners_own_token(app):
    seen = []
    for _ in range(2):
        learner = Drill(app.test_client(), "btn-faces-short-all-in")
        html = learner.submit(BTN_RIGHT, htmx=True).text
        assert "All 10 right" in html
        assert token_from(html) == learner.token
        seen.append(learner.token)
    assert seen[0] != seen[1]


def test_the_same_number_typed_differently_is_shown_as_typed(drill):
    learner = drill("btn-faces-short-all-in")
    assert 'value="1400"' in learner.submit(BTN_RIGHT, htmx=True).text.split('id="f-to_add"')[1][:300]
    again = learner.submit({**BTN_RIGHT, "to_add": "１４００"}, htmx=True).text
    assert 'value="１４００"' in again.split('id="f-to_add"')[1][:300]


def test_heads_up_small_blind_is_shown_as_the_button(tmp_path):
    """R-ORDER: dealt to SB and BB only, SB is the button: the table marks SB, and the
    page does not claim the button is missing from the hand."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "hu.yaml").write_text(
        "id: hu-sb-bb\ngame: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 200, BB: 200}\n"
        "actions:\n  preflop: [SB call, BB check]\n",
        encoding="utf-8",
    )
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SCENARIO_DIRS": [str(folder)],
                      "INSTANCE_DIR": str(tmp_path / "instance")})
    html = app.test_client().get("/drill/hu-sb-bb").text
    seats = re.search(r'<table class="seats">.*?</table>', html, re.S).group(0)
    assert re.search(r'<th scope="row">SB <span class="tag">button</span>', seats)
    assert "is not in this hand" not in html
    assert re.search(r'<tr class="is-to-act">\s*<th scope="row">BB', seats)


# ------------------------------------------------------------------ two steps: the card, then the rest


def form_of(html: str) -> str:
    return re.search(r'<form id="answer-form".*?</form>', html, re.S).group(0)


def test_a_right_card_brings_the_options_as_step_two_on_the_same_page(drill):
    learner = drill("btn-faces-short-all-in")
    html = learner.submit({**CARD_RIGHT, "stage": "1"}, htmx=True).text
    assert "Step 1 of 2: all 5 right" in html
    form = form_of(html)
    assert 'name="stage" value="2"' in form and 'name="clean" value="1"' in form
    assert 'name="current_total"' not in form and 'name="min_to"' in form
    assert 'id="feedback"' not in html  # no Next yet: the spot is not done
    # the derivation of the card only: nothing of the options' answers
    assert "2,400" not in html and "10,000" not in html
    final = learner.submit({**OPTIONS_RIGHT, "stage": "2", "clean": "1"}, htmx=True).text
    assert "All 5 right" in final and 'id="feedback"' in final and '<ol class="steps">' in final


def test_each_step_has_its_own_first_miss_hint_and_second_miss_answer(drill):
    learner = drill("btn-faces-short-all-in")
    wrong_card = {**CARD_RIGHT, "last_full_increment": "400", "stage": "1"}
    first = learner.submit(wrong_card).text
    assert marks(first) == {**{k: "right" for k in CARD}, "last_full_increment": "wrong"}
    assert "Not right yet." in first and "correct:" not in first
    assert 'name="stage" value="1"' in form_of(first) and 'name="missed" value="1"' in form_of(first)
    # the second miss at step 1: its worked answer, and on to step 2 (whose own first miss hints again)
    second = learner.submit({**wrong_card, "missed": "1"}).text
    assert "Step 1 of 2: 4 of 5 right" in second and "<strong class=\"correct\">1,000</strong>" in second
    assert 'name="stage" value="2"' in form_of(second) and 'name="clean" value="0"' in form_of(second)
    assert 'name="missed"' not in form_of(second)
    options = learner.submit({**OPTIONS_RIGHT, "min_to": "1800", "stage": "2", "clean": "0"}).text
    assert marks(options)["min_to"] == "wrong" and "Not right yet." in options and "correct:" not in options
    shown = learner.submit({**OPTIONS_RIGHT, "min_to": "1800", "stage": "2", "clean": "0", "reveal": "1"}).text
    assert "Wrong — correct: <strong>2,400</strong>" in shown


def test_show_answer_at_step_one_gives_its_worked_answer_and_step_two(drill):
    learner = drill("btn-faces-short-all-in")
    html = learner.submit({**CARD_RIGHT, "to_add": "1000", "stage": "1", "reveal": "1"}).text
    assert "Step 1 of 2: 4 of 5 right" in html and 'name="stage" value="2"' in form_of(html)


def test_a_spot_without_a_card_is_one_step(client):
    html = client.get("/drill/seed004-side-pot").text
    assert 'name="stage"' not in html and "Step 1 of" not in html and 'name="pot1_amount"' in html


def test_switching_language_at_step_two_keeps_the_step(client):
    """After a right card, the language links (swapped in with the fragment) keep step 2, and the
    page at ?step=2 opens at step 2 for a learner whose step 1 is stored; without it, at step 1."""
    from tests.store.helpers import token

    url = "/drill/btn-faces-short-all-in"
    page = client.get(url).text
    card = {k: v for k, v in BTN_RIGHT.items() if k in ("current_total", "last_full_increment", "committed", "acted", "to_add")}
    done = client.post(url, data={"csrf_token": token(page), "stage": "1", **card}, headers=HTMX).text
    assert 'id="language-switch" aria-label="Language" hx-swap-oob="true"' in done
    assert "step=2&amp;lang=zh-Hant" in done
    again = client.get(url + "?step=2&lang=zh-Hant").text
    assert 'name="stage" value="2"' in again and 'name="clean" value="1"' in again
    stranger = client.application.test_client().get(url + "?step=2").text
    assert 'name="stage" value="1"' in stranger  # nothing stored for them: the spot from its card


def test_the_address_follows_the_step_so_a_reload_keeps_it(client):
    """The fragment that brings step 2 puts ?step=2 in the address (htmx's HX-Replace-Url), so
    reloading opens step 2 again; a step 1 swapped in ("Clear and start again") drops it."""
    from tests.store.helpers import token

    url = "/drill/btn-faces-short-all-in"
    page = client.get(url + "?topic=short-all-in").text
    card = {k: v for k, v in BTN_RIGHT.items() if k in ("current_total", "last_full_increment", "committed", "acted", "to_add")}
    done = client.post(url + "?topic=short-all-in", data={"csrf_token": token(page), "stage": "1", **card}, headers=HTMX)
    assert done.headers["HX-Replace-Url"] == url + "?topic=short-all-in&step=2"
    reloaded = client.get(done.headers["HX-Replace-Url"]).text
    assert 'name="stage" value="2"' in form_of(reloaded)
    wrong = client.post(url, data={"csrf_token": token(page), "stage": "1", **card, "to_add": "1"}, headers=HTMX)
    assert wrong.headers["HX-Replace-Url"] == url  # still step 1
    again = client.get(url + "?topic=short-all-in", headers=HTMX)
    assert again.headers["HX-Replace-Url"] == url + "?topic=short-all-in"
    assert "HX-Replace-Url" not in client.get("/drill/seed004-side-pot", headers=HTMX).headers  # one step only
