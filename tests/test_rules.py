"""The worked examples of RULES.md, the seeds and the TDA 2024 Addendum, as engine tests.

Each test names the rule it checks; the numbers come from the rule text, not
from the engine.
"""

import pytest

from trainer.engine import (
    Action,
    ActionKind,
    BBAOrder,
    Game,
    GameType,
    Hand,
    IllegalActionError,
    Reopen,
    Rules,
    Showdown,
    Street,
)

NL, PL, FL = GameType.NO_LIMIT, GameType.POT_LIMIT, GameType.FIXED_LIMIT


def hand(stacks, blinds=(100, 200), type=NL, start=Street.PREFLOP, pot=0, **game):
    return Hand(game=Game(type=type, blinds=blinds, **game), stacks=stacks, start=start, pot=pot)


def play(h, *actions):
    for text in actions:
        pos, verb, *amount = text.split()
        h.apply(Action(position=pos, kind=ActionKind(verb), amount=int(amount[0]) if amount else None))
    return h


def six(stack=10000, **override):
    stacks = dict.fromkeys(["UTG", "HJ", "CO", "BTN", "SB", "BB"], stack)
    stacks.update(override)
    return stacks


def raise_range(h):
    r = h.options().raise_
    return None if r is None else (r.min, r.max)


# --- R-MINRAISE ------------------------------------------------------------


def test_minraise_addendum_43_ex1():
    """R-MINRAISE, TDA24 Addendum 43 Ex 1: A bets 600, B to 1600, C to 3600 -> D min 5600."""
    h = hand({"SB": 20000, "BB": 20000, "CO": 20000, "BTN": 20000}, start=Street.FLOP, pot=1000)
    play(h, "SB bet 600", "BB raise 1600", "CO raise 3600")
    assert h.to_act == "BTN"
    assert h.card().last_full_increment == 2000
    assert raise_range(h) == (5600, 20000)


def test_minraise_seed_001():
    """R-MINRAISE, seed 001: 50/100, to 300 (+200) -> 500; to 800 (+500) -> 1300."""
    h = hand(six(), blinds=(50, 100))
    play(h, "UTG raise 300")
    assert raise_range(h)[0] == 500
    play(h, "HJ raise 800")
    assert raise_range(h)[0] == 1300


def test_minraise_seed_003_co_adds_1400():
    """R-MINRAISE, seed 003: 100/200, UTG to 600, HJ to 1000 -> CO min raise-to 1400, adding 1400."""
    h = play(hand(six()), "UTG raise 600", "HJ raise 1000")
    card = h.card()
    assert (card.current_total, card.last_full_increment, card.committed, card.to_add) == (1000, 400, 0, 1000)
    assert raise_range(h)[0] == 1400


def test_minraise_error_names_rule_and_legal_options():
    """R-MINRAISE: the contract's example error sentence."""
    h = play(hand(six()), "UTG raise 600", "HJ raise 1000")
    with pytest.raises(IllegalActionError) as err:
        play(h, "CO raise 1300")
    assert err.value.clause() == (
        "the minimum raise is to 1400 (the last full raise added 400) (R-MINRAISE); "
        "CO may fold, call 1000, or raise to 1400–10000"
    )


def test_minbet_is_one_big_blind():
    """R-MINBET: the first bet of a street is at least the big blind unless all-in."""
    h = hand({"SB": 5000, "BB": 5000}, start=Street.FLOP, pot=400)
    assert h.options().bet.min == 200
    with pytest.raises(IllegalActionError, match="R-MINBET"):
        play(h, "SB bet 150")


# --- R-SHORTALLIN ----------------------------------------------------------


def test_short_allin_preflop_utg_150():
    """R-SHORTALLIN: blinds 50/100, UTG all-in for 150 -> next min raise-to 250."""
    h = play(hand(six(UTG=150), blinds=(50, 100)), "UTG allin")
    assert h.card().last_full_increment == 100
    assert raise_range(h)[0] == 250


