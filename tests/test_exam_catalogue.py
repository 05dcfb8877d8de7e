"""The exam catalogue is data (exams/*.yaml), checked at load like a scenario file: a mistake names
the file, the line and the key, and the other templates still load."""

from __future__ import annotations

import pytest

from trainer.library.exams import load_template, load_templates
from trainer.resources import folder
from trainer.scenarios import ScenarioError

GOOD = """\
title: Betting rules
description: Ten spots.
count: 10
minutes: 12
pass_mark: 80
weights:
  min-raise: 2
  reopening: 1
"""


def test_the_shipped_catalogue_loads_in_its_order_with_no_problem():
    templates, problems = load_templates(folder("exams"))
    assert problems == []
    assert [t.slug for t in templates][:3] == ["betting-rules", "pots-and-showdown", "chips-and-words"]
    assert all(t.count >= len(t.pool) and t.title and t.description for t in templates)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (GOOD.replace("count: 10", "cuont: 10"), 3, "cuont: not a key of an exam template"),
        (GOOD.replace("reopening: 1", "reopen: 1"), 8, "weights.reopen: not a topic"),
        (GOOD.replace("pass_mark: 80", "pass_mark: 180"), 5, "pass_mark: a whole number from 1 to 100, got 180"),
        (GOOD.replace("min-raise: 2", "min-raise: two"), 7, "weights.min-raise: a whole number of at least 1"),
        (GOOD + "pool:\n  chips-and-words: 11\n", None, "more pool questions than count 10"),
        (GOOD.replace("title: Betting rules\n", ""), 1, "title: missing"),
        ("title: [unclosed\n", 2, "not valid YAML"),
        (GOOD + "review: at-once\n", 9, "review: when the review shows the answers, one of after-close, after-attempt"),
    ],
)
def test_a_mistake_names_the_file_the_line_and_the_key(tmp_path, text, line, words):
    path = tmp_path / "betting.yaml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as refused:
        load_template(path)
    assert refused.value.line == line and words in refused.value.message
    assert str(refused.value).startswith(str(path))


def test_the_review_setting_is_read_and_waits_for_the_close_by_default(tmp_path):
    (tmp_path / "later.yaml").write_text(GOOD)
    (tmp_path / "at-once.yaml").write_text(GOOD + "review: after-attempt\n")
    assert load_template(tmp_path / "later.yaml").review == "after-close"
    assert load_template(tmp_path / "at-once.yaml").review == "after-attempt"


def test_one_broken_template_leaves_the_others(tmp_path):
    (tmp_path / "good.yaml").write_text(GOOD)
    (tmp_path / "bad.yaml").write_text("title: 3\n")
    templates, problems = load_templates(tmp_path)
    assert [t.slug for t in templates] == ["good"] and len(problems) == 1
