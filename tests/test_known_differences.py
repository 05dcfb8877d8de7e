"""What our engine does where RULES.md says PokerKit 0.7.7 is wrong.

The differential tests skip these spots ("Known differences from PokerKit
0.7.7"), so each one is pinned down here by hand, from RULES.md alone.
"""

from trainer.engine import Action, ActionKind, BBAOrder, Game, GameType, Hand, Range, Rules


def no_limit(sb: int, bb: int, **options) -> Game:
    return Game(type=GameType.NO_LIMIT, blinds=(sb, bb), **options)


def fixed_limit(sb: int, bb: int) -> Game:
    return Game(type=GameType.FIXED_LIMIT, blinds=(sb, bb))


def play(game: Game, stacks: dict[str, int], *actions: str) -> Hand:
    """A hand with the actions applied, each written as in a scenario file."""
    hand = Hand(game=game, stacks=stacks)
    for text in actions:
        position, kind, *amount = text.split()
        hand.apply(Action(position=position, kind=ActionKind(kind), amount=int(amount[0]) if amount else None))
    return hand


def test_preflop_short_allin_over_a_limper_does_not_reopen():
    """Known difference 1 -- R-REOPEN, TDA24 Addendum 47 Ex 3: blinds 2000/4000,
    A limps 4000, C all-in 7500, SB folds. BB (not acted) may raise to 11,500;
    if BB calls, A faces 3500 < 4000: call or fold only."""
    hand = play(
        no_limit(2000, 4000),
        {"UTG": 50000, "CO": 7500, "BTN": 50000, "SB": 50000, "BB": 50000},
        "UTG call", "CO allin", "BTN fold", "SB fold",
    )
    assert hand.to_act == "BB"
    assert hand.options().raise_ == Range(min=11500, max=50000)

    hand.apply(Action(position="BB", kind=ActionKind.CALL))

    assert hand.to_act == "UTG"
    card = hand.card()
    assert (card.current_total, card.last_full_increment, card.acted, card.to_add) == (7500, 4000, True, 3500)
    options = hand.options()
    assert options.call == 3500
    assert options.raise_ is None and options.bet is None


def test_short_allin_big_blind_does_not_lower_the_price():
    """Known difference 2 -- R-SHORTBLIND (WSOP-LA 154): blinds 100/200, the big
    blind has only 150 and is all-in posting it. UTG must still call 200 and
    the minimum raise is to 400."""
    hand = play(no_limit(100, 200), {"UTG": 5000, "CO": 5000, "BTN": 5000, "SB": 5000, "BB": 150})

    assert hand.to_act == "UTG"
    card = hand.card()
    assert (card.current_total, card.last_full_increment, card.to_add) == (200, 200, 200)
    options = hand.options()
    assert options.call == 200
    assert options.raise_ == Range(min=400, max=5000)
    assert hand.pot == 250


def test_big_blind_ante_is_posted_after_the_blind():
    """Known difference 3 -- R-ANTE (TDA24 RP-11): the big blind posts the
    blind first; the ante takes what is left. Blinds 1000/2000, BBA 2000, BB
    with 3000: blind 2000, ante 1000, so the price stays 2000. With the
    `ante-first` option the blind is the part that is short."""
    stacks = {"UTG": 50000, "CO": 50000, "BTN": 50000, "SB": 50000, "BB": 3000}
    hand = play(no_limit(1000, 2000, bb_ante=2000), stacks)

    bb_posts = [(e.kind, e.added) for e in hand.history if e.position == "BB"]
    assert bb_posts == [("big-blind", 2000), ("ante", 1000)]
    assert hand.pot == 4000
    assert hand.card().to_add == 2000

    ante_first = play(no_limit(1000, 2000, bb_ante=2000, rules=Rules(bba=BBAOrder.ANTE_FIRST)), stacks)
    ante_first_posts = [(e.kind, e.added) for e in ante_first.history if e.position == "BB"]
    assert ante_first_posts == [("ante", 2000), ("big-blind", 1000)]


def test_big_blind_ante_stays_in_the_main_pot():
    """Known difference 3 -- R-ANTE and R-SIDEPOTS worked example: blinds
    1000/2000, BBA 2000, UTG all-in 1500, BTN calls 2000, SB folds, BB checks
    -> main 7500 (UTG, BTN, BB), side 1000 (BTN, BB)."""
    hand = play(
        no_limit(1000, 2000, bb_ante=2000),
        {"UTG": 1500, "CO": 50000, "BTN": 50000, "SB": 50000, "BB": 50000},
        "UTG allin", "CO fold", "BTN call", "SB fold", "BB check",
        *["BB check", "BTN check"] * 3,
    )
    result = hand.result()
    assert [(p.amount, set(p.eligible)) for p in result.pots] == [(7500, {"UTG", "BTN", "BB"}), (1000, {"BTN", "BB"})]
    assert result.returned == {}


