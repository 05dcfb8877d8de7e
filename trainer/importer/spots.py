"""A ``HandRecord`` replayed through the engine -> one spot per decision.

The engine checks the hand as it goes: each move must be the turn of the
player who makes it, a call must put in exactly what the engine says is owed
(capped at the stack), and a bet or raise must lie inside the engine's
options. A hand that does not is refused at the line of the first move that
breaks a rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum

from trainer.engine import POSITIONS, Action, ActionKind, Game, GameType, Hand, IllegalActionError, Street
from trainer.playout import TABLES

from .model import HandError, HandRecord, Move, Refused, Verb

# The largest amount a JSON reader that uses doubles keeps exactly (the scenario loader's bound).
MAX_AMOUNT = 2**53 - 1


class Mode(StrEnum):
    EVERY_DECISION = "every-decision"
    TEACHING = "teaching"


@dataclass(frozen=True, kw_only=True)
class Decision:
    """The spot before one move: what the engine says there, and what the player did."""

    number: int  # the move's place among the hand's recorded moves, from 1
    position: str
    street: Street
    actions: dict[str, list[str]]  # street -> action texts so far, as in a scenario file
    solution: dict  # the engine's card and options
    topics: tuple[str, ...]
    did: str  # what the player did, in words


@dataclass(frozen=True, kw_only=True)
class Spot:
    id: str
    folder: str  # where it is written below the output folder
    document: dict


def positions(count: int) -> tuple[str, ...]:
    """Seat names from the small blind clockwise to the button (heads-up: big blind, button)."""
    return tuple(sorted(TABLES[count], key=POSITIONS.index))


def replay(record: HandRecord) -> list[Decision]:
    """Every decision of the hand, checked by the engine; raises ``HandError`` at the first rule broken."""
    seat_of = dict(zip(record.players, positions(len(record.players))))
    amounts = [*record.blinds, record.ante, record.bb_ante, *record.straddles, *record.stacks.values()]
    amounts += [m.to for m in record.moves if m.to is not None]
    if max(amounts) > MAX_AMOUNT:
        raise HandError(Refused.UNSUPPORTED, record.line, f"an amount over {MAX_AMOUNT} chips")
    if min(record.stacks.values()) <= 0:
        raise HandError(Refused.RULES, record.line, "a player is dealt in with no chips")
    try:
        hand = Hand(game=game_of(record), stacks={seat_of[p]: s for p, s in record.stacks.items()})
    except (IllegalActionError, ValueError) as exc:
        raise HandError(Refused.RULES, record.line, str(exc)) from None
    decisions: list[Decision] = []
    written: dict[str, list[str]] = {}
    for number, move in enumerate(record.moves, 1):
        position = seat_of[move.player]
        if hand.to_act is None and move.verb in (Verb.CHECK, Verb.CHECK_OR_CALL):
            # A check some software records when nobody is left to play against:
            # the rules ask nothing of that player (R-NOOPPONENT).
            continue
        if hand.to_act != position:
            waiting = "betting is over" if hand.to_act is None else f"{hand.to_act} is to act"
            raise HandError(Refused.RULES, move.line, f"{move.player} ({position}) acts out of turn: {waiting}")
        if move.street != hand.street:
            raise HandError(Refused.RULES, move.line, f"{move.player} acts on the {move.street}, but the {hand.street} betting is not over")
        action, text, did, to = _action(hand, position, move)
        decisions.append(Decision(
            number=number, position=position, street=hand.street, actions={k: list(v) for k, v in written.items()},
            solution=hand.solve(), topics=teaching_topics(hand), did=did,
        ))
        try:
            event = hand.apply(action)
        except IllegalActionError as exc:
            raise HandError(Refused.RULES, move.line, f"{move.player} ({position}): {exc}") from None
        if to is not None and event.to != to:
            raise HandError(Refused.RULES, move.line, f"{move.player} ({position}) puts in a total of {to}, but all-in is {event.to}")
        written.setdefault(str(decisions[-1].street), []).append(text)
    if hand.to_act is not None:
        raise HandError(Refused.TRUNCATED, record.end_line, f"the hand stops before betting is over: {hand.to_act} is to act")
    return decisions


def game_of(record: HandRecord) -> Game:
    return Game(type=record.game_type, blinds=record.blinds, ante=record.ante, bb_ante=record.bb_ante,
                straddles=record.straddles)


def _action(hand: Hand, position: str, move: Move) -> tuple[Action, str, str, int | None]:
    """The engine's action for a move, the move as a scenario file writes it, in words, and its total."""
    options = hand.options()
    card = hand.card()
    seat = next(s for s in hand.seats if s.position == position)
    verb = move.verb
    if verb is Verb.CHECK_OR_CALL:
        verb = Verb.CHECK if options.check else Verb.CALL
    if verb is Verb.CHECK and not options.check:
        raise HandError(Refused.RULES, move.line, f"{move.player} ({position}) checks, but {options.call} is owed")
    if verb is Verb.ALLIN:
        total = seat.committed + move.added
        if total != seat.committed + seat.stack:
            raise HandError(Refused.RULES, move.line, f"{move.player} ({position}) goes all-in for {move.added}, but has {seat.stack} behind")
        return Action(position=position, kind=ActionKind.ALLIN), f"{position} allin", f"went all-in for {move.added} more", total
    if verb is Verb.CALL:
        if options.call is None:
            raise HandError(Refused.RULES, move.line, f"{move.player} ({position}) calls, but nothing is owed")
        if move.added is not None and move.added != options.call:
            raise HandError(Refused.RULES, move.line,
                            f"{move.player} ({position}) calls {move.added}, but the call is {options.call} "
                            f"(④ {card.to_add}, stack {seat.stack})")
        return Action(position=position, kind=ActionKind.CALL), f"{position} call", f"called {options.call}", None
    if verb in (Verb.BET, Verb.RAISE):
        all_in_total = seat.committed + seat.stack
        if move.to is None:  # a site that writes the chips a raise adds
            move = replace(move, to=seat.committed + move.added)
        bounds = options.bet or options.raise_
        word = "bet" if card.current_total == 0 else "raise"
        if move.to == all_in_total:
            return Action(position=position, kind=ActionKind.ALLIN), f"{position} allin", f"went all-in for {move.to}", move.to
        if bounds is None or not bounds.min <= move.to <= bounds.max:
            allowed = "no bet or raise is allowed" if bounds is None else f"the {word} must be to {bounds.min}–{bounds.max}"
            raise HandError(Refused.RULES, move.line, f"{move.player} ({position}) {word}s to {move.to}, but {allowed}")
        kind = ActionKind.BET if word == "bet" else ActionKind.RAISE
        said = f"bet {move.to}" if word == "bet" else f"raised to {move.to}"
        return Action(position=position, kind=kind, amount=move.to), f"{position} {word} {move.to}", said, move.to
    kind = ActionKind.CHECK if verb is Verb.CHECK else ActionKind.FOLD
    return Action(position=position, kind=kind), f"{position} {kind}", "checked" if verb is Verb.CHECK else "folded", None


