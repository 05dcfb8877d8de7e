"""Rulings on chips and words (R-CHIPS) and odd-chip splits (R-ODDCHIP), from RULES.md's examples."""

import pytest

from trainer.engine import Action, ActionKind, Declaration, Game, GameType, Hand, Street, rule
from trainer.engine.messages import EngineError
from trainer.engine.rulings import ruling_action
from trainer.translations.engine import engine_templates

ZH_HANT, ZH_HANS = engine_templates("zh-Hant"), engine_templates("zh-Hans")


def spot(stacks, blinds, actions=(), start=Street.PREFLOP, pot=0, game=GameType.NO_LIMIT):
    hand = Hand(game=Game(type=game, blinds=blinds), stacks=stacks, start=start, pot=pot)
    for text in actions:
        pos, verb, *amount = text.split()
        hand.apply(Action(position=pos, kind=ActionKind(verb), amount=int(amount[0]) if amount else None))
    return hand


def ruled(hand, said=None, chips=(), later=()):
    r = rule(hand, Declaration(said=said, chips=tuple(chips), later=tuple(later)))
    return r.action, r.to, r.returned, {s.rule for s in r.steps if s.rule}


SIX = {"UTG": 20000, "UTG+1": 20000, "CO": 20000, "BTN": 20000, "SB": 20000, "BB": 20000}


def utg_to_1100():
    return spot(SIX, (250, 500), ["UTG raise 1100"])


def test_overchip_facing_a_bet_is_a_call_seed_000():
    """R-OVERCHIP, seed 000: facing 10, a silent 100 chip is a call."""
    hand = spot({"SB": 1000, "BB": 1000, "BTN": 1000}, (5, 10), ["SB bet 10"], start=Street.FLOP, pot=30)
    assert ruled(hand, chips=[100]) == ("call", 10, 90, {"R-OVERCHIP"})


def test_overchip_with_raise_declared_is_the_most_the_chip_allows():
    """R-OVERCHIP: "raise" with one chip and no amount raises to what the chip allows."""
    hand = spot({"SB": 1000, "BB": 1000, "BTN": 1000}, (5, 10), ["SB bet 10"], start=Street.FLOP, pot=30)
    action, to, returned, rules = ruled(hand, said="raise", chips=[100])
    assert (action, to, returned) == ("raise", 100, 0) and "R-OVERCHIP" in rules


def test_overchip_facing_no_bet_is_a_bet_of_its_value():
    """R-OVERCHIP: facing no bet, a silent overchip is a bet of the chip's full value."""
    hand = spot({"SB": 1000, "BB": 1000}, (5, 10), start=Street.FLOP, pot=20)
    assert ruled(hand, chips=[100])[:3] == ("bet", 100, 0)


def test_multichip_every_chip_needed_addendum_45_ex_1b():
    """R-MULTICHIP, Addendum 45 Ex 1-B: 250/500, UTG to 1100, UTG+1 silently 500 + 1000 -> call."""
    assert ruled(utg_to_1100(), chips=[500, 1000]) == ("call", 1100, 400, {"R-MULTICHIP"})


def test_half_rule_must_make_full_raise_addendum_45_ex2():
    """R-HALF, Addendum 45 Ex 2: UTG to 1100 (+600), UTG+1 silently 1500 -> must raise to 1700."""
    action, to, returned, rules = ruled(utg_to_1100(), chips=[100] * 15)
    assert (action, to, returned) == ("raise", 1700, 0) and "R-HALF" in rules


def test_half_rule_under_half_is_a_call_addendum_45_ex3():
    """R-HALF, Addendum 45 Ex 3: silently 1300 -> call, 200 returned."""
    assert ruled(utg_to_1100(), chips=[100] * 13)[:3] == ("call", 1100, 200)


def test_amount_alone_fourteen_hundred_is_a_call():
    """R-VERBAL + R-HALF, TDA24 43-A: opening bet 1000, "fourteen hundred" -> call."""
    hand = spot({"SB": 20000, "BB": 20000}, (250, 500), ["SB bet 1000"], start=Street.FLOP, pot=1000)
    action, to, _, rules = ruled(hand, said="1400")
    assert (action, to) == ("call", 1000) and {"R-VERBAL", "R-HALF"} <= rules


def test_call_then_more_chips_is_a_call_seed_000():
    """R-VERBAL, seed 000 / WSOP-T 90.d: "call" first, then more chips: a call."""
    assert ruled(utg_to_1100(), said="call", chips=[1000, 1000])[:3] == ("call", 1100, 900)


def test_invalid_declarations():
    """R-INVALIDDECL: facing no bet "call" is a check, "raise" binds to a minimum bet; "check" facing a bet -> call or fold."""
    no_bet = spot({"SB": 1000, "BB": 1000}, (5, 10), start=Street.FLOP, pot=20)
    assert ruled(no_bet, said="call")[:2] == ("check", None)
    assert ruled(no_bet, said="raise")[:2] == ("bet", 10)
    assert ruled(no_bet, chips=[5, 5, 5])[:2] == ("bet", 15)
    assert ruled(utg_to_1100(), said="check")[:2] == ("call-or-fold", None)


