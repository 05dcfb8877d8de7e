"""A dealer's questions: what the dealer says or does at that moment of the hand, one to three
answers each, as an audition asks them (the amount to call and the smallest raise, the pot in
pot-limit, "is this a raise or a call?", the pots, who shows, who wins, how a pot is split).

The spot is the generator's; the expected values are the engine's ``solve()`` dict, as in
``build``: only which values are asked, and how they are worded, differ. A spot that would need
more than three answers (four pots, four winners of one pot) is no dealer question: ``QuizError``,
and the exam takes the next spot of the seed.
"""

from __future__ import annotations

from typing import Any

from trainer.translations import DEFAULT
from trainer.translations import text as translated

from .build import _Builder
from .model import Blank, FieldKind, Group, Question, Quiz, QuizError, StepView, message_templates

MAX_ANSWERS = 3

# What a dealer is asked about a spot of each generator topic; any other topic: "price".
KINDS = {
    "pot-limit": "pot-limit",
    "ante": "ante",
    "chips-and-words": "ruling",
    "uncalled": "returned",
    "side-pots": "pots",
    "showdown": "showdown",
    "hand-reading": "winners",
    "odd-chip": "split",
}
# The audition's two parts: the written part on the rules, then the table part (pots and showdown).
RULES, TABLE = "rules", "table"
PARTS = {"returned": TABLE, "pots": TABLE, "showdown": TABLE, "winners": TABLE, "split": TABLE}


def kind_of(topic: str) -> str:
    return KINDS.get(topic, "price")


def part_of(topic: str) -> str:
    """``rules`` (the written part) or ``table`` (the table part) for a spot of ``topic``."""
    return PARTS.get(kind_of(topic), RULES)


def build_dealer_quiz(scenario: Any, *, locale: str = DEFAULT) -> Quiz:
    """The dealer's question about ``scenario`` (its first topic says which), in ``locale``."""
    t = translated(locale)
    b = _Dealer(t)
    solution = scenario.solve()
    hand = scenario.played if hasattr(scenario, "played") else scenario.hand()
    positions = tuple(s.position for s in hand.seats)
    stacks = dict(scenario.stacks)
    street_limit = max(stacks.values())
    table_limit = int(scenario.pot or 0) + sum(stacks.values())
    to_act = solution.get("to_act")
    kind = kind_of((scenario.topics or ("",))[0])
    if kind == "price":
        question = b.price(solution, to_act, street_limit)
    elif kind == "pot-limit":
        question = b.pot_limit(solution, to_act, street_limit)
    elif kind == "ante":
        question = b.ante(solution, to_act, table_limit)
    elif kind == "ruling":
        question = b.ruling(solution, scenario, to_act, street_limit)
    elif kind == "returned":
        question = b.returned(solution, positions, table_limit)
    elif kind == "pots":
        question = b.dealer_pots(solution, table_limit)
    elif kind == "showdown":
        question = b.showdown(solution, tuple(s.position for s in hand.seats if not s.folded))
    elif kind == "winners":
        question = b.dealer_winners(solution, scenario, positions)
    else:
        question = b.dealer_split(solution, scenario, table_limit)
    if not 1 <= len(question.fields) <= MAX_ANSWERS:
        raise QuizError(t.gettext("the scenario asks nothing"))
    derivation = scenario.derivation() if hasattr(scenario, "derivation") else hand.derivation()
    templates = message_templates(t.locale)
    steps = tuple(StepView(topic=s.topic, text=s.message.render(templates), rule=s.rule) for s in derivation)
    return Quiz(scenario_id=scenario.id, to_act=to_act, questions=(question,), steps=steps, explain=None,
                solution=solution)


