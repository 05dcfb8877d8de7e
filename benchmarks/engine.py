"""Decisions per second: our engine against PokerKit 0.7.7 on the same hands.

The hands are the seeded random hands of the differential tests
(tests/oracle.py), generated first and not timed. Then each side replays
them, in one process:

- PokerKit: build the state, and at every decision ask for the call amount
  and the minimum and maximum raise-to, then apply the action;
- our engine: build the hand, and at every decision compute the four-column
  card and the legal options, then apply the action.

The last line printed is ``engine/pokerkit ratio: X.XX`` (ours / PokerKit's).

    python benchmarks/engine.py [--hands 2000] [--seed 1] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.oracle import BETTING_AUTOMATIONS, EngineSide, Move, PokerKitConfig, Spec, random_hands  # noqa: E402
from trainer.engine import Action  # noqa: E402

Hands = list[tuple[Spec, list[Move]]]


def pokerkit_replay(hands: Hands) -> int:
    decisions = 0
    for spec, moves in hands:
        state = PokerKitConfig.from_spec(spec).state(BETTING_AUTOMATIONS)
        for move in moves:
            state.checking_or_calling_amount
            state.min_completion_betting_or_raising_to_amount
            state.max_completion_betting_or_raising_to_amount
            if move.kind == "fold":
                state.fold()
            elif move.kind == "raise":
                state.complete_bet_or_raise_to(move.to)
            else:
                state.check_or_call()
            decisions += 1
    return decisions


def engine_actions(hands: Hands) -> list[tuple[Spec, list[Action]]]:
    """The moves as engine actions (a bet or a raise depends on the state),
    translated before timing."""
    translated = []
    for spec, moves in hands:
        side = EngineSide(spec)
        actions = []
        for move in moves:
            actions.append(side.action(move))
            side.hand.apply(actions[-1])
        translated.append((spec, actions))
    return translated


def engine_replay(hands: list[tuple[Spec, list[Action]]]) -> int:
    decisions = 0
    for spec, actions in hands:
        hand = EngineSide(spec).hand
        for action in actions:
            hand.card()
            hand.options()
            hand.apply(action)
            decisions += 1
    return decisions


def rate(replay: Callable[[list], int], hands: list, repeat: int) -> float:
    """Best of ``repeat`` runs, in decisions per second."""
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        decisions = replay(hands)
        best = max(best, decisions / (time.perf_counter() - start))
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    hands = list(random_hands(args.hands, args.seed))
    decisions = sum(len(moves) for _, moves in hands)
    print(f"{len(hands)} hands, {decisions} decisions (seed {args.seed}), best of {args.repeat}")
    theirs = rate(pokerkit_replay, hands, args.repeat)
    print(f"pokerkit: {theirs:,.0f} decisions/s (call amount, min and max raise-to)")
    ours = rate(engine_replay, engine_actions(hands), args.repeat)
    print(f"engine:   {ours:,.0f} decisions/s (card and options)")
    print(f"engine/pokerkit ratio: {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
