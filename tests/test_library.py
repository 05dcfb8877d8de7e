"""The scenario library (scenarios/<topic>/<id>.yaml): enough spots for every topic and rule.

Coverage of a rule is measured by the engine (``trainer.rule_coverage.rule_ids``),
not by the tags a file carries: a scenario counts for a rule only when the
engine's derivation of its questions cites that rule.
"""

from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from trainer.cli import main
from trainer.rule_coverage import rule_ids
from trainer.engine.rules import RULES
from trainer.scenarios import LOCALES, QUESTION_KINDS, load_paths
from trainer.topics import TOPICS

REPO = Path(__file__).resolve().parents[1]
LIBRARY = REPO / "scenarios"
MINIMUM = 3


@pytest.fixture(scope="module")
def library():
    result = load_paths([LIBRARY])
    assert not result.errors, "scenario files that do not load:\n" + "\n".join(map(str, result.errors))
    return result.scenarios


def folder(scenario) -> str:
    return Path(scenario.file).parent.name


def test_trainer_check_passes_on_the_library():
    result = CliRunner().invoke(main, ["check", str(LIBRARY)])
    assert result.exit_code == 0, f"`trainer check scenarios/` failed:\n{result.output}"


def test_ids_are_unique_with_the_worked_examples_loaded_too():
    result = load_paths([LIBRARY, REPO / "tests" / "scenarios"])
    assert not result.errors, "\n".join(map(str, result.errors))


def test_every_topic_has_enough_scenarios(library):
    per_topic = Counter(folder(s) for s in library)
    short = {t.name: per_topic[t.name] for t in TOPICS if per_topic[t.name] < MINIMUM}
    assert not short, (
        f"topics with fewer than {MINIMUM} scenarios in scenarios/<topic>/: "
        + ", ".join(f"{name} ({count})" for name, count in short.items())
    )


def test_every_scenario_sits_under_a_topic_it_lists(library):
    names = {t.name for t in TOPICS}
    wrong = [
        f"{s.file}: folder {folder(s)!r}"
        + (" is not a topic" if folder(s) not in names else f" is not in its topics {list(s.topics)}")
        for s in library
        if folder(s) not in names or folder(s) not in s.topics
    ]
    assert not wrong, "\n".join(wrong)


def test_every_rule_is_exercised_by_enough_scenarios(library):
    covering = {rule_id: [] for rule_id in RULES}
    for scenario in library:
        for rule_id in rule_ids(scenario):
            covering.setdefault(rule_id, []).append(scenario.id)
    short = {rule_id: ids for rule_id, ids in covering.items() if len(ids) < MINIMUM}
    assert not short, (
        f"rules exercised by fewer than {MINIMUM} scenarios (measured by the engine): "
        + "; ".join(f"{rule_id} ({len(ids)}: {', '.join(ids) or 'none'})" for rule_id, ids in short.items())
    )


def test_every_question_kind_is_asked(library):
    asked = Counter(kind for s in library for kind in s.ask)
    missing = [kind for kind in QUESTION_KINDS if not asked[kind]]
    assert not missing, f"question kinds no scenario asks: {', '.join(missing)}"


def test_every_scenario_is_complete_in_three_languages(library):
    problems = []
    for s in library:
        for key, text in (("title", s.title), ("explain", s.explain)):
            missing = [loc for loc in LOCALES if not (text and text.get(loc, "").strip())]
            if missing:
                problems.append(f"{s.file}: {key} lacks {', '.join(missing)}")
        if not s.expect:
            problems.append(f"{s.file}: no expect block")
        if not s.topics:
            problems.append(f"{s.file}: no topics")
        if s.level is None:
            problems.append(f"{s.file}: no level")
    assert not problems, "\n".join(problems)
