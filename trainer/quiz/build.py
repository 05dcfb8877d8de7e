"""Questions from a scenario, with the engine's answers as the expected values.

The answer key is the engine's ``solve()`` dict for the scenario and the
explanation is the hand's ``derivation()``: nothing here knows a betting
rule. A quiz is built for one language: its labels come from the message
catalogs, the derivation from the engine's templates for that language,
and amounts are formatted for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from typing import Any

from trainer.engine.messages import Message
from trainer.engine.reading import CATEGORIES, best_fives
from trainer.engine.rulings import parse_said
from trainer.translations import DEFAULT, Text, pick
from trainer.translations import text as translated

from .model import Blank, Field, FieldKind, Group, Question, Quiz, QuizError, StepView, message_templates

ACTIONS = ("fold", "check", "call", "bet", "raise")
QUESTION_KINDS = ("card", "options", "pot", "pots", "showdown", "winners", "ruling", "split")
SUIT_SIGNS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RULINGS = ("check", "call", "bet", "raise", "fold", "call-or-fold", "free")


def build_quiz(scenario: Any, *, locale: str = DEFAULT) -> Quiz:
    """The questions a scenario's ``ask`` names, with the engine's answers, in ``locale``."""
    t = translated(locale)
    b = _Builder(t)
    solution = scenario.solve()
    hand = scenario.played if hasattr(scenario, "played") else scenario.hand()
    seats = hand.seats
    positions = tuple(s.position for s in seats)
    in_hand = tuple(s.position for s in seats if not s.folded)
    stacks = dict(scenario.stacks)
    street_limit = max(stacks.values())
    table_limit = int(scenario.pot or 0) + sum(stacks.values())
    to_act = solution.get("to_act")

    questions = []
    for kind in scenario.ask:
        if kind == "card":
            questions.append(b.card(solution, to_act, street_limit))
        elif kind == "options":
            questions.append(b.options(solution, to_act, street_limit))
        elif kind == "pot":
            questions.append(b.pot(solution, table_limit))
        elif kind == "pots":
            questions.append(b.pots(solution, positions, table_limit))
        elif kind == "showdown":
            questions.append(b.showdown(solution, in_hand))
        elif kind == "winners":
            questions.append(b.winners(solution, scenario, positions, "pots" in scenario.ask))
        elif kind == "ruling":
            questions.append(b.ruling(solution, scenario, to_act, street_limit))
        elif kind == "split":
            questions.append(b.split(solution, scenario, table_limit, hidden="winners" in scenario.ask))
        else:
            raise QuizError(t.gettext("the web drill cannot ask %(kind)r questions yet", kind=kind))
    if not questions:
        raise QuizError(t.gettext("the scenario asks nothing"))

    # The scenario's derivation adds the ruling's and the split's steps to the hand's.
    derivation = scenario.derivation() if hasattr(scenario, "derivation") else hand.derivation()
    templates = message_templates(t.locale)
    steps = tuple(
        StepView(topic=step.topic, text=step.message.render(templates), rule=step.rule) for step in derivation
    )
    explain = pick(scenario.explain, t.locale)
    return Quiz(
        scenario_id=scenario.id,
        to_act=to_act,
        questions=tuple(questions),
        steps=steps,
        explain=explain or None,
        solution=solution,
    )


def _pot_rows(players: int, pots: int) -> int:
    """As many rows as there could be pots (one fewer than the players), so the row count gives nothing away."""
    return max(players - 1, pots, 1)


class _Builder:
    """The questions, worded in one language."""

    def __init__(self, t: Text) -> None:
        self.t = t
        self.terms = message_templates(t.locale)

    def term(self, name: str) -> str:
        """A betting word (fold, check, …) exactly as the engine's explanations say it."""
        return Message(f"term.{name}").render(self.terms)

    def field(self, **kwargs: Any) -> Field:
        return Field(locale=self.t.locale, **kwargs)

    def need(self, solution: dict, key: str, kind: str) -> Any:
        value = solution.get(key)
        if value is None:
            _ = self.t.gettext
            if key in ("card", "options"):
                raise QuizError(_("the scenario asks %(kind)r, but nobody is to act", kind=kind))
            raise QuizError(_("the scenario asks %(kind)r, but betting is not over", kind=kind))
        return value

    def pot_name(self, i: int) -> str:
        return self.t.gettext("Main pot") if i == 0 else self.t.gettext("Side pot %(number)s", number=i)

    def chips(self, chips: tuple[int, ...]) -> str:
        return " + ".join(self.t.number(c) for c in chips)

    def list(self, items: Iterable[str]) -> str:
        return self.terms["list.sep"].join(items)

    def then(self, sentence: str, following: str) -> str:
        # Translators: two sentences one after the other (Chinese needs no space between them).
        return self.t.gettext("%(sentence)s %(following)s", sentence=sentence, following=following)

    def words(self, kind: str | None, amount: int | None) -> str:
        """An action as a player says it or a scenario writes it: "raise 1,400", "加注 1,400"."""
        parts = []
        if kind:
            parts.append(self.term(kind))
        if amount is not None:
            parts.append(self.t.number(amount))
        return " ".join(parts)

    def said(self, said: str) -> str:
        try:
            kind, amount = parse_said(said)
        except ValueError:  # the loader checked it already; show it as written rather than fail
            return said
        return self.words(kind, amount)

    def card(self, solution: dict, pos: str, limit: int) -> Question:
        _ = self.t.gettext
        card = self.need(solution, "card", "card")

        def amount(name: str, label: str) -> Field:
            return self.field(name=name, label=label, kind=FieldKind.AMOUNT, expected=card[name], limit=limit)

        return Question(
            kind="card",
            title=_("The four-column card"),
            prompt=_("Fill in the card for %(pos)s, whose turn it is.", pos=pos),
            groups=(
                Group(
                    legend=_("Card for %(pos)s", pos=pos),
                    fields=(
                        amount("current_total", _("① Current total")),
                        amount("last_full_increment", _("② Last full increment")),
                        amount("committed", _("③a Already committed by %(pos)s this street", pos=pos)),
                        self.field(
                            name="acted",
                            label=_("③b Has %(pos)s acted this street?", pos=pos),
                            kind=FieldKind.YESNO,
                            expected=bool(card["acted"]),
                            choices=(("yes", _("yes")), ("no", _("no"))),
                        ),
                        amount("to_add", _("④ To add")),
                    ),
                ),
            ),
        )

    def options(self, solution: dict, pos: str, limit: int) -> Question:
        _ = self.t.gettext
        options = self.need(solution, "options", "options")
        legal = frozenset(
            a
            for a, ok in (
                ("fold", options["fold"]),
                ("check", options["check"]),
                ("call", options["call"] is not None),
                ("bet", options["bet"] is not None),
                ("raise", options["raise"] is not None),
            )
            if ok
        )
        if options["bet"] is not None:
            low, high = options["bet"]["min"], options["bet"]["max"]
        elif options["raise"] is not None:
            low, high = options["raise"]["min_to"], options["raise"]["max_to"]
        else:
            low = high = None

        def amount(name: str, label: str, expected: int | None, hint: str) -> Field:
            return self.field(
                name=name,
                label=label,
                kind=FieldKind.AMOUNT,
                expected=expected,
                blank=Blank.NONE,
                hint=hint,
                limit=limit,
            )

        return Question(
            kind="options",
            title=_("Legal options"),
            prompt=_("What may %(pos)s do now?", pos=pos),
            groups=(
                Group(
                    legend=_("Which actions are legal for %(pos)s?", pos=pos),
                    fields=(
                        self.field(
                            name="legal",
                            label=_("Legal actions"),
                            kind=FieldKind.CHOICES,
                            expected=legal,
                            choices=tuple((a, self.term(a)) for a in ACTIONS),
                        ),
                    ),
                ),
                Group(
                    legend=_("Amounts"),
                    fields=(
                        amount(
                            "call",
                            _("Call: chips to add"),
                            options["call"],
                            _("Leave empty if calling is not legal."),
                        ),
                        amount(
                            "min_to",
                            _("Minimum bet or raise-to"),
                            low,
                            _("A total for the street. Leave empty if neither betting nor raising is legal."),
                        ),
                        amount(
                            "max_to",
                            _("Maximum bet or raise-to"),
                            high,
                            _("Leave empty if neither betting nor raising is legal."),
                        ),
                    ),
                ),
            ),
        )

    def pot(self, solution: dict, limit: int) -> Question:
        _ = self.t.gettext
        return Question(
            kind="pot",
            title=_("The pot"),
            prompt=_("How much is in the pot now?"),
            groups=(
                Group(
                    legend=_("Pot"),
                    fields=(
                        self.field(
                            name="pot",
                            label=_("Pot now"),
                            kind=FieldKind.AMOUNT,
                            expected=solution["pot"],
                            hint=_("Everything put in this hand, this street's bets included."),
                            limit=limit,
                        ),
                    ),
                ),
            ),
        )

    def pots(self, solution: dict, positions: tuple[str, ...], limit: int) -> Question:
        _ = self.t.gettext
        pots = self.need(solution, "pots", "pots")
        returned = solution.get("returned") or {}
        rows = _pot_rows(len(positions), len(pots))
        seat_choices = tuple((p, p) for p in positions)
        groups = []
        for i in range(rows):
            pot = pots[i] if i < len(pots) else None
            name = self.pot_name(i)
            groups.append(
                Group(
                    legend=name,
                    fields=(
                        self.field(
                            name=f"pot{i + 1}_amount",
                            label=_("%(pot)s: amount", pot=name),
                            kind=FieldKind.AMOUNT,
                            expected=None if pot is None else pot["amount"],
                            blank=Blank.NONE,
                            hint=_("Leave empty if there is no such pot.") if i else "",
                            limit=limit,
                        ),
                        self.field(
                            name=f"pot{i + 1}_eligible",
                            label=_("%(pot)s: who can win it", pot=name),
                            kind=FieldKind.CHOICES,
                            expected=frozenset(() if pot is None else pot["eligible"]),
                            choices=seat_choices,
                        ),
                    ),
                )
            )
        groups.append(
            Group(
                legend=_("Chips returned (uncalled)"),
                fields=tuple(
                    self.field(
                        name=f"returned_{p}",
                        label=_("Returned to %(pos)s", pos=p),
                        kind=FieldKind.AMOUNT,
                        expected=int(returned.get(p, 0)),
                        blank=Blank.ZERO,
                        limit=limit,
                    )
                    for p in positions
                ),
            )
        )
        return Question(
            kind="pots",
            title=_("Pots"),
            prompt=_(
                "Betting is over. Make the pots: each pot's amount and who can win it, main pot first, "
                "and the chips that go back uncalled."
            ),
            groups=tuple(groups),
        )

    def showdown(self, solution: dict, in_hand: tuple[str, ...]) -> Question:
        _ = self.t.gettext
        self.need(solution, "pots", "showdown")
        showdown = solution.get("showdown")
        if showdown is None:
            expected = "none"
        elif showdown["all_tabled"]:
            expected = "all"
        else:
            expected = showdown["first"]
        choices = (
            (("all", _("All hands are tabled at once")),)
            + tuple((p, _("%(pos)s shows first", pos=p)) for p in in_hand)
            + (("none", _("No showdown: only one player is left")),)
        )
        if expected not in dict(choices):
            raise QuizError(_("the engine's showdown answer %(answer)r is not a player in the hand", answer=expected))
        return Question(
            kind="showdown",
            title=_("Showdown"),
            prompt=_("Who shows first?"),
            groups=(
                Group(
                    legend=_("At showdown"),
                    fields=(
                        self.field(
                            name="showdown",
                            label=_("Who shows first"),
                            kind=FieldKind.CHOICE,
                            expected=expected,
                            choices=choices,
                        ),
                    ),
                ),
            ),
        )

    def cards(self, cards: Iterable[str]) -> str:
        """Cards as a dealer reads them: K♠ 10♥."""
        return " ".join(("10" if c[0] == "T" else c[0]) + SUIT_SIGNS[c[1]] for c in cards)

    def five(self, pos: str, hole: Iterable[str], board: Iterable[str], shown: Iterable[str]) -> Field:
        """Tick the five of a player's seven cards that play; any five of the same worth are right."""
        _ = self.t.gettext
        hole, board = tuple(hole), tuple(board)
        expected = frozenset(shown)
        return self.field(
            name=f"five_{pos}",
            label=_("%(pos)s: the five cards that play", pos=pos),
            kind=FieldKind.CHOICES,
            expected=expected,
            accepts=frozenset(best_fives(hole, board)) - {expected},
            choices=tuple((c, self.cards((c,))) for c in hole + board),
            hint=_("Tick five: %(pos)s's two cards come first, then the board.", pos=pos),
        )

    def winners(self, solution: dict, scenario: Any, positions: tuple[str, ...], pots_asked: bool) -> Question:
        _ = self.t.gettext
        best = self.need(solution, "best_hands", "winners")
        winners = solution["winners"]
        live = tuple(p for p in positions if p in best)
        told = [_("Board: %(cards)s.", cards=self.cards(scenario.board))]
        told += [_("%(pos)s holds %(cards)s.", pos=p, cards=self.cards(scenario.hands[p])) for p in live]
        told.append(_("Name each player's best hand and the five cards that make it, and who wins each pot."))
        categories = tuple((c, self.terms[f"hand.{c}"]) for c in CATEGORIES)
        groups = [
            Group(
                legend=_("Best hands"),
                fields=tuple(
                    self.field(
                        name=f"hand_{p}",
                        label=_("%(pos)s's best hand", pos=p),
                        kind=FieldKind.CHOICE,
                        expected=best[p]["category"],
                        choices=categories,
                    )
                    for p in live
                ),
            ),
            Group(
                legend=_("Best five cards"),
                fields=tuple(self.five(p, scenario.hands[p], scenario.board, best[p]["cards"]) for p in live),
            ),
        ]
        rows = _pot_rows(len(live), len(winners)) if pots_asked else len(winners)
        for i in range(rows):
            name = self.pot_name(i)
            groups.append(
                Group(
                    legend=name,
                    fields=(
                        self.field(
                            name=f"winners{i + 1}",
                            label=_("%(pot)s: who wins it", pot=name),
                            kind=FieldKind.CHOICES,
                            expected=frozenset(winners[i]) if i < len(winners) else frozenset(),
                            choices=tuple((p, p) for p in live),
                            hint=_("Tick several players for a split; none if there is no such pot.") if pots_asked and i else "",
                        ),
                    ),
                )
            )
        return Question(
            kind="winners",
            title=_("Reading the hands"),
            prompt=reduce(self.then, told),
            groups=tuple(groups),
        )

    def ruling_choices(self) -> tuple[tuple[str, str], ...]:
        _ = self.t.gettext
        labels = {
            "check": _("a check"),
            "call": _("a call"),
            "bet": _("a bet"),
            "raise": _("a raise"),
            "fold": _("a fold"),
            "call-or-fold": _("call or fold only"),
            "free": _("not binding: the action changed"),
        }
        return tuple((key, labels[key]) for key in RULINGS)

    def in_turn(self, action: Any) -> str:
        """An action someone makes in turn, as a clause with its verb: "SB checks", "HJ raises to 1,800"."""
        _ = self.t.gettext
        amount = self.t.number(action.amount) if action.amount is not None else ""
        clauses = {
            "fold": _("%(pos)s folds", pos=action.position),
            "check": _("%(pos)s checks", pos=action.position),
            "call": _("%(pos)s calls", pos=action.position),
            "bet": _("%(pos)s bets %(amount)s", pos=action.position, amount=amount),
            "raise": _("%(pos)s raises to %(amount)s", pos=action.position, amount=amount),
            "allin": _("%(pos)s goes all-in", pos=action.position),
        }
        return clauses[str(action.kind)]

    def one_after_another(self, clauses: list[str]) -> str:
        if len(clauses) < 2:
            return "".join(clauses)
        # Translators: actions in the order they are made: "SB checks, then BB checks".
        return self.t.gettext("%(head)s, then %(last)s", head=self.list(clauses[:-1]), last=clauses[-1])

    def put_forward(self, who: str, said: str | None, chips: tuple[int, ...]) -> str:
        """What the player says and pushes. One chip or several decides the ruling (R-OVERCHIP against
        R-MULTICHIP), so the question says which, and that several came in one motion (R-STRING)."""
        _ = self.t.gettext
        if said is None and not chips:
            return ""
        if not chips:
            return _("%(pos)s says “%(said)s”.", pos=who, said=said)
        if len(chips) == 1:
            chip = self.t.number(chips[0])
            if said is None:
                return _("%(pos)s silently puts forward a single %(chip)s chip.", pos=who, chip=chip)
            return _("%(pos)s says “%(said)s” and puts forward a single %(chip)s chip.", pos=who, said=said, chip=chip)
        count, shown = self.t.number(len(chips)), self.chips(chips)
        if said is None:
            # Translators: count is always 2 or more; chips lists them: "1,000 + 500".
            return _("%(pos)s silently puts forward %(count)s chips in one motion: %(chips)s.", pos=who, count=count, chips=shown)
        # Translators: count is always 2 or more; chips lists them: "1,000 + 500".
        return _(
            "%(pos)s says “%(said)s” and puts forward %(count)s chips in one motion: %(chips)s.",
            pos=who, said=said, count=count, chips=shown,
        )

    def ruling(self, solution: dict, scenario: Any, to_act: str | None, limit: int) -> Question:
        _ = self.t.gettext
        ruling = self.need(solution, "ruling", "ruling")
        said = getattr(scenario, "ruling", None)
        who = (said.by if said is not None and said.by else None) or to_act or _("The player")
        told = []
        if said is not None:
            out_of_turn = bool(said.by and to_act and said.by != to_act)
            if out_of_turn:
                told.append(_("It is %(to_act)s's turn, but %(pos)s acts out of turn.", to_act=to_act, pos=who))
            pushed = self.put_forward(who, self.said(said.said) if said.said else None, tuple(said.chips))
            if pushed:
                told.append(pushed)
            # The engine plays the actions in turn only for an out-of-turn player (R-OOT).
            if out_of_turn and said.then:
                actions = self.one_after_another([self.in_turn(a) for a in said.then])
                told.append(_("The action goes back to %(to_act)s: %(actions)s.", to_act=to_act, actions=actions))
            if said.later:
                chips = self.chips(said.later)
                told.append(_("Then %(pos)s goes back to the stack and adds %(chips)s.", pos=who, chips=chips))
        told.append(_("What does it count as?"))
        return Question(
            kind="ruling",
            title=_("Chips and words: the ruling"),
            prompt=reduce(self.then, told),
            groups=(
                Group(
                    legend=_("The ruling"),
                    fields=(
                        self.field(
                            name="ruling_action",
                            label=_("It counts as"),
                            kind=FieldKind.CHOICE,
                            expected=ruling["action"],
                            choices=self.ruling_choices(),
                        ),
                        self.field(
                            name="ruling_to",
                            label=_("%(pos)s's total on this street afterwards", pos=who),
                            kind=FieldKind.AMOUNT,
                            expected=ruling["to"],
                            blank=Blank.NONE,
                            hint=_("Leave empty for a check, a fold, call-or-fold, or an action that does not bind."),
                            limit=limit,
                        ),
                        self.field(
                            name="ruling_returned",
                            label=_("Chips that go back to the player"),
                            kind=FieldKind.AMOUNT,
                            expected=ruling["returned"],
                            blank=Blank.ZERO,
                            hint=_("Empty means 0."),
                            limit=limit,
                        ),
                    ),
                ),
            ),
        )

    def split(self, solution: dict, scenario: Any, limit: int, *, hidden: bool = False) -> Question:
        """What each winner of each pot gets. ``hidden``: who wins is asked on the same form (hand
        reading), so the fields must not tell it: a share for every player who can win the pot, 0
        for those who do not (a field per winner named the winners, "Main pot: won by BTN")."""
        _ = self.t.gettext
        shares = self.need(solution, "split", "split")
        pots = solution.get("pots") or []  # betting is over: a split's pots are these, in order
        groups = []
        for i, pot in enumerate(shares):
            name = self.pot_name(i)
            if hidden:
                players, legend = list(pots[i]["eligible"]), name
            else:
                players = list(pot)
                legend = _("%(pot)s: won by %(players)s", pot=name, players=self.list(players))
            groups.append(
                Group(
                    legend=legend,
                    fields=tuple(
                        self.field(
                            name=f"split{i + 1}_{pos}",
                            label=_("%(pot)s: %(pos)s gets", pot=name, pos=pos),
                            kind=FieldKind.AMOUNT,
                            expected=int(pot.get(pos, 0)),
                            limit=limit,
                            **({"blank": Blank.ZERO, "hint": _("Empty means 0.")} if hidden else {}),
                        )
                        for pos in players
                    ),
                )
            )
        chip = self.t.number(getattr(scenario, "chip", 1))
        if hidden:
            prompt = _("Say what each player collects from each pot: 0 for a player who does not win it. "
                       "The smallest chip in play is %(chip)s.", chip=chip)
        else:
            prompt = _("Split each pot among the players who won it. The smallest chip in play is %(chip)s.",
                       chip=chip)
        return Question(kind="split", title=_("Splitting the pots"), prompt=prompt, groups=tuple(groups))
