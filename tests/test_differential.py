"""The engine against PokerKit 0.7.7 on seeded random no-limit and pot-limit hands.

Every decision is compared (see tests/oracle.py); only the spots RULES.md
lists as known differences are skipped, and they must stay rare.
"""

import pytest

from tests.oracle import (
    Duel,
    HandKind,
    Move,
    PokerKitConfig,
    Reason,
    Spec,
    Summary,
    hand_skip_reason,
    play_random_decisions,
)

CI_DECISIONS = 5_000  # every hand kind and a short all-in on every street; `-m slow`: FULL_DECISIONS
FULL_DECISIONS = 200_000


def assert_agrees(summary: Summary, decisions: int) -> None:
    assert summary.decisions >= decisions, summary.report("too few decisions compared")
    assert not summary.mismatches, summary.report("mismatches against PokerKit")
    exempt = sum(summary.exempt_decisions.values()) + len(summary.skipped_hands)
    assert exempt < 0.03 * summary.decisions, summary.report("too many skips")
    for street in ("preflop", "flop", "turn", "river"):
        assert summary.short_allins[street] > 0, f"no short all-in was played on the {street}"
    for kind in HandKind:
        assert summary.kinds[kind] > 0, f"no hand with {kind} was compared"


def test_random_hands_agree_with_pokerkit():
    assert_agrees(play_random_decisions(CI_DECISIONS, seed=2024), CI_DECISIONS)


@pytest.mark.slow
def test_many_random_hands_agree_with_pokerkit():
    assert_agrees(play_random_decisions(FULL_DECISIONS, seed=47), FULL_DECISIONS)


def duel(spec: Spec, *moves: str, config: PokerKitConfig | None = None) -> Duel:
    """Play written moves ("CO raise 1600") on both sides, comparing each decision."""
    hand = Duel(spec, "hand-written", config)
    for text in moves:
        position, kind, *to = text.split()
        assert hand.decision() is not None, hand.summary.report(text)
        assert hand.play(Move(position=position, kind=kind, to=int(to[0]) if to else None))
    hand.decision()
    return hand


def no_limit(blinds: tuple[int, int], *stacks: int, **forced) -> Spec:
    return Spec(game_type="no-limit", blinds=blinds, stacks=stacks, **forced)


def test_a_disagreement_is_reported():
    """The harness is not blind: a no-limit engine against pot-limit PokerKit
    differs on the maximum raise at the first decision."""
    spec = no_limit((1, 2), 200, 200, 200)
    pot_limit = PokerKitConfig.from_spec(Spec(game_type="pot-limit", blinds=(1, 2), stacks=(200, 200, 200)))
    hand = Duel(spec, "hand-written", pot_limit)

    assert hand.decision() is None
    [mismatch] = hand.summary.mismatches
    assert (mismatch.field, mismatch.ours, mismatch.pokerkit) == ("max_to", 200, 7)


def test_preflop_short_allin_over_a_limper_is_a_known_difference():
    """RULES.md known difference 1 (TDA24 Addendum 47 Ex 3): after the BB calls,
    PokerKit lets the limper raise; only the raise fields are skipped."""
    spec = no_limit((2000, 4000), 50000, 50000, 50000, 7500, 50000)
    hand = duel(spec, "UTG call", "CO raise 7500", "BTN fold", "SB fold", "BB call")

    assert hand.pk.view().min_to is not None and hand.ours.view().min_to is None
    assert not hand.summary.mismatches
    assert hand.summary.exempt_decisions == {Reason.PREFLOP_SHORT_ALLIN: 1}


def test_allin_first_bet_below_the_minimum_is_a_known_difference():
    """RULES.md known difference 6: SB checked, BB bet all-in 150 < 200."""
    spec = no_limit((100, 200), 5000, 350, 5000)
    hand = duel(spec, "BTN call", "SB call", "BB check", "SB check", "BB raise 150", "BTN call")

    assert hand.ours.view().to_act == "SB"
    assert not hand.summary.mismatches
    assert hand.summary.exempt_decisions == {Reason.SUB_MINIMUM_OPENING_BET: 1}