def test_short_allin_addendum_43_ex2_cumulative():
    """R-SHORTALLIN, Addendum 43 Ex 2: A bets 300, all-ins 500, 650, 800 -> F's min raise-to 1100."""
    stacks = {"UTG": 5000, "HJ": 500, "CO": 650, "BTN": 800, "SB": 5000, "BB": 5000}
    h = hand(stacks, blinds=(100, 200), start=Street.FLOP, pot=1000)
    play(h, "SB bet 300", "BB fold", "UTG call", "HJ allin", "CO allin", "BTN allin")
    assert h.to_act == "SB"  # SB faced 500 >= 300: reopened
    h2 = hand({"SB": 5000, "BB": 500, "UTG": 650, "HJ": 800, "CO": 5000}, start=Street.FLOP, pot=1000)
    play(h2, "SB bet 300", "BB allin", "UTG allin", "HJ allin")
    assert h2.to_act == "CO"
    assert h2.card().last_full_increment == 300
    assert raise_range(h2)[0] == 1100


def test_short_allin_first_bet_below_big_blind():
    """R-SHORTALLIN: BB 200, first postflop bet is all-in 150 -> ② stays 200, min raise-to 350."""
    h = play(hand({"SB": 150, "BB": 5000, "BTN": 5000}, start=Street.FLOP, pot=600), "SB allin")
    assert (h.card().current_total, h.card().last_full_increment) == (150, 200)
    assert raise_range(h)[0] == 350


# --- R-REOPEN --------------------------------------------------------------


def seed003_turn():
    h = hand({"SB": 10000, "BB": 10000, "CO": 1400, "BTN": 10000}, start=Street.TURN, pot=600)
    return play(h, "SB bet 1000", "BB call", "CO allin")


def test_reopen_seed003_btn_not_acted_may_raise():
    """R-REOPEN, seed 003: BTN has not acted: call 1400 or raise to at least 2400."""
    h = seed003_turn()
    assert h.to_act == "BTN"
    assert h.options().call == 1400
    assert raise_range(h) == (2400, 10000)


def test_reopen_seed003_sb_after_btn_calls_call_or_fold():
    """R-REOPEN, seed 003: after BTN calls, SB faces 400 < 1000: call or fold only."""
    h = play(seed003_turn(), "BTN call")
    assert h.to_act == "SB"
    assert h.card().to_add == 400 and h.card().acted
    assert h.options().raise_ is None
    with pytest.raises(IllegalActionError, match="R-REOPEN"):
        play(h, "SB raise 3000")


def seed003_five():
    h = hand(
        {"SB": 10000, "BB": 1400, "UTG": 10000, "CO": 2000, "BTN": 10000}, start=Street.TURN, pot=600
    )
    return play(h, "SB bet 1000", "BB allin", "UTG call", "CO allin", "BTN fold")


def test_reopen_seed003_cumulative_reopens_sb():
    """R-REOPEN, seed 003: two short all-ins add up to 1000 for SB: reopened, min raise-to 3000."""
    h = seed003_five()
    assert h.to_act == "SB"
    assert h.card().to_add == 1000
    assert raise_range(h) == (3000, 10000)


def test_reopen_seed003_utg_after_sb_calls():
    """R-REOPEN, seed 003: UTG called 1400, then faces only 600 < 1000: call or fold."""
    h = play(seed003_five(), "SB call")
    assert h.to_act == "UTG"
    assert h.card().to_add == 600
    assert h.options().raise_ is None


def test_reopen_addendum_47_ex1():
    """R-REOPEN, Addendum 47 Ex 1: A bets 100, B all-in 125, C calls, D all-in 200, E calls -> A may raise; then C may not."""
    stacks = {"SB": 5000, "BB": 125, "UTG": 5000, "HJ": 200, "CO": 5000}
    h = hand(stacks, blinds=(50, 100), start=Street.FLOP, pot=500)
    play(h, "SB bet 100", "BB allin", "UTG call", "HJ allin", "CO call")
    assert h.to_act == "SB" and h.card().to_add == 100
    assert raise_range(h) is not None
    play(h, "SB call")
    assert h.to_act == "UTG" and h.card().to_add == 75
    assert h.options().raise_ is None


