"""Rulings on chips and words (R-CHIPS) and odd-chip splits (R-ODDCHIP), from RULES.md's examples."""

import pytest

from trainer.engine import Action, ActionKind, Declaration, Game, GameType, Hand, Street, rule
from trainer.engine.messages import EngineError


def spot(stacks, blinds, actions=(), start=Street.PREFLOP, pot=0):
    hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=blinds), stacks=stacks, start=start, pot=pot)
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
    """R-STRING: chips added after going back to the stack do not count."""
    action, to, returned, rules = ruled(utg_to_1100(), chips=[1000, 100], later=[1000])
    assert (action, to) == ("call", 1100) and "R-STRING" in rules


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
