"""The rule table: every rule ID of the rules reference (RULES.md), in its order.

This is the one source the rules page, the engine's explanations and the tests
read rule titles, sources and worked examples from. Statements and examples are
kept close to RULES.md's English; ``tests/test_rule_table.py`` fails when an ID
is added to or removed from RULES.md without this table following, and when an
example here no longer appears there word for word.

>>> RULES["R-MINRAISE"].sources
'TDA24 43-A; WSOP-T 96; RRoP'
>>> list(RULES)[:3]
['R-ORDER', 'R-ROUNDEND', 'R-MINBET']
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Rule:
    """One rule of RULES.md: its ID, title, sources, statement and worked examples."""

    id: str
    title: str
    sources: str
    statement: str
    examples: tuple[str, ...] = ()


_TABLE = (
    Rule(
        id="R-ORDER",
        title="Who acts first",
        sources="TDA24 34-B; WSOP-T 87",
        statement=(
            "Preflop: first player left of the big blind (left of the last straddler "
            "when there is one); the big blind (or last straddler) acts last. Every "
            "later street: first player still in the hand clockwise from the button. "
            "Folded and all-in players are skipped. Heads-up (the hand starts with two "
            "players): the button posts the small blind, acts first preflop and last "
            "on every later street. A hand dealt to exactly two players is heads-up "
            "whatever the seats are called: the seat that is not the big blind is the "
            "button and posts the small blind."
        ),
        examples=(
            "A 6-max hand that gets down to two players keeps its positions: BB acts "
            "before CO after the flop (seed 002).",
            "a file that deals SB and BB only: SB is the button, acts first preflop, BB "
            "acts first on every later street, BB shows first when the river is checked",
        ),
    ),
    Rule(
        id="R-ROUNDEND",
        title="When a street ends",
        sources="seeds 001, 002",
        statement=(
            "When every player still in the hand who is not all-in has acted at least "
            "once and has matched the current total, or only one player remains. "
            "Preflop, equal amounts are not enough: the big blind (or straddler) still "
            "has the option if nobody raised. The last raiser never answers their own "
            "raise. Nothing is asked of a player who has nobody left to play against: "
            "when every other player still in the hand is all-in and the player to act "
            "has already put in at least the largest of their totals, betting is over "
            "and the excess comes back (R-UNCALLED). (R-SHORTBLIND still applies "
            "whenever the player to act has put in less than an all-in in front of them.)"
        ),
        examples=(
            "Preflop with nobody raised, the big blind has ① = BB, ② = BB, ③ = BB, "
            "④ = 0: check, or raise to at least 2 BB.",
            "Heads-up, blinds 50/100, the big blind is all-in for 30: betting is over, "
            "20 goes back to the button, the pot is 60.",
        ),
    ),
    Rule(
        id="R-MINBET",
        title="Minimum bet",
        sources="TDA24 54-D; seed 001",
        statement=(
            "No-limit and pot-limit: the first bet of a street is at least one big "
            "blind, unless it is all-in."
        ),
        examples=(
            "With ① = 0 (nobody has bet this street) the same card gives: ④ = 0, check "
            "or bet at least ② (= the big blind).",
        ),
    ),
    Rule(
        id="R-MINRAISE",
        title="Minimum raise",
        sources="TDA24 43-A; WSOP-T 96; RRoP",
        statement=(
            "A raise must add at least the largest prior full bet or raise of the "
            "current street: min raise-to = ① + ②."
        ),
        examples=(
            "TDA24 Addendum 43 Ex 1: blinds 100/200, postflop A bets 600, B raises to "
            "1600, C raises to 3600 → D's min raise-to is 5600.",
            "Seed 001: blinds 50/100, A raises to 300 (+200), B's min is 500; B raises "
            "to 800 (+500), C's min is 1300.",
            "Seed 003: blinds 100/200, UTG to 600, HJ to 1000 → CO's min is 1400 (CO, "
            "who has put in nothing, adds 1400 to make it).",
        ),
    ),
    Rule(
        id="R-SHORTALLIN",
        title="A short all-in does not change ②",
        sources="TDA24 47-A, Addendum 43 Ex 2 and 47 Ex 2; WSOP-LA 176",
        statement=(
            "A full bet or raise is a bet or raise to T where T − current total ≥ last "
            "full increment. Anything smaller is legal only as an all-in and is a "
            "short all-in. Short all-ins never change the last full increment ②."
        ),
        examples=(
            "Blinds 50/100, UTG all-in for 150 → next min raise-to 250.",
            "Postflop A bets 300, then all-ins for 500, 650 and 800 → F's min raise-to "
            "1100.",
            "First bet of a postflop street is an all-in below the big blind (BB 200, "
            "all-in 150): ② stays 200, min raise-to 350 (RRoP; PokerKit agrees).",
        ),
    ),
    Rule(
        id="R-REOPEN",
        title="Short all-ins do not reopen betting for players who acted",
        sources="TDA24 47-A; WSOP-T 96, 96.a; WSOP-LA 175, 177",
        statement=(
            "A player who already acted may raise again only if, when the action comes "
            "back, they face at least a full bet or raise (④ ≥ ②) — from one full "
            "raise or from several short all-ins added together. Decide player by "
            "player. Edge: WSOP-T 96.a says the cumulative amount must exceed a full "
            "raise; TDA24 says at least. Default: TDA24 (at least)."
        ),
        examples=(
            "Seed 003, turn, 4 players, SB/BB/BTN 10,000, CO 1,400: SB bets 1000, BB "
            "calls, CO all-in 1400. BTN (not acted): call 1400 or raise to ≥ 2400. If "
            "BTN calls, SB faces 400 < 1000: call or fold only.",
            "Seed 003, 5 players, SB bets 1000, BB all-in 1400, UTG calls 1400, CO "
            "all-in 2000, BTN folds: SB faces 1000 ≥ 1000 → reopened, min raise-to "
            "3000. If SB only calls, UTG faces 600 < 1000: call or fold only.",
            "TDA24 Addendum 47 Ex 1: blinds 50/100, A bets 100, B all-in 125, C calls, "
            "D all-in 200, E calls → A faces 100 ≥ 100, may raise. If A calls, C faces "
            "75: call or fold.",
            "TDA24 Addendum 47 Ex 3 (preflop): blinds 2000/4000, A limps 4000, C "
            "all-in 7500, SB folds. BB (not acted): call or raise to ≥ 11,500. If BB "
            "calls, A faces 3500 < 4000: call or fold only. (PokerKit 0.7.7 wrongly "
            "lets A raise here; our engine must not.)",
        ),
    ),
    Rule(
        id="R-NOOPPONENT",
        title="Nobody left who could call a raise",
        sources="WSOP-T glossary; TDA24 Addendum 47 Ex 3-A",
        statement=(
            "A raise is only possible if at least one other player still in the hand "
            "has more chips in total (committed + stack) than the current total ①; "
            "otherwise no one could call any part of it, and the player may only call "
            "or fold."
        ),
        examples=(
            "A bets 100, B all-in 150, C folds → A: call 50 or fold.",
            "Blinds 5/10, CO all-in to 120; BTN has 222 behind, the blinds have 98 and "
            "81 in total → BTN may call 120 or fold, not raise. (PokerKit agrees.)",
        ),
    ),
    Rule(
        id="R-SHORTBLIND",
        title="A short all-in blind does not lower the price",
        sources="WSOP-LA 154; RRoP",
        statement="Preflop ① = max(BB, largest committed).",
        examples=(
            "Blinds 100/200, BB has only 150 and is all-in posting it: others must "
            "still call 200, and the minimum raise is to 400.",
        ),
    ),
    Rule(
        id="R-STRADDLE",
        title="Live straddle",
        sources="WSOP-LA 159, 165; cash games",
        statement=(
            "A live straddle (normally 2 × BB, posted by UTG) is a blind raise: "
            "preflop ① = straddle, ② = straddle, so the minimum raise is twice the "
            "straddle. Action starts left of the straddler; the straddler acts last "
            "preflop and keeps the option when everyone calls (seed 000). A "
            "re-straddle (next seat, 2 × straddle) works the same way with the new "
            "amount. Postflop the minimum bet is the big blind again. TDA has no "
            "straddle rule: straddles are a cash-game option."
        ),
        examples=("2/5 with a 10 straddle: call 10, min raise-to 20",),
    ),
    Rule(
        id="R-ANTE",
        title="Antes and the big-blind ante",
        sources="TDA24 RP-11",
        statement=(
            "Antes are dead money: they go into the pot before the first betting round "
            "and never count as committed. Big-blind ante (BBA): the big blind pays "
            "the ante for the table; if the big blind cannot cover both, the blind is "
            "posted first and the ante takes what is left (TDA24 RP-11). For side pots "
            "(table stakes), a player's own ante counts as chips he put in: a player can "
            "win from each opponent only as much as he put in himself, antes included. "
            "When every ante is paid in full this puts all antes in the main pot. A "
            "player all-in for part of his ante caps the main pot there. The big-blind "
            "ante is paid for the whole table and is dead money in the main pot "
            "(R-SIDEPOTS example)."
        ),
        examples=(
            "ante 5, blinds 5/10, SB/BB/BTN, BTN has 3 and antes 3 all-in, the hand is "
            "checked down → main 9 (SB, BB, BTN), side 24 (SB, BB).",
            "BBA example: blinds 1000/2000, BBA 2000, UTG all-in 1500, BTN calls 2000, "
            "SB folds, BB checks → main 7500 (UTG, BTN, BB), side 1000 (BTN, BB).",
        ),
    ),
    Rule(
        id="R-POTLIMIT",
        title="Pot-limit maximum",
        sources="WSOP-LA preamble; RRoP; TDA24 54; seed 001",
        statement=(
            "Max raise-to = ① + (pot before this street + all chips committed this "
            "street + ④) — i.e. call, then raise the size of the pot. Max bet (① = 0) "
            "= the pot. Minimum raise is R-MINRAISE as in no-limit."
        ),
        examples=(
            "Blinds 1/2, first to act preflop: 2 + (0 + 3 + 2) = 7.",
            "Pot 100, a bet of 50 in front: max raise-to 50 + (100 + 50 + 50) = 250.",
            "TDA24 54-B: preflop, a dead or short blind does not change the pot "
            "calculation; assume full blinds (PLO 100/200 → first player max 700).",
        ),
    ),
    Rule(
        id="R-LIMIT",
        title="Fixed limit",
        sources="TDA24 47-B, 48; WSOP-T 100.b; RRoP",
        statement=(
            "Bet size: small bet (= BB) preflop and flop, big bet (= 2 BB) turn and "
            "river. Every bet or raise adds exactly one bet size: raise-to = last full "
            "level + bet size. Cap: a bet and four raises per street by default "
            "(WSOP-T 100.b); the big blind counts as the preflop bet. The cap holds "
            "heads-up too until the whole event is heads-up (TDA24 48, WSOP-T 100.b). "
            "Option limit_cap sets another number (RRoP: bet + 3 raises). Short "
            "all-ins: an all-in of at least 50% of a full bet or raise counts as a "
            "full bet/raise and reopens betting for players who acted (TDA24 47-B); "
            "the next raise goes to the all-in amount + one bet. Less than 50% does "
            "not reopen; the next player may call it or complete to the full level. "
            "PokerKit's limit games differ from these rules (no 50% rule, no "
            "completion): do not use it as an oracle for limit short all-ins."
        ),
        examples=(
            "RRoP: $20 round, $15 all-in opening bet → next may raise to $35",
            "Pagat: $5 round, bet 5, all-in 6 → next may call 6 or complete to 10",
        ),
    ),
    Rule(
        id="R-UNCALLED",
        title="Uncalled bets come back",
        sources="TDA24 15-B, 65-A; table stakes; seeds 001, 002",
        statement=(
            "The part of a bet no one matched is returned to the bettor before pots "
            "are made."
        ),
        examples=("Heads-up, A bets 800, B calls all-in for 500 → 300 goes back to A.",),
    ),
    Rule(
        id="R-SIDEPOTS",
        title="Main and side pots",
        sources="seed 004; TDA24 21",
        statement=(
            "After betting ends: dead money (the big-blind ante) goes to the main pot; "
            "each player's own ante counts with his live contributions (R-ANTE). Sort "
            "the contributions of all players (folded ones included) by size and "
            "cut layers at each all-in player's total; each layer is a pot that only "
            "players who put that much in and have not folded can win. Each side pot "
            "is split separately (TDA24 21)."
        ),
        examples=(
            "Seed 004: A all-in 100, B and C 300 each → main 300 (A, B, C), side 400 "
            "(B, C).",
            "BBA example: blinds 1000/2000, BBA 2000, UTG all-in 1500, BTN calls 2000, "
            "SB folds, BB checks → main 7500 (UTG, BTN, BB), side 1000 (BTN, BB).",
        ),
    ),
    Rule(
        id="R-SHOWDOWN",
        title="Who shows first",
        sources="TDA24 16, 17-A; WSOP-T 70, 72",
        statement=(
            "If a player is all-in and all betting by the others is complete, every "
            "hand is tabled at once. Otherwise the last player to bet or raise on the "
            "final street shows first; if nobody bet on the final street, the first "
            "player still in the hand clockwise from the button shows first. (Cash "
            "variant, WSOP-LA 149, differs; not the default.)"
        ),
    ),
    Rule(
        id="R-ODDCHIP",
        title="Splitting",
        sources="TDA24 20-A; WSOP-T 73, 74; seed 004",
        statement=(
            "Break the pot to the smallest chip in play; an odd chip goes to the first "
            "winner clockwise from the button. Each pot is split on its own."
        ),
    ),
    Rule(
        id="R-CHIPS",
        title="Chips and words",
        sources="dealer rulings",
        statement=(
            "How the dealer reads chips and words: R-VERBAL, R-INVALIDDECL, "
            "R-OVERCHIP, R-MULTICHIP, R-HALF, R-STRING and R-OOT. Every ruling ends in "
            "an action the player may legally take; the rest of the chips go back. "
            "Pot limit: an oversized bet or raise (declared, silent, or all-in) is "
            "reduced to the pot-limit maximum (RRoP). Fixed limit: a bet or raise is "
            "exactly one bet (to the next level, or completing after a short all-in, "
            'R-LIMIT). A ruling never says "call" with nothing to call: when the 50% '
            "standard would make it a call and nothing is owed (the big blind's option), "
            "it is a check and the chips come back."
        ),
        examples=(
            'pot 1000, "all in" with 10,000 → bet 1000, 9000 returned.',
            'limit 10/20 on the flop, "raise" facing 10 with one 100 chip → raise to 20, 80 returned',
            '"bet 100" on the turn of 10/20 → bet 20.',
            "Limped to the big blind at 50/100, two 5 chips pushed silently → check, 10 returned.",
        ),
    ),
    Rule(
        id="R-VERBAL",
        title="Voice and chips",
        sources="TDA24 40-A, 40-C, 50-A, 51-A; WSOP-T 90.d",
        statement=(
            "Bets are by voice and/or chips; whichever comes first defines the action; "
            "a clear simultaneous declaration wins (TDA24 40-A). Declaring an amount "
            "alone equals pushing that amount (TDA24 40-C). Declarations in turn are "
            'binding (TDA24 50-A, 51-A; WSOP-T 90.d): "call" then more chips is a '
            "call."
        ),
    ),
    Rule(
        id="R-INVALIDDECL",
        title="Declarations that do not fit the spot",
        sources="TDA24 55; WSOP-T 90.b.1, 90.a",
        statement=(
            'Facing no bet, "call" is a check and "raise" binds to at least a minimum '
            'bet; "check" facing a bet allows call or fold, not raise (TDA24 55; '
            "WSOP-T 90.b.1). Silently pushing chips when nobody has bet is a bet "
            "(WSOP-T 90.a)."
        ),
    ),
    Rule(
        id="R-OVERCHIP",
        title="A single oversized chip",
        sources="TDA24 44; WSOP-T 97",
        statement=(
            "Facing a bet, a single oversized chip pushed silently is a call; to "
            'raise, say "raise" before it lands; "raise" with no amount is the most '
            "the chip allows. Facing no bet, a silent overchip is a bet of the chip's "
            "full value (TDA24 44; WSOP-T 97)."
        ),
        examples=("Seed 000: facing 10, a silent 100 chip is a call.",),
    ),
    Rule(
        id="R-MULTICHIP",
        title="Several chips pushed silently",
        sources="TDA24 45",
        statement=(
            "Facing a bet, silent multiple chips are a call if every chip is needed to "
            "make the call (removing one of the smallest leaves less than the call); "
            "otherwise the 50% standard applies; a player's last chips are all-in "
            "either way (TDA24 45)."
        ),
        examples=(
            "Addendum 45 Ex 1-B: blinds 250/500, UTG to 1100, UTG+1 silently puts "
            "500 + 1000 → call.",
        ),
    ),
    Rule(
        id="R-HALF",
        title="The 50% standard for raises",
        sources="TDA24 43-A",
        statement=(
            "A raise of at least 50% of ② but short of a full raise must be made a "
            "full minimum raise; under 50% it is a call (unless \"raise\" was declared "
            "first or the player is all-in) (TDA24 43-A). Measured on the increment "
            "over the call."
        ),
        examples=(
            "Addendum 45 Ex 2: UTG to 1100 (+600), UTG+1 silently 1500 → must raise to "
            "1700",
            "Ex 3: silently 1300 → call, 200 returned.",
            'TDA24 43-A: opening bet 1000, "fourteen hundred" or a silent 1400 → call.',
        ),
    ),
    Rule(
        id="R-STRING",
        title="String raises",
        sources="TDA24 42, 56; WSOP-T 103",
        statement=(
            "A raise is one motion or declared first; chips added after going back to "
            "the stack do not count (TDA24 42, 56; WSOP-T 103): they go back to the "
            "player and count as returned."
        ),
        examples=("Facing 600, 600 pushed, then 600 more in a second motion → call 600, 600 returned.",),
    ),
    Rule(
        id="R-OOT",
        title="Action out of turn",
        sources="TDA24 53-A",
        statement=(
            "Action out of turn is backed up; it binds if the action to that player "
            "does not change; an out-of-turn fold is binding (TDA24 53-A)."
        ),
    ),
)

RULES: dict[str, Rule] = {rule.id: rule for rule in _TABLE}

# The table follows RULES.md word for word, notes for the engine's developers
# included: how PokerKit differs, which seed article an example comes from.
# Learners read the rules without them (``for_learners``): each pair is a
# piece of text and what it becomes. Sources keep the rulebooks only.
LEARNER_EDITS: tuple[tuple[str, str], ...] = (
    (" (PokerKit 0.7.7 wrongly lets A raise here; our engine must not.)", ""),
    (" (RRoP; PokerKit agrees).", " (RRoP)."),
    (" (PokerKit agrees.)", ""),
    (
        " PokerKit's limit games differ from these rules (no 50% rule, no completion): do not use it "
        "as an oracle for limit short all-ins.",
        "",
    ),
    (" (seed 000)", ""),
    (" (seed 002)", ""),
    ("Seed 000: f", "F"),
    ("Seed 001: b", "B"),
    ("Seed 003: b", "B"),
    ("Seed 004: A", "A"),
    ("Seed 003, turn, ", "Turn, "),
    ("Seed 003, 5 players, ", "5 players, "),
    ("Option limit_cap sets another number (RRoP: bet + 3 raises).", "Some rules use another number (RRoP: a bet and 3 raises)."),
)


# Amounts of four digits or more, not part of a citation ("TDA24", "54-B").
_AMOUNT = re.compile(r"(?<![\d,.\w-])([1-9]\d{3,})(?![\d]|[.,]\d|\w)")


def learner_text(text: str) -> str:
    """A statement or example of the table as the rules page shows it: amounts as the form writes them.

    >>> learner_text("Seed 004: A all-in 1000 (seed 002)")
    'A all-in 1,000'
    """
    for piece, becomes in LEARNER_EDITS:
        text = text.replace(piece, becomes)
    return group_amounts(text)


def group_amounts(text: str) -> str:
    """``5600`` -> ``5,600`` (the grouping all three languages use), citations untouched.

    >>> group_amounts("TDA24 Addendum 47 Ex 3: blinds 2000/4000, min raise-to 11,500")
    'TDA24 Addendum 47 Ex 3: blinds 2,000/4,000, min raise-to 11,500'
    """
    return _AMOUNT.sub(lambda m: f"{int(m.group(1)):,}", text)


def for_learners(rule: Rule) -> Rule:
    """``rule`` without the notes meant for developers, its sources the rulebooks only.

    >>> for_learners(RULES["R-UNCALLED"]).sources
    'TDA24 15-B, 65-A; table stakes'
    """
    return Rule(
        id=rule.id,
        title=learner_text(rule.title),
        sources="; ".join(part for part in rule.sources.split("; ") if not part.startswith("seed")),
        statement=learner_text(rule.statement),
        examples=tuple(learner_text(example) for example in rule.examples),
    )
