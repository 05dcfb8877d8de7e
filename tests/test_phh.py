"""Real hands: every no-limit hold'em hand history replayed action by action
against PokerKit 0.7.7 (see tests/oracle.py).

The hand histories live beside the repository (or in TRAINER_PHH_DIR); the
tests skip when they are absent.
"""

import os
from pathlib import Path

import pytest

from tests.oracle import phh_dir, replay_phh_dir
from trainer.importer.phh import read_phh

PHH = phh_dir()
SHIPPED = "TRAINER_PHH_DIR" not in os.environ

# The shipped set: 1,500 Pluribus hands and 11 WSOP 2023 #43 hold'em hands.
EXPECTED_REPLAYED = 1511
# Hands skipped as known differences and hands with data errors, with the
# reason; both empty for the shipped set.
EXPECTED_SKIPPED: dict[str, str] = {}
EXPECTED_DATA_ERRORS: list[str] = []

needs_phh = pytest.mark.skipif(not PHH.is_dir(), reason=f"no hand histories at {PHH} (set TRAINER_PHH_DIR)")


@pytest.fixture(scope="module")
def replay():
    return replay_phh_dir(PHH)


def no_limit_holdem_files(directory: Path) -> list[str]:
    return sorted(
        path.relative_to(directory).as_posix()
        for path in directory.rglob("*.phh")
        if read_phh(path.read_text(encoding="utf-8"), path.name)[0].variant == "NT"
    )


@needs_phh
def test_real_hands_agree_with_pokerkit(replay):
    summary, _ = replay
    assert not summary.mismatches, summary.report("hand histories")
    assert summary.decisions > 5 * summary.hands


@needs_phh
def test_every_hand_is_replayed_or_listed(replay):
    summary, replayed = replay
    skipped = {name for name, _ in summary.skipped_hands}
    failed = {error.split(":")[0] for error in summary.data_errors}
    assert sorted(set(replayed) | skipped | failed) == no_limit_holdem_files(PHH)


@needs_phh
@pytest.mark.skipif(not SHIPPED, reason="counts are for the shipped hand histories")
def test_shipped_hands(replay):
    summary, replayed = replay
    assert len(replayed) == EXPECTED_REPLAYED
    assert {name: str(reason) for name, reason in summary.skipped_hands} == EXPECTED_SKIPPED
    assert summary.data_errors == EXPECTED_DATA_ERRORS


HAND = """\
variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 Jd9d', 'd dh p2 2h2d', 'd dh p3 6sQd', {actions}]
"""


@pytest.mark.parametrize(
    ("actions", "error"),
    [
        ("'p3 cbr 150', 'p1 f', 'p2 f'", "'p3 cbr 150' is illegal"),
        ("'p1 f', 'p3 f', 'p2 f'", "'p1 f' (SB) is out of turn: BTN is to act"),
        ("'p3 cbr 300', 'p1 f'", "the actions end before betting is over"),
        ("'p3 f', 'p1 f', 'p2 f'", "'p2 f' (BB) is out of turn: betting is over"),
    ],
)
def test_data_errors_are_reported_not_repaired(tmp_path, actions, error):
    (tmp_path / "bad.phh").write_text(HAND.format(actions=actions), encoding="utf-8")

    summary, replayed = replay_phh_dir(tmp_path)

    assert replayed == []
    [reported] = summary.data_errors
    assert reported.startswith("bad.phh: ") and error in reported
