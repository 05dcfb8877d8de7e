"""The classroom benchmark's own choices (benchmarks/classroom.py): a run that asks for spots the
app refuses measures nothing."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from trainer.library import load_library

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("classroom_bench", REPO / "benchmarks" / "classroom.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("mode", ["quick", "full"])
def test_the_benchmarks_spots_are_spots_a_live_session_takes(bench, mode):
    # the default run asks 20; the exam pool's spots are not in the drill library
    ids = bench.pick_spots(20, mode)
    library = load_library([str(REPO / "scenarios")])
    assert len(set(ids)) == 20
    assert [i for i in ids if library.get(i) is None] == []