def test_reopen_addendum_47_ex3_preflop_over_limper():
    """R-REOPEN, Addendum 47 Ex 3: 2000/4000, A limps, C all-in 7500, SB folds; BB may raise to 11,500; after BB calls, A may only call."""
    stacks = {"UTG": 50000, "CO": 7500, "SB": 50000, "BB": 50000}
    h = play(hand(stacks, blinds=(2000, 4000)), "UTG call", "CO allin", "SB fold")
    assert h.to_act == "BB" and not h.card().acted
    assert h.options().call == 3500
    assert raise_range(h) == (11500, 50000)
    play(h, "BB call")
    assert h.to_act == "UTG" and h.card().to_add == 3500
    assert h.options().raise_ is None


def test_reopen_exceed_option_needs_more_than_a_full_raise():
    """R-REOPEN option `reopen: exceed` (WSOP-T 96.a): exactly a full raise's worth of short all-ins does not reopen."""
    stacks = {"SB": 10000, "BB": 1400, "UTG": 10000, "CO": 2000, "BTN": 10000}
    h = Hand(
        game=Game(type=NL, blinds=(100, 200), rules=Rules(reopen=Reopen.EXCEED)),
        stacks=stacks,
        start=Street.TURN,
        pot=600,
    )
    play(h, "SB bet 1000", "BB allin", "UTG call", "CO allin", "BTN fold")
    assert h.to_act == "SB" and h.card().to_add == 1000
    assert h.options().raise_ is None


def test_reopen_exceed_still_reopens_after_a_full_raise():
    """R-REOPEN with `exceed`: a plain full raise still lets the bettor re-raise."""
    h = Hand(
        game=Game(type=NL, blinds=(100, 200), rules=Rules(reopen=Reopen.EXCEED)),
        stacks={"SB": 10000, "BB": 10000},
        start=Street.FLOP,
        pot=400,
    )
    play(h, "SB bet 200", "BB raise 400")
    assert raise_range(h) == (600, 10000)


def test_checked_player_facing_short_first_bet_may_not_raise():
    """R-REOPEN / known difference 6: a player who checked faces an all-in first bet of 150 < BB 200: call or fold."""
    h = hand({"SB": 5000, "BB": 150, "BTN": 5000}, start=Street.FLOP, pot=600)
    play(h, "SB check", "BB allin", "BTN call")
    assert h.to_act == "SB" and h.card().acted
    assert h.options().raise_ is None


# --- R-NOOPPONENT ----------------------------------------------------------


def test_nooponent_bet_allin_fold():
    """R-NOOPPONENT: A bets 100, B all-in 150, C folds -> A: call 50 or fold."""
    h = hand({"SB": 1000, "BB": 150, "BTN": 1000}, blinds=(50, 100), start=Street.FLOP, pot=300)
    play(h, "SB bet 100", "BB allin", "BTN fold")
    assert h.to_act == "SB"
    assert h.options().call == 50
    assert h.options().raise_ is None
    with pytest.raises(IllegalActionError, match="R-NOOPPONENT"):
        play(h, "SB raise 300")


def test_noopponent_co_allin_120():
    """R-NOOPPONENT: 5/10, CO all-in to 120; BTN 222 behind; blinds have 98 and 81 in total -> call or fold."""
    h = play(hand({"CO": 120, "BTN": 222, "SB": 98, "BB": 81}, blinds=(5, 10)), "CO allin")
    assert h.to_act == "BTN"
    assert h.options().call == 120
    assert h.options().raise_ is None


# --- R-SHORTBLIND ----------------------------------------------------------


def test_short_blind_keeps_the_price():
    """R-SHORTBLIND: 100/200, BB all-in posting 150 -> others call 200, min raise-to 400."""
    h = hand({"UTG": 5000, "SB": 5000, "BB": 150})
    assert h.to_act == "UTG"
    assert h.card().current_total == 200
    assert h.options().call == 200
    assert raise_range(h)[0] == 400
    with pytest.raises(IllegalActionError):
        play(h, "UTG raise 150")


# --- R-STRADDLE ------------------------------------------------------------


