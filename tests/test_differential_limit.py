"""Fixed limit against PokerKit 0.7.7's FixedLimitTexasHoldem on seeded random hands.

Every decision is compared (see tests/oracle_limit.py); only the PokerKit
deviations RULES.md lists for fixed limit, (a)-(f), are skipped, each
recognised from both states and counted.
"""

import dataclasses

import pytest

from tests.oracle import Move, Spec
from tests.oracle_limit import Deviation, LimitConfig, LimitDuel, LimitSummary, play_random_decisions

CI_DECISIONS = 12_000
FULL_DECISIONS = 200_000


def assert_agrees(summary: LimitSummary, decisions: int) -> None:
    assert summary.decisions >= decisions, summary.report("too few decisions compared")
    assert not summary.mismatches, summary.report("mismatches against PokerKit")
    assert sum(summary.skipped.values()) < 0.06 * summary.decisions, summary.report("too many skips")
    for street in ("preflop", "flop", "turn", "river"):
        assert summary.short_allins[street] > 0, f"no all-in under half a bet was played on the {street}"
        assert summary.half_allins[street] > 0, f"no all-in of half a bet or more was played on the {street}"
    assert summary.capped["preflop"] > 0, "the preflop cap was never reached"
    for deviation in Deviation:
        assert summary.skipped[deviation] > 0, f"known difference {deviation} never came up: is it still recognised?"


def test_random_fixed_limit_hands_agree_with_pokerkit():
    assert_agrees(play_random_decisions(CI_DECISIONS, seed=2026), CI_DECISIONS)


@pytest.mark.slow
def test_many_random_fixed_limit_hands_agree_with_pokerkit():
    assert_agrees(play_random_decisions(FULL_DECISIONS, seed=53), FULL_DECISIONS)


def fixed_limit(blinds: tuple[int, int], *stacks: int, **forced) -> Spec:
    """Stacks in seat order: SB, BB, then the rest (heads-up: BB, BTN)."""
    return Spec(game_type="fixed-limit", blinds=blinds, stacks=stacks, **forced)


def duel(spec: Spec, *moves: str, config: LimitConfig | None = None) -> LimitDuel:
    """Play written moves ("BTN raise 20", a bet is a raise from 0) on both sides, comparing each decision."""
    hand = LimitDuel(spec, "hand-written", config)
    for text in moves:
        position, kind, *to = text.split()
        assert hand.decision() is not None, hand.summary.report(text)
        assert hand.play(Move(position=position, kind=kind, to=int(to[0]) if to else None)), hand.summary.report(text)
    hand.decision()
    return hand


LIMPED = ("BTN call", "SB call", "BB check")


def test_a_disagreement_is_reported():
    """The harness is not blind: PokerKit told of a big bet of 30 instead of 20
    differs on the turn bet, which is none of the known differences."""
    spec = fixed_limit((5, 10), 1000, 1000, 1000)
    config = dataclasses.replace(LimitConfig.from_spec(spec), big_bet=30)
    hand = LimitDuel(spec, "hand-written", config)
    for text in (*LIMPED, "SB check", "BB check", "BTN check"):
        position, kind = text.split()
        assert hand.decision() is not None
        assert hand.play(Move(position=position, kind=kind))

    assert hand.decision() is None
    found = {(m.field, m.ours, m.pokerkit) for m in hand.summary.mismatches}
    assert found == {("min_to", 20, 30), ("max_to", 20, 30)}


def test_a_postflop_cap_at_four_bets():
    """(a) A bet and three raises on the flop: R-LIMIT allows a fourth raise, PokerKit does not."""
    hand = duel(fixed_limit((5, 10), 1000, 1000, 1000), *LIMPED,
                "SB raise 10", "BB raise 20", "BTN raise 30", "SB raise 40")

    assert hand.ours.view().min_to == 50 and hand.pk.view().min_to is None
    assert not hand.summary.mismatches
    assert hand.summary.skipped == {Deviation.POSTFLOP_CAP: 1}