def test_string_bet_second_motion_does_not_count():
    """R-STRING: chips added after going back to the stack do not count; they go back with the change."""
    action, to, returned, rules = ruled(utg_to_1100(), chips=[1000, 100], later=[1000])
    assert (action, to, returned) == ("call", 1100, 1000) and "R-STRING" in rules


def test_string_bet_facing_600_the_second_motion_goes_back():
    """R-STRING (RULES.md): facing 600, 600 pushed, then 600 more in a second motion -> call 600, 600 returned."""
    hand = spot({"UTG": 10000, "HJ": 10000, "BTN": 10000, "SB": 10000, "BB": 10000}, (100, 200), ["UTG raise 600"])
    assert ruled(hand, chips=[500, 100], later=[500, 100]) == ("call", 600, 600, {"R-STRING", "R-MULTICHIP"})


def test_silent_1400_over_a_1000_bet_is_a_call_tda_43a():
    """R-HALF, TDA24 43-A: opening bet 1000, a silent 1400 -> call, 400 returned."""
    hand = spot({"SB": 20000, "BB": 20000, "BTN": 20000}, (250, 500), ["SB bet 1000"], start=Street.FLOP, pot=1500)
    assert ruled(hand, chips=[1000, 100, 100, 100, 100]) == ("call", 1000, 400, {"R-HALF"})


# -- every ruling ends in an action the engine's own options allow (R-CHIPS)

THREE = {"SB": 10000, "BB": 10000, "BTN": 10000}


def test_pot_limit_all_in_is_cut_to_the_pot():
    """R-CHIPS, R-POTLIMIT: pot limit, pot 1000, "all in" with 10,000 behind -> bet 1000, 9000 returned."""
    hand = spot(THREE, (50, 100), start=Street.FLOP, pot=1000, game=GameType.POT_LIMIT)
    for chips in ((), (5000, 5000)):
        action, to, returned, rules = ruled(hand, said="allin", chips=chips)
        assert (action, to, returned) == ("bet", 1000, 9000) and "R-POTLIMIT" in rules


def test_pot_limit_silent_raise_over_the_maximum_is_the_maximum():
    """R-CHIPS, R-POTLIMIT: pot 100, a bet of 50, silently 1000 -> raise to the maximum 250, 750 returned."""
    hand = spot(THREE, (5, 10), ["SB bet 50"], start=Street.FLOP, pot=100, game=GameType.POT_LIMIT)
    action, to, returned, rules = ruled(hand, chips=[500, 500])
    assert (action, to, returned) == ("raise", 250, 750) and {"R-HALF", "R-POTLIMIT"} <= rules


def test_fixed_limit_raise_with_one_big_chip_is_one_bet():
    """R-CHIPS, R-LIMIT: limit 10/20 on the flop, "raise" facing 10 with one 100 chip -> raise to 20, 80 returned."""
    hand = spot(THREE, (5, 10), ["SB bet 10"], start=Street.FLOP, pot=30, game=GameType.FIXED_LIMIT)
    action, to, returned, rules = ruled(hand, said="raise", chips=[100])
    assert (action, to, returned) == ("raise", 20, 80) and {"R-OVERCHIP", "R-LIMIT"} <= rules


def test_fixed_limit_declared_bet_is_one_bet():
    """R-CHIPS, R-LIMIT: "bet 100" on the turn of 10/20 -> bet 20."""
    hand = spot(THREE, (5, 10), start=Street.TURN, pot=60, game=GameType.FIXED_LIMIT)
    action, to, returned, rules = ruled(hand, said="bet 100")
    assert (action, to, returned) == ("bet", 20, 0) and "R-LIMIT" in rules


def test_fixed_limit_raise_after_a_short_all_in_completes():
    """R-CHIPS, R-LIMIT: turn of 10/20, bet 20, all-in to 29, "raise" -> complete to 40, not 49."""
    hand = spot({"SB": 1000, "BB": 29, "BTN": 1000}, (5, 10), ["SB bet 20", "BB allin"], start=Street.TURN,
                pot=60, game=GameType.FIXED_LIMIT)
    action, to, returned, rules = ruled(hand, said="raise")
    assert (action, to, returned) == ("raise", 40, 0) and "R-LIMIT" in rules


def test_nothing_owed_nothing_called():
    """R-CHIPS: limped to the big blind at 50/100, two 5 chips pushed silently -> check, 10 returned."""
    hand = spot({"UTG": 5000, "BTN": 5000, "SB": 5000, "BB": 5000}, (50, 100), ["UTG call", "BTN call", "SB call"])
    action, to, returned, rules = ruled(hand, chips=[5, 5])
    assert (action, to, returned) == ("check", None, 10) and "R-CHIPS" in rules


