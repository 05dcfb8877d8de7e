"""The rule table in trainer.engine.rules must follow the rules reference, RULES.md.

RULES.md lives in the shared folder beside the repository; without it these tests
are skipped, not failed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from trainer.engine.rules import RULES

_HERE = Path(__file__).resolve()
_CANDIDATES = tuple(
    dict.fromkeys(
        (
            _HERE.parents[2] / "shared" / "RULES.md",
            _HERE.parents[1].parent / "shared" / "RULES.md",
        )
    )
)
_ID = re.compile(r"\bR-[A-Z]+\b")
_DEFINITION = re.compile(r"^(?:### |- )(R-[A-Z]+)\b", re.MULTILINE)
_HEADING = re.compile(r"^### (R-[A-Z]+) — (.+?) \((.+)\)$", re.MULTILINE)


@pytest.fixture(scope="module")
def rules_md() -> str:
    for path in _CANDIDATES:
        if path.is_file():
            return path.read_text(encoding="utf-8")
    pytest.skip("RULES.md not found; looked for " + ", ".join(map(str, _CANDIDATES)))


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("*", "").replace("`", "")).strip()


def test_every_rule_id_in_rules_md_is_in_the_table_and_back(rules_md: str) -> None:
    in_doc = set(_ID.findall(rules_md))
    missing = sorted(in_doc - set(RULES))
    unknown = sorted(set(RULES) - in_doc)
    assert not missing, f"rule IDs in RULES.md but not in RULES: {missing}"
    assert not unknown, f"rule IDs in RULES but not in RULES.md: {unknown}"


def test_table_keeps_the_order_of_rules_md(rules_md: str) -> None:
    order = list(dict.fromkeys(_DEFINITION.findall(rules_md)))
    assert list(RULES) == order


def test_titles_and_sources_match_the_headings(rules_md: str) -> None:
    headings = _HEADING.findall(rules_md)
    assert headings, "no '### R-… — title (sources)' headings found in RULES.md"
    for rule_id, title, sources in headings:
        rule = RULES[rule_id]
        assert rule.title.casefold() == title.casefold(), rule_id
        assert rule.sources == sources, rule_id


def test_worked_examples_are_quoted_from_rules_md(rules_md: str) -> None:
    text = _flat(rules_md)
    for rule in RULES.values():
        assert rule.statement.strip(), f"{rule.id} has no statement"
        for example in rule.examples:
            assert _flat(example) in text, f"{rule.id}: example not in RULES.md: {example}"


def test_keys_are_the_rule_ids() -> None:
    assert all(key == rule.id for key, rule in RULES.items())