def test_straddle_2_5_with_10():
    """R-STRADDLE: 2/5 with a 10 straddle: call 10, min raise-to 20; straddler acts last and keeps the option."""
    h = hand({"UTG": 1000, "HJ": 1000, "BTN": 1000, "SB": 1000, "BB": 1000}, blinds=(2, 5), straddles=(10,))
    assert h.to_act == "HJ"
    assert (h.card().current_total, h.card().last_full_increment) == (10, 10)
    assert h.options().call == 10 and raise_range(h)[0] == 20
    play(h, "HJ call", "BTN call", "SB call", "BB call")
    assert h.to_act == "UTG"
    assert h.options().check and raise_range(h)[0] == 20
    play(h, "UTG check")
    assert h.street is Street.FLOP and h.to_act == "SB"
    assert h.options().bet.min == 5  # postflop the minimum bet is the big blind again


def test_restraddle():
    """R-STRADDLE: re-straddle 800 after a 400 straddle at 100/200: call 800, min raise-to 1600."""
    stacks = six()
    h = hand(stacks, straddles=(400, 800))
    assert h.to_act == "CO"
    assert h.options().call == 800 and raise_range(h)[0] == 1600


# --- R-ANTE ----------------------------------------------------------------


def test_bba_blind_first_and_side_pots():
    """R-ANTE + R-SIDEPOTS: 1000/2000, BBA 2000, UTG all-in 1500, BTN calls, SB folds, BB checks -> 7500 + 1000."""
    stacks = {"UTG": 1500, "BTN": 50000, "SB": 50000, "BB": 50000}
    h = hand(stacks, blinds=(1000, 2000), bb_ante=2000)
    play(h, "UTG allin", "BTN call", "SB fold", "BB check")
    # betting goes on between BTN and BB after the flop; check it down
    while not h.betting_over:
        play(h, f"{h.to_act} check")
    result = h.result()
    assert [(p.amount, p.eligible) for p in result.pots] == [(7500, ("BB", "UTG", "BTN")), (1000, ("BB", "BTN"))]
    assert result.showdown.all_tabled


def test_bba_short_bb_posts_blind_first():
    """R-ANTE: BB with 2500 at 1000/2000 BBA 2000: blind 2000 first, the ante takes the 500 left (TDA24 RP-11)."""
    h = hand({"UTG": 50000, "SB": 50000, "BB": 2500}, blinds=(1000, 2000), bb_ante=2000)
    assert h.pot == 1000 + 2000 + 500
    assert h.card().current_total == 2000
    ante_first = Hand(
        game=Game(type=NL, blinds=(1000, 2000), bb_ante=2000, rules=Rules(bba=BBAOrder.ANTE_FIRST)),
        stacks={"UTG": 50000, "SB": 50000, "BB": 2500},
    )
    assert ante_first.pot == 1000 + 2000 + 500
    assert [s.committed for s in ante_first.seats if s.position == "BB"] == [500]
    assert ante_first.card().current_total == 2000  # R-SHORTBLIND: the price stays


def check_down(h):
    while not h.betting_over:
        play(h, f"{h.to_act} check")
    return h


def pots(h):
    return [(p.amount, p.eligible) for p in h.result().pots]


def test_ante_short_all_in_caps_the_main_pot():
    """R-ANTE (table stakes): ante 5, blinds 5/10, BTN antes his 3 all-in, checked down
    -> main 9 (SB, BB, BTN), side 24 (SB, BB)."""
    h = hand({"SB": 100, "BB": 100, "BTN": 3}, blinds=(5, 10), ante=5)
    assert h.to_act == "SB" and h.pot == 13 + 15
    check_down(play(h, "SB call", "BB check"))
    assert pots(h) == [(9, ("SB", "BB", "BTN")), (24, ("SB", "BB"))]
    assert h.result().returned == {}


def test_ante_short_heads_up_excess_comes_back():
    """R-ANTE + R-ROUNDEND + R-UNCALLED: heads-up, ante 5, blinds 5/10, BTN antes his 3 all-in.
    BB has nobody to play against; of BB's 15 only 3 are matched: 12 come back, the pot is 6."""
    h = hand({"BTN": 3, "BB": 100}, blinds=(5, 10), ante=5)
    assert h.betting_over and h.to_act is None
    assert pots(h) == [(6, ("BB", "BTN"))]
    assert h.result().returned == {"BB": 12}


