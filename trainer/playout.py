"""Random legal play: seeded spots for property tests, benchmarks and generated drills.

Everything is driven by a ``random.Random`` passed in, so the same seed gives
the same hands. Only legal actions are produced: they are drawn from the
engine's own ``options()``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .engine import Action, ActionKind, Declaration, Game, GameType, Hand, Street, rule
from .engine.reading import read

TABLES: dict[int, tuple[str, ...]] = {
    2: ("BTN", "BB"),
    3: ("BTN", "SB", "BB"),
    4: ("CO", "BTN", "SB", "BB"),
    5: ("UTG", "CO", "BTN", "SB", "BB"),
    6: ("UTG", "HJ", "CO", "BTN", "SB", "BB"),
    7: ("UTG", "LJ", "HJ", "CO", "BTN", "SB", "BB"),
    8: ("UTG", "UTG+1", "LJ", "HJ", "CO", "BTN", "SB", "BB"),
    9: ("UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO", "BTN", "SB", "BB"),
    10: ("UTG", "UTG+1", "UTG+2", "MP", "LJ", "HJ", "CO", "BTN", "SB", "BB"),
}


@dataclass(frozen=True, kw_only=True)
class Stakes:
    """Blinds as a card room spreads them, with its smallest chip: every stack, bet and raise is a
    whole number of chips and is sized the way players size them (2.5 to 3 times before the flop,
    a third of the pot to the pot after it), so a spot reads like the table, not "raise to 107"."""

    name: str  # as a reference writes it: "100-200"
    small: int
    big: int
    chip: int  # the smallest chip in play

    def round(self, amount: int) -> int:
        return max(self.chip, round(amount / self.chip) * self.chip)


# Real stakes: the exam templates choose among these (a ``exam-gen:`` reference carries the name).
STAKES: dict[str, Stakes] = {
    s.name: s for s in (Stakes(name="100-200", small=100, big=200, chip=25), Stakes(name="1000-2000", small=1000, big=2000, chip=100))
}


@dataclass(frozen=True, kw_only=True)
class Deal:
    """A hand's set-up: enough to build the same ``Hand`` again."""

    game: Game
    stacks: dict[str, int]

    def hand(self) -> Hand:
        return Hand(game=self.game, stacks=self.stacks)


