"""Which rules a scenario exercises, measured by the engine rather than by tags.

A rule counts for a scenario when the engine's derivation of the spot cites
it in a step that answers one of the scenario's questions (``ask``).
"""

from __future__ import annotations

from .engine.rules import RULES
from .scenarios import Scenario

# which derivation steps answer which question kind
STEP_TOPICS = {
    "card": ("to_act", "current_total", "last_full_increment", "committed", "to_add"),
    "options": ("to_act", "options"),
    "pot": ("pot",),
    "pots": ("pots", "pot"),
    "showdown": ("showdown",),
    "winners": ("winners",),
    "ruling": ("ruling",),
    "split": ("split",),
}

CHIP_RULES = ("R-VERBAL", "R-INVALIDDECL", "R-OVERCHIP", "R-MULTICHIP", "R-HALF", "R-STRING", "R-OOT")


def rule_ids(scenario: Scenario) -> set[str]:
    topics = {topic for kind in scenario.ask for topic in STEP_TOPICS[kind]}
    ids = {step.rule for step in scenario.derivation() if step.rule and step.topic in topics}
    if ids & set(CHIP_RULES):
        ids.add("R-CHIPS")
    return ids & set(RULES)


def coverage(scenarios: list[Scenario]) -> dict[str, list[str]]:
    """Rule ID -> the ids of the scenarios that exercise it (every rule listed, even with none)."""
    table: dict[str, list[str]] = {rule_id: [] for rule_id in RULES}
    for scenario in scenarios:
        for rule_id in rule_ids(scenario):
            table[rule_id].append(scenario.id)
    return table