class _Dealer(_Builder):
    """The dealer's questions, worded in one language."""

    def amount(self, name: str, label: str, expected: int | None, limit: int, *, blank: Blank = Blank.REQUIRED,
               hint: str = ""):
        return self.field(name=name, label=label, kind=FieldKind.AMOUNT, expected=expected, blank=blank, hint=hint,
                          limit=limit)

    def call(self, options: dict, limit: int):
        """What calling costs: the field every price question starts with (empty: nothing to call)."""
        _ = self.t.gettext
        return self.amount("call", _("Call: chips to add"), options["call"], limit, blank=Blank.NONE,
                           hint=_("Leave empty if there is nothing to call."))

    @staticmethod
    def bound(options: dict, end: str) -> int | None:
        """The smallest (``end`` "min") or largest ("max") bet or raise-to the options allow, or None."""
        wager = options["bet"] or options["raise"]
        return None if wager is None else wager.get(end, wager.get(f"{end}_to"))

    def price(self, solution: dict, pos: str, limit: int) -> Question:
        _ = self.t.gettext
        options = self.need(solution, "options", "options")
        low = self.bound(options, "min")
        return Question(
            kind="price",
            title=_("The price"),
            prompt=_("%(pos)s is to act and asks you the price. What does calling cost, and what is the smallest "
                     "bet or raise-to?", pos=pos),
            groups=(Group(legend=_("What the dealer says"), fields=(
                self.call(options, limit),
                self.amount("min_to", _("Minimum bet or raise-to (加到)"), low, limit, blank=Blank.NONE,
                            hint=_("Leave empty if %(pos)s may not bet or raise.", pos=pos)),
            )),),
        )

    def pot_limit(self, solution: dict, pos: str, limit: int) -> Question:
        _ = self.t.gettext
        options = self.need(solution, "options", "options")
        high = self.bound(options, "max")
        return Question(
            kind="pot-limit",
            title=_("Pot-limit: the pot"),
            prompt=_("%(pos)s is to act and asks how much they may bet. What does calling cost, and what is the "
                     "largest bet or raise-to?", pos=pos),
            groups=(Group(legend=_("What the dealer says"), fields=(
                self.call(options, limit),
                self.amount("max_to", _("Maximum bet or raise-to (加到)"), high, limit, blank=Blank.NONE,
                            hint=_("Leave empty if %(pos)s may not bet or raise.", pos=pos)),
            )),),
        )

    def ante(self, solution: dict, pos: str, limit: int) -> Question:
        _ = self.t.gettext
        options = self.need(solution, "options", "options")
        return Question(
            kind="ante",
            title=_("The pot"),
            prompt=_("%(pos)s is to act. How much is in the pot now, and what does calling cost?", pos=pos),
            groups=(Group(legend=_("What the dealer says"), fields=(
                self.amount("pot", _("Pot now"), solution["pot"], limit),
                self.call(options, limit),
            )),),
        )

    def returned(self, solution: dict, positions: tuple[str, ...], limit: int) -> Question:
        _ = self.t.gettext
        self.need(solution, "pots", "pots")
        returned = {p: n for p, n in (solution.get("returned") or {}).items() if n}
        if len(returned) != 1:
            raise QuizError(_("the scenario asks nothing"))
        (who, chips), = returned.items()
        return Question(
            kind="returned",
            title=_("Chips returned (uncalled)"),
            prompt=_("Betting is over. Part of a bet was not called: whose chips go back, and how many?"),
            groups=(Group(legend=_("What the dealer does"), fields=(
                self.field(name="returned_to", label=_("The chips go back to"), kind=FieldKind.CHOICE, expected=who,
                           choices=tuple((p, p) for p in positions)),
                self.amount("returned_amount", _("Chips returned"), chips, limit),
            )),),
        )

    def dealer_pots(self, solution: dict, limit: int) -> Question:
        _ = self.t.gettext
        pots = self.need(solution, "pots", "pots")
        if len(pots) > MAX_ANSWERS:
            raise QuizError(_("the scenario asks nothing"))
        fields = tuple(
            self.amount(f"pot{i + 1}_amount", _("%(pot)s: amount", pot=self.pot_name(i)), pot["amount"], limit)
            for i, pot in enumerate(pots)
        )
        return Question(
            kind="pots",
            title=_("Pots"),
            prompt=_("Betting is over and the uncalled chips are back. How much is in each pot, main pot first?"),
            groups=(Group(legend=_("What the dealer does"), fields=fields),),
        )

    def dealer_winners(self, solution: dict, scenario: Any, positions: tuple[str, ...]) -> Question:
        _ = self.t.gettext
        best = self.need(solution, "best_hands", "winners")
        winners = solution["winners"]
        if len(winners) > MAX_ANSWERS:
            raise QuizError(_("the scenario asks nothing"))
        live = tuple(p for p in positions if p in best)
        fields = tuple(
            self.field(name=f"winners{i + 1}", label=_("%(pot)s: who wins it", pot=self.pot_name(i)),
                       kind=FieldKind.CHOICES, expected=frozenset(won),
                       choices=tuple((p, p) for p in live if p in solution["pots"][i]["eligible"]))
            for i, won in enumerate(winners)
        )
        # The board and the hands are on the table above, in the deck's colours.
        return Question(kind="winners", title=_("Reading the hands"),
                        prompt=_("Who wins each pot? Tick several players for a split."),
                        groups=(Group(legend=_("What the dealer does"), fields=fields),))

    def dealer_split(self, solution: dict, scenario: Any, limit: int) -> Question:
        _ = self.t.gettext
        shares = self.need(solution, "split", "split")
        split = next(((i, pot) for i, pot in enumerate(shares) if 2 <= len(pot) <= MAX_ANSWERS), None)
        if split is None:
            raise QuizError(_("the scenario asks nothing"))
        i, pot = split
        name = self.pot_name(i)
        players = list(pot)
        chip = self.t.number(getattr(scenario, "chip", 1))
        amount = self.t.number(solution["pots"][i]["amount"])
        return Question(
            kind="split",
            title=_("Splitting the pots"),
            prompt=_("%(pot)s (%(amount)s) is split between %(players)s. The smallest chip in play is %(chip)s. "
                     "What does each of them get?", pot=name, amount=amount, players=self.list(players), chip=chip),
            groups=(Group(legend=_("%(pot)s: won by %(players)s", pot=name, players=self.list(players)), fields=tuple(
                self.amount(f"split{i + 1}_{p}", _("%(pot)s: %(pos)s gets", pot=name, pos=p), int(pot[p]), limit)
                for p in players
            )),),
        )
