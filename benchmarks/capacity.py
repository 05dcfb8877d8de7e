"""How many learners drilling at once ``trainer serve`` answers within 100 ms, as they feel it.

Starts ``trainer serve`` on its defaults (on a free port of 127.0.0.1, with a
new instance folder: SQLite; with ``DATABASE_URL`` set, that database, in a
schema of its own that is dropped afterwards) and drives it with simulated
learners from this process, which the server does not share (its CPU is
counted apart and printed). Each learner, on its own keep-alive connection
with its own cookies, as a browser:

1. opens a spot of the drill (``GET /drill/<id>``, the full page);
2. thinks 5-15 s, then answers every field of the form shown (``POST``, as
   htmx sends it; right three times in four). A spot asked in steps answers
   with the next step's form: think again, answer it. Each graded answer is
   stored before it is acknowledged: one answered "Not saved yet" counts as
   unsaved, and a step with one misses the target;
3. goes on to another spot.

The number of learners rises step by step (``--steps``); each step runs
``--step-seconds``, and its first ``--settle`` seconds, while the new learners
arrive, are not counted. Per step it prints the page and grade p50/p99, the
server's CPU per request, the load generator's share of a core and the
machine's load average (other work on it weighs on the figures); it stops
after a step whose p99 passes a second, or with failed requests. The last
line is ``capacity: N learners at p99 < 100 ms``, the most learners of a step
that met the target with nothing failed or unsaved. Target: >= 1,000 learners on SQLite.
Traffic goes to 127.0.0.1 only; the run is bounded (steps x step seconds).

    python benchmarks/capacity.py [--steps 100,250,500,1000,1500,2000] [--step-seconds 60] [--settle 20]
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import random
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from trainer.quiz.build import build_quiz  # noqa: E402
from trainer.quiz.model import FieldKind  # noqa: E402
from trainer.scenarios import load_paths  # noqa: E402

HOST = "127.0.0.1"
THINK = (5.0, 15.0)  # seconds a learner reads and thinks before answering
TARGET = 0.100  # p99 seconds, pages and grades alike
GIVE_UP = 1.0  # p99 seconds past which no step with more learners is run
STEPS_PER_SPOT = 4  # a spot asked in steps is left after this many answers, whatever they were
NOT_SAVED = b"save-state--pending"  # "Not saved yet": the answer was graded but not acknowledged as stored
SERVED = re.compile(r"open http://\S+ in a browser \(([^)]*)\)")  # what trainer serve says it runs
FORM = re.compile(rb'<form id="answer-form".*?</form>', re.S)
FIELD = re.compile(rb"<input\b([^>]*)>")
ATTRIBUTE = re.compile(rb'([\w-]+)="([^"]*)"')
STAGE = re.compile(rb'<input type="hidden" name="stage" value="(\d+)">')  # the step of a spot asked in steps


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def right_answers(folder: Path) -> dict[str, dict[str, str | list[str]]]:
    """Each spot of the library with its right answer, as form values by field name."""
    answers = {}
    for scenario in load_paths([str(folder)]).scenarios:
        answer: dict[str, str | list[str]] = {}
        for field in build_quiz(scenario).fields():
            if field.kind is FieldKind.AMOUNT:
                answer[field.name] = "" if field.expected is None else str(field.expected)
            elif field.kind is FieldKind.YESNO:
                answer[field.name] = "yes" if field.expected else "no"
            elif field.kind is FieldKind.CHOICES:
                answer[field.name] = sorted(field.expected)
            else:
                answer[field.name] = str(field.expected)
        answers[scenario.id] = answer
    return answers


def filled(page: bytes, answer: dict[str, str | list[str]], rng: random.Random) -> bytes | None:
    """The answer form of ``page`` filled in as a learner would (None: the page asks nothing more)."""
    form = FORM.search(page)
    if form is None:
        return None
    sent: list[tuple[str, str]] = []
    asked: list[str] = []
    for attributes in FIELD.findall(form.group(0)):
        field = {k.decode(): html.unescape(v.decode()) for k, v in ATTRIBUTE.findall(attributes)}
        name, kind = field.get("name"), field.get("type", "text")
        if name is None or "disabled" in attributes.decode():
            continue
        if kind == "hidden":
            sent.append((name, field.get("value", "")))
        elif kind in ("checkbox", "radio"):
            right = answer.get(name, [])
            if field.get("value") in (right if isinstance(right, list) else [right]):
                sent.append((name, field["value"]))
        elif name not in asked:
            asked.append(name)
    wrong = rng.choice(asked) if asked and rng.random() < 0.25 else None  # one answer in four has a slip
    for name in asked:
        value = str(answer.get(name, ""))
        sent.append((name, str(int(value) + 100) if name == wrong and value.isdigit() else value))
    return urllib.parse.urlencode(sent).encode()


_LENGTH = re.compile(rb"\r\ncontent-length:\s*(\d+)", re.I)
_COOKIE = re.compile(rb"\r\nset-cookie:\s*([^=;\r]+)=([^;\r]*)", re.I)


class Closed(ConnectionError):
    """The server closed an idle keep-alive connection before any byte of the answer."""


class Browser(asyncio.Protocol):
    """One learner's keep-alive HTTP/1.1 connection and cookies, lean so that the server is measured.

    A connection the server closed while idle is opened again and the request sent again, as a
    browser does; the time that takes counts in the request's latency."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.transport: asyncio.Transport | None = None
        self.cookies: dict[bytes, bytes] = {}
        self._buffer = bytearray()
        self._waiter: asyncio.Future | None = None

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0 or self._waiter is None or self._waiter.done():
            return
        length = _LENGTH.search(self._buffer, 0, end)
        if length is None:
            self._waiter.set_exception(RuntimeError("an answer without Content-Length"))
            return
        total = end + 4 + int(length.group(1))
        if len(self._buffer) >= total:
            response = bytes(self._buffer[:total])
            del self._buffer[:total]
            self._waiter.set_result(response)

    def connection_lost(self, exc) -> None:
        self.transport = None
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(Closed() if not self._buffer else
                                       ConnectionError("the server closed the connection mid-answer"))

    async def fetch(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k.decode()}={v.decode()}" for k, v in self.cookies.items()))
        if method == "POST":
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}",
                      "HX-Request: true", f"HX-Current-URL: http://{HOST}:{self.port}{path}"]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        for _ in range(3):
            if self.transport is None or self.transport.is_closing():
                self._buffer.clear()
                await asyncio.get_running_loop().create_connection(lambda: self, HOST, self.port)
            self._waiter = asyncio.get_running_loop().create_future()
            self.transport.write(request)
            try:
                response = await self._waiter
            except Closed:
                continue
            head = response[: response.find(b"\r\n\r\n")]
            self.cookies |= dict(_COOKIE.findall(head))
            return int(response[9:12]), response[len(head) + 4:]
        raise ConnectionError("the server closed three connections in a row before answering")

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