def test_b_raise_over_an_allin_under_half_a_bet_completes():
    """(b) Flop, SB bets 10, BB all-in for 12 (+2, under half a bet): BTN completes
    to 20 (R-LIMIT); PokerKit raises to 22."""
    hand = duel(fixed_limit((5, 10), 1000, 22, 1000), *LIMPED, "SB raise 10", "BB raise 12")

    assert (hand.ours.view().min_to, hand.pk.view().min_to) == (20, 22)
    assert not hand.summary.mismatches
    assert hand.summary.skipped == {Deviation.RAISE_OVER_SHORT_ALLIN: 1}


def test_c_an_allin_under_half_a_bet_does_not_count_toward_the_cap():
    """(c) Preflop CO to 20, BTN to 30, SB to 40, BB all-in 42: three raises and a
    short all-in; CO may still make the fourth raise, to 50."""
    hand = duel(fixed_limit((5, 10), 1000, 42, 1000, 1000), "CO raise 20", "BTN raise 30", "SB raise 40", "BB raise 42")

    assert hand.ours.view().min_to == 50 and hand.pk.view().min_to is None
    assert not hand.summary.mismatches
    assert hand.summary.skipped == {Deviation.SHORT_ALLIN_IN_CAP: 1}


def test_d_an_allin_of_half_a_bet_reopens():
    """(d) Flop, SB bets 10, BB calls, BTN all-in 16 (+6, at least half a bet):
    SB may raise to 26 (TDA24 47-B); PokerKit says a short all-in cannot be raised."""
    hand = duel(fixed_limit((5, 10), 1000, 1000, 26), *LIMPED, "SB raise 10", "BB call", "BTN raise 16")

    assert hand.ours.view().min_to == 26 and hand.pk.view().min_to is None
    assert not hand.summary.mismatches
    assert hand.summary.skipped == {Deviation.HALF_BET_NOT_REOPENED: 1}


def test_e_a_limper_facing_an_allin_under_half_a_bet_only_calls():
    """(e) Preflop BTN limps, SB all-in 12 (+2): the BB (not acted) may complete to 20
    where PokerKit raises to 22 (b); after BB calls, BTN faces 2 and may call or fold."""
    hand = duel(fixed_limit((5, 10), 12, 1000, 1000), "BTN call", "SB raise 12", "BB call")

    assert hand.ours.view().min_to is None and hand.pk.view().min_to == 22
    assert not hand.summary.mismatches
    assert hand.summary.skipped == {Deviation.RAISE_OVER_SHORT_ALLIN: 1, Deviation.REOPENED_BY_SHORT_ALLIN: 1}


def test_e_a_caller_facing_less_than_half_a_bet_after_a_later_allin_only_calls():
    """(e), found by the random run (seed 11 hand 25560): blinds 2/5, CO all-in 6
    (+1), BTN and SB call, BB all-in 8 (+3 over the level 5, so a full raise).
    BTN faces only 2, less than half a bet: call or fold (R-LIMIT, decided per
    player); PokerKit measures BB's 2 against CO's 1 and lets BTN raise to 13."""
    hand = duel(fixed_limit((2, 5), 86, 8, 6, 124), "CO raise 6", "BTN call", "SB call", "BB raise 8")

    assert hand.ours.view().to_act == "BTN"
    assert hand.ours.view().min_to is None and hand.pk.view().min_to == 13
    assert not hand.summary.mismatches
    # BTN and SB, facing CO's all-in, complete to 10 where PokerKit raises to 11
    assert hand.summary.skipped == {Deviation.RAISE_OVER_SHORT_ALLIN: 2, Deviation.REOPENED_BY_SHORT_ALLIN: 1}
    assert hand.summary.after_half_allin == 1


def test_f_a_lone_player_who_matched_everything_is_not_asked_to_check():
    """(f) BTN calls all-in for 8, SB folds: the BB has matched and nobody can call
    a raise; betting is over (R-ROUNDEND), PokerKit asks the BB to check."""
    hand = duel(fixed_limit((5, 10), 1000, 1000, 8), "BTN call", "SB fold")

    assert hand.ours.view() is None and hand.pk.view() is None
    assert not hand.summary.mismatches
    assert hand.summary.skipped == {Deviation.LONE_PLAYER_CHECK: 1}
    hand.finish()
    assert not hand.summary.mismatches
