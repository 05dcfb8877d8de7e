"""How many questions two attempts at each exam template share: the answer-key check.

Usage: python benchmarks/exam_fresh.py [--pairs 50] [--seed 0] [--exams DIR]
Draws ``--pairs`` pairs of attempts per template (exams/*.yaml, or DIR) as the app does, and
counts the questions both attempts of a pair hold — by what the candidate sees (trainer/library/
fresh.py), so two seeds that dealt the same spot count as one question. Hand-written exam-pool
spots (scenarios/**/exam-pool/) count as themselves. One line per template, then
`exam fresh max shared: F` (the largest fraction). Target: no template above 1/20 = 0.05.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path

from trainer.library import in_exam_pool
from trainer.library.exams import load_templates
from trainer.library.fresh import worst
from trainer.resources import folder
from trainer.scenarios import load_paths
from trainer.scenarios.pool import scenario_files


def _pool() -> dict[str, list[str]]:
    root = str(folder("scenarios"))
    files = [f for f in scenario_files([root]) if in_exam_pool(f, [root])]
    by_topic: dict[str, list[str]] = defaultdict(list)
    for scenario in load_paths(files).scenarios:
        for topic in scenario.topics or ():
            by_topic[topic].append(scenario.id)
    return dict(by_topic)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--exams", type=Path, default=None, help="a folder of templates (default: the catalogue)")
    args = parser.parse_args()
    templates, problems = load_templates(args.exams or folder("exams"))
    for problem in problems:
        print("not loaded:", problem)
    pool = _pool()
    largest = 0.0
    for template in templates:
        began = time.perf_counter()
        overlap = worst(template, pairs=args.pairs, seed=args.seed, pool=pool)
        largest = max(largest, overlap.fraction)
        print(f"{template.slug:20s} {args.pairs} pairs: at most {overlap.most}/{overlap.count} shared "
              f"({overlap.fraction:.1%})  {time.perf_counter() - began:5.1f} s")
    print(f"exam fresh max shared: {largest:.3f}")


if __name__ == "__main__":
    main()
