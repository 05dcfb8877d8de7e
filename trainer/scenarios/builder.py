"""Building a scenario step by step, as the browser editor does: a draft is a scenario document
(the mappings and lists of a YAML file), and every step returns a new one.

Nothing here knows a betting rule. The setup and the action so far are replayed by the loader
(``load_document``), so a draft is refused with the loader's own messages; the next action is
offered from, and checked by, the engine's ``Hand`` (its options and ``verify``); a finished draft
is written as YAML and read back through ``load_text``, the path every file takes.

>>> doc = setup(game_type="no-limit", blinds=(50, 100), stacks={"SB": 1000, "BB": 1000, "BTN": 1000})
>>> turn(doc).to_act, turn(doc).options.raise_
('BTN', Range(min=200, max=1000))
>>> add_action(doc, position="BTN", verb="raise", amount=150)
Traceback (most recent call last):
...
trainer.scenarios.builder.Refused: The minimum raise is to 200 (the last full raise added 100) (R-MINRAISE); BTN may fold, call 100, or raise to 200–1000.
>>> doc = add_action(doc, position="BTN", verb="raise", amount=300)
>>> doc["actions"]
['BTN raise 300']
>>> check(doc).solve()["to_act"]
'SB'
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from trainer.engine import Action, ActionKind, Card, Hand, Options, Street
from trainer.engine.messages import EN, IllegalActionError
from trainer.engine.types import POSITIONS
from trainer.playout import TABLES as ACTING_ORDER

from .errors import ScenarioError
from .load import load_document, load_text
from .model import Scenario
from .read import read_bytes

STREETS = tuple(s.value for s in Street)
GAME_TYPES = ("no-limit", "pot-limit", "fixed-limit")
# The usual seats by table size (SCENARIO-FORMAT.md "Positions"), in seat order: the random
# deals' tables (in the order they act before the flop), from the small blind round to the button.
TABLES = {n: tuple(sorted(seats, key=POSITIONS.index)) for n, seats in ACTING_ORDER.items()}
# What the replay of the action so far reads; the rest (questions, cards, titles) is checked when
# the whole draft is, so that a half-written title never stops the action from being built.
BETTING = ("game", "start", "pot", "stacks", "actions")
# The order keys are written in, as the format's example reads.
ORDER = ("id", "title", "topics", "level", "source", "game", "start", "pot", "stacks", "names", "board", "hands",
         "actions", "ask", "ruling", "winners", "chip", "explain", "expect")
DRAFT = "draft.yaml"  # the name a draft's messages give it, until it has an id


class Refused(ValueError):
    """A step the draft cannot take: ``str()`` is a full sentence; ``illegal`` is the engine's error
    when the engine refused the action (its ``sentence(templates)`` says it in another language)."""

    def __init__(self, message: str, *, illegal: IllegalActionError | None = None, key: str | None = None) -> None:
        super().__init__(message)
        self.illegal = illegal
        self.key = key

    def sentence(self, templates: Mapping[str, str] = EN) -> str:
        return self.illegal.sentence(templates) if self.illegal is not None else str(self)


@dataclass(frozen=True, kw_only=True)
class Turn:
    """Where the draft's betting stands: the engine's answers for the player to act (all ``None``
    once betting is over)."""

    street: str
    to_act: str | None
    card: Card | None
    options: Options | None
    hand: Hand
    actions: tuple[tuple[str, str], ...]  # (street, "POS verb [amount]") in order

    @property
    def betting_over(self) -> bool:
        return self.to_act is None

    @property
    def verbs(self) -> tuple[str, ...]:
        """The verbs the engine allows now, in the form's order (all-in when the engine takes it:
        not, say, a raise all-in that the betting is not reopened for)."""
        o = self.options
        if o is None:
            return ()
        found = [v for v, ok in (("fold", o.fold), ("check", o.check), ("call", o.call is not None),
                                 ("bet", o.bet is not None), ("raise", o.raise_ is not None)) if ok]
        if self.hand.legal(Action(position=self.to_act, kind=ActionKind.ALLIN)):
            found.append("allin")
        return tuple(found)


def setup(*, game_type: str, blinds: tuple[int, int], stacks: Mapping[str, int], ante: int = 0, bb_ante: int = 0,
          straddles: tuple[int, ...] = (), bets: tuple[int, int] | None = None, start: str = "preflop",
          pot: int = 0, rules: Mapping[str, Any] | None = None, keep: Mapping[str, Any] | None = None) -> dict:
    """A draft with this table (nothing asked yet); ``rules``: the game's options (``game.rules``:
    reopen, bba, limit_cap, limit_cap_heads_up); ``keep``: a draft whose titles, notes, cards and
    questions carry over (its action does not: it was played on another table). The loader checks it:
    a table that cannot be dealt is ``Refused`` with the loader's message and the key."""
    game: dict[str, Any] = {"type": game_type, "blinds": [int(blinds[0]), int(blinds[1])]}
    if ante:
        game["ante"] = ante
    if bb_ante:
        game["bb_ante"] = bb_ante
    if straddles:
        game["straddles"] = [int(s) for s in straddles]
    if bets and game_type == "fixed-limit":
        game["bets"] = [int(bets[0]), int(bets[1])]
    doc: dict[str, Any] = {}
    for key, value in (keep or {}).items():
        if key not in ("game", "start", "pot", "stacks", "actions", "expect"):
            doc[key] = copy.deepcopy(value)
    if rules:
        game["rules"] = dict(rules)
    doc["game"] = game
    if start != "preflop":
        doc["start"] = start
        doc["pot"] = int(pot)
    doc["stacks"] = {p: int(stacks[p]) for p in POSITIONS if p in stacks}
    doc["ask"] = ["card"]
    turn(doc)
    return ordered(doc)


