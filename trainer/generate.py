"""Endless drills: seeded random spots that are *about* a topic.

Each topic has a deal recipe (game, table size, stacks), an action policy and
a predicate the spot must satisfy — most predicates read which steps the
engine's own derivation contains (a short all-in, a reopening decision, the
cap), so a spot is about the topic because the engine explains it that way.
The same (topic, level, seed) always gives the same files.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from .engine import GameType, Hand, Street
from .engine.reading import RANKS, SUITS, read
from .playout import STAKES, Deal, Stakes, random_action, random_deal, scenario_document
from .topics import BY_NAME
from .translations import LOCALES
from .translations import text as language
from .translations.engine import engine_templates, engine_text

# players dealt in, by level: easy spots are small tables
PLAYERS_BY_LEVEL = {1: (2, 4), 2: (3, 6), 3: (4, 8), 4: (5, 9), 5: (6, 10)}

MAX_TRIES = 400


@dataclass(frozen=True, kw_only=True)
class Recipe:
    """How to find a spot for one topic."""

    when: str  # "decision" (a player is to act) or "over" (betting is over)
    ask: tuple[str, ...]
    predicate: Callable[[Hand, _Ids, int], bool]
    game_types: tuple[GameType, ...] = (GameType.NO_LIMIT,)
    players: tuple[int, int] | None = None
    min_players: int = 2
    short_stacks: float = 0.4
    antes: float = 0.0
    straddles: int = 0
    short_bb: bool = False
    aggression: float = 0.3
    explain: str = ""  # English; the translations are in the engine catalogs (context explain.<topic>)
    # more file keys (ruling, winners): (hand, rng, spot variant, stakes or None) -> keys, or None to deal again
    extra: Callable[[Hand, random.Random, int, Stakes | None], dict | None] | None = None
    # the same for the generator's second edition (``generate(edition=2)``): more kinds of spot;
    # the first edition's spots stay as they were, so stored references still replay them
    extra_2: Callable[[Hand, random.Random, int, Stakes | None], dict | None] | None = None


class _Ids:
    """The message IDs of the hand's derivation, computed only when a predicate asks."""

    def __init__(self, hand: Hand):
        self._hand = hand
        self._ids: set[str] | None = None

    def __contains__(self, message_id: str) -> bool:
        if self._ids is None:
            self._ids = {step.message.id for step in self._hand.derivation()}
        return message_id in self._ids


def _preflop(hand: Hand) -> bool:
    return hand.street is Street.PREFLOP


def _reopening(hand: Hand, ids: _Ids, i: int) -> bool:
    card = hand.card()
    if not card.acted or not card.to_add or "inc.short" not in ids:
        return False
    want = "opt.reopened" if i % 2 == 0 else "opt.not_reopened"
    return want in ids


def _side_pots(hand: Hand, ids: _Ids, i: int) -> bool:
    levels = {s.total for s in hand.seats if s.all_in and not s.folded}
    return len(levels) >= 2


def _showdown(hand: Hand, ids: _Ids, i: int) -> bool:
    result = hand.result()
    return result.showdown is not None and result.showdown.all_tabled == (i % 2 == 1)


def _pot_limited(hand: Hand, ids: _Ids, i: int) -> bool:
    opts = hand.options()
    wager = opts.bet or opts.raise_
    if wager is None or wager.min == wager.max:
        return False
    seat = next(s for s in hand.seats if s.position == hand.to_act)
    return wager.max < seat.committed + seat.stack