class Tally:
    """What the learners saw since the last ``reset``."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.page: list[float] = []
        self.grade: list[float] = []
        self.failed: list[str] = []
        self.unsaved = 0


async def learner(port: int, answers: dict, rng: random.Random, tally: Tally, stop: asyncio.Event) -> None:
    browser = Browser(port)
    spots = list(answers)
    try:
        await asyncio.sleep(rng.uniform(0, THINK[1]))  # the learners of a step arrive spread out
        while not stop.is_set():
            spot = rng.choice(spots)
            path = f"/drill/{urllib.parse.quote(spot)}"
            began = time.perf_counter()
            status, page = await browser.fetch("GET", path)
            tally.page.append(time.perf_counter() - began)
            if status != 200:
                tally.failed.append(f"GET {path}: {status}")
                continue
            step = b""
            for _ in range(STEPS_PER_SPOT):
                next_step = STAGE.search(page)
                if next_step is None and step or next_step is not None and next_step.group(1) == step:
                    break  # not a new step: the spot is done (or the learner goes on after a slip)
                step = next_step.group(1) if next_step else b"-"
                body = filled(page, answers[spot], rng)
                if body is None:
                    break
                await asyncio.sleep(rng.uniform(*THINK))
                if stop.is_set():
                    return
                began = time.perf_counter()
                status, page = await browser.fetch("POST", path, body)
                tally.grade.append(time.perf_counter() - began)
                if status != 200:
                    tally.failed.append(f"POST {path}: {status}")
                    break
                if NOT_SAVED in page:
                    tally.unsaved += 1
    except (OSError, RuntimeError) as exc:
        tally.failed.append(f"{type(exc).__name__}: {exc}")
    finally:
        browser.close()


def cpu_of_tree(root: int) -> float:
    """CPU seconds (user + system) used so far by a process and its children (Linux; 0 elsewhere)."""
    if not os.path.exists(f"/proc/{root}/stat"):
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            continue  # gone meanwhile
        total += (int(fields[11]) + int(fields[12])) / tick
        todo += [int(c) for c in children]
    return total


def p(cuts: list[float], at: int) -> str:
    return f"{cuts[at - 1] * 1000:6.1f}" if cuts else "     -"


async def ramp(port: int, server_pid: int, answers: dict, steps: list[int], seconds: float, settle: float) -> int:
    """Run the steps; the most learners of a step that met the target."""
    rng = random.Random(7)
    tally, stop = Tally(), asyncio.Event()
    tasks: list[asyncio.Task] = []
    capacity = 0
    print(f"{'learners':>8}  {'page p50':>8} {'p99':>6}  {'grade p50':>9} {'p99':>6}  {'req/s':>6}  "
          f"{'server CPU':>10}  {'load generator':>14}  failed  unsaved")
    for learners in steps:
        while len(tasks) < learners:
            tasks.append(asyncio.create_task(learner(port, answers, random.Random(rng.random()), tally, stop)))
        await asyncio.sleep(settle)
        tally.reset()
        began, server, own = time.perf_counter(), cpu_of_tree(server_pid), time.process_time()
        await asyncio.sleep(seconds - settle)
        elapsed = time.perf_counter() - began
        served, generated = cpu_of_tree(server_pid) - server, time.process_time() - own
        requests = len(tally.page) + len(tally.grade)
        page = statistics.quantiles(tally.page, n=100, method="inclusive") if len(tally.page) > 1 else []
        grade = statistics.quantiles(tally.grade, n=100, method="inclusive") if len(tally.grade) > 1 else []
        print(f"{learners:8d}  {p(page, 50)} {p(page, 99)}  {p(grade, 50):>9} {p(grade, 99)}  "
              f"{requests / elapsed:6.1f}  {served / max(requests, 1) * 1000:7.2f} ms  "
              f"{generated / elapsed:13.0%}   {len(tally.failed):6d}  {tally.unsaved:7d}  {os.getloadavg()[0]:12.1f}",
              flush=True)
        for failure in tally.failed[:3]:
            print(f"    {failure}")
        worst = max(page[98], grade[98]) if page and grade else float("inf")
        if worst < TARGET and not tally.failed and not tally.unsaved:
            capacity = learners
        if worst > GIVE_UP or tally.failed:
            break  # overloaded: more learners would only wait longer
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return capacity


def wait_for(url: str, server: subprocess.Popen, log) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise SystemExit("the server did not start:\n" + log.read().decode(errors="replace")) from None
            time.sleep(0.2)


def drilled(port: int, answers: dict) -> dict:
    """The spots the drill serves with a form (some of the folder's are other libraries' spots)."""
    kept = {}
    for spot, answer in answers.items():
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/drill/{urllib.parse.quote(spot)}", timeout=10) as page:
                if FORM.search(page.read()):
                    kept[spot] = answer
        except urllib.error.HTTPError:
            pass
    if not kept:
        raise SystemExit("the drill serves none of the spots")
    return kept


def drop_schema(url: str, schema: str) -> None:
    import sqlalchemy

    engine = sqlalchemy.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as connection:
        connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="100,250,500,1000,1500,2000",
                        help="learners at each step, rising (default: %(default)s)")
    parser.add_argument("--step-seconds", type=float, default=60.0)
    parser.add_argument("--settle", type=float, default=20.0, help="seconds of each step not counted")
    parser.add_argument("--scenarios", default=str(REPO / "scenarios"))
    args = parser.parse_args()
    try:
        steps = [int(n) for n in args.steps.split(",")]
    except ValueError:
        parser.error(f"--steps {args.steps!r} is not a list of numbers of learners, such as 250,500,1000")
    if args.settle >= args.step_seconds:
        parser.error(f"--settle {args.settle:g} leaves nothing of a {args.step_seconds:g} s step to measure")

    answers = right_answers(Path(args.scenarios))
    if not answers:
        raise SystemExit(f"no spot in {args.scenarios}")
    port = free_port()
    database = os.environ.get("DATABASE_URL", "")
    schema = f"capacity_{secrets.token_hex(4)}" if database else None
    with tempfile.TemporaryDirectory() as instance:
        env = {**os.environ, "TRAINER_INSTANCE": instance}
        if schema:
            env["TRAINER_DATABASE_SCHEMA"] = schema
        command = [sys.executable, "-m", "trainer.cli", "serve", "--host", HOST, "--port", str(port),
                   "--scenarios", args.scenarios]
        log = open(Path(instance) / "server.log", "w+b")  # noqa: SIM115 - closed below
        server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for(f"http://{HOST}:{port}/healthz", server, log)
            answers = drilled(port, answers)
            log.seek(0)
            served = SERVED.search(log.read().decode(errors="replace"))
            print(f"trainer serve ({served.group(1) if served else '?'}) on "
                  f"{'PostgreSQL' if database else 'SQLite'}, {os.cpu_count()} CPUs; {len(answers)} spots; "
                  f"learners think {THINK[0]:g}-{THINK[1]:g} s; steps of {args.step_seconds:g} s, "
                  f"the first {args.settle:g} s not counted")
            capacity = asyncio.run(ramp(port, server.pid, answers, steps, args.step_seconds, args.settle))
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.close()
            if schema:
                drop_schema(database, schema)
    print(f"capacity: {capacity} learners at p99 < {TARGET * 1000:.0f} ms")


if __name__ == "__main__":
    main()