def ordered(doc: Mapping[str, Any]) -> dict:
    """The document with its keys in the format's reading order (unknown keys last, for the loader to name)."""
    return {k: doc[k] for k in (*ORDER, *(k for k in doc if k not in ORDER)) if k in doc}


def action_list(doc: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The draft's actions as (street, text), whether written as a list or by street."""
    start = doc.get("start") or "preflop"
    actions = doc.get("actions") or []
    if isinstance(actions, Mapping):
        return [(str(street), str(a)) for street, items in actions.items() for a in (items or [])]
    return [(str(start), str(a)) for a in actions]


def _with_actions(doc: Mapping[str, Any], actions: list[tuple[str, str]]) -> dict:
    # Another action means other answers: a file's ``expect`` (its author's self-check) would now
    # fail on the old ones, so it goes; the preview shows the engine's answers instead.
    out = {k: copy.deepcopy(v) for k, v in doc.items() if k not in ("actions", "expect")}
    start = doc.get("start") or "preflop"
    if actions:
        if all(street == start for street, _ in actions):
            out["actions"] = [text for _, text in actions]
        else:
            by_street: dict[str, list[str]] = {}
            for street, text in actions:
                by_street.setdefault(street, []).append(text)
            out["actions"] = by_street
    return ordered(out)


def _betting(doc: Mapping[str, Any]) -> dict:
    return {k: v for k, v in doc.items() if k in BETTING}


def turn(doc: Mapping[str, Any]) -> Turn:
    """Replay the draft's table and action through the loader; ``Refused`` with its message if it fails."""
    try:
        sc = load_document(_betting(doc), _file(doc))
    except ScenarioError as exc:
        raise Refused(exc.message, key=exc.key) from None
    hand = sc.hand()
    to_act = hand.to_act
    return Turn(street=str(hand.street), to_act=to_act, card=hand.card() if to_act else None,
                options=hand.options() if to_act else None, hand=hand, actions=tuple(action_list(doc)))


def add_action(doc: Mapping[str, Any], *, position: str, verb: str, amount: int | None = None) -> dict:
    """The draft with one more action, if the engine allows it now; else ``Refused`` with the
    engine's sentence (rule ID and what was legal) and the draft unchanged."""
    now = turn(doc)
    if now.betting_over:
        raise Refused("Betting is over: nobody is to act.")
    try:
        kind = ActionKind(verb)
    except ValueError:
        raise Refused(f"{verb!r} is not an action: fold, check, call, bet, raise or allin.") from None
    if kind in (ActionKind.BET, ActionKind.RAISE):
        if amount is None:
            raise Refused(f"A {verb} needs the total it is to.")
    else:
        amount = None
    action = Action(position=position, kind=kind, amount=amount)
    try:
        now.hand.verify(action)
    except IllegalActionError as exc:
        raise Refused(exc.sentence(), illegal=exc) from None
    text = f"{position} {verb}" + (f" {amount}" if amount is not None else "")
    return fit_ask(_with_actions(doc, [*now.actions, (now.street, text)]))


def undo(doc: Mapping[str, Any]) -> dict:
    """The draft without its last action."""
    return fit_ask(_with_actions(doc, action_list(doc)[:-1]))


# What each question needs: someone to act, or betting over (``pot`` is asked at any time).
WHILE_BETTING = ("card", "options", "ruling")
ONCE_OVER = ("pots", "showdown", "winners", "split")


def fit_ask(doc: Mapping[str, Any]) -> dict:
    """The draft asking only what its spot can answer after an action changed it: a card needs a
    player to act, pots need betting over; when nothing asked is left, what such a spot usually asks."""
    t = turn(doc)
    asked = [k for k in (doc.get("ask") or []) if isinstance(k, str)]
    kept = [k for k in asked if k not in (ONCE_OVER if not t.betting_over else WHILE_BETTING)]
    if t.betting_over and len([s for s in t.hand.seats if not s.folded]) < 2:
        kept = [k for k in kept if k not in ("showdown", "winners", "split")]
    return with_values(doc, ask=kept or default_ask(t))


def from_draft(text: str, file: str = DRAFT) -> dict:
    """A draft sent back by the editor's form: read as YAML within the loader's bounds, not yet
    checked (``ScenarioError`` if it is not a mapping the reader can read)."""
    doc = read_bytes(text.encode("utf-8", "surrogatepass"), file)
    if not isinstance(doc, dict):
        raise ScenarioError(file, 1, None, "a scenario is a mapping of keys (game, stacks, actions, ...)")
    return ordered(_plain(doc))


def default_ask(t: Turn) -> list[str]:
    """What a spot at this point usually asks: the card while someone is to act, else the pots
    (and the showdown with two or more players left), as the loader's default does."""
    if not t.betting_over:
        return ["card"]
    live = [s for s in t.hand.seats if not s.folded]
    return ["pots", "showdown"] if len(live) > 1 else ["pots"]


def with_values(doc: Mapping[str, Any], **values: Any) -> dict:
    """The draft with these top-level keys set (``None`` or empty removes one)."""
    out = {k: copy.deepcopy(v) for k, v in doc.items() if k not in values}
    for key, value in values.items():
        if value not in (None, "", [], {}, ()):
            out[key] = value
    return ordered(out)


def to_yaml(doc: Mapping[str, Any]) -> str:
    """The draft as a scenario file: keys in the format's order, flow lists for cards and amounts."""
    return yaml.dump(ordered(doc), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


class _Dumper(yaml.SafeDumper):
    pass


def _list(dumper: yaml.SafeDumper, items: list) -> yaml.Node:
    # Short lists of numbers or cards read best on one line ([50, 100], [Kc, 7d, 2s]); actions
    # and anything longer one per line.
    flow = all(isinstance(i, int | str) for i in items) and sum(len(str(i)) for i in items) < 40 \
        and not any(" " in str(i) for i in items if isinstance(i, str))
    return dumper.represent_sequence("tag:yaml.org,2002:seq", items, flow_style=flow)


_Dumper.add_representer(list, _list)


def check(doc: Mapping[str, Any]) -> Scenario:
    """The draft as a scenario, read as a file is: written as YAML, then loaded (``ScenarioError``
    with file, line and key)."""
    return load_text(to_yaml(doc), _file(doc))


def from_yaml(text: str, file: str = DRAFT) -> dict:
    """A scenario file opened for editing: loaded as any file (``ScenarioError`` if it does not),
    then its document as the loader's reader typed it, in plain dicts and lists."""
    load_text(text, file)
    return ordered(_plain(read_bytes(text.encode("utf-8"), file)))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _file(doc: Mapping[str, Any]) -> str:
    sid = doc.get("id")
    return f"{sid}.yaml" if isinstance(sid, str) and sid else DRAFT
