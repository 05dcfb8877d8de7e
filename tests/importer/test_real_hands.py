"""Real hand histories in: every hand imports or is refused with a located reason, every
spot loads, and at every decision the engine agrees with what the player actually did.

The default run takes a sample that covers every file kind; ``pytest -m slow`` takes
every hand shipped (``docs/import.md`` has the counts)."""

import pytest
from click.testing import CliRunner

from tests.importer.checks import HH, PHH, check_import, data_files, sample
from trainer.cli import main
from trainer.importer import Refused, import_files

needs_data = pytest.mark.skipif(not (PHH.is_dir() and HH.is_dir()), reason=f"no hand histories beside {PHH.parent}")


@needs_data
def test_a_sample_of_every_file_kind_imports_and_agrees_with_the_hands(tmp_path):
    files = sample(data_files())

    result = check_import(files, tmp_path)

    report = result["report"]
    assert result["calls"] > 100 and result["raises"] > 100
    imported = {f.file.split("/")[1] for f in report.files if f.imported}
    assert {"pokerstars", "ggpoker", "winamax", "fulltilt", "888poker", "partypoker", "ignition-bovada", "pluribus", "wsop-2023-43"} <= imported
    kinds = {r.kind for r in report.refusals}
    assert {Refused.OTHER_GAME, Refused.UNSUPPORTED, Refused.REPEAT} <= kinds


@needs_data
def test_other_games_and_unknown_limits_are_refused_hand_by_hand():
    wsop = [f for f in data_files() if f[0] in ("phh/wsop-2023-43/10.phh", "phh/wsop-2023-43/27.phh")]
    sng = [f for f in data_files() if f[0].startswith("hh/ignition-bovada/thlorenz__hhp__sng")]

    _, report = import_files((name, path.read_bytes()) for name, path in wsop + sng)

    reasons = [(r.file.rsplit("/", 1)[-1], r.hand, r.line, r.kind) for r in report.refusals]
    assert reasons == [
        ("10.phh", "10", 1, Refused.OTHER_GAME),  # seven-card stud
        ("27.phh", "27", 1, Refused.OTHER_GAME),  # pot-limit Omaha
        # Ignition's tournament headers say HOLDEM but not which betting limit
        ("thlorenz__hhp__sng-split-pot.txt", "3549213216", 1, Refused.UNSUPPORTED),
        ("thlorenz__hhp__sng-tripleup.txt", "3548320887", 1, Refused.UNSUPPORTED),
    ]


@needs_data
def test_teaching_keeps_the_decisions_that_teach(tmp_path):
    files = [f for f in data_files() if f[0].startswith("hh/pokerstars/") or f[0] == "phh/pluribus/77b-108.phh"]

    every = check_import(files, tmp_path / "every")
    teaching = check_import(files, tmp_path / "teaching", mode="teaching")

    assert 0 < teaching["spots"] < every["spots"] / 3
    topics = {t for s in teaching["scenarios"] for t in s.topics}
    assert {"round-end", "side-pots", "pot-limit", "short-all-in"} <= topics
    assert all(s.topics for s in teaching["scenarios"])
    [short] = [s for s in teaching["scenarios"] if "short-all-in" in s.topics]
    # Pluribus re-raised to 9499 and the big blind's all-in to 10000 added only 501:
    # Pluribus may call the 501 but not raise again (R-SHORTALLIN, R-REOPEN)
    assert short.source == {"file": "phh/pluribus/77b-108.phh", "hand": "108", "decision": 10}
    assert short.solution["options"]["call"] == 501 and short.solution["options"]["raise"] is None


@needs_data
def test_trainer_import_then_trainer_check(tmp_path):
    runner = CliRunner()
    out = tmp_path / "spots"

    imported = runner.invoke(main, ["import", str(HH / "pokerstars"), str(HH / "fulltilt"), "--out", str(out)])

    assert imported.exit_code == 0, imported.output
    assert "Traceback" not in imported.output
    assert "pokerstars/thlorenz__hhp__call-allin.txt: 1 hands, 1 imported, refused: none; 7 spots" in imported.output
    assert "fulltilt/HHSmithy__PokerHandHistoryParser__10MultipleHands.txt:41: hand 33727523266 a repeat" in imported.stderr
    checked = runner.invoke(main, ["check", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "0 failed to load" in checked.output and "0 disagreements" in checked.output


@pytest.mark.slow
@needs_data
def test_every_hand_shipped(tmp_path, request):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the whole data set: pytest -m slow")
    result = check_import(data_files(), tmp_path)
    assert result["spots"] > 15000