def test_full_antes_stay_in_the_main_pot():
    """R-ANTE: when every ante is paid in full, all antes are in the main pot (R-SIDEPOTS)."""
    h = hand({"UTG": 5000, "BTN": 5000, "SB": 5000, "BB": 300}, blinds=(100, 200), ante=25)
    play(h, "UTG call", "BTN call", "SB fold", "BB allin", "UTG call", "BTN call")
    check_down(h)
    # antes 4 x 25 + SB's 100 + 3 x 275 (BB's all-in, what UTG and BTN matched of it)
    assert pots(h) == [(100 + 100 + 3 * 275, ("BB", "UTG", "BTN"))]


def test_bba_stays_dead_money_in_the_main_pot_with_a_short_ante():
    """R-ANTE: the big-blind ante is dead money in the main pot, even when a player is
    all-in for part of his own ante; 1000/2000, BBA 2000, ante 100 too, BTN has 60."""
    h = hand({"BTN": 60, "SB": 50000, "BB": 50000}, blinds=(1000, 2000), bb_ante=2000, ante=100)
    check_down(play(h, "SB call", "BB check"))
    # main: 3 x 60 of own antes and live chips + the 2000 BBA; side: the rest of SB and BB
    assert pots(h) == [(180 + 2000, ("SB", "BB", "BTN")), (2 * (2100 - 60), ("SB", "BB"))]


# --- R-POTLIMIT ------------------------------------------------------------


def test_potlimit_first_to_act_preflop():
    """R-POTLIMIT: blinds 1/2, first to act preflop: max 2 + (0 + 3 + 2) = 7."""
    h = hand({"UTG": 500, "BTN": 500, "SB": 500, "BB": 500}, blinds=(1, 2), type=PL)
    assert raise_range(h) == (4, 7)


def test_potlimit_bet_in_front():
    """R-POTLIMIT: pot 100, a bet of 50 in front: max raise-to 50 + (100 + 50 + 50) = 250."""
    h = hand({"SB": 1000, "BB": 1000}, blinds=(5, 10), type=PL, start=Street.FLOP, pot=100)
    assert h.options().bet.max == 100
    play(h, "SB bet 50")
    assert raise_range(h) == (100, 250)


def test_potlimit_assumes_full_blinds():
    """R-POTLIMIT, TDA24 54-B: PLO 100/200 with a short big blind -> first player max 700."""
    h = hand({"UTG": 5000, "SB": 5000, "BB": 150}, type=PL)
    assert raise_range(h)[1] == 700


# --- R-LIMIT ---------------------------------------------------------------


def test_limit_cap_bet_and_four_raises():
    """R-LIMIT: capped at a bet and four raises; the big blind counts as the preflop bet."""
    stacks = six()
    h = hand(stacks, blinds=(10, 20), type=FL)
    assert raise_range(h) == (40, 40)
    play(h, "UTG raise 40", "HJ raise 60", "CO raise 80", "BTN raise 100")
    assert h.to_act == "SB"
    assert h.options().raise_ is None
    assert h.options().call == 90


def test_limit_cap_holds_heads_up_by_default():
    """R-LIMIT: the cap holds heads-up too (TDA24 48); `limit_cap_heads_up: false` lifts it."""
    h = hand({"SB": 1000, "BB": 1000}, blinds=(10, 20), type=FL, start=Street.FLOP, pot=40)
    play(h, "SB bet 20", "BB raise 40", "SB raise 60", "BB raise 80", "SB raise 100")
    assert h.options().raise_ is None
    free = Hand(
        game=Game(type=FL, blinds=(10, 20), rules=Rules(limit_cap_heads_up=False)),
        stacks={"SB": 1000, "BB": 1000},
        start=Street.FLOP,
        pot=40,
    )
    play(free, "SB bet 20", "BB raise 40", "SB raise 60", "BB raise 80", "SB raise 100")
    assert raise_range(free) == (120, 120)


