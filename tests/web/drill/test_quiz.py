"""The quiz on its own: reading what people type, and where the answer key comes from."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from werkzeug.datastructures import MultiDict

from trainer.quiz import InputError, QuizError, build_quiz, grade, message_templates, parse_amount, read_answer
from trainer.scenarios import load_file

from tests.web.conftest import BTN_RIGHT, SCENARIOS

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


LIBRARY = Path(__file__).resolve().parents[3] / "scenarios"
CHIPS_AND_WORDS = LIBRARY / "chips-and-words"


def _ruling_prompt(path: Path, locale: str = "en") -> str:
    return next(q.prompt for q in build_quiz(load_file(path), locale=locale).questions if q.kind == "ruling")


@pytest.mark.parametrize(
    ("file", "locale", "told"),
    [
        # R-OVERCHIP: one 100 chip facing 10 is a call with 90 change; 100 in small chips would not be
        ("seed000-one-chip-is-a-call.yaml", "en", "CO silently puts forward a single 100 chip."),
        ("seed000-one-chip-is-a-call.yaml", "zh-Hant", "CO 不出聲，推出一顆 100 的籌碼。"),
        ("seed000-one-chip-is-a-call.yaml", "zh-Hans", "CO 不出声，推出一枚 100 的筹码。"),
        ("limit-raise-with-one-big-chip-is-one-bet.yaml", "en", "BB says “raise” and puts forward a single 100 chip."),
        # R-MULTICHIP: several chips, and how many, in one motion (R-STRING: a second motion is told apart)
        ("string-bet-after-two-chips.yaml", "en", "UTG+1 silently puts forward 2 chips in one motion: 1,000 + 500. "
                                                  "Then UTG+1 goes back to the stack and adds 500."),
        ("i-call-no-raise.yaml", "en", "HJ says “call” and puts forward 2 chips in one motion: 1,000 + 500."),
        ("i-call-no-raise.yaml", "zh-Hant", "HJ 說「跟注」，同時一次推出 2 顆籌碼：1,000 + 500。"),
        ("i-call-no-raise.yaml", "zh-Hans", "HJ 说“跟注”，同时一次推出 2 枚筹码：1,000 + 500。"),
    ],
)
def test_a_ruling_question_says_whether_one_chip_or_several_went_forward(file, locale, told):
    prompt = _ruling_prompt(CHIPS_AND_WORDS / file, locale)
    assert prompt.startswith(told)


@pytest.mark.parametrize(
    ("path", "locale", "told"),
    [
        (LIBRARY / "exam-pool" / "chips-and-words" / "out-of-turn-check-binds.yaml", "en",
         "It is SB's turn, but BTN acts out of turn. BTN says “check”. "
         "The action goes back to SB: SB checks, then BB checks. What does it count as?"),
        (LIBRARY / "exam-pool" / "chips-and-words" / "out-of-turn-check-binds.yaml", "zh-Hant",
         "輪到 SB 行動，但 BTN 搶先行動。BTN 說「過牌」。行動退回給 SB：SB 過牌，接著 BB 過牌。這算什麼動作？"),
        (LIBRARY / "exam-pool" / "chips-and-words" / "out-of-turn-check-binds.yaml", "zh-Hans",
         "轮到 SB 行动，但 BTN 抢先行动。BTN 说“让牌”。行动退回给 SB：SB 让牌，接着 BB 让牌。这算什么动作？"),
        (CHIPS_AND_WORDS / "out-of-turn-action-changed.yaml", "en",
         "It is HJ's turn, but CO acts out of turn. CO says “call” and puts forward 2 chips in one motion: 500 + 100. "
         "The action goes back to HJ: HJ raises to 1,800. What does it count as?"),
        (CHIPS_AND_WORDS / "out-of-turn-fold-binds.yaml", "en",
         "It is HJ's turn, but CO acts out of turn. CO says “fold”. What does it count as?"),
    ],
)
def test_an_out_of_turn_question_says_who_acted_out_of_turn_and_whose_turn_it_was(path, locale, told):
    assert _ruling_prompt(path, locale) == told


def test_a_player_acting_in_turn_is_not_said_to_act_out_of_turn():
    prompt = _ruling_prompt(CHIPS_AND_WORDS / "check-facing-a-bet.yaml")
    assert prompt == "BB says “check”. What does it count as?"
