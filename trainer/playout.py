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
class Deal:
    """A hand's set-up: enough to build the same ``Hand`` again."""

    game: Game
    stacks: dict[str, int]

    def hand(self) -> Hand:
        return Hand(game=self.game, stacks=self.stacks)


def random_deal(rng: random.Random, *, game_type: GameType | None = None, players: int | None = None,
                short_stacks: float = 0.4, antes: float = 0.2, straddles: int = 0, short_bb: bool = False) -> Deal:
    """Blinds, stacks (many of them short) and sometimes antes, for 2-10 players."""
    n = players or rng.randint(2, 10)
    game_type = game_type or rng.choice(list(GameType))
    sb = rng.choice((1, 5, 25, 50, 100))
    bb = 2 * sb
    ante = 0
    bb_ante = 0
    if rng.random() < antes:
        if rng.random() < 0.5:
            bb_ante = bb
        else:
            ante = max(1, bb // rng.choice((2, 4, 10)))
    stacks = {}
    for pos in TABLES[n]:
        if rng.random() < short_stacks:
            stacks[pos] = rng.randint(1, 12 * bb)
        else:
            stacks[pos] = rng.randint(20 * bb, 200 * bb)
    if short_bb:
        stacks["BB"] = rng.randint(1, bb - 1)
    straddle_amounts = tuple(bb * 2 ** (k + 1) for k in range(min(straddles, n - 2)))
    game = Game(type=game_type, blinds=(sb, bb), ante=ante, bb_ante=bb_ante, straddles=straddle_amounts)
    return Deal(game=game, stacks=stacks)


def random_action(hand: Hand, rng: random.Random, aggression: float = 0.30) -> Action:
    """One legal action for the player to act, weighted so hands often reach later streets."""
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
        else:
            amount = rng.randint(wager.min, wager.max)
        return Action(position=pos, kind=kind, amount=amount)
    if opts.check:
        return Action(position=pos, kind=ActionKind.CHECK if roll < 0.97 else ActionKind.FOLD)
    if roll < 0.72:
        return Action(position=pos, kind=ActionKind.CALL)
    return Action(position=pos, kind=ActionKind.FOLD)


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
    return doc


def _action_text(action: Action) -> str:
    amount = f" {action.amount}" if action.amount is not None else ""
    return f"{action.position} {action.kind}{amount}"