def test_limit_rrop_allin_15_of_20_counts_as_bet():
    """R-LIMIT, RRoP: $20 round, $15 all-in opening bet -> next may raise to $35."""
    h = hand({"SB": 1000, "BB": 15, "BTN": 1000}, blinds=(5, 10), type=FL, bets=(10, 20), start=Street.TURN, pot=100)
    play(h, "SB check", "BB allin")
    assert h.to_act == "BTN"
    assert raise_range(h) == (35, 35)
    play(h, "BTN call")
    assert raise_range(h) == (35, 35)  # at least 50%: reopened for SB who checked


def test_limit_pagat_completion():
    """R-LIMIT, Pagat: $5 round, bet 5, all-in 6 -> next may call 6 or complete to 10; the bettor may not re-raise."""
    h = hand({"SB": 1000, "BB": 6, "BTN": 1000}, blinds=(1, 5), type=FL, bets=(5, 10), start=Street.FLOP, pot=15)
    play(h, "SB bet 5", "BB allin")
    assert h.to_act == "BTN"
    assert h.options().call == 6
    assert raise_range(h) == (10, 10)
    play(h, "BTN call")
    assert h.to_act == "SB" and h.options().raise_ is None


def test_limit_caller_of_a_short_all_in_may_raise_a_completion():
    """R-LIMIT (RRoP): a player who called a short all-in and then faces a completion may raise:
    the completion is a full bet for him. Pagat's round with one more player: bet 5, all-in 6,
    CO calls 6, BTN completes to 10, SB calls -> CO may call 4 or raise to 10 + 5 = 15."""
    h = hand({"SB": 1000, "BB": 6, "CO": 1000, "BTN": 1000}, blinds=(2, 5), type=FL, start=Street.FLOP, pot=15)
    play(h, "SB bet 5", "BB allin", "CO call", "BTN raise 10", "SB call")
    assert h.to_act == "CO"
    assert h.options().call == 4
    assert raise_range(h) == (15, 15)
    play(h, "CO raise 15")
    assert h.history[-1].to == 15


def test_limit_caller_of_a_short_opening_all_in_may_raise_its_completion():
    """R-LIMIT: the same when the short all-in opens the betting: all-in 2 of a 5 bet (under 50%,
    not a bet), BB calls 2, CO completes to 5, BTN calls -> BB may call 3 or raise to 5 + 5 = 10."""
    h = hand({"SB": 2, "BB": 1000, "CO": 1000, "BTN": 1000}, blinds=(2, 5), type=FL, start=Street.FLOP, pot=15)
    play(h, "SB allin", "BB call", "CO raise 5", "BTN call")
    assert h.to_act == "BB"
    assert h.options().call == 3
    assert raise_range(h) == (10, 10)


# --- R-UNCALLED, R-SIDEPOTS, R-SHOWDOWN ------------------------------------


def test_uncalled_bet_returned():
    """R-UNCALLED: heads-up, A bets 800, B calls all-in for 500 -> 300 back to A."""
    h = hand({"SB": 5000, "BB": 500}, start=Street.RIVER, pot=1000)
    play(h, "SB bet 800", "BB call")
    result = h.result()
    assert result.returned == {"SB": 300}
    assert [(p.amount, p.eligible) for p in result.pots] == [(2000, ("SB", "BB"))]
    assert h.pot == 2300


def test_side_pots_seed_004():
    """R-SIDEPOTS, seed 004: A all-in 100, B and C 300 each -> main 300 (A, B, C), side 400 (B, C)."""
    h = hand({"SB": 100, "BB": 300, "BTN": 1000}, blinds=(5, 10), start=Street.RIVER, pot=0)
    play(h, "SB allin", "BB allin", "BTN call")
    result = h.result()
    assert [(p.amount, p.eligible) for p in result.pots] == [(300, ("SB", "BB", "BTN")), (400, ("BB", "BTN"))]
    assert result.showdown.all_tabled and result.showdown.first is None


def test_showdown_last_river_bettor_first():
    """R-SHOWDOWN: the last player to bet or raise on the river shows first."""
    h = hand({"SB": 5000, "BB": 5000, "BTN": 5000}, start=Street.RIVER, pot=600)
    play(h, "SB check", "BB bet 200", "BTN call", "SB fold")
    assert h.result().showdown.first == "BB"


