"""The scenario builder the editor uses (no web): each step offered and checked by the engine, the
draft written as YAML that the loader reads back. Rules cases cite the rule the engine applies."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer.scenarios import ScenarioError, load_file, load_text, scenario_files
from trainer.scenarios.builder import (
    Refused,
    add_action,
    check,
    from_draft,
    from_yaml,
    setup,
    to_yaml,
    turn,
    undo,
    with_values,
)

ROOT = Path(__file__).parents[1]
SIX = {p: 10000 for p in ("SB", "BB", "UTG", "HJ", "CO", "BTN")}


def play(doc: dict, *steps: str) -> dict:
    for step in steps:
        position, verb, *amount = step.split()
        doc = add_action(doc, position=position, verb=verb, amount=int(amount[0]) if amount else None)
    return doc


def test_a_raise_below_the_minimum_is_refused_with_the_rule_and_what_was_legal():  # R-MINRAISE
    doc = setup(game_type="no-limit", blinds=(50, 100), stacks=SIX)
    with pytest.raises(Refused) as refused:
        add_action(doc, position="UTG", verb="raise", amount=150)
    assert str(refused.value) == ("The minimum raise is to 200 (the last full raise added 100) (R-MINRAISE); "
                                  "UTG may fold, call 100, or raise to 200–10000.")


def test_acting_out_of_turn_is_refused():  # R-ORDER
    doc = setup(game_type="no-limit", blinds=(50, 100), stacks=SIX)
    with pytest.raises(Refused, match=r"It is UTG's turn, not BTN's \(R-ORDER\)"):
        add_action(doc, position="BTN", verb="call")


def test_a_straddle_moves_the_first_action_and_a_short_all_in_does_not_reopen():  # R-STRADDLE, R-REOPEN
    doc = setup(game_type="no-limit", blinds=(50, 100), straddles=(200,),
                stacks={"SB": 5000, "BB": 5000, "UTG": 5000, "CO": 5000, "BTN": 350})
    t = turn(doc)
    assert t.to_act == "CO" and t.card.current_total == 200 and t.verbs == ("fold", "call", "raise", "allin")
    doc = play(doc, "CO call", "BTN allin", "SB fold", "BB fold")
    assert "raise" in turn(doc).verbs  # the straddler has not acted yet
    doc = play(doc, "UTG call")
    t = turn(doc)
    assert t.to_act == "CO" and t.verbs == ("fold", "call") and t.options.call == 150
    with pytest.raises(Refused, match="R-REOPEN"):
        add_action(doc, position="CO", verb="raise", amount=700)


def test_pot_limit_and_fixed_limit_bounds_come_from_the_engine():  # R-POTLIMIT, R-LIMIT
    pl = setup(game_type="pot-limit", blinds=(50, 100), stacks={"SB": 5000, "BB": 5000, "BTN": 5000})
    assert turn(pl).options.raise_.max == 350
    with pytest.raises(Refused, match=r"The pot-limit maximum is 350 \(R-POTLIMIT\)"):
        add_action(pl, position="BTN", verb="raise", amount=400)
    fl = setup(game_type="fixed-limit", blinds=(50, 100), stacks={"SB": 5000, "BB": 5000, "BTN": 5000})
    with pytest.raises(Refused, match=r"exactly 200 \(R-LIMIT\)"):
        add_action(fl, position="BTN", verb="raise", amount=300)


def test_antes_are_posted_from_the_table():  # R-ANTE, R-BBANTE
    stacks = {"SB": 5000, "BB": 5000, "BTN": 5000}
    assert turn(setup(game_type="no-limit", blinds=(50, 100), ante=10, stacks=stacks)).hand.pot == 180
    assert turn(setup(game_type="no-limit", blinds=(50, 100), bb_ante=100, stacks=stacks)).hand.pot == 250


def test_a_table_that_cannot_be_dealt_is_refused_with_the_loaders_message_and_key():
    with pytest.raises(Refused) as refused:
        setup(game_type="no-limit", blinds=(50, 100), straddles=(200,), stacks={"BB": 5000, "BTN": 5000})
    assert refused.value.key == "game.straddles" and "heads-up nobody can straddle" in str(refused.value)


def test_actions_are_recorded_by_street_and_the_draft_loads_as_a_file():
    doc = play(setup(game_type="no-limit", blinds=(50, 100), stacks={"SB": 5000, "BB": 5000, "BTN": 5000}),
               "BTN call", "SB call", "BB check", "SB bet 200")
    assert doc["actions"] == {"preflop": ["BTN call", "SB call", "BB check"], "flop": ["SB bet 200"]}
    sc = load_text(to_yaml(doc), "x.yaml")
    assert sc.solve()["street"] == "flop" and sc.solve()["to_act"] == "BB"
    assert undo(doc)["actions"] == ["BTN call", "SB call", "BB check"]


def test_once_betting_is_over_nothing_more_is_taken_and_the_pots_are_asked():
    doc = play(setup(game_type="no-limit", blinds=(50, 100), stacks={"SB": 5000, "BB": 5000, "BTN": 300}),
               "BTN allin", "SB fold", "BB call")
    assert turn(doc).betting_over and doc["ask"] == ["pots", "showdown"]
    with pytest.raises(Refused, match="Betting is over"):
        add_action(doc, position="BB", verb="check")
    assert check(doc).solve()["pots"] == [{"amount": 650, "eligible": ["BB", "BTN"]}]
    assert undo(doc)["ask"] == ["card"]  # someone is to act again: pots cannot be asked yet


def test_questions_the_spot_cannot_answer_are_the_loaders_errors():
    doc = with_values(setup(game_type="no-limit", blinds=(50, 100), stacks=SIX), ask=["pots"])
    with pytest.raises(ScenarioError, match="ask"):
        check(doc)


@pytest.mark.parametrize("path", scenario_files([ROOT / "scenarios"])[:: 7], ids=lambda p: p.name)
def test_a_library_file_opened_and_written_again_gives_the_same_answers(path):
    doc = from_yaml(path.read_text(encoding="utf-8"), path.name)
    again = load_text(to_yaml(doc), path.name)
    assert again.solve() == {**load_file(path).solve(), "file": path.name}
    assert from_draft(to_yaml(doc)) == doc


def test_a_draft_that_is_not_a_mapping_is_refused_by_the_reader():
    with pytest.raises(ScenarioError):
        from_draft("- just\n- a list\n")
    with pytest.raises(ScenarioError):
        from_draft("game: [1\n")


def test_a_files_expect_goes_when_the_action_changes_and_the_rest_stays():
    path = ROOT / "scenarios" / "short-all-in" / "short-allin-then-full-raise.yaml"
    doc = from_yaml(path.read_text(encoding="utf-8"), path.name)
    assert "expect" in doc
    shorter = undo(doc)
    assert "expect" not in shorter and shorter["title"] == doc["title"] and shorter["explain"] == doc["explain"]
    assert check(shorter).solve()["to_act"] == "CO"
