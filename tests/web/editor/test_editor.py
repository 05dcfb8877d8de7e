"""The scenario editor as an instructor uses it: each step a form that posts the draft back, the
engine's refusal of an illegal action, the preview, the YAML that comes out, and who may use it."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from trainer.cli import main
from trainer.scenarios import load_text

from tests.answers import HTMX, TOKEN
from tests.store.helpers import sign_up

DRAFT = re.compile(r'name="yaml" value="([^"]*)"')
SPOT_ID = re.compile(r'name="spot_id" value="([0-9a-f]{32})"')
LIBRARY_FILE = Path(__file__).parents[3] / "scenarios" / "short-all-in" / "short-allin-then-full-raise.yaml"
STRADDLED = {"step": "setup", "game": "no-limit", "sb": "50", "bb": "100", "straddles": "200", "start": "preflop",
             "stack-SB": "5000", "stack-BB": "5000", "stack-UTG": "5000", "stack-CO": "5000", "stack-BTN": "350"}


class Editor:
    """An instructor on the editor page: each post sends the draft the last page carried."""

    def __init__(self, client) -> None:
        self.client = client
        self.page = client.get("/editor/").text

    @property
    def draft(self) -> str:
        return html.unescape(DRAFT.search(self.page).group(1))

    def post(self, data: dict, *, headers: dict | None = None, keep: bool = True):
        sent = {"csrf_token": TOKEN.search(self.page).group(1), "yaml": self.draft, **data}
        spot = SPOT_ID.search(self.page)
        if spot and "spot_id" not in data:
            sent["spot_id"] = spot.group(1)
        response = self.client.post("/editor/", data=sent, headers=headers or {})
        if keep and response.status_code == 200 and response.mimetype == "text/html":
            self.page = response.text
        return response

    def act(self, position: str, verb: str, amount: str = "", **kw):
        return self.post({"step": "action", "position": position, "verb": verb, "amount": amount}, **kw)


@pytest.fixture
def editor(client) -> Editor:
    sign_up(client, "teacher@example.com", name="Ms Tsai", instructor=True)
    return Editor(client)


def _straddled_short_all_in(editor: Editor) -> None:
    editor.post(STRADDLED)
    editor.act("CO", "call")
    editor.act("BTN", "allin")  # 350 over a straddle of 200: a raise of 150, short of a full 200


def test_a_blank_table_offers_what_the_engine_allows_the_first_player(editor):
    page = editor.page
    assert "Scenario editor" in page and "Deal this table" in page
    assert "Card for UTG" in page  # a 6-max table: UTG acts first preflop
    assert re.search(r'value="call">\s*call 100', page) and re.search(r'value="raise">\s*raise, to 200–10,000', page)
    assert 'value="check"' not in page and 'value="bet"' not in page
    assert "Preview: the spot as a learner sees it" in page and "Fill in the card for UTG" in page


def test_the_table_step_deals_straddles_and_stacks_and_keeps_a_refused_form(editor):
    page = editor.post(STRADDLED).text
    assert "Card for CO" in page  # the straddler is UTG: CO acts first
    assert re.search(r'value="call">\s*call 200', page)
    assert "straddles: [200]" in html.unescape(page)
    refused = editor.post({**STRADDLED, "sb": "abc", "stack-BTN": "4,000"}).text
    assert refused.count("field-error") == 1 and 'name="stack-BTN" type="text" value="4,000"' in refused
    too_many = editor.post({**STRADDLED, "straddles": "200 400 800 1600"})
    assert too_many.status_code == 200 and "game.straddles" in too_many.text  # the loader's message names the key


def test_an_illegal_action_is_refused_with_the_engines_sentence_and_the_form_kept(editor):
    editor.post(STRADDLED)
    before = editor.draft
    page = editor.act("CO", "raise", "300").text
    said = html.unescape(re.sub(r"<[^>]+>", "", page))
    assert "The minimum raise is to 400 (the last full raise added 200) (R-MINRAISE); CO may fold, call 200, or raise to 400–5,000." in said
    # The rule ID links to the rules page and is not broken across lines on a phone (R- | MINRAISE).
    assert '(<a class="rule-link" href="/rules#R-MINRAISE">R-MINRAISE</a>)' in page
    assert 'name="amount" type="text" value="300"' in page and editor.draft == before
    tampered = editor.act("BTN", "call").text  # not BTN's turn: a form sent for another seat
    assert "It is CO&#39;s turn, not BTN&#39;s (<a class=\"rule-link\" href=\"/rules#R-ORDER\">R-ORDER</a>)" in tampered
    assert editor.draft == before
    typed = editor.act("CO", "raise", "abc").text
    assert "field-error" in typed and editor.draft == before


def test_the_engines_refusal_is_said_in_the_pages_language(editor):
    editor.client.get("/?lang=zh-Hant")
    editor.page = editor.client.get("/editor/").text
    page = html.unescape(editor.act("UTG", "raise", "150").text)
    assert "最小加注是加到 200" in page and "R-MINRAISE" in page


def test_each_action_moves_the_card_on_and_undo_takes_it_back(editor):
    _straddled_short_all_in(editor)
    page = html.unescape(editor.page)
    assert "CO call, BTN allin" in page and "Card for SB" in page
    assert re.search(r"④ To add</th><td>300", page)  # SB owes 350 - 50
    editor.post({"step": "undo"})
    assert "BTN allin" not in html.unescape(editor.page) and "Card for BTN" in editor.page


def test_a_short_all_in_offers_no_raise_to_a_player_who_already_acted(editor):
    _straddled_short_all_in(editor)
    editor.act("SB", "fold")
    editor.act("BB", "fold")
    assert 'value="raise"' in editor.page  # UTG's straddle was a blind: UTG has not acted yet
    editor.act("UTG", "call")
    page = html.unescape(editor.page)
    # CO called 200; BTN's all-in added 150, short of a full 200: the betting is not reopened for CO.
    assert "Card for CO" in page and re.search(r'value="call">\s*call 150', page)
    assert 'value="raise"' not in page and 'value="allin"' not in page
    refused = html.unescape(editor.act("CO", "raise", "700").text)
    assert "R-REOPEN" in refused and "CO may fold or call 150" in refused


def test_htmx_gets_the_editor_alone(editor):
    response = editor.post(STRADDLED, headers=HTMX)
    assert response.status_code == 200 and "<html" not in response.text and 'id="editor"' in response.text
    refused = editor.act("CO", "raise", "300", headers=HTMX)
    assert refused.status_code == 200 and ">R-MINRAISE</a>)" in refused.text


def test_details_ask_and_texts_and_the_preview_shows_the_engines_answers(editor):
    _straddled_short_all_in(editor)
    page = editor.post({"step": "details", "ask": ["card", "options"], "id": "straddle-short-all-in",
                        "title-en": "SB faces a short all-in over a straddle", "title-zh-Hant": "盲注位面對不足額全下",
                        "explain-en": "CO's 350 adds 150,\nless than a full raise of 200."}).text
    page = html.unescape(page)
    assert "SB faces a short all-in over a straddle" in page
    assert "The questions, and the engine's answers" in page and "How it is worked out" in page
    assert "R-" in page and "less than a full raise" in editor.draft
    bad = html.unescape(editor.post({"step": "details", "ask": ["winners"], "id": "x"}).text)
    assert "Not a scenario yet:" in bad and "ask" in bad  # the loader's message: nobody to read hands for yet


def test_the_yaml_downloaded_passes_the_loader_and_trainer_check(editor, tmp_path):
    _straddled_short_all_in(editor)
    editor.post({"step": "details", "ask": ["card", "options"], "id": "straddle-short-all-in",
                 "title-en": "SB faces a short all-in over a straddle"})
    response = editor.post({"step": "download"})
    assert response.status_code == 200 and response.mimetype == "application/yaml"
    assert 'filename="straddle-short-all-in.yaml"' in response.headers["Content-Disposition"]
    text = response.get_data(as_text=True)
    sc = load_text(text, "straddle-short-all-in.yaml")
    assert sc.solve()["to_act"] == "SB" and sc.game.straddles == (200,)
    path = tmp_path / "straddle-short-all-in.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0, result.output


def test_a_scenario_file_opens_for_editing_and_a_broken_one_is_located_and_kept(editor):
    text = LIBRARY_FILE.read_text(encoding="utf-8")
    page = html.unescape(editor.post({"step": "open", "yaml_text": text}).text)
    assert "it loads as a scenario file" in page and "Card for BTN" in page
    assert "what is the minimum re-raise?" in page  # the preview, titled
    broken = text.replace("CO raise 1400", "CO raise 1100")
    page = html.unescape(editor.post({"step": "open", "yaml_text": broken}).text)
    assert 'draft.yaml:17: "CO raise 1100": the minimum raise is to 1200' in page and "(R-MINRAISE)" in page
    assert "CO raise 1100" in page  # the text typed, kept in its box
    assert "Card for BTN" in page  # the draft before is kept


def test_a_file_can_be_uploaded_into_the_editor(editor):
    from io import BytesIO

    data = {"step": "open", "file": (BytesIO(LIBRARY_FILE.read_bytes()), "mine.yaml")}
    page = editor.post(data).text
    assert "Opened mine.yaml" in page
    bad = editor.post({"step": "open", "file": (BytesIO(b"\xff\xfe nonsense"), "bad.yaml")}).text
    assert "not UTF-8" in bad


def test_a_tampered_draft_starts_again_with_a_message_not_a_500(editor):
    response = editor.client.post("/editor/", data={"csrf_token": TOKEN.search(editor.page).group(1),
                                                     "yaml": "game: [1", "step": "action"})
    assert response.status_code == 200 and "could not be read" in response.text
    nul = editor.client.post("/editor/", data={"csrf_token": TOKEN.search(editor.page).group(1),
                                               "yaml": editor.draft, "step": "details", "title-en": "a\x00b"})
    assert nul.status_code == 200 and "control character" in nul.text


def test_saving_goes_to_my_spots_and_reopens_as_the_next_version(editor, client):
    _straddled_short_all_in(editor)
    editor.post({"step": "details", "ask": ["card"], "id": "straddle-short-all-in", "title-en": "Straddled"})
    page = html.unescape(editor.post({"step": "save"}).text)
    assert "Saved in My spots: “Straddled”, version 1." in page
    spot_id = SPOT_ID.search(editor.page).group(1)
    editor.post({"step": "details", "ask": ["card", "options"], "id": "straddle-short-all-in", "title-en": "Straddled"})
    assert "version 2." in editor.post({"step": "save"}).text
    assert f"/my-spots/{spot_id}" in editor.page  # the saved spot, one link away
    reopened = html.unescape(client.get(f"/editor/?spot={spot_id}").text)
    assert "Straddled" in reopened and "Card for SB" in reopened and f'value="{spot_id}"' in reopened


def test_a_draft_that_does_not_load_is_not_saved(editor):
    editor.post({"step": "details", "ask": ["pots"]})  # pots while UTG is still to act
    page = html.unescape(editor.post({"step": "save"}).text)
    assert "spot.yaml:" in page and "Saved in My spots" not in page


def test_students_and_strangers_do_not_get_the_editor(client, app):
    anonymous = client.get("/editor/")
    assert anonymous.status_code == 302 and "/account/login" in anonymous.headers["Location"]
    sign_up(client, "student@example.com")
    assert client.get("/editor/").status_code == 403
    page = client.get("/account/").text  # its sign-out form carries a token
    assert client.post("/editor/", data={"csrf_token": TOKEN.search(page).group(1), "step": "setup"}).status_code == 403


def test_another_instructors_spot_is_404_in_the_editor(editor, app):
    _straddled_short_all_in(editor)
    editor.post({"step": "details", "ask": ["card"], "id": "mine", "title-en": "Mine"})
    editor.post({"step": "save"})
    spot_id = SPOT_ID.search(editor.page).group(1)
    other = app.test_client()
    sign_up(other, "other@example.com", instructor=True)
    assert other.get(f"/editor/?spot={spot_id}").status_code == 404
    assert other.get("/editor/?spot=nonsense").status_code == 404
    page = other.get("/editor/").text
    sent = {"csrf_token": TOKEN.search(page).group(1), "yaml": editor.draft, "step": "save", "spot_id": spot_id}
    assert other.post("/editor/", data=sent).status_code == 404


THREE = {"step": "setup", "game": "no-limit", "sb": "50", "bb": "100", "start": "preflop",
         "stack-SB": "1000", "stack-BB": "1000", "stack-BTN": "1000"}


def test_a_ruling_on_chips_is_asked_and_answered_by_the_engine(editor):  # R-OVERCHIP
    editor.post(THREE)
    page = html.unescape(editor.post({"step": "details", "ask": ["ruling"], "chips": "500", "id": "one-chip",
                                      "title-en": "One 500 chip"}).text)
    assert "ruling:\n  chips: [500]" in editor.draft
    assert "R-OVERCHIP" in page and "Not a scenario yet" not in page
    assert load_text(editor.draft, "one-chip.yaml").solve()["ruling"] == {"action": "call", "to": 100, "returned": 400}


def test_winners_are_read_from_the_board_and_the_hands_once_betting_is_over(editor):  # R-SIDEPOTS
    editor.post(THREE)
    editor.act("BTN", "allin")
    editor.act("SB", "fold")
    editor.act("BB", "call")
    assert "Betting is over" in editor.page and "ask: [pots, showdown]" in editor.draft
    page = html.unescape(editor.post({"step": "details", "ask": ["winners", "split"], "board": "Ks 9d 7c 4h 2s",
                                      "hand-BB": "Ah Kh", "hand-BTN": "Ad, Kd", "title-en": "A chop"}).text)
    assert "Not a scenario yet" not in page
    solved = load_text(editor.draft, "chop.yaml").solve()
    assert solved["winners"] == [["BB", "BTN"]] and solved["split"] == [{"BB": 1025, "BTN": 1025}]
    broken = html.unescape(editor.post({"step": "details", "ask": ["winners"], "board": "Ks 9d 7c 4h Ks",
                                        "hand-BB": "Ah Kh", "hand-BTN": "Ad Kd"}).text)
    assert "Not a scenario yet:" in broken and "board" in broken  # the loader names the key


def test_a_large_scenario_pasted_is_read_and_a_body_past_the_limit_is_refused_with_the_limit_named(editor, app):
    text = LIBRARY_FILE.read_text(encoding="utf-8") + "".join(f"# {'x' * 70}\n" for _ in range(2000))  # about 150 KB
    page = editor.post({"step": "open", "yaml_text": text}).text
    assert "it loads as a scenario file" in page
    app.config["UPLOAD_MAX_BYTES"] = 1_000_000
    refused = editor.post({"step": "open", "yaml_text": text * 8}, keep=False)
    assert refused.status_code == 200
    assert "That was more than 1 MB, so nothing was read or saved." in refused.text


def test_house_rules_go_to_the_engine_and_a_combination_it_refuses_is_the_loaders_message(editor):  # R-REOPEN
    page = html.unescape(editor.post({**THREE, "reopen": "exceed"}).text)
    assert "rules:\n    reopen: exceed" in editor.draft and 'value="exceed" selected' in page
    refused = html.unescape(editor.post({**THREE, "reopen": "exceed", "game": "fixed-limit"}).text)
    assert "game.rules.reopen" in refused and "rules:\n    reopen: exceed" in editor.draft  # the draft before is kept
    capped = editor.post({**THREE, "game": "fixed-limit", "limit_cap": "2", "limit_cap_heads_up": "no"})
    assert capped.status_code == 200 and "limit_cap: 2" in editor.draft and "limit_cap_heads_up: false" in editor.draft