def test_showdown_no_river_bet_first_clockwise_from_button():
    """R-SHOWDOWN: nobody bet on the river -> first player still in clockwise from the button."""
    h = hand({"SB": 5000, "BB": 5000, "BTN": 5000}, start=Street.RIVER, pot=600)
    play(h, "SB fold", "BB check", "BTN check")
    assert h.result().showdown.first == "BB"


# --- R-ORDER, R-ROUNDEND ---------------------------------------------------


def test_heads_up_order():
    """R-ORDER: heads-up the button posts the small blind, acts first preflop and last after."""
    h = hand({"BTN": 1000, "BB": 1000})
    assert h.to_act == "BTN" and h.card().committed == 100
    play(h, "BTN call")
    assert h.to_act == "BB" and h.options().check
    play(h, "BB check")
    assert h.street is Street.FLOP and h.to_act == "BB"


@pytest.mark.parametrize("button", ["SB", "CO", "UTG"])
def test_two_players_are_heads_up_whatever_the_seats(button):
    """R-ORDER: a hand dealt to exactly two players is heads-up: the seat that is not the
    big blind is the button, posts the small blind, acts first preflop; BB acts first after."""
    h = hand({button: 1000, "BB": 1000})
    assert h.to_act == button and h.card().committed == 100
    play(h, f"{button} call", "BB check")
    assert h.street is Street.FLOP and h.to_act == "BB"
    play(h, "BB check")
    assert h.to_act == button


def test_heads_up_sb_bb_checked_river_bb_shows_first():
    """R-ORDER + R-SHOWDOWN: SB and BB only: SB is the button, so on a checked river BB,
    the first player clockwise from the button, shows first."""
    h = play(hand({"SB": 1000, "BB": 1000}), "SB call", "BB check")
    while not h.betting_over:
        assert h.to_act == "BB"
        play(h, "BB check", "SB check")
    assert h.result().showdown == Showdown(all_tabled=False, first="BB")


def test_heads_up_sb_bb_odd_chip_to_the_big_blind():
    """R-ODDCHIP: heads-up SB/BB, SB is the button: the odd chip goes to BB, the first
    winner clockwise from the button (blinds 5/10, SB to 25, BB calls, 10-chip units)."""
    h = check_down(play(hand({"SB": 1000, "BB": 1000}, blinds=(5, 10)), "SB raise 25", "BB call"))
    shares, _ = h.split([["SB", "BB"]], chip=10)
    assert shares == [{"BB": 30, "SB": 20}]


def test_nobody_left_to_play_against_heads_up():
    """R-ROUNDEND: heads-up, blinds 50/100, the big blind all-in for 30: betting is over,
    20 goes back to the button, the pot is 60."""
    h = hand({"BTN": 1000, "BB": 30}, blinds=(50, 100))
    assert h.betting_over and h.to_act is None
    result = h.result()
    assert result.returned == {"BTN": 20}
    assert [(p.amount, p.eligible) for p in result.pots] == [(60, ("BB", "BTN"))]
    assert result.showdown.all_tabled


def test_nobody_left_after_the_others_fold():
    """R-ROUNDEND: blinds 50/100, BB all-in for 30, BTN folds: SB has put in 50 >= 30
    and nobody is left to play against: 20 back to SB, pot 60."""
    h = play(hand({"BTN": 1000, "SB": 1000, "BB": 30}, blinds=(50, 100)), "BTN fold")
    assert h.betting_over
    assert h.result().returned == {"SB": 20}
    assert pots(h) == [(60, ("SB", "BB"))]


def test_nobody_left_is_not_asked_while_others_can_act():
    """R-ROUNDEND + R-SHORTBLIND: with BTN still to act, the price stays the full big blind;
    only once BTN folds does SB have nobody left to play against."""
    h = hand({"BTN": 1000, "SB": 1000, "BB": 30}, blinds=(50, 100))
    assert h.to_act == "BTN" and h.options().call == 100
    play(h, "BTN call")
    assert h.to_act == "SB" and h.options().call == 50


