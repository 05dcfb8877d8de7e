"""A second app in the same process (a reload, the tests) reuses what the first built, and only
what has not changed: the scenario library's entries (``library._BUILT``) and the compiled
templates (``compiled.TEMPLATES``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from jinja2 import Environment, FileSystemLoader

from trainer.web.core.libraries import EXTENSION
from trainer.web.core import compiled
from trainer.web import create_app

from tests.web.conftest import SCENARIOS

ROOT = Path(__file__).resolve().parents[3]


def _app(tmp_path, name: str, scenarios: Path, **settings):
    return create_app({"TESTING": True, "SECRET_KEY": "s", "SCENARIO_DIRS": [str(scenarios)],
                       "INSTANCE_DIR": str(tmp_path / name), **settings})


def _library(tmp_path) -> Path:
    folder = tmp_path / "library"
    shutil.copytree(SCENARIOS, folder)
    return folder


def test_a_second_app_over_the_same_files_shares_the_first_ones_spots(tmp_path):
    folder = _library(tmp_path)
    first, second = _app(tmp_path, "a", folder), _app(tmp_path, "b", folder)
    for locale, library in first.extensions[EXTENSION].items():
        other = second.extensions[EXTENSION][locale]
        assert library is not other  # each app has its own library (its indexes, its problems)
        assert list(library.entries) == list(other.entries)
        assert all(library.entries[k] is other.entries[k] for k in library.entries)  # built once


def test_a_file_changed_added_or_removed_is_read_again(tmp_path):
    folder = _library(tmp_path)
    before = _app(tmp_path, "a", folder).extensions[EXTENSION]["en"]
    spot = next(iter(before.entries.values()))
    path = Path(spot.scenario.file)
    text = path.read_text(encoding="utf-8")
    title = spot.title
    assert text.count(title) >= 1
    path.write_text(text.replace(title, title + " again", 1), encoding="utf-8")  # the same size or not: the bytes
    changed = _app(tmp_path, "b", folder).extensions[EXTENSION]["en"]
    assert changed.entries[spot.id].title == title + " again"
    assert changed.entries[spot.id] is not before.entries[spot.id]

    other = next(e for e in before.entries.values() if e.id != spot.id)
    Path(other.scenario.file).unlink()
    removed = _app(tmp_path, "c", folder).extensions[EXTENSION]["en"]
    assert other.id not in removed.entries and spot.id in removed.entries

    shutil.copy(path, folder / "copy.yaml")
    added = _app(tmp_path, "d", folder).extensions[EXTENSION]["en"]
    assert [p.message for p in added.problems if "already used" in p.message], added.problems  # its id, twice


def test_a_second_app_compiles_no_template_and_a_changed_one_is_compiled_again(tmp_path, monkeypatch):
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", templates)
    first = _app(tmp_path, "a", SCENARIOS, TEMPLATES_DIR=str(templates))
    assert first.test_client().get("/problems").status_code == 200  # the page and the templates it extends
    compiles = []
    original = Environment.compile
    monkeypatch.setattr(Environment, "compile", lambda self, *a, **k: compiles.append(a) or original(self, *a, **k))
    second = _app(tmp_path, "b", SCENARIOS, TEMPLATES_DIR=str(templates))
    assert "changed here" not in second.test_client().get("/problems").text
    assert compiles == []

    page = templates / "problems.html"
    page.write_text(page.read_text(encoding="utf-8").replace("{% block main %}", "{% block main %}<p>changed here</p>"),
                    encoding="utf-8")
    third = _app(tmp_path, "c", SCENARIOS, TEMPLATES_DIR=str(templates))
    assert "changed here" in third.test_client().get("/problems").text
    assert len(compiles) == 1  # that one only


def test_environments_set_up_differently_never_share_compiled_code(tmp_path):
    (tmp_path / "t.txt").write_text("{% if true %}\n  x\n{% endif %}\n", encoding="utf-8")
    made = []
    for trim in (True, False, True):
        env = Environment(loader=FileSystemLoader(tmp_path), bytecode_cache=compiled.TEMPLATES,
                          trim_blocks=trim, lstrip_blocks=trim)
        made.append(env.get_template("t.txt").render())
    assert made == ["  x\n", "\n  x\n", "  x\n"]
