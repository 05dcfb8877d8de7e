"""Generated spots per second, per topic and for all topics together.

Usage: python benchmarks/generate.py [--count 200] [--seed 1]
The last line is `generate spots/s: N` (all topics together). Target: >= 500.
"""

from __future__ import annotations

import argparse
import time

from trainer.generate import generate, topics


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="spots per topic")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    generate(topics()[0], count=1)  # warm up imports
    total_spots = 0
    total_time = 0.0
    for topic in topics():
        began = time.perf_counter()
        for level in range(1, 6):
            generate(topic, level=level, seed=args.seed, count=args.count // 5)
        elapsed = time.perf_counter() - began
        spots = 5 * (args.count // 5)
        total_spots += spots
        total_time += elapsed
        print(f"{topic:14s} {spots / elapsed:10,.0f} spots/s")
    print(f"generate spots/s: {total_spots / total_time:.0f}")


if __name__ == "__main__":
    main()
