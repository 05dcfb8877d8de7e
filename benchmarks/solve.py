"""`trainer solve --json` over a directory of generated scenario files: files per second.

Usage: python benchmarks/solve.py [--files 10000] [--seed 1]

Writes the files into a temporary directory (random legal hands cut at a
random decision, with an `expect` block), then runs the real console script
once over the whole directory and times it. Target: >= 2,000 files/s.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from trainer.playout import random_action, random_deal, scenario_document


def write_files(directory: Path, count: int, seed: int) -> None:
    rng = random.Random(seed)
    for i in range(count):
        deal = random_deal(rng)
        hand = deal.hand()
        actions = []
        stop = rng.randint(0, 12)
        while not hand.betting_over and len(actions) < stop:
            action = random_action(hand, rng)
            hand.apply(action)
            actions.append(action)
        doc = scenario_document(deal, hand, actions, id=f"gen-{i:05d}", ask=("card", "options"))
        sub = directory / f"{i // 1000:02d}"
        sub.mkdir(exist_ok=True)
        (sub / f"gen-{i:05d}.yaml").write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    trainer = shutil.which("trainer") or str(Path(sys.executable).with_name("trainer"))
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        began = time.perf_counter()
        write_files(directory, args.files, args.seed)
        print(f"wrote {args.files} scenario files in {time.perf_counter() - began:.1f} s")
        began = time.perf_counter()
        done = subprocess.run([trainer, "solve", "--json", str(directory)], capture_output=True, text=True)
        elapsed = time.perf_counter() - began
        lines = done.stdout.count("\n")
        if done.returncode != 0 or lines != args.files:
            sys.exit(f"trainer solve failed (exit {done.returncode}, {lines} lines): {done.stderr[:500]}")
        began = time.perf_counter()
        checked = subprocess.run([trainer, "check", str(directory)], capture_output=True, text=True)
        check_elapsed = time.perf_counter() - began
        if checked.returncode != 0:
            sys.exit(f"trainer check found problems: {checked.stderr[:500]}")
    print(f"trainer check: {args.files / check_elapsed:,.0f} files/s ({check_elapsed:.2f} s, every expect agrees)")
    print(f"trainer solve files/s: {args.files / elapsed:,.0f} ({elapsed:.2f} s for {args.files} files)")


if __name__ == "__main__":
    main()
