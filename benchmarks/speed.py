"""How long a speed drill question takes to make, and an answer to be graded with the next one shown.

Usage: python benchmarks/speed.py [--runs 4] [--questions 25]
Prints the making of a question (trainer.speed.question, uncached) per kind,
then the whole round trip of the web app's test client (POST an answer, get
the next question's page) on SQLite in a temporary folder. The last line is
`speed answer ms p50/p90: A / B`. Target: p90 under 250 ms, so a learner
answering fast never waits on the server.
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from collections import defaultdict

from trainer import speed


def _make(runs: int, questions: int) -> None:
    kinds: dict[str, list[float]] = defaultdict(list)
    for seed in range(runs):
        for number in range(questions):
            began = time.perf_counter()
            q = speed.question.__wrapped__(10_000 + seed, number)
            kinds[q.kind].append((time.perf_counter() - began) * 1000)
    for kind, times in sorted(kinds.items()):
        times.sort()
        print(f"make {kind:10s} n={len(times):4d}  p50 {statistics.median(times):6.1f} ms  max {times[-1]:6.1f} ms")


def _round_trips(runs: int, questions: int) -> list[float]:
    from trainer.store.models import SpeedRun
    from trainer.web import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "INSTANCE_DIR": tempfile.mkdtemp()})
    client = app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/speed").text).group(1)
    times = []
    for _ in range(runs):
        url = client.post("/speed/start", data={"csrf_token": token}).headers["Location"]
        client.get(url)
        with app.extensions["trainer.store"].session() as s:
            seed = s.get(SpeedRun, url.rsplit("/", 1)[-1]).seed
        for number in range(questions):
            answer = speed.question(seed, number).answer
            began = time.perf_counter()
            client.post(url, data={"csrf_token": token, "n": str(number), "answer": answer})
            times.append((time.perf_counter() - began) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--questions", type=int, default=25)
    args = parser.parse_args()
    _make(args.runs, args.questions)
    times = sorted(_round_trips(args.runs, args.questions))
    print(f"answered {len(times)} questions, max {times[-1]:.1f} ms")
    print(f"speed answer ms p50/p90: {statistics.median(times):.1f} / {times[int(0.9 * len(times))]:.1f}")


if __name__ == "__main__":
    main()
