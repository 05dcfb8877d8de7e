"""How much a candidate fills in: answers and form controls per question of each exam template.

Usage: python benchmarks/exam_inputs.py [--attempts 5] [--exams DIR]
Draws ``--attempts`` attempts per template and builds every question as the exam pages do
(the spot's full quiz, or the dealer's question for ``style: dealer``). An answer is a field
(an amount, a choice, a set of ticks); a control is what can be typed in or tapped (a text box,
each radio button, each check box). Per template: answers and controls per question (max) and
per attempt (mean total). Hand-written exam-pool spots are read from scenarios/**/exam-pool/.
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path

from trainer.generate import generate
from trainer.library import in_exam_pool
from trainer.library.exams import DEALER_EDITION, EXAM_POOL, exam_gen_parts, is_dealer_ref, load_templates
from trainer.quiz import FieldKind, QuizError, build_quiz
from trainer.quiz.dealer import build_dealer_quiz
from trainer.resources import folder
from trainer.scenarios import load_document, load_paths
from trainer.scenarios.pool import scenario_files


def _pool() -> dict:
    root = str(folder("scenarios"))
    return {s.id: s for s in load_paths([f for f in scenario_files([root]) if in_exam_pool(f, [root])]).scenarios}


def quiz_of(ref: str, pool: dict):
    """The question behind ``ref`` as the exam pages build it (the next spot of the seed when one
    cannot be built, as trainer/web/exams/sitting.py draws)."""
    parts = exam_gen_parts(ref)
    if parts is None:
        return build_quiz(pool[ref.removeprefix(EXAM_POOL)])
    topic, level, seed, index, stakes = parts
    for tried in range(20):
        try:
            edition = DEALER_EDITION if is_dealer_ref(ref) else 1
            spot = generate(topic, level=level, seed=seed, start=index + tried, stakes=stakes, edition=edition)[0]
            scenario = load_document(spot.document, f"{spot.id}.yaml")
            return build_dealer_quiz(scenario) if is_dealer_ref(ref) else build_quiz(scenario)
        except (QuizError, ValueError):
            continue
    raise RuntimeError(f"no question for {ref}")


def controls(field) -> int:
    return 1 if field.kind is FieldKind.AMOUNT else len(field.choices)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=5)
    parser.add_argument("--exams", type=Path, default=None, help="a folder of templates (default: the catalogue)")
    args = parser.parse_args()
    templates, _problems = load_templates(args.exams or folder("exams"))
    pool = _pool()
    pool_ids: dict[str, list[str]] = {}
    for scenario in pool.values():
        for topic in scenario.topics or ():
            pool_ids.setdefault(topic, []).append(scenario.id)
    rng = random.Random(0)
    for template in templates:
        answers_max = controls_max = 0
        answer_totals, control_totals = [], []
        for _ in range(args.attempts):
            quizzes = [quiz_of(ref, pool) for ref in template.draw(rng.getrandbits(64), pool_ids)]
            per_answers = [len(q.fields()) for q in quizzes]
            per_controls = [sum(controls(f) for f in q.fields()) for q in quizzes]
            answers_max, controls_max = max(answers_max, *per_answers), max(controls_max, *per_controls)
            answer_totals.append(sum(per_answers))
            control_totals.append(sum(per_controls))
        print(f"{template.slug:20s} {template.count} questions in {template.minutes} min: answers per question "
              f"max {answers_max}, per attempt {statistics.mean(answer_totals):.0f}; controls per question max "
              f"{controls_max}, per attempt {statistics.mean(control_totals):.0f}")


if __name__ == "__main__":
    main()