def test_short_blind_still_costs_the_full_blind_heads_up():
    """R-ROUNDEND + R-SHORTBLIND: heads-up 50/100, BB all-in for 80 > the button's 50:
    the button has put in less than the all-in, so calls 50 (not 30); 20 comes back."""
    h = hand({"BTN": 1000, "BB": 80}, blinds=(50, 100))
    assert h.to_act == "BTN" and h.options().call == 50
    play(h, "BTN call")
    assert h.betting_over and h.result().returned == {"BTN": 20}


def test_nobody_left_with_a_short_ante_big_blind():
    """R-ROUNDEND + R-ANTE: heads-up, ante 5, blinds 5/10, BB antes his 3 all-in and posts
    nothing: the button has put in 10 >= 3, betting is over, 7 comes back, the pot is 6."""
    h = hand({"BTN": 100, "BB": 3}, blinds=(5, 10), ante=5)
    assert h.betting_over
    assert h.result().returned == {"BTN": 7}
    assert pots(h) == [(6, ("BB", "BTN"))]


def test_explanations_say_why_betting_ended_and_how_a_short_ante_counts():
    """R-ROUNDEND, R-ANTE, R-ORDER: the derivation names the deciding rule for each new case."""
    alone = [str(s) for s in hand({"BTN": 1000, "BB": 30}, blinds=(50, 100)).derivation()]
    assert any("nobody is left to play against" in t and "R-ROUNDEND" in t for t in alone)
    assert any("goes back to BTN" in t for t in alone)
    short = check_down(play(hand({"SB": 100, "BB": 100, "BTN": 3}, blinds=(5, 10), ante=5), "SB call", "BB check"))
    assert any("BTN is all-in for 3 of an ante of 5" in str(s) and s.rule == "R-ANTE" for s in short.derivation())
    flop = play(hand({"SB": 1000, "BB": 1000}), "SB call", "BB check")
    assert any("SB is the button and acts last after the flop" in str(s) for s in flop.derivation())


def test_six_max_down_to_two_keeps_positions():
    """R-ORDER, seed 002: a 6-max hand down to BB and CO: BB acts first after the flop."""
    h = hand({"BB": 1000, "CO": 1000}, blinds=(1, 2), start=Street.FLOP, pot=16)
    assert h.to_act == "BB"


def test_bb_option_after_limps():
    """R-ROUNDEND: everyone limps, the BB still has the option: check or raise to 2 BB."""
    h = play(hand(six()), "UTG call", "HJ call", "CO call", "BTN call", "SB call")
    assert h.street is Street.PREFLOP and h.to_act == "BB"
    card = h.card()
    assert (card.current_total, card.last_full_increment, card.committed, card.to_add) == (200, 200, 200, 0)
    assert h.options().check and raise_range(h)[0] == 400


def test_last_raiser_does_not_answer_own_raise():
    """R-ROUNDEND: the last raiser never answers their own raise."""
    h = play(hand({"SB": 5000, "BB": 5000, "BTN": 5000}), "BTN raise 600", "SB call", "BB call")
    assert h.street is Street.FLOP and h.to_act == "SB"


def test_out_of_turn_is_rejected():
    """R-ORDER: an action out of turn names whose turn it is."""
    h = hand(six())
    with pytest.raises(IllegalActionError, match="It is UTG's turn, not CO's"):
        play(h, "CO call")


def test_check_facing_a_bet_is_rejected():
    """R-INVALIDDECL: facing a bet, check is not an option."""
    with pytest.raises(IllegalActionError, match="cannot check"):
        play(hand(six()), "UTG check")


def test_options_given_as_plain_strings_are_honoured():
    """R-ANTE option `bba`: a plain string works like the enum (a silently ignored option would be a wrong answer)."""
    h = Hand(game=Game(type="no-limit", blinds=(50, 100), bb_ante=100, rules=Rules(bba="blind-first")),
             stacks={"UTG": 1000, "SB": 1000, "BB": 1000})
    assert h.pot == 250
    with pytest.raises(ValueError):
        Rules(reopen="sometimes")
