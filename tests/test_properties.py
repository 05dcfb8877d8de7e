"""Properties that hold for any legal action sequence (hypothesis drives the seeds)."""

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.engine import Action, ActionKind, GameType, IllegalActionError
from trainer.playout import random_action, random_deal

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def played(seed: int, game_type: GameType | None = None):
    """Yield (hand, action) at every decision of one random hand, applying each action."""
    rng = random.Random(seed)
    deal = random_deal(rng, game_type=game_type)
    hand = deal.hand()
    while not hand.betting_over:
        action = random_action(hand, rng)
        yield hand, action
        hand.apply(action)
    yield hand, None


def chips_in_play(hand) -> int:
    return hand.pot + sum(seat.stack for seat in hand.seats)


@SETTINGS
@given(st.integers(0, 2**32))
def test_chips_are_conserved(seed):
    rng = random.Random(seed)
    deal = random_deal(rng)
    start = sum(deal.stacks.values())
    hand = deal.hand()
    assert chips_in_play(hand) == start
    while not hand.betting_over:
        hand.apply(random_action(hand, rng))
        assert chips_in_play(hand) == start
    result = hand.result()
    assert sum(p.amount for p in result.pots) + sum(result.returned.values()) == hand.pot


@SETTINGS
@given(st.integers(0, 2**32))
def test_to_add_is_current_total_minus_committed(seed):
    for hand, action in played(seed):
        if action is None:
            assert hand.card() is None and hand.options() is None
            continue
        card = hand.card()
        assert card.to_add == card.current_total - card.committed
        assert card.to_add >= 0


@SETTINGS
@given(st.integers(0, 2**32), st.sampled_from([GameType.NO_LIMIT, GameType.POT_LIMIT]))
def test_min_raise_adds_at_least_the_big_blind_unless_all_in(seed, game_type):
    for hand, action in played(seed, game_type):
        if action is None:
            continue
        opts = hand.options()
        wager = opts.bet or opts.raise_
        if wager is None:
            continue
        seat = next(s for s in hand.seats if s.position == hand.to_act)
        all_in_only = wager.min == wager.max == seat.committed + seat.stack
        if not all_in_only:
            assert wager.min - hand.card().current_total >= hand.game.big_blind


def offered_actions(hand):
    """Every action the options describe, at their edges."""
    pos = hand.to_act
    opts = hand.options()
    yield Action(position=pos, kind=ActionKind.FOLD)
    if opts.check:
        yield Action(position=pos, kind=ActionKind.CHECK)
    if opts.call is not None:
        yield Action(position=pos, kind=ActionKind.CALL)
    for rng, kind in ((opts.bet, ActionKind.BET), (opts.raise_, ActionKind.RAISE)):
        if rng is not None:
            for amount in {rng.min, rng.max, (rng.min + rng.max) // 2}:
                yield Action(position=pos, kind=kind, amount=amount)


@SETTINGS
@given(st.integers(0, 2**32))
def test_offered_actions_are_accepted_and_others_rejected(seed):
    for hand, action in played(seed):
        if action is None:
            continue
        for offered in offered_actions(hand):
            copy.deepcopy(hand).apply(offered)  # must not raise
        opts = hand.options()
        pos = hand.to_act
        if not opts.check:
            assert not hand.legal(Action(position=pos, kind=ActionKind.CHECK))
        if opts.call is None:
            assert not hand.legal(Action(position=pos, kind=ActionKind.CALL))
        wager, kind = (opts.bet, ActionKind.BET) if hand.card().current_total == 0 else (opts.raise_, ActionKind.RAISE)
        if wager is None:
            assert not hand.legal(Action(position=pos, kind=kind, amount=hand.card().current_total + 1))
        else:
            assert not hand.legal(Action(position=pos, kind=kind, amount=wager.min - 1))
            assert not hand.legal(Action(position=pos, kind=kind, amount=wager.max + 1))


@SETTINGS
@given(st.integers(0, 2**32))
def test_illegal_action_messages_name_what_was_legal(seed):
    for hand, action in played(seed):
        if action is None:
            continue
        opts = hand.options()
        if opts.check:
            continue
        try:
            hand.verify(Action(position=hand.to_act, kind=ActionKind.CHECK))
        except IllegalActionError as err:
            text = str(err)
            assert text.endswith(".") and f"{hand.to_act} may fold" in text
        else:
            raise AssertionError("check facing a bet was accepted")