def test_rulings_are_legal_actions_and_say_why_in_both_scripts():
    """Each example above is an action the hand accepts, and its explanation renders in both scripts."""
    hand = spot(THREE, (50, 100), start=Street.FLOP, pot=1000, game=GameType.POT_LIMIT)
    r = rule(hand, Declaration(said="allin"))
    assert hand.legal(ruling_action(hand, r))
    ids = [s.message.id for s in r.steps]
    assert "opt.max_pl_bet" in ids and "rule.over_max" in ids and ids[-1] == "rule.returned"
    assert "9000 goes back" in r.steps[-1].render()
    assert "9,000 退回" in r.steps[-1].render(ZH_HANT) and "9,000 退还" in r.steps[-1].render(ZH_HANS)


def test_last_chips_are_all_in_either_way():
    """R-MULTICHIP: a player's last chips are all-in."""
    hand = spot({"UTG": 1300, "SB": 20000, "BB": 20000}, (250, 500), [])
    hand2 = spot({"UTG": 20000, "CO": 1300, "SB": 20000, "BB": 20000}, (250, 500), ["UTG raise 1100"])
    assert ruled(hand2, chips=[100] * 13)[:2] == ("raise", 1300)
    assert ruled(hand, said="allin")[:2] == ("raise", 1300)


def test_ruling_needs_a_player_to_act():
    hand = spot({"SB": 100, "BB": 100}, (5, 10), ["SB fold"])
    with pytest.raises(EngineError):
        rule(hand, Declaration(said="call"))


def test_odd_chip_goes_clockwise_from_the_button():
    """R-ODDCHIP: split to the smallest chip; the odd chip goes to the first winner left of the button."""
    hand = spot({"SB": 1000, "BB": 1000, "BTN": 1000}, (5, 10), ["BTN call", "SB call", "BB check"])
    for _ in range(6):
        hand.apply(Action(position=hand.to_act, kind=ActionKind.CHECK))
    hand.apply(Action(position="SB", kind=ActionKind.BET, amount=15))
    hand.apply(Action(position="BB", kind=ActionKind.CALL))
    hand.apply(Action(position="BTN", kind=ActionKind.FOLD))
    assert hand.result().pots[0].amount == 60
    shares, steps = hand.split([["BB", "SB"]], chip=1)
    assert shares == [{"SB": 30, "BB": 30}]
    shares, steps = hand.split([["BB", "SB"]], chip=25)
    assert shares == [{"SB": 35, "BB": 25}]
    assert any(s.rule == "R-ODDCHIP" and s.message.id == "res.odd_chip" for s in steps)
    with pytest.raises(EngineError, match="can be won only by"):
        hand.split([["BTN"]])


def oot_spot():
    return spot({"UTG": 5000, "CO": 5000, "BTN": 5000, "SB": 5000, "BB": 5000}, (50, 100), ["UTG call"])


def test_out_of_turn_fold_is_binding():
    """R-OOT: an out-of-turn fold is binding."""
    assert ruled_oot(oot_spot(), by="BTN", said="fold")[:2] == ("fold", None)


def test_out_of_turn_binds_when_the_action_does_not_change():
    """R-OOT: BTN calls out of turn before CO acts; CO calls too: the call binds."""
    action, to, _, rules = ruled_oot(oot_spot(), by="BTN", said="call", then=["CO call"])
    assert (action, to) == ("call", 100) and "R-OOT" in rules


def test_out_of_turn_frees_the_player_when_the_action_changes():
    """R-OOT: CO raises before BTN's turn: BTN is no longer bound by the out-of-turn call."""
    assert ruled_oot(oot_spot(), by="BTN", said="call", then=["CO raise 300"])[:2] == ("free", None)


def ruled_oot(hand, by, said, then=()):
    actions = []
    for text in then:
        pos, verb, *amount = text.split()
        actions.append(Action(position=pos, kind=ActionKind(verb), amount=int(amount[0]) if amount else None))
    r = rule(hand, Declaration(said=said, by=by, then=tuple(actions)))
    return r.action, r.to, r.returned, {s.rule for s in r.steps if s.rule}


def test_every_sample_ruling_explains_itself_in_both_scripts():
    """The ruling of every sample file (library and worked examples) renders with no English left."""
    from pathlib import Path

    from trainer.scenarios import load_paths

    from tests.test_messages_zh import LOCALES, render_all

    repo = Path(__file__).resolve().parents[1]
    scenarios = [s for s in load_paths([repo / "scenarios", repo / "tests" / "scenarios"]).scenarios if s.ruling]
    assert len(scenarios) > 40
    for scenario in scenarios:
        steps = rule(scenario.hand(), scenario.ruling).steps
        assert steps, scenario.id
        for locale in LOCALES:
            render_all(steps, locale)