def test_fixed_limit_allin_of_half_a_bet_counts_as_full():
    """Known difference 4 -- R-LIMIT (TDA24 47-B; RRoP): $20 round, an opening
    all-in bet of $15 is at least half a bet, so it counts as a full bet: the
    next player may raise to $35."""
    hand = play(
        fixed_limit(10, 20),
        {"SB": 1000, "BB": 35, "BTN": 1000},
        "BTN call", "SB call", "BB check", "SB check", "BB allin",
    )
    assert hand.to_act == "BTN"
    assert hand.options().call == 15
    assert hand.options().raise_ == Range(min=35, max=35)


def test_fixed_limit_allin_under_half_a_bet_can_be_completed():
    """Known difference 4 -- R-LIMIT (TDA24 47-B; Pagat): $5 round, bet 5, an
    all-in to 6 is less than half a bet: the next player may call 6 or
    complete to 10."""
    hand = play(
        fixed_limit(2, 5),
        {"SB": 1000, "BB": 1000, "CO": 11, "BTN": 1000},
        "CO call", "BTN call", "SB call", "BB check", "SB bet 5", "BB call", "CO allin",
    )
    assert hand.to_act == "BTN"
    assert hand.options().call == 6
    assert hand.options().raise_ == Range(min=10, max=10)


def test_fixed_limit_caller_of_a_short_allin_may_raise_the_completion():
    """Known difference 4 -- R-LIMIT (RRoP): $5 round, SB bets 5, BB is all-in
    for 6 (less than half a bet more), CO calls 6, BTN completes to 10, SB
    calls. The completion is a full bet for CO, who faces 4: call 4 or raise
    to 15. PokerKit cannot reach this spot: it has no completion (BTN's raise
    must go to 11, fixed-limit class (b))."""
    hand = play(
        fixed_limit(2, 5),
        {"SB": 1000, "BB": 11, "CO": 1000, "BTN": 1000},
        "CO call", "BTN call", "SB call", "BB check",
        "SB bet 5", "BB allin", "CO call", "BTN raise 10", "SB call",
    )
    assert hand.to_act == "CO"
    assert hand.options().call == 4
    assert hand.options().raise_ == Range(min=15, max=15)


def test_fixed_limit_cap_holds_heads_up():
    """Known difference 4 -- R-LIMIT (TDA24 48, WSOP-T 100.b): a bet and four
    raises per street, also heads-up; then call or fold only."""
    hand = play(
        fixed_limit(5, 10),
        {"BTN": 1000, "BB": 1000},
        "BTN call", "BB check", "BB bet 10", "BTN raise 20", "BB raise 30", "BTN raise 40", "BB raise 50",
    )
    assert hand.to_act == "BTN"
    assert hand.options().call == 10
    assert hand.options().raise_ is None


def test_straddle_sets_the_price_and_the_raise_but_not_the_postflop_minimum():
    """Known difference 5 -- R-STRADDLE (WSOP-LA 159, 165): 2/5 with a 10
    straddle: call 10, minimum raise to 20; the straddler keeps the option;
    postflop the minimum bet is the big blind, 5."""
    stacks = {"UTG": 500, "HJ": 500, "CO": 500, "BTN": 500, "SB": 500, "BB": 500}
    hand = play(no_limit(2, 5, straddles=(10,)), stacks)
    assert hand.to_act == "HJ"
    assert hand.options().call == 10
    assert hand.options().raise_ == Range(min=20, max=500)

    for action in ("HJ call", "CO fold", "BTN fold", "SB call", "BB call"):
        position, kind = action.split()
        hand.apply(Action(position=position, kind=ActionKind(kind)))
    assert hand.to_act == "UTG"
    assert hand.options().check and hand.options().raise_ == Range(min=20, max=500)

    hand.apply(Action(position="UTG", kind=ActionKind.CHECK))
    assert hand.street == "flop"
    assert hand.card().last_full_increment == 5
    assert hand.options().bet == Range(min=5, max=490)


def test_player_who_checked_cannot_raise_an_allin_first_bet_below_the_minimum():
    """Known difference 6 -- R-REOPEN (TDA24 47-A) and R-SHORTALLIN: BB 200;
    on the flop SB checks and BB bets all-in 150. BTN (not acted) may call or
    raise to at least 350; after BTN calls, SB, who checked, faces 150 < 200:
    call or fold only."""
    hand = play(
        no_limit(100, 200),
        {"SB": 5000, "BB": 350, "BTN": 5000},
        "BTN call", "SB call", "BB check", "SB check", "BB allin",
    )
    assert hand.to_act == "BTN"
    assert hand.card().last_full_increment == 200
    assert hand.options().raise_ == Range(min=350, max=4800)

    hand.apply(Action(position="BTN", kind=ActionKind.CALL))

    assert hand.to_act == "SB"
    card = hand.card()
    assert (card.acted, card.to_add, card.last_full_increment) == (True, 150, 200)
    assert hand.options().call == 150
    assert hand.options().raise_ is None