def random_deal(rng: random.Random, *, game_type: GameType | None = None, players: int | None = None,
                short_stacks: float = 0.4, antes: float = 0.2, straddles: int = 0, short_bb: bool = False,
                stakes: Stakes | None = None) -> Deal:
    """Blinds, stacks (many of them short) and sometimes antes, for 2-10 players; at ``stakes``, the
    blinds are those and every stack is a whole number of its smallest chip."""
    n = players or rng.randint(2, 10)
    game_type = game_type or rng.choice(list(GameType))
    if stakes is None:
        sb = rng.choice((1, 5, 25, 50, 100))
        bb = 2 * sb
    else:
        sb, bb = stakes.small, stakes.big
    chip = stakes.round if stakes is not None else (lambda amount: amount)
    ante = 0
    bb_ante = 0
    if rng.random() < antes:
        if rng.random() < 0.5:
            bb_ante = bb
        else:
            ante = chip(max(1, bb // rng.choice((2, 4, 10))))
    stacks = {}
    for pos in TABLES[n]:
        if rng.random() < short_stacks:
            stacks[pos] = chip(rng.randint(1, 12 * bb))
        else:
            stacks[pos] = chip(rng.randint(20 * bb, 200 * bb))
    if short_bb:
        stacks["BB"] = min(chip(rng.randint(1, bb - 1)), bb - (stakes.chip if stakes else 1))
    straddle_amounts = tuple(bb * 2 ** (k + 1) for k in range(min(straddles, n - 2)))
    # R-STRADDLE: a player short of the straddle may not straddle, so each straddler covers it
    for pos, amount in zip(TABLES[n][:-2], straddle_amounts):  # the seats after the blinds, in turn
        stacks[pos] = max(stacks[pos], amount + ante)
    game = Game(type=game_type, blinds=(sb, bb), ante=ante, bb_ante=bb_ante, straddles=straddle_amounts)
    return Deal(game=game, stacks=stacks)


def random_action(hand: Hand, rng: random.Random, aggression: float = 0.30, stakes: Stakes | None = None) -> Action:
    """One legal action for the player to act, weighted so hands often reach later streets; at
    ``stakes``, bets and raises are sized as players size them, in whole chips."""
    pos = hand.to_act
    opts = hand.options()
    wager = opts.bet or opts.raise_
    kind = ActionKind.BET if opts.bet else ActionKind.RAISE
    roll = rng.random()
    if wager and roll < aggression:
        pick = rng.random()
        if pick < 0.4:
            amount = wager.min
        elif pick < 0.6:
            amount = wager.max
        elif stakes is not None:
            amount = _sized(hand, rng, stakes, wager.min, wager.max)
        else:
            amount = rng.randint(wager.min, wager.max)
        return Action(position=pos, kind=kind, amount=amount)
    if opts.check:
        return Action(position=pos, kind=ActionKind.CHECK if roll < 0.97 else ActionKind.FOLD)
    if roll < 0.72:
        return Action(position=pos, kind=ActionKind.CALL)
    return Action(position=pos, kind=ActionKind.FOLD)


def _sized(hand: Hand, rng: random.Random, stakes: Stakes, low: int, high: int) -> int:
    """A bet or raise-to as players make them: 2.5 to 3 times the bet before the flop, a third of
    the pot to the pot after it (a raise: 2.5 to 3 times the bet it raises), in whole chips."""
    current = hand.current_total
    if current:
        amount = current * rng.choice((2.5, 2.5, 3, 3, 3.5, 4))
    else:
        amount = hand.pot * rng.choice((1 / 3, 1 / 2, 1 / 2, 2 / 3, 3 / 4, 1))
    return min(high, max(low, stakes.round(int(amount))))


def random_history(rng: random.Random, deal: Deal, *, steps: int | None = None) -> tuple[Hand, list[Action]]:
    """Play ``steps`` random actions (or until betting is over) from a fresh hand."""
    hand = deal.hand()
    actions: list[Action] = []
    while not hand.betting_over and (steps is None or len(actions) < steps):
        action = random_action(hand, rng)
        hand.apply(action)
        actions.append(action)
    return hand, actions


def group_by_street(hand_events, actions: list[Action]) -> dict[Street, list[Action]]:
    """Split a played action list by street, using the hand's history."""
    voluntary = [e for e in hand_events if e.kind not in ("ante", "small-blind", "big-blind", "straddle")]
    grouped: dict[Street, list[Action]] = {}
    for event, action in zip(voluntary, actions, strict=True):
        grouped.setdefault(event.street, []).append(action)
    return grouped


def scenario_document(deal: Deal, hand: Hand, actions: list[Action], *, id: str, ask: tuple[str, ...] = ("card",),
                      with_expect: bool = True, extra: dict | None = None) -> dict:
    """A scenario file's content (SCENARIO-FORMAT.md) for a played deal, ready for ``yaml.safe_dump``."""
    game: dict = {"type": str(deal.game.type), "blinds": list(deal.game.blinds)}
    if deal.game.ante:
        game["ante"] = deal.game.ante
    if deal.game.bb_ante:
        game["bb_ante"] = deal.game.bb_ante
    if deal.game.straddles:
        game["straddles"] = list(deal.game.straddles)
    grouped = group_by_street(hand.history, actions)
    doc: dict = {"id": id, "game": game, "stacks": dict(deal.stacks)}
    if grouped:
        doc["actions"] = {str(street): [_action_text(a) for a in acts] for street, acts in grouped.items()}
    doc["ask"] = list(ask)
    doc.update(extra or {})
    if with_expect:
        answer = hand.solve()
        doc["expect"] = {key: answer[key] for key in ("to_act", "card", "options", "pot") if key in answer}
        for key in ("pots", "returned", "showdown"):
            if key in answer:
                doc["expect"][key] = answer[key]
        if extra and "ruling" in extra:
            ruling = extra["ruling"]
            declaration = Declaration(said=ruling.get("said"), chips=tuple(ruling.get("chips", ())), later=tuple(ruling.get("later", ())))
            doc["expect"]["ruling"] = rule(hand, declaration).as_dict()
        if extra and "winners" in extra:
            doc["expect"]["split"] = hand.split(extra["winners"], extra.get("chip", 1))[0]
        if extra and "hands" in extra and "winners" in ask:
            reading = read(hands=extra["hands"], board=extra["board"], pots=hand.result().pots,
                           order=[s.position for s in hand.seats])
            doc["expect"]["best_hands"] = {pos: b.as_dict() for pos, b in reading.best_hands.items()}
            doc["expect"]["winners"] = reading.winners
            if "split" in ask:
                doc["expect"]["split"] = hand.split(reading.winners, extra.get("chip", 1))[0]
    return doc


def _action_text(action: Action) -> str:
    amount = f" {action.amount}" if action.amount is not None else ""
    return f"{action.position} {action.kind}{amount}"
