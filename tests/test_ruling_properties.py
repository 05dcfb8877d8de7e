"""Every ruling ends in an action the engine itself allows (RULES.md R-CHIPS), in all three games.

A seeded loop over random spots: at every decision of random hands, the player to act
says something and/or puts chips forward, and the ruling must be (1) an action that
``hand.legal`` accepts for that player, and (2) honest about the chips: what goes back
is what was put forward minus what the ruling keeps in front of the player.
"""

from __future__ import annotations

import random
from collections import Counter

from trainer.engine import Declaration, EngineError, GameType, rule
from trainer.engine.rulings import ruling_action
from trainer.playout import random_action, random_deal

SPOTS_PER_GAME = 7000  # 21,000 spots in all
DENOMINATIONS = (1, 5, 25, 100, 500, 1000, 5000)


def chips_making(total: int, rng: random.Random) -> list[int]:
    """Chips that add up to ``total``: mostly one denomination, the rest in smaller ones."""
    units = [d for d in DENOMINATIONS if d <= total] or [1]
    unit = rng.choice(units)
    chips = [unit] * min(total // unit, 40)
    rest = total - sum(chips)
    for d in reversed(DENOMINATIONS):
        while rest >= d and len(chips) < 60:
            chips.append(d)
            rest -= d
    if rest:
        chips.append(rest)
    rng.shuffle(chips)
    return chips


def random_declaration(hand, rng: random.Random) -> Declaration:
    card = hand.card()
    seat = next(s for s in hand.seats if s.position == hand.to_act)
    stack = seat.stack
    step = max(card.last_full_increment, 1)
    roll = rng.random()
    if roll < 0.15:
        amount = rng.choice((card.current_total + rng.randint(0, 3 * step), rng.randint(1, 2 * (seat.committed + stack))))
        said = rng.choice(("raise", "bet", "")) + f" {amount}"
    else:
        said = rng.choice((None, None, None, "check", "call", "bet", "raise", "raise", "allin", "fold"))
    chips: list[int] = []
    pick = rng.random()
    if said is None or pick < 0.6:
        if pick < 0.15:
            total = stack  # the last chips
        elif pick < 0.35:
            bigger = [d for d in DENOMINATIONS if d <= stack]
            total = rng.choice(bigger) if bigger else stack
            chips = [total]
        else:
            total = rng.randint(1, min(stack, card.to_add + 3 * step))
        chips = chips or chips_making(total, rng)
    later: list[int] = []
    left = stack - sum(chips)
    if left > 0 and rng.random() < 0.25:
        later = chips_making(rng.randint(1, min(left, 2 * step)), rng)
    return Declaration(said=said.strip() if said else None, chips=tuple(chips), later=tuple(later))


def spots(game_type: GameType, seed: int):
    """(hand, declaration) at every decision of seeded random hands, until there are enough."""
    rng = random.Random(seed)
    made = 0
    while made < SPOTS_PER_GAME:
        hand = random_deal(rng, game_type=game_type, players=rng.randint(2, 6)).hand()
        while not hand.betting_over and made < SPOTS_PER_GAME:
            yield hand, random_declaration(hand, rng)
            made += 1
            hand.apply(random_action(hand, rng))


def put_forward(hand, d: Declaration) -> int:
    if d.said == "allin" and not d.chips:
        seat = next(s for s in hand.seats if s.position == hand.to_act)
        return seat.stack  # "all-in" said alone stands for every chip behind
    return sum(d.chips) + sum(d.later)


def test_every_ruling_is_an_action_the_engine_accepts_and_returns_the_rest():
    wrong: list[str] = []
    seen: Counter[str] = Counter()
    for number, game_type in enumerate(GameType):
        for hand, d in spots(game_type, seed=1300 + number):
            try:
                r = rule(hand, d)
            except EngineError as exc:
                wrong.append(f"{game_type}: {d} raised {exc}")
                continue
            seen[game_type] += 1
            seat = next(s for s in hand.seats if s.position == hand.to_act)
            kept = r.to - seat.committed if r.action in ("call", "bet", "raise") else 0
            if r.action in ("check", "call", "bet", "raise"):
                action = ruling_action(hand, r)
                if not hand.legal(action):
                    wrong.append(f"{game_type}: {d} -> {r.as_dict()}, but {action} is not legal ({hand.options()})")
            expected = max(0, put_forward(hand, d) - kept)
            if r.returned != expected:
                wrong.append(f"{game_type}: {d} -> {r.as_dict()}, but {expected} should go back")
    assert sum(seen.values()) >= 20000 and len(seen) == 3
    assert not wrong, f"{len(wrong)} of {sum(seen.values())} rulings are wrong, e.g.:\n" + "\n".join(wrong[:12])
