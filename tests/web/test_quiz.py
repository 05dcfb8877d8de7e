"""The quiz on its own: reading what people type, and where the answer key comes from."""

from __future__ import annotations

import dataclasses

import pytest
from werkzeug.datastructures import MultiDict

from trainer.quiz import InputError, QuizError, build_quiz, grade, message_templates, parse_amount, read_answer
from trainer.scenarios import load_file

from .conftest import BTN_RIGHT, SCENARIOS

BTN = SCENARIOS / "reopen" / "btn-faces-short-all-in.yaml"


@pytest.mark.parametrize(
    ("typed", "value"),
    [("0", 0), ("1400", 1400), ("1,400", 1400), ("12,345,678", 12345678), ("１，４００", 1400),
     ("\u00a01 400\t", 1400), ("", None), ("   ", None)],
)
def test_parse_amount_reads(typed, value):
    assert parse_amount(typed) == value


@pytest.mark.parametrize("typed", ["abc", "-5", "1.5", "1,4", "1,,400", ",400", "+5", "1_400", "٣"])
def test_parse_amount_refuses(typed):
    with pytest.raises(InputError):
        parse_amount(typed)


def test_parse_amount_respects_the_limit():
    assert parse_amount("10,000", limit=10000) == 10000
    with pytest.raises(InputError, match="more chips than anyone at this table has"):
        parse_amount("10,001", limit=10000)


def test_the_answer_key_is_the_engines_solve_output():
    scenario = load_file(BTN)
    quiz = build_quiz(scenario)
    assert {f.name: f.expected for f in quiz.fields()}["min_to"] == scenario.solve()["options"]["raise"]["min_to"]
    # Change what the engine says, and the grading follows: nothing is written into the quiz.
    solved = scenario.solve()
    altered = {**solved, "options": {**solved["options"], "raise": {"min_to": 1800, "max_to": 10000}}}
    fake = dataclasses.replace(scenario, solution={k: v for k, v in altered.items() if k not in ("id", "file")})
    feedback = grade(build_quiz(fake), read_answer(build_quiz(fake), MultiDict({**BTN_RIGHT, "min_to": "1800"})))
    assert feedback.all_right


def test_the_explanation_is_the_hands_derivation():
    scenario = load_file(BTN)
    quiz = build_quiz(scenario)
    # the quiz hands the engine the page's templates: amounts written as the form writes them (1,400)
    assert [s.text for s in quiz.steps] == [s.message.render(message_templates("en")) for s in scenario.hand().derivation()]
    assert [s.rule for s in quiz.steps] == [s.rule for s in scenario.hand().derivation()]


def test_an_answer_with_input_errors_cannot_be_graded():
    quiz = build_quiz(load_file(BTN))
    answer = read_answer(quiz, MultiDict({**BTN_RIGHT, "pot": "lots"}))
    assert answer.errors == {"pot": "Enter a whole number of chips, like 1400 or 1,400."}
    with pytest.raises(ValueError):
        grade(quiz, answer)


def test_asking_the_card_when_nobody_is_to_act_is_a_quiz_error():
    scenario = load_file(SCENARIOS / "side-pots" / "seed004-side-pot.yaml")
    with pytest.raises(QuizError, match="nobody is to act"):
        build_quiz(dataclasses.replace(scenario, ask=("card",)))