def test_pokerkit_short_allin_sum_defect_is_recognised():
    """Not in RULES.md: SB bets 1000, BB calls, three short all-ins add 600,
    600 and 100. SB faces 1300 >= 1000 and may raise (R-REOPEN); PokerKit
    forbids it because its running sum restarted after 1200."""
    spec = no_limit((50, 100), 10000, 10000, 1700, 2300, 2400)
    hand = duel(
        spec,
        "UTG call", "CO call", "BTN call", "SB call", "BB check",
        "SB raise 1000", "BB call", "UTG raise 1600", "CO raise 2200", "BTN raise 2300",
    )

    assert hand.ours.view().to_act == "SB"
    assert hand.ours.view().min_to == 3300
    assert hand.pk.view().min_to is None
    assert not hand.summary.mismatches
    assert hand.summary.exempt_decisions == {Reason.ORACLE_SHORT_ALLIN_SUM: 1}


def test_pokerkit_forced_check_is_recognised():
    """Not in RULES.md: the button calls all-in for 80 and the small blind
    folds; the big blind has matched and nobody can call a raise. PokerKit
    asks the big blind to check, our engine ends the betting."""
    spec = no_limit((50, 100), 5000, 5000, 80)
    hand = duel(spec, "BTN call", "SB fold")

    assert hand.ours.view() is None and hand.pk.view() is None
    assert not hand.summary.mismatches
    assert hand.summary.exempt_decisions == {Reason.ORACLE_FORCED_CHECK: 1}
    hand.finish()
    assert not hand.summary.mismatches


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        (no_limit((100, 200), 5000, 150, 5000), Reason.SHORT_BIG_BLIND),
        (no_limit((100, 200), 5000, 220, 5000, ante=25), Reason.SHORT_BIG_BLIND),
        (no_limit((1000, 2000), 50000, 3000, 50000, bb_ante=2000), Reason.BBA_ORDER),
        (no_limit((2, 5), 500, 500, 500, 500, straddles=(10,)), Reason.STRADDLE),
        (no_limit((1000, 2000), 50000, 4000, 50000, bb_ante=2000), None),
    ],
)
def test_hands_with_known_differences_in_their_forced_bets_are_skipped(spec, reason):
    """RULES.md known differences 2 (R-SHORTBLIND), 3 (R-ANTE) and 5 (R-STRADDLE)."""
    assert hand_skip_reason(spec) == reason


def test_short_ante_pots_agree_with_pokerkit():
    """R-ANTE (table stakes), the RULES.md example: ante 5, blinds 5/10, BTN antes his 3
    all-in, checked down -> main 9 (SB, BB, BTN), side 24 (SB, BB) on both sides."""
    spec = no_limit((5, 10), 100, 100, 3, ante=5)
    checks = [f"{p} check" for _ in range(3) for p in ("SB", "BB")]
    hand = duel(spec, "SB call", "BB check", *checks)
    hand.finish()
    assert not hand.summary.mismatches, hand.summary.report("short ante")
    assert hand.ours.result().pots == ((9, ("BB", "BTN", "SB")), (24, ("BB", "SB")))
    assert hand.summary.kinds == {HandKind.SHORT_ANTE: 1}


def test_nobody_left_to_play_against_agrees_with_pokerkit():
    """R-ROUNDEND: heads-up 50/100, the big blind all-in for 30: no decision on either side,
    20 back to the button, pot 60."""
    spec = no_limit((50, 100), 30, 1000)  # seats BB, BTN
    assert hand_skip_reason(spec) is None
    hand = duel(spec)
    assert hand.ours.view() is None and hand.pk.view() is None
    hand.finish()
    assert not hand.summary.mismatches, hand.summary.report("nobody left")
    assert hand.ours.result().returned == (("BTN", 20),)
    assert hand.summary.kinds == {HandKind.COVERED_SHORT_BLIND: 1}


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        (no_limit((50, 100), 50, 1000), None),  # all-in for exactly the small blind
        (no_limit((50, 100), 80, 1000), Reason.SHORT_BIG_BLIND),  # the button still calls the full blind
        (no_limit((50, 100), 1000, 30, 1000), Reason.SHORT_BIG_BLIND),  # BTN must call 100, PokerKit says 30
        (no_limit((5, 10), 8, 100, ante=5), None),  # 3 of the blind after the ante, the button posts 5
    ],
)
def test_a_short_big_blind_is_compared_only_when_nobody_is_left(spec, reason):
    """RULES.md known difference 2 (R-SHORTBLIND) skips a hand with a short big blind,
    except heads-up when the small blind covers it (R-ROUNDEND: betting is over)."""
    assert hand_skip_reason(spec) == reason