def _random_ruling(hand: Hand, rng: random.Random, i: int, stakes: Stakes | None = None) -> dict | None:
    """A declaration and/or chips for the player to act, from the situations R-CHIPS rules on; at
    ``stakes``, only chips the room plays with (its smallest chip and up) and amounts in them."""
    card = hand.card()
    seat = next(s for s in hand.seats if s.position == hand.to_act)
    smallest = stakes.chip if stakes is not None else 1
    denominations = [d for d in (1, 5, 25, 100, 500, 1000, 5000, 25000) if smallest <= d <= max(seat.stack, 1)]
    if not denominations:
        return None
    kind = i % 5
    if kind == 0 and card.to_add:  # one oversized chip, silent or with "raise"
        bigger = [d for d in denominations if d > card.to_add and d < seat.stack]
        if not bigger:
            return None
        ruling = {"chips": [rng.choice(bigger)]}
        if rng.random() < 0.4:
            ruling["said"] = "raise"
        return {"ruling": ruling}
    if kind == 1 and card.current_total:  # several chips: every chip needed, or the 50% standard
        unit = rng.choice([d for d in denominations if d <= max(card.last_full_increment, 1)] or [1])
        extra = rng.randint(0, 2 * card.last_full_increment) // unit * unit
        total = card.to_add + extra
        if total <= 0 or total >= seat.stack or total // unit > 40:
            return None
        return {"ruling": {"chips": [unit] * (total // unit) + ([total % unit] if total % unit else [])}}
    if kind == 2:  # a word that does not fit the spot
        said = "call" if not card.to_add else "check" if rng.random() < 0.5 else "raise"
        return {"ruling": {"said": said}}
    if kind == 3 and card.current_total and card.to_add:  # an amount alone (TDA24 40-C)
        amount = card.current_total + rng.randint(1, max(1, card.last_full_increment + card.last_full_increment // 2))
        if stakes is not None:
            amount = card.current_total + stakes.round(amount - card.current_total)
        if amount >= seat.committed + seat.stack:
            return None
        return {"ruling": {"said": str(amount)}}
    if card.to_add and seat.stack > card.to_add + 2:  # "call", then more chips in a second motion
        more = min(max(1, card.last_full_increment), seat.stack - card.to_add)  # both motions come from the stack
        return {"ruling": {"said": "call", "chips": [card.to_add], "later": [more]}}
    return None


# The second edition's rulings: the first five kinds, then five more situations R-CHIPS rules on.
RULING_KINDS_2 = 10


def _random_ruling_2(hand: Hand, rng: random.Random, i: int, stakes: Stakes | None = None) -> dict | None:
    """``_random_ruling``'s five kinds and five more: a silent oversized chip with no bet in front
    (R-OVERCHIP: a bet of its full value), several chips every one of which the call needs
    (R-MULTICHIP), "raise" declared with chips short of a full raise (R-VERBAL, R-HALF), a raise
    declared with its amount (TDA24 40-C), and a player's last chips pushed silently (all-in)."""
    kind = i % RULING_KINDS_2
    if kind < 5:
        return _random_ruling(hand, rng, kind, stakes)
    # A kind the spot does not fit (no bet to face, say) gives way to the next, so a spot is
    # dealt again only when none of the five fits.
    for tried in range(5):
        found = _more_ruling(hand, rng, 5 + (kind - 5 + tried) % 5, stakes)
        if found is not None:
            return found
    return None


def _more_ruling(hand: Hand, rng: random.Random, kind: int, stakes: Stakes | None) -> dict | None:
    card = hand.card()
    seat = next(s for s in hand.seats if s.position == hand.to_act)
    smallest = stakes.chip if stakes is not None else 1
    denominations = [d for d in (1, 5, 25, 100, 500, 1000, 5000, 25000) if smallest <= d <= max(seat.stack, 1)]
    if not denominations:
        return None
    if kind == 5:  # nobody has bet: one chip pushed silently is a bet of its whole value
        if card.current_total or card.to_add:
            return None
        bigger = [d for d in denominations if hand.game.big_blind <= d < seat.stack]
        return {"ruling": {"chips": [rng.choice(bigger)]}} if bigger else None
    if kind == 6 and card.to_add:  # several chips, each one needed to make the call
        # chips a player would reach for: at most eight of the larger, four of the smaller
        bigger = [d for d in denominations if d < card.to_add and card.to_add // d <= 8]
        if not bigger:
            return None
        big = rng.choice(bigger)
        chips = [big] * (card.to_add // big)
        rest = card.to_add - sum(chips)
        if rest:
            small = rng.choice([d for d in denominations if d < big and -(-rest // d) <= 4] or [big])
            chips += [small] * -(-rest // small)
        if len(chips) < 2 or sum(chips) >= seat.stack:
            return None
        return {"ruling": {"chips": sorted(chips, reverse=True)}}
    if kind == 7 and card.to_add and card.last_full_increment:  # "raise", chips short of a full raise
        unit = min(denominations, key=lambda d: (abs(d - max(card.last_full_increment // 2, smallest)), -d))
        short = rng.randint(1, 3) * unit
        total = card.to_add + min(short, card.last_full_increment - unit) if card.last_full_increment > unit else 0
        if total <= card.to_add or total >= seat.stack or total // unit > 40:
            return None
        return {"ruling": {"said": "raise", "chips": [unit] * (total // unit)}}
    if kind == 8 and card.current_total:  # "raise to" an amount, said before any chip moves
        opts = hand.options()
        if opts.raise_ is None:
            return None
        span = max(0, opts.raise_.max - opts.raise_.min)
        to = opts.raise_.min + rng.randint(0, span // 2)
        if stakes is not None:
            to = card.current_total + stakes.round(to - card.current_total)
        if not card.current_total < to < seat.committed + seat.stack:
            return None
        return {"ruling": {"said": f"raise {to}"}}
    if kind == 9:  # the player's last chips, pushed silently in one motion
        left, chips = seat.stack, []
        for d in sorted(denominations, reverse=True):
            while left >= d and len(chips) <= 10:
                chips.append(d)
                left -= d
        if left or not chips or len(chips) > 10:  # a stack pushed in ten chips or fewer
            return None
        return {"ruling": {"chips": chips}}
    return None


def _random_winners(hand: Hand, rng: random.Random, i: int, stakes: Stakes | None = None) -> dict | None:
    pots = hand.result().pots
    winners = []
    for pot in pots:
        count = rng.randint(2, len(pot.eligible)) if len(pot.eligible) > 1 and rng.random() < 0.8 else 1
        winners.append(rng.sample(list(pot.eligible), count))
    if all(len(w) == 1 for w in winners):
        return None
    room = stakes.chip if stakes is not None else 1
    chip = hand.game.small_blind if rng.random() < 0.5 else room
    if not _made_of(hand, chip):
        # An amount that is not a whole number of that chip was not dealt in it (a 25 short blind in
        # a pot split in 100s): the smallest chip is the room's, which every amount is made of.
        chip = room
    return {"winners": winners, "chip": chip}


def _made_of(hand: Hand, chip: int) -> bool:
    """R-ODDCHIP: every amount of the spot (forced bets, stacks, bets, pots) is a number of ``chip``s."""
    g = hand.game
    amounts = [*g.blinds, g.ante, g.bb_ante, *g.straddles, *(g.bets or ()), hand.pot,
               *(s.stack for s in hand.seats), *(e.added for e in hand.history), *(e.to for e in hand.history)]
    return all(amount % chip == 0 for amount in amounts)


DECK = tuple(r + s for r in RANKS for s in SUITS)
CARD_TRIES = 300
HAND_READING_ASK = ("winners",)


def _hand_reading_spot(hand: Hand, ids: _Ids, i: int) -> bool:
    result = hand.result()
    return result.showdown is not None and (i % 4 != 3 or len(result.pots) >= 2)


def _random_cards(hand: Hand, rng: random.Random, i: int, stakes: Stakes | None = None) -> dict | None:
    """A board and hole cards that make the spot teach one thing, by turns: a split, a kicker, the board
    playing, a side pot that goes to another player than the main pot."""
    pots = hand.result().pots
    live = [s.position for s in hand.seats if not s.folded]
    for _ in range(CARD_TRIES):
        cards = rng.sample(DECK, 5 + 2 * len(live))
        board = cards[:5]
        hands = {pos: cards[5 + 2 * n: 7 + 2 * n] for n, pos in enumerate(live)}
        reading = read(hands=hands, board=board, pots=pots, order=live)
        best, winners = reading.best_hands, reading.winners
        kind = i % 4
        if kind == 0:
            ok = any(len(w) > 1 for w in winners)
        elif kind == 1:
            top = winners[0][0]
            ok = len(winners[0]) == 1 and any(
                best[p].category == best[top].category for p in pots[0].eligible if p != top)
        elif kind == 2:
            ok = any(set(best[p].cards) == set(board) for w in winners for p in w)
        else:
            ok = len(winners) >= 2 and set(winners[0]).isdisjoint(winners[-1])
        if ok:
            if any(len(w) > 1 for w in winners):  # a split: the dealer also says what each winner collects
                chip = {"chip": stakes.chip} if stakes is not None else {}
                return {"board": board, "hands": hands, **chip, "ask": [*HAND_READING_ASK, "split"]}
            return {"board": board, "hands": hands}
    return None

# Chinese runs one sentence into the next after its full-width stop.
SENTENCE_GAP = {"en": " "}

# The English source texts of the notes; their translations are in the engine
# catalogs (trainer/translations/*/LC_MESSAGES/engine.po, docs/i18n.md).
CARD_EXPLAIN = "{pos} to act ({street}): ① current total {cur}, ② last full increment {inc}, ③ {pos} has {com} in, ④ so {pos} must add {add} to call."
# with nothing to add, "must add 0 to call" would teach a call that does not exist
CARD_CHECK_EXPLAIN = "{pos} to act ({street}): ① current total {cur}, ② last full increment {inc}, ③ {pos} has {com} in, ④ nothing to add, so {pos} may check."

RECIPES: dict[str, Recipe] = {
    "action-order": Recipe(
        when="decision", ask=("card",),
        predicate=lambda h, ids, i: h.street is not Street.PREFLOP and sum(not s.folded for s in h.seats) >= 3,
        short_stacks=0.1,
        explain="After the flop the first player still in the hand clockwise from the button acts first; folded and all-in players are skipped.",
    ),
    "heads-up": Recipe(
        when="decision", ask=("card", "options"), predicate=lambda h, ids, i: True, players=(2, 2),
        short_stacks=0.2,
        explain="Heads-up the button posts the small blind, acts first before the flop and last after it.",
    ),
    "round-end": Recipe(
        when="decision", ask=("card", "options"),
        predicate=lambda h, ids, i: _preflop(h) and not h.card().acted and h.card().to_add == 0,
        game_types=(GameType.NO_LIMIT, GameType.POT_LIMIT, GameType.FIXED_LIMIT), short_stacks=0.0, aggression=0.0,
        min_players=3,
        explain="Everyone only called, but the big blind has not acted yet: the round is not over. The big blind may check or raise to at least {min}.",
    ),
    "min-bet": Recipe(
        when="decision", ask=("options",),
        predicate=lambda h, ids, i: h.card().current_total == 0 and h.options().bet is not None,
        game_types=(GameType.NO_LIMIT, GameType.POT_LIMIT), short_stacks=0.1,
        explain="Nobody has bet on this street, so {pos} may check or bet; the smallest bet is one big blind, {bb}, unless it is all-in.",
    ),
    "min-raise": Recipe(
        when="decision", ask=("card", "options"),
        predicate=lambda h, ids, i: h.options().raise_ is not None and "inc.raise" in ids and "inc.short" not in ids,
        short_stacks=0.1, aggression=0.45,
        explain="The last full raise added {inc}, so the minimum raise-to is ① {cur} + ② {inc} = {min}: count the increment, not the total.",
    ),
    "short-all-in": Recipe(
        when="decision", ask=("card", "options"),
        predicate=lambda h, ids, i: not h.card().acted and h.card().current_total > 0 and "inc.short" in ids,
        short_stacks=0.6, aggression=0.35, min_players=3,
        explain="A short all-in does not change the last full increment: ② stays {inc}, so a full raise goes to at least {cur} + {inc}.",
    ),
    "reopening": Recipe(
        when="decision", ask=("card", "options"), predicate=_reopening,
        short_stacks=0.65, aggression=0.35, min_players=4,
        explain="{pos} already acted, so only what they now face counts: ④ {add} against a full raise of ② {inc}. At least a full raise reopens the betting; less allows only call or fold.",
    ),
    "no-opponent": Recipe(
        when="decision", ask=("options",), predicate=lambda h, ids, i: h.options().raise_ is None and h.card().to_add > 0 and "opt.no_opponent" in ids,
        short_stacks=0.8, aggression=0.4, min_players=3,
        explain="Every other player still in the hand has at most {cur} in total, so no one could call any part of a raise: {pos} may only call or fold.",
    ),
    "short-blind": Recipe(
        when="decision", ask=("card", "options"),
        predicate=lambda h, ids, i: "cur.short_blind" in ids, short_bb=True, short_stacks=0.1, aggression=0.0,
        explain="The big blind is all-in for less than a full blind, but the price stays the full big blind {bb}, and the minimum raise is to {min}.",
    ),
    "straddle": Recipe(
        when="decision", ask=("card", "options"), predicate=lambda h, ids, i: _preflop(h), players=(4, 9),
        straddles=1, short_stacks=0.1,
        explain="A live straddle is a blind raise: ① and ② are both the straddle, so the minimum raise is to twice the straddle; the straddler acts last before the flop.",
    ),
    "ante": Recipe(
        when="decision", ask=("pot", "card"), predicate=lambda h, ids, i: _preflop(h) and h.pot > sum(s.total for s in h.seats),
        antes=1.0, short_stacks=0.1, min_players=3,
        explain="Antes are dead money: they are in the pot ({pot}) but never count as committed on the card.",
    ),
    "pot-limit": Recipe(
        when="decision", ask=("options", "pot"), predicate=_pot_limited, game_types=(GameType.POT_LIMIT,),
        short_stacks=0.1,
        explain="Pot-limit: call first, then raise the size of the pot. The largest raise-to here is {max}.",
    ),
    "fixed-limit": Recipe(
        when="decision", ask=("card", "options"),
        predicate=lambda h, ids, i: (h.options().bet or h.options().raise_) is not None,
        game_types=(GameType.FIXED_LIMIT,), short_stacks=0.2,
        explain="In fixed limit every bet or raise adds exactly one bet of the street's size.",
    ),
    "limit-cap": Recipe(
        when="decision", ask=("options",), predicate=lambda h, ids, i: h.options().raise_ is None and "opt.limit_capped" in ids,
        game_types=(GameType.FIXED_LIMIT,), short_stacks=0.0, aggression=0.7,
        explain="A bet and four raises have been made: the betting is capped, so {pos} may only call or fold.",
    ),
    "uncalled": Recipe(
        when="over", ask=("pots",), predicate=lambda h, ids, i: bool(h.result().returned), short_stacks=0.5,
        explain="The part of a bet that nobody matched goes back to the bettor before the pots are made.",
    ),
    "side-pots": Recipe(
        when="over", ask=("pots",), predicate=_side_pots, short_stacks=0.7, aggression=0.4, min_players=3,
        explain="Cut the pot in layers at each all-in player's total: each layer is a pot that only the players who put that much in can win.",
    ),
    "chips-and-words": Recipe(
        when="decision", ask=("ruling",), predicate=lambda h, ids, i: True, short_stacks=0.1, extra=_random_ruling,
        extra_2=_random_ruling_2,
        explain="A declaration in turn binds; without one, the chips decide: one oversized chip is a call, several chips are a call when every chip is needed, otherwise the 50% standard applies.",
    ),
    "odd-chip": Recipe(
        when="over", ask=("split",), predicate=lambda h, ids, i: h.result().showdown is not None, short_stacks=0.4,
        min_players=3, extra=_random_winners,
        explain="Each pot is split on its own, down to the smallest chip; an odd chip goes to the first winner clockwise from the button.",
    ),
    "hand-reading": Recipe(
        when="over", ask=HAND_READING_ASK, predicate=_hand_reading_spot, short_stacks=0.5, aggression=0.35,
        extra=_random_cards,
        explain="Each player makes the best five cards out of seven; only five cards play and suits never break a tie. Each pot goes to the best hand among the players who can win it.",
    ),
    "showdown": Recipe(
        when="over", ask=("showdown",), predicate=_showdown, short_stacks=0.3,
        explain="With a player all-in and the betting complete, every hand is tabled; otherwise the last river bettor or raiser shows first, or, with no river bet, the first player clockwise from the button.",
    ),
}

TITLE = {
    "decision": "{topic}: {pos} to act ({street})",
    "over": "{topic}: {live} of {players} players left after the betting ({street})",
}


class GenerateError(ValueError):
    """A topic or level the generator does not know, or no spot found."""


@dataclass(frozen=True, kw_only=True)
class Spot:
    id: str
    topic: str
    level: int
    seed: int
    index: int
    document: dict
    # which kind of spot of its topic this is (a reopening or not, which ruling...): predicates and
    # extras take turns by it; seed + index, so a series takes turns and so do seeds of one index
    variant: int = 0


def topics() -> list[str]:
    return list(RECIPES)


EDITIONS = (1, 2)


def generate(topic: str, *, level: int = 2, seed: int = 0, count: int = 1, start: int = 0,
             stakes: str | None = None, edition: int = 1) -> list[Spot]:
    """``count`` spots for ``topic``; spot ``i`` depends only on (topic, level, seed, i, stakes, edition).

    ``stakes`` names real stakes (``STAKES``: "100-200", "1000-2000"): those blinds, stacks in
    whole chips, bets sized as players size them. Without it the blinds are drawn (1/2 to 100/200).
    ``edition`` 2 deals more kinds of spot where a topic has them (chips and words: ten kinds of
    ruling, not five); edition 1, the default, gives the spots it always gave."""
    if edition not in EDITIONS:
        raise GenerateError(f"edition must be 1 or 2, got {edition}")
    if topic not in RECIPES:
        raise GenerateError(f'unknown topic "{topic}"; topics are {", ".join(RECIPES)}')
    if level not in PLAYERS_BY_LEVEL:
        raise GenerateError(f"level must be 1 to 5, got {level}")
    if stakes is not None and stakes not in STAKES:
        raise GenerateError(f'unknown stakes "{stakes}"; stakes are {", ".join(STAKES)}')
    return [_spot(topic, level, seed, i, stakes, edition) for i in range(start, start + count)]


def spot_id(topic: str, level: int, seed: int, index: int, stakes_name: str | None = None) -> str:
    """A generated spot's scenario id, as its attempts are stored: ``gen-<topic>-<level>-<seed>-<index>``."""
    return f"gen-{topic}-{level}-{seed}-{index}" + (f"-{stakes_name}" if stakes_name else "")


def level_of(scenario_id: str, topic: str) -> int | None:
    """The level in a generated spot's id (``spot_id``) of ``topic``; None for any other id."""
    prefix = f"gen-{topic}-"
    level = scenario_id[len(prefix):].split("-", 1)[0] if scenario_id.startswith(prefix) else ""
    return int(level) if level.isdigit() else None


def _spot(topic: str, level: int, seed: int, index: int, stakes_name: str | None = None, edition: int = 1) -> Spot:
    recipe = RECIPES[topic]
    more = recipe.extra_2 if edition == 2 and recipe.extra_2 is not None else recipe.extra
    stakes = STAKES[stakes_name] if stakes_name is not None else None
    # Without stakes the seed string is the one spots always had, so their addresses replay them.
    rng = random.Random(f"{topic}/{level}/{seed}/{index}" + (f"/{stakes_name}" if stakes_name else ""))
    variant = seed + index  # endless practice asks spot 0 of a new seed: the kind must change with it
    low, high = DEPTHS[level]
    depth = low + (variant // 2) % (high - low + 1)  # by turns too, apart from the kinds that take turns by 2
    for tries in range(MAX_TRIES):
        deal = _deal(recipe, level, rng, stakes)
        found = _play_until(recipe, deal, rng, variant, stakes, depth, patient=tries < PATIENCE)
        extra = {}
        if found is not None and more is not None:
            extra = more(found[0], rng, variant, stakes)
            if extra is None:
                continue
        if found is not None:
            hand, actions = found
            sid = spot_id(topic, level, seed, index, stakes_name)
            ask = tuple(extra.pop("ask", recipe.ask))  # a recipe's extra may ask more of this spot
            doc = scenario_document(deal, hand, actions, id=sid, ask=ask, extra=extra)
            doc = _with_texts(doc, topic, recipe, hand, level)
            return Spot(id=sid, topic=topic, level=level, seed=seed, index=index, document=doc, variant=variant)
    raise GenerateError(f"no {topic} spot found for level {level}, seed {seed}, spot {index}")


def _deal(recipe: Recipe, level: int, rng: random.Random, stakes: Stakes | None = None) -> Deal:
    low, high = recipe.players or PLAYERS_BY_LEVEL[level]
    low = max(low, recipe.min_players)
    players = rng.randint(low, max(low, high))
    return random_deal(
        rng,
        game_type=rng.choice(recipe.game_types),
        players=players,
        short_stacks=recipe.short_stacks,
        antes=recipe.antes,
        straddles=recipe.straddles,
        short_bb=recipe.short_bb,
        stakes=stakes,
    )


def _play_until(recipe: Recipe, deal: Deal, rng: random.Random, variant: int, stakes: Stakes | None = None,
                depth: int = 0, patient: bool = False):
    """The hand at a spot about the recipe's topic and the actions that led there, or None.

    A decision spot is the decision about the topic after ``depth`` others in the hand, not always
    the first one: so one topic gives spots on other streets, for other players, after other
    actions. A hand with fewer is dealt again while ``patient``; after that its last one is taken."""
    hand = deal.hand()
    actions = []
    decisions: list[int] = []  # how many actions were made before each decision about the topic
    while not hand.betting_over and len(decisions) <= depth:
        if recipe.when == "decision" and recipe.predicate(hand, _Ids(hand), variant):
            decisions.append(len(actions))
            if len(decisions) > depth:
                return hand, actions
        action = random_action(hand, rng, recipe.aggression, stakes)
        hand.apply(action)
        actions.append(action)
    if recipe.when == "over":
        return (hand, actions) if recipe.predicate(hand, _Ids(hand), variant) else None
    if not decisions or patient:
        return None
    made = actions[:decisions[-1]]
    hand = deal.hand()
    for action in made:
        hand.apply(action)
    return hand, made


# How many decisions about the topic a spot of each level comes after, at most: level 1 is most
# often the first, or one of the first, a level-5 spot after three to eight (later streets, more
# action before it); each level draws among its range, so its spots differ in more than stacks.
DEPTHS = {1: (0, 4), 2: (0, 5), 3: (1, 6), 4: (2, 7), 5: (3, 8)}
# Hands dealt again, at most, for one that reaches the drawn depth before the last decision is taken.
PATIENCE = 20


def _with_texts(doc: dict, topic: str, recipe: Recipe, hand: Hand, level: int) -> dict:
    card = hand.card()
    opts = hand.options()
    wager = (opts.bet or opts.raise_) if opts else None
    values = {
        "pos": hand.to_act or "",
        "bb": hand.game.big_blind,
        "pot": hand.pot,
        "cur": card.current_total if card else 0,
        "inc": card.last_full_increment if card else 0,
        "com": card.committed if card else 0,
        "add": card.to_add if card else 0,
        "min": wager.min if wager else "",
        "max": wager.max if wager else "",
        "players": len(hand.seats),
        "live": sum(not seat.folded for seat in hand.seats),
    }
    title, explain = {}, {}
    for locale in LOCALES:
        texts = _texts(locale)
        number = language(locale).number  # amounts as the form writes them: 29,689
        shown = {key: number(value) if isinstance(value, int) else value for key, value in values.items()}
        street = engine_templates(locale)[f"term.{hand.street}"]
        title[locale] = texts[f"title.{recipe.when}"].format(topic=BY_NAME[topic].title[locale], street=street, **shown)
        text = texts[f"explain.{topic}"].format(**shown)
        if card is not None:
            note = "explain.card" if card.to_add else "explain.card_check"
            text += SENTENCE_GAP.get(locale, "") + texts[note].format(street=street, **shown)
        explain[locale] = text
    out = {"id": doc["id"], "title": title, "topics": [topic], "level": level}
    out.update({k: v for k, v in doc.items() if k != "id"})
    out["explain"] = explain
    # keep `expect` last, where readers look for it
    out["expect"] = out.pop("expect")
    return out


@lru_cache(maxsize=None)
def _texts(locale: str) -> dict[str, str]:
    """The notes and titles in ``locale``, looked up in the catalog once."""
    text = engine_text(locale)
    english = {f"title.{when}": title for when, title in TITLE.items()}
    english["explain.card"] = CARD_EXPLAIN
    english["explain.card_check"] = CARD_CHECK_EXPLAIN
    english.update({f"explain.{topic}": recipe.explain for topic, recipe in RECIPES.items()})
    return {key: text(key, source) for key, source in english.items()}
