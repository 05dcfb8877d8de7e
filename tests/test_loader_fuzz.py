"""Fuzz the loader: whatever a scenario file holds, it ends in a Scenario or a ScenarioError.

A few hundred inputs in the default run, a few thousand with ``-m slow``; the
long run (1,000,000 and more) is ``benchmarks/fuzz_loader.py``, with the same
inputs from tests/loader_inputs.py.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import loader_inputs
from trainer.scenarios import MAX_MESSAGE, Scenario, ScenarioError

# The deadline is a hang detector, not a speed target: the slowest input of a
# 1,000,000-input run took well under a second.
FUZZ = settings(
    deadline=timedelta(seconds=20),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)


def ends_well(data: bytes | str) -> None:
    result = loader_inputs.load(data)
    assert isinstance(result, (Scenario, ScenarioError))
    if isinstance(result, ScenarioError):
        assert result.line is not None and result.line >= 1, str(result)
        assert len(result.message) <= MAX_MESSAGE
        assert str(result).startswith(f"fuzz.yaml:{result.line}: ")


def fuzz(inputs: st.SearchStrategy, examples: int) -> None:
    """``ends_well`` on ``examples`` inputs drawn from ``inputs`` (derandomized: the same ones each run)."""

    @settings(FUZZ, max_examples=examples)
    @given(inputs)
    def run(data):
        ends_well(data)

    run()


@pytest.mark.parametrize("examples", [300, pytest.param(2000, marks=pytest.mark.slow)])
def test_mutated_real_files_and_generated_yaml_end_in_a_scenario_or_an_error(examples):
    fuzz(st.randoms(use_true_random=False).map(loader_inputs.one), examples)


YAMLISH = st.sampled_from(
    ["id", "game", "stacks", "actions", "title", ":", " ", "\n", "- ", "[", "]", "{", "}", ",", "&a", "*a",
     "!!", "!!int", "!!bool", "!!float", "!!timestamp", "!!binary", "<<", "?", "'", '"', "#", "|", ">", "\t",
     "0", "1", "9" * 40, "1.5", "0x1", "1:2", "2001-13-45", "yes", "~", "\0", "\ufeff", "é", "繁"]
)


@pytest.mark.parametrize("examples", [200, pytest.param(700, marks=pytest.mark.slow)])
def test_yaml_pieces_in_any_order_end_in_a_scenario_or_an_error(examples):
    fuzz(st.lists(YAMLISH, max_size=60).map("".join), examples)


@settings(max_examples=300, deadline=timedelta(seconds=20), suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.binary(max_size=400))
def test_any_bytes_end_in_a_scenario_or_an_error(data):
    ends_well(data)
