"""Fuzz the scenario loader: every input must end in a Scenario or a ScenarioError.

    .venv/bin/python benchmarks/fuzz_loader.py --inputs 1000000 --workers 2 --seed 1

Inputs come from tests/loader_inputs.py (mutated real files, generated
YAML-ish text, aliases, tags, deep nesting, huge numbers, other encodings).
Prints a progress line now and then and a summary: inputs, scenarios, errors,
errors without a line, exceptions by type (must be 0), the slowest input,
the longest message and the largest resident memory of a worker. Exit
status 1 if anything other than a Scenario or a ScenarioError came back.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import random
import resource
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import loader_inputs  # noqa: E402
from trainer.scenarios import ScenarioError  # noqa: E402


def run(args: tuple[int, int, int]) -> dict:
    seed, worker, count = args
    rng = random.Random(f"{seed}:{worker}")
    out = {
        "inputs": 0, "scenarios": 0, "errors": 0, "no_line": 0, "exceptions": collections.Counter(),
        "examples": {}, "slowest": 0.0, "longest_message": 0, "seconds": 0.0,
    }
    started = time.perf_counter()
    for _ in range(count):
        data = loader_inputs.one(rng)
        t = time.perf_counter()
        try:
            result = loader_inputs.load(data)
        except BaseException as exc:  # the point of the run: count whatever escapes
            if isinstance(exc, KeyboardInterrupt):
                raise
            name = type(exc).__name__
            out["exceptions"][name] += 1
            out["examples"].setdefault(name, (repr(data[:300]), traceback.format_exc(limit=-3)))
        else:
            if isinstance(result, ScenarioError):
                out["errors"] += 1
                out["no_line"] += result.line is None
                out["longest_message"] = max(out["longest_message"], len(result.message))
            else:
                out["scenarios"] += 1
        out["slowest"] = max(out["slowest"], time.perf_counter() - t)
        out["inputs"] += 1
    out["seconds"] = time.perf_counter() - started
    out["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=10_000, help="inputs per task (a progress line per task)")
    args = parser.parse_args()

    tasks, left, n = [], args.inputs, 0
    while left > 0:
        size = min(args.chunk, left)
        tasks.append((args.seed, n, size))
        left -= size
        n += 1
    total = collections.Counter()
    exceptions: collections.Counter = collections.Counter()
    examples: dict = {}
    slowest = longest = rss = 0.0
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for part in pool.imap_unordered(run, tasks):
            for key in ("inputs", "scenarios", "errors", "no_line"):
                total[key] += part[key]
            exceptions.update(part["exceptions"])
            for name, example in part["examples"].items():
                examples.setdefault(name, example)
            slowest = max(slowest, part["slowest"])
            longest = max(longest, part["longest_message"])
            rss = max(rss, part["max_rss_mb"])
            elapsed = time.perf_counter() - started
            print(
                f"{total['inputs']:,} inputs in {elapsed:,.0f} s: {sum(exceptions.values())} exceptions",
                flush=True,
            )
    elapsed = time.perf_counter() - started
    for name, (data, trace) in examples.items():
        print(f"--- {name}: {data}\n{trace}", file=sys.stderr)
    print(
        f"inputs={total['inputs']:,} scenarios={total['scenarios']:,} scenario_errors={total['errors']:,} "
        f"errors_without_line={total['no_line']:,} slowest_input_s={slowest:.2f} longest_message={longest:.0f} "
        f"max_worker_rss_mb={rss:.0f} wall_s={elapsed:,.0f} inputs_per_s={total['inputs'] / elapsed:,.0f}"
    )
    print("exceptions other than ScenarioError: " + (", ".join(f"{k}={v}" for k, v in exceptions.most_common()) or "0"))
    return 1 if exceptions else 0


if __name__ == "__main__":
    sys.exit(main())
