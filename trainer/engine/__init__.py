"""The betting-rules engine: pure Python, no I/O.

>>> from trainer.engine import Game, GameType, Hand, Action, ActionKind
>>> hand = Hand(game=Game(type=GameType.NO_LIMIT, blinds=(100, 200)),
...             stacks={"UTG": 10000, "HJ": 10000, "CO": 10000, "BTN": 10000, "SB": 10000, "BB": 10000})
>>> hand.apply(Action(position="UTG", kind=ActionKind.RAISE, amount=600)).to
600
>>> _ = hand.apply(Action(position="HJ", kind=ActionKind.RAISE, amount=1000))
>>> hand.to_act, hand.card().last_full_increment, hand.options().raise_.min
('CO', 400, 1400)
"""

from .hand import Hand
from .rulings import Declaration, Ruling, rule
from .messages import EN, EngineError, IllegalActionError, Message, Step
from .types import (
    POSITIONS,
    Action,
    ActionKind,
    BBAOrder,
    Card,
    Event,
    Game,
    GameType,
    Options,
    Pot,
    Range,
    Reopen,
    Result,
    Rules,
    Seat,
    Showdown,
    Street,
)

__all__ = [
    "EN",
    "POSITIONS",
    "Action",
    "ActionKind",
    "BBAOrder",
    "Card",
    "Declaration",
    "Ruling",
    "rule",
    "EngineError",
    "Event",
    "Game",
    "GameType",
    "Hand",
    "IllegalActionError",
    "Message",
    "Options",
    "Pot",
    "Range",
    "Reopen",
    "Result",
    "Rules",
    "Seat",
    "Showdown",
    "Step",
    "Street",
]