def teaching_topics(hand: Hand) -> tuple[str, ...]:
    """The topics this decision teaches (empty: an ordinary decision)."""
    topics = []
    card, options = hand.card(), hand.options()
    seat = next(s for s in hand.seats if s.position == hand.to_act)
    street_events = [e for e in hand.history if e.street == hand.street and e.kind in ("bet", "raise")]
    if any(not e.full for e in street_events):
        topics += ["short-all-in", "reopening"]
    live = [s for s in hand.seats if not s.folded]
    if card.to_add > seat.stack or any(s.all_in for s in live) and sum(not s.all_in for s in live) >= 2:
        topics.append("side-pots")
    if (hand.street is Street.PREFLOP and hand.to_act == "BB" and options.check
            and not any(e.kind in ("bet", "raise") for e in street_events)):
        topics.append("round-end")
    if hand.game.type is GameType.POT_LIMIT and (options.bet or options.raise_):
        topics.append("pot-limit")
    if hand.game.straddles and hand.street is Street.PREFLOP:
        topics.append("straddle")
    return tuple(dict.fromkeys(topics))


def spots(record: HandRecord, decisions: list[Decision], mode: Mode, used: set[str]) -> list[Spot]:
    """The spot files of one hand's decisions (``used``: ids taken so far, updated)."""
    folder = slug(record.file.rsplit(".", 1)[0])[:50].strip("-") or "hands"
    seat_of = dict(zip(record.players, positions(len(record.players))))
    game: dict = {"type": str(record.game_type), "blinds": list(record.blinds)}
    if record.ante:
        game["ante"] = record.ante
    if record.bb_ante:
        game["bb_ante"] = record.bb_ante
    if record.straddles:
        game["straddles"] = list(record.straddles)
    made = []
    for d in decisions:
        if mode is Mode.TEACHING and not d.topics:
            continue
        sid = unique(f"{folder}-{slug(record.hand)}-{d.number}", used)
        document: dict = {
            "id": sid,
            "title": {"en": f"Hand {record.hand}, decision {d.number}: {d.position} to act {_on(d.street)}"},
            "source": {"file": record.file, "hand": record.hand, "decision": d.number},
        }
        if d.topics:
            document["topics"] = list(d.topics)
        document["game"] = game
        document["stacks"] = {seat_of[p]: record.stacks[p] for p in record.players}
        document["names"] = {seat_of[p]: p for p in record.players}
        if d.actions:
            document["actions"] = d.actions
        document["ask"] = ["card", "options"]
        document["explain"] = {"en": f"In the hand, {d.position} {d.did}."}
        document["expect"] = {"to_act": d.position, "card": d.solution["card"], "options": d.solution["options"]}
        made.append(Spot(id=sid, folder=folder, document=document))
    return made


def _on(street: Street) -> str:
    return "before the flop" if street is Street.PREFLOP else f"on the {street}"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def unique(sid: str, used: set[str]) -> str:
    candidate, n = sid, 1
    while candidate in used:
        n += 1
        candidate = f"{sid}-{n}"
    used.add(candidate)
    return candidate
