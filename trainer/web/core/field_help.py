"""What each field of a drill asks, in words: the "What is this?" beside its label.

A definition and a tiny example of its own, never about the spot on screen: the text depends on
the field's kind alone (``current_total``, ``pot2_amount`` → ``pot_amount``), so the markup of a
field stays the same for every spot. The card lesson and the rules page's section on the card read
the same texts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import Flask
from flask_babel import lazy_gettext


@dataclass(frozen=True, kw_only=True)
class Help:
    definition: str
    example: str
    term: str = ""  # a column of the card: its name, which the field's own label already says


# The card's columns, in the order the card is filled in: ③ is one column in two parts.
CARD = ("current_total", "last_full_increment", "committed", "acted", "to_add")

_HELP = {
    "current_total": Help(
        term=lazy_gettext("① Current total"),
        definition=lazy_gettext(
            "The highest total anyone has put in on this street. A call must come up to it."
        ),
        example=lazy_gettext(
            "Example: UTG raises to 600, HJ calls: ① is 600."
        ),
    ),
    "last_full_increment": Help(
        term=lazy_gettext("② Last full increment"),
        definition=lazy_gettext(
            "How much the last full bet or raise added to the total before it. A short all-in does not "
            "change it."
        ),
        example=lazy_gettext(
            "Example: a bet of 100, then a raise to 300: ② is 200."
        ),
    ),
    "committed": Help(
        term=lazy_gettext("③a Already committed"),
        definition=lazy_gettext(
            "This player's chips on this street (blinds count, antes do not)."
        ),
        example=lazy_gettext(
            "Example: preflop, the big blind of 200 before acting: ③a is 200."
        ),
    ),
    "acted": Help(
        term=lazy_gettext("③b Acted?"),
        definition=lazy_gettext(
            "Whether this player has checked, bet, called or raised on this street. Posting a blind is not "
            "acting."
        ),
        example=lazy_gettext(
            "Example: SB bet, then someone went all-in: back at SB, ③b is yes."
        ),
    ),
    "to_add": Help(
        term=lazy_gettext("④ To add"),
        definition=lazy_gettext(
            "What this player must put in now to call: ① − ③a."
        ),
        example=lazy_gettext(
            "Example: ① is 600, ③a is 200: ④ is 400."
        ),
    ),
    "legal": Help(
        definition=lazy_gettext(
            "Legal actions: tick every action the rules allow this player now. Check only when ④ is 0; bet "
            "only when nobody has bet on this street; raise only when the betting is open to this player."
        ),
        example=lazy_gettext(
            "Example: facing a bet with chips behind, fold and call are legal; check is not."
        ),
    ),
    "call": Help(
        definition=lazy_gettext(
            "Call: the chips added to call, which is ④ (or the whole stack if it is smaller)."
        ),
        example=lazy_gettext(
            "Example: ① is 600, the player has 200 in: a call adds 400."
        ),
    ),
    "min_to": Help(
        definition=lazy_gettext(
            "Minimum bet or raise-to: the smallest total this player may bet or raise to on this street: a "
            "raise goes to at least ① + ②; a bet is at least one big blind."
        ),
        example=lazy_gettext(
            "Example: ① is 300 and ② is 200: the minimum raise is to 500."
        ),
    ),
    "max_to": Help(
        definition=lazy_gettext(
            "Maximum bet or raise-to: the largest total allowed: in no-limit, all the player's chips (all-in); "
            "in pot-limit, the call plus the pot after the call; in fixed-limit, the fixed amount."
        ),
        example=lazy_gettext(
            "Example: no-limit, 700 behind and 200 in already: the most is a raise to 900."
        ),
    ),
    "pot": Help(
        definition=lazy_gettext(
            "Pot: every chip put in this hand so far, this street's bets and the antes included."
        ),
        example=lazy_gettext(
            "Example: 300 from the last street and two bets of 100 now: the pot is 500."
        ),
    ),
    "pot_amount": Help(
        definition=lazy_gettext(
            "A pot's amount: the main pot holds what every player can match; each side pot holds only the "
            "chips the bigger stacks put in beyond a smaller all-in."
        ),
        example=lazy_gettext(
            "Example: A is all-in for 100, B and C put in 300 each: main pot 300, side pot 400."
        ),
    ),
    "pot_eligible": Help(
        definition=lazy_gettext(
            "Who can win a pot: the players still in the hand who put in every chip of that pot."
        ),
        example=lazy_gettext(
            "Example: a player all-in for 100 can win the main pot, not a side pot above it."
        ),
    ),
    "returned": Help(
        definition=lazy_gettext(
            "Returned: the part of a bet nobody else could call goes back to the player who made it."
        ),
        example=lazy_gettext(
            "Example: a bet of 500 called by an all-in of 300: 200 goes back."
        ),
    ),
    "showdown": Help(
        definition=lazy_gettext(
            "Who shows first: at the showdown the last player who bet or raised on the river shows first; with "
            "no river bet, the first player still in the hand clockwise from the button. When a player is "
            "all-in and betting is over, every hand is tabled at once."
        ),
        example=lazy_gettext(
            "Example: on the river CO bets and BTN calls: CO shows first."
        ),
    ),
    "hand": Help(
        definition=lazy_gettext(
            "Best hand: the best five-card hand a player can make from their two cards and the board."
        ),
        example=lazy_gettext(
            "Example: a pair in the hand and a pair on the board make two pair."
        ),
    ),
    "five": Help(
        definition=lazy_gettext(
            "The five cards that play: tick the five of the seven cards that make the best hand."
        ),
        example=lazy_gettext(
            "Example: with a flush on the board, the five board cards may be the five that play."
        ),
    ),
    "winners": Help(
        definition=lazy_gettext(
            "Who wins a pot: the best hand among the players who can win that pot; tick several for a split."
        ),
        example=lazy_gettext(
            "Example: two players with the same straight split the pot."
        ),
    ),
    "ruling_action": Help(
        definition=lazy_gettext(
            "The ruling: what the words and chips count as under the rules, whatever the player meant."
        ),
        example=lazy_gettext(
            "Example: a single oversized chip put out silently facing a bet is a call."
        ),
    ),
    "ruling_to": Help(
        definition=lazy_gettext(
            "Total afterwards: the player's total on this street once the ruling stands (a raise to); empty "
            "when there is no new total."
        ),
        example=lazy_gettext(
            "Example: facing a bet of 100, a single 500 chip pushed silently is a call: the total is 100."
        ),
    ),
    "ruling_returned": Help(
        definition=lazy_gettext(
            "Chips back: what the dealer gives back to the player because it does not count."
        ),
        example=lazy_gettext(
            "Example: a single 500 chip makes a call of 100: 400 goes back."
        ),
    ),
    "split": Help(
        definition=lazy_gettext(
            "A share: what each winner takes from a split pot; the odd chip goes by the rules."
        ),
        example=lazy_gettext(
            "Example: a pot of 500 split between two winners: 250 each."
        ),
    ),
}

_PATTERNS = (
    (re.compile(r"pot\d+_amount"), "pot_amount"),
    (re.compile(r"pot\d+_eligible"), "pot_eligible"),
    (re.compile(r"returned_\w+"), "returned"),
    (re.compile(r"hand_\w+"), "hand"),
    (re.compile(r"five_\w+"), "five"),
    (re.compile(r"winners\d+"), "winners"),
    (re.compile(r"split\d+_\w+"), "split"),
)


def field_help(name: str) -> Help | None:
    """What a field of this name asks, in the request's language; None for a name we do not know."""
    if name in _HELP:
        return _HELP[name]
    for pattern, key in _PATTERNS:
        if pattern.fullmatch(name):
            return _HELP[key]
    return None


def init_app(app: Flask) -> None:
    # A global, not a context processor: the drill renders its fields through an imported macro.
    app.jinja_env.globals["field_help"] = field_help
