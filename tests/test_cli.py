"""`trainer check` and `trainer solve` as a user runs them."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from trainer.cli import main

REPO = Path(__file__).resolve().parents[1]
GOOD = """\
id: btn-faces-short
game: {type: no-limit, blinds: [100, 200]}
start: turn
pot: 600
stacks: {SB: 10000, BB: 10000, CO: 1400, BTN: 10000}
actions: [SB bet 1000, BB call, CO allin]
expect:
  to_act: BTN
  options: {call: 1400, raise: {min_to: 2400, max_to: 10000}}
"""
OVER = """\
id: everyone-folds
game: {type: no-limit, blinds: [50, 100]}
stacks: {BTN: 5000, SB: 5000, BB: 5000}
actions: [BTN raise 300, SB fold, BB fold]
"""


def run(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_solve_json_prints_one_object_per_file_with_the_contract_keys(tmp_path):
    write(tmp_path, "a.yaml", GOOD)
    write(tmp_path, "b.yaml", OVER)
    code, out, _ = run("solve", "--json", str(tmp_path))
    assert code == 0
    first, second = [json.loads(line) for line in out.splitlines()]
    assert list(first) == ["id", "file", "street", "to_act", "card", "options", "pot"]
    assert first["options"] == {"fold": True, "check": False, "call": 1400, "bet": None, "raise": {"min_to": 2400, "max_to": 10000}}
    assert second["to_act"] is None and second["card"] is None and second["options"] is None
    assert second["pot"] == 450
    assert second["returned"] == {"BTN": 200}
    assert second["pots"] == [{"amount": 250, "eligible": ["BTN"]}]
    assert "showdown" not in second  # only one player left


def test_solve_reports_broken_files_as_error_lines_and_exits_1(tmp_path):
    write(tmp_path, "a.yaml", GOOD)
    write(tmp_path, "b.yaml", GOOD.replace("CO allin", "CO rase 1400").replace("btn-faces-short", "typo"))
    code, out, _ = run("solve", "--json", str(tmp_path))
    assert code == 1
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["id"] == "btn-faces-short"
    assert lines[1] == {"file": str(tmp_path / "b.yaml"), "error": f'{tmp_path / "b.yaml"}:6: "CO rase 1400": unknown verb "rase" (verbs: fold, check, call, bet N, raise N, allin); did you mean "raise"?'}


def test_solve_for_people_shows_card_options_and_derivation(tmp_path):
    code, out, _ = run("solve", str(write(tmp_path, "a.yaml", GOOD)))
    assert code == 0
    assert "① current total 1400   ② last full increment 1000   ③ committed 0 (not acted)   ④ to add 1400" in out
    assert "options: fold, call 1400, raise to 2400–10000" in out
    assert "a short all-in does not change the last full increment (R-SHORTALLIN)." in out


def test_check_reports_every_broken_file_and_disagreement(tmp_path):
    write(tmp_path, "a.yaml", GOOD.replace("min_to: 2400", "min_to: 1800"))
    write(tmp_path, "b.yaml", "game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 1, BB: 1}\nsatcks: 1\n")
    write(tmp_path, "c.yaml", "game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 5, BB: 5}\nactions: [SB raise 3]\n")
    code, out, err = run("check", str(tmp_path))
    assert code == 1
    assert "a.yaml:9: expect.options.raise: the file expects {min_to: 1800, max_to: 10000}, the engine says {min_to: 2400, max_to: 10000}" in err
    assert "b.yaml:3: unknown key" in err
    assert 'c.yaml:3: "SB raise 3": the minimum raise is to 4' in err
    assert "3 files, 2 failed to load, 1 expect block checked, 1 disagreement" in out


def test_check_counts_one_file_in_the_singular(tmp_path):
    write(tmp_path, "a.yaml", GOOD)
    code, out, _ = run("check", str(tmp_path / "a.yaml"))
    assert code == 0
    assert "1 file, 0 failed to load, 1 expect block checked, 0 disagreements" in out


def test_check_passes_on_the_repository_scenarios():
    code, out, err = run("check", str(REPO / "scenarios"), str(REPO / "tests" / "scenarios"))
    assert code == 0, err
    assert " 0 failed to load" in out


def test_missing_path_is_an_error_not_a_traceback(tmp_path):
    code, out, _ = run("solve", "--json", str(tmp_path / "nope.yaml"))
    assert code == 1
    assert json.loads(out)["error"].endswith("no such file or directory")


def test_check_says_a_symbolic_link_loop_is_one(tmp_path):
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    code, out, err = run("check", str(loop))
    assert code == 1
    assert f"{loop}: a symbolic link loop" in err
    assert "no such file" not in err
    assert "1 file, 1 failed to load" in out


def test_check_names_the_missing_target_of_a_dangling_link(tmp_path):
    link = tmp_path / "spot.yaml"
    link.symlink_to("moved.yaml")
    code, _, err = run("check", str(link))
    assert code == 1
    assert f"{link}: a symbolic link to moved.yaml, which does not exist" in err


def test_a_folder_without_scenario_files_fails_check_and_solve(tmp_path):
    folder = tmp_path / "spots"
    folder.mkdir()
    os.mkfifo(folder / "pipe.yaml")
    (folder / "loop.yaml").symlink_to(folder / "loop.yaml")
    (folder / "notes.txt").write_text("not a scenario")
    code, out, err = run("check", str(folder))
    assert code == 1
    assert f"no scenario files under {folder} (a scenario file is a regular file named *.yaml; " \
           "not regular files: loop.yaml, pipe.yaml)" in err
    assert "0 files, 0 failed to load, 0 expect blocks checked, 0 disagreements, 1 folder with no scenario files" in out
    code, out, _ = run("solve", "--json", str(folder))
    assert code == 1
    assert json.loads(out) == {"file": str(folder), "error": f"no scenario files under {folder} (a scenario file is a "
                               "regular file named *.yaml; not regular files: loop.yaml, pipe.yaml)"}


def test_an_empty_folder_beside_good_files_still_fails_check(tmp_path):
    write(tmp_path, "a.yaml", GOOD)
    (tmp_path / "empty").mkdir()
    code, out, err = run("check", str(tmp_path / "a.yaml"), str(tmp_path / "empty"))
    assert code == 1
    assert f"no scenario files under {tmp_path / 'empty'} (a scenario file is a regular file named *.yaml)" in err
    assert "1 file, 0 failed to load, 1 expect block checked, 0 disagreements, 1 folder with no scenario files" in out


def test_console_script_is_installed():
    trainer = Path(sys.executable).with_name("trainer")
    done = subprocess.run([str(trainer), "check", str(REPO / "scenarios")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_check_reports_every_unreadable_file_with_its_line_in_one_process_and_in_several(tmp_path):
    """Aliases, tags, huge numbers, binary and other encodings: each is a line of the report, never a traceback."""
    bad = REPO / "fixtures" / "scenarios-bad"
    files = sorted(bad.glob("*.yaml"))
    trainer = Path(sys.executable).with_name("trainer")
    # 18 copies pass PARALLEL_FROM (400 files), so the second run loads in worker processes
    for copies, folder in ((1, tmp_path / "one"), (18, tmp_path / "many")):
        for i in range(copies):
            (folder / str(i)).mkdir(parents=True)
            for f in files:
                (folder / str(i) / f.name).write_bytes(f.read_bytes())
        done = subprocess.run([str(trainer), "check", str(folder)], capture_output=True, text=True, timeout=600)
        assert done.returncode == 1
        assert "Traceback" not in done.stderr
        assert f"{len(files) * copies} files, {len(files) * copies} failed to load" in done.stdout
        for name in ("recursive-alias.yaml:2: id:", "billion-laughs.yaml:12: stacks.BTN:", "huge-integer.yaml:3: level:",
                     "binary.yaml:1: not UTF-8", "nul-byte.yaml:2: not a text file", "utf16.yaml:1: the file is UTF-16"):
            assert name in done.stderr
        assert max(len(line) for line in done.stderr.splitlines()) < 700


LONG_NAME = "n" * 300  # past the 255 bytes a file name may have


def test_check_and_solve_report_a_name_too_long_like_any_unreadable_file(tmp_path):
    target = str(tmp_path / f"{LONG_NAME}.yaml")
    code, out, err = run("check", target)
    assert code == 1 and f"{target}: cannot read the file: File name too long" in err
    assert "1 file, 1 failed to load" in out
    code, out, _ = run("solve", "--json", target)
    assert code == 1
    assert json.loads(out) == {"file": target, "error": f"{target}: cannot read the file: File name too long"}


def _unwritable_outs(tmp_path):
    """--out folders where generate cannot write, each with what its error line must name."""
    (tmp_path / "file-there").mkdir()
    (tmp_path / "file-there" / "min-raise").write_text("")
    (tmp_path / "folder-there" / "min-raise" / "gen-min-raise-2-0-0.yaml").mkdir(parents=True)
    return [
        ("/dev/null", "/dev/null/min-raise: Not a directory"),
        (str(tmp_path / "file-there"), "file-there/min-raise: it is a file, not a folder"),
        (str(tmp_path / "folder-there"), "min-raise/gen-min-raise-2-0-0.yaml: Is a directory"),
        (str(tmp_path / LONG_NAME), f"{LONG_NAME}/min-raise: File name too long"),
    ]


def test_generate_into_a_folder_it_cannot_write_says_where_and_why_in_one_line(tmp_path):
    for out, named in _unwritable_outs(tmp_path):
        code, _, err = run("generate", "--topic", "min-raise", "--out", out)
        assert code == 1, (out, err)
        assert err.startswith("Error: cannot write") and err.count("\n") == 1 and named in err, err


UNUSABLE = [  # (settings, what the one line must say)
    ({"DATABASE_URL": "postgresql+psycopg://postgres@127.0.0.1:1/x"}, "DATABASE_URL: cannot open "),
    ({"DATABASE_URL": "postgresql+psycopg://postgres@127.0.0.1:5432/doesnotexist"}, "DATABASE_URL: cannot open "),
    ({"DATABASE_URL": "garbage://x"}, "DATABASE_URL: not a database this app can use: Can't load plugin"),
    ({"DATABASE_URL": "sqlite:////nonexistent/dir/x.db"}, "DATABASE_URL: cannot open sqlite:////nonexistent/dir/x.db: "
                                                           "unable to open database file"),
    ({"TRAINER_INSTANCE": "/dev/null/x"}, "TRAINER_INSTANCE: cannot keep the secret key in the instance folder "
                                          "/dev/null/x: Not a directory"),
    ({"TRAINER_INSTANCE": "/dev/null/x", "TRAINER_SECRET_KEY": "k" * 32}, "TRAINER_INSTANCE (the SQLite file in the "
                                                                          "instance folder): cannot make /dev/null/x"),
]


def _env(tmp_path, settings):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "TRAINER_SECRET_KEY", "TRAINER_INSTANCE")}
    return {**env, "TRAINER_INSTANCE": str(tmp_path / "instance"), **settings}


@pytest.mark.parametrize(("settings", "said"), UNUSABLE)
def test_db_upgrade_with_a_database_or_instance_it_cannot_use_names_the_setting_in_one_line(tmp_path, settings, said):
    result = CliRunner().invoke(main, ["db", "upgrade"], env=_env(tmp_path, settings))
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exc_info  # not a traceback
    assert result.stderr.startswith(f"Error: {said}") and result.stderr.count("\n") == 1, result.stderr


@pytest.mark.parametrize(("settings", "said"), [UNUSABLE[0], UNUSABLE[4], UNUSABLE[5]])
@pytest.mark.parametrize("processes", ["1", "2"])  # waitress; gunicorn, whose master builds the app before the fork
def test_serve_with_a_database_or_instance_it_cannot_use_names_the_setting_not_the_address(
        tmp_path, settings, said, processes):
    trainer = Path(sys.executable).with_name("trainer")
    env = {**_env(tmp_path, settings), "TRAINER_PROCESSES": processes}
    done = subprocess.run([str(trainer), "serve", "--port", "8799"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.splitlines()[-1].startswith(f"Error: {said}"), done.stderr
    assert "cannot serve on" not in done.stderr
