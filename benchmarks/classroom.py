"""A live classroom session under load: N students answering Q questions, two app processes, one PostgreSQL.

Starts two ``trainer serve`` processes (gunicorn with one worker each, as
``trainer serve`` runs on POSIX: gevent, or ``--worker gthread``; or ``--server waitress``; on two free loopback ports) against the same PostgreSQL, in a schema of this run's
own that is dropped afterwards. An instructor signs up, creates an
instructor-paced session from Q library spots and runs it: Next, wait until
every student has answered (or a bound), Reveal, Next... Each simulated
student joins with the join code (half of them through each process), then
polls its stage every 2 s as the browser does (htmx, ``?v=`` version: 204
while nothing changes), and once a question shows, answers it after a random
think time within ``--window`` seconds. An answer carries an id the client
makes (a UUID); on a connection error, a timeout or a 5xx the client retries
with the same id, on the other process, with backoff. Afterwards the script
counts what the database holds:

- ``answers``: rows stored for the session;
- ``lost``: answers that should be there (students × questions) and are not
  stored under the id their client sent;
- ``duplicated``: rows beyond one per student and question.

``p99_ms`` is the 99th percentile of the answer submissions' response time
(each request that got a response; retries are counted apart).

With ``--faults`` the same session runs while one app process is stopped and
started again (a third of the way through, a second into a question, while
its answers are arriving) and PostgreSQL is restarted (two thirds of the way,
the same way); no answer may be lost and the students carry on.

Targets: lost = duplicated = 0, p99 < 200 ms. Traffic goes to 127.0.0.1 only;
every wait is bounded and the run stops by itself.

    python benchmarks/classroom.py [--students 300] [--questions 20] [--window 4] [--faults] [--mode full]
                                   [--leaderboard SECONDS]

After each question's last answer the instructor fetches the projector until it counts them all;
the output says how long after the last acknowledged answer that was.

``--mode quick`` (the default, as a new session is): each question is one tap
(one field); ``--mode full``: the full card, every field of the spot.

The last line: ``classroom students=300 answers=N lost=L duplicated=D p99_ms=X``.
PostgreSQL: ``TRAINER_BENCH_DATABASE_URL`` (default the local server, database
``test``); the restart command for ``--faults``: ``TRAINER_BENCH_PG_RESTART``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

HOST = "127.0.0.1"
PG_URL = os.environ.get("TRAINER_BENCH_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PG_RESTART = os.environ.get(
    "TRAINER_BENCH_PG_RESTART", "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main restart"
)
POLL_SECONDS = 2.0
REQUEST_TIMEOUT = 10.0
RETRY_FOR = 90.0  # seconds a student keeps retrying one request
QUESTION_BOUND = 120.0  # seconds the instructor waits for every answer to one question

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
INPUT = re.compile(r"<input\b([^>]*)>")
CHOICE = re.compile(r'<button type="submit" name="answer" value="([^"]*)"')
ATTR = re.compile(r'([a-zA-Z_:-]+)="([^"]*)"')
STAGE_URL = re.compile(r'hx-get="([^"]*/stage\?v=[^"]*)"')
CODE = re.compile(r'id="join-code">([A-Z0-9]{4}-[A-Z0-9]{4})<')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


# ---------------------------------------------------------------- servers


class App:
    """One ``trainer serve`` on its own port: gunicorn with one worker (gevent, or --worker gthread), or waitress."""

    def __init__(self, name: str, env: dict[str, str], log_dir: Path, server: str = "waitress") -> None:
        self.name = name
        self.server = server
        self.port = free_port()
        self.env = env
        self.log = log_dir / f"{name}.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log, "ab") as out:
            code = f"from trainer.web.serving import run; run({HOST!r}, {self.port}, None, server={self.server!r})"
            self.process = subprocess.Popen(
                [sys.executable, "-c", code],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=REPO,
            )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://{HOST}:{self.port}/healthz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"app {self.name} did not start:\n{self.log.read_text()[-3000:]}") from None
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# ---------------------------------------------------------------- a small HTTP client


class Http:
    """One keep-alive connection with a cookie jar; reconnects (to another app) after an error."""

    def __init__(self, ports: list[int], first: int) -> None:
        self.ports = ports
        self.turn = first
        self.cookies: dict[str, str] = {}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _connect(self) -> None:
        port = self.ports[self.turn % len(self.ports)]
        self.reader, self.writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), REQUEST_TIMEOUT)

    def _drop(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def once(self, method: str, path: str, data: dict | None = None, headers: dict | None = None):
        if self.writer is None:
            await self._connect()
        body = urllib.parse.urlencode(data or {}, doseq=True).encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if method == "POST":
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), REQUEST_TIMEOUT)
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"set-cookie":
                pair = value.decode().split(";", 1)[0].strip()
                key, _, val = pair.partition("=")
                self.cookies[key] = val
            elif name == b"connection" and value.strip().lower() == b"close":
                length = length  # read the body, then drop the connection below
        payload = await asyncio.wait_for(self.reader.readexactly(length), REQUEST_TIMEOUT) if length else b""
        if b"connection: close" in head.lower():
            self._drop()
        return status, payload.decode("utf-8", "replace")

    async def request(self, method: str, path: str, data=None, headers=None, stats=None):
        """Retry on connection errors, timeouts and 5xx, switching app process, with backoff."""
        delay = 0.2
        give_up = time.monotonic() + RETRY_FOR
        while True:
            started = time.perf_counter()
            try:
                status, text = await self.once(method, path, data, headers)
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, asyncio.LimitOverrunError, ValueError):
                self._drop()
                status, text = None, ""
            else:
                if stats is not None:
                    stats.append((time.perf_counter() - started) * 1000)
            if status is not None and status < 500:
                return status, text
            if time.monotonic() > give_up:
                raise RuntimeError(f"{method} {path}: no answer after {RETRY_FOR:.0f} s (last status {status})")
            self._drop()
            self.turn += 1
            Run.retries += 1
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    def close(self) -> None:
        self._drop()


class Feed:
    """A student's event stream (the SSE extension's EventSource): ``changed`` is set on each event;
    while the stream is down (``up`` false) the student polls, and the stream is opened again with
    backoff on the other process."""

    def __init__(self, http: Http, path: str) -> None:
        self.http, self.path = http, path
        self.changed = asyncio.Event()
        self.up = False
        self.turn = http.turn

    async def run(self, run: "Run") -> None:
        delay = 0.5
        while not run.done:
            port = self.http.ports[self.turn % len(self.http.ports)]
            writer = None
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), REQUEST_TIMEOUT)
                cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
                writer.write(f"GET {self.path} HTTP/1.1\r\nHost: {HOST}\r\nCookie: {cookie}\r\n"
                             "Accept: text/event-stream\r\n\r\n".encode())
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), REQUEST_TIMEOUT)
                if head[9:12] != b"200":
                    raise ConnectionError(f"the stream answered {head[9:12].decode()}")
                self.up = True
                Run.streams_opened += 1
                delay = 0.5
                while not run.done:
                    line = await asyncio.wait_for(reader.readline(), 60)
                    if not line:
                        raise ConnectionError("the stream ended")
                    if line.strip() == b"event: changed":
                        Run.stream_events += 1
                        self.changed.set()
            except (OSError, ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError,
                    asyncio.LimitOverrunError):
                if run.done:
                    break
                if self.up:
                    Run.stream_drops += 1
                self.up = False
                self.changed.set()  # poll at once: the page's stream dropped
                self.turn += 1
                await asyncio.sleep(delay)
                delay = min(delay * 2, 8.0)
            finally:
                self.up = False
                if writer is not None:
                    writer.close()


def token_of(html: str) -> str:
    match = TOKEN.search(html)
    if not match:
        raise RuntimeError("no CSRF token in the page")
    return match.group(1)


def answer_for(form_html: str, rng: random.Random) -> dict[str, list[str]]:
    """A readable answer to whatever form is shown: one of a quick question's choices, or an amount in each
    box and one choice per group of the card."""
    choices = CHOICE.findall(form_html)
    if choices:
        return {"answer": [rng.choice(choices)]}
    answer: dict[str, list[str]] = {}
    for attributes in INPUT.findall(form_html):
        attrs = dict(ATTR.findall(attributes))
        name, kind = attrs.get("name", ""), attrs.get("type", "text")
        if name in ("csrf_token", "position", "answer_id") or not name:
            continue
        if kind == "text":
            answer[name] = [str(rng.choice((0, 20, 40, 60, 100)))]
        elif kind in ("radio", "checkbox") and name not in answer:
            answer[name] = [attrs.get("value", "")]
    return answer


# ---------------------------------------------------------------- the session


class Run:
    retries = 0
    streams_opened = 0
    stream_events = 0
    stream_drops = 0

    def __init__(
        self, students: int, questions: int, window: float, ports: list[int], seed: int, sse: bool = False,
        mode: str = "quick", leaderboard: float = 0.0,
    ) -> None:
        self.leaderboard = leaderboard
        self.sse = sse
        self.mode = mode
        self.students = students
        self.questions = questions
        self.window = window
        self.ports = ports
        self.rng = random.Random(seed)
        self.answer_ms: list[float] = []
        self.last_ack: dict[int, float] = {}  # question -> when its last answer was acknowledged
        self.counted_s: list[float] = []  # per question: from its last acknowledged answer to the projector counting all
        self.poll_ms: list[float] = []
        self.sent: dict[tuple[int, int], str] = {}  # (student, question) -> the answer id its client made
        self.acked: dict[int, set[int]] = {}  # question -> students whose answer was acknowledged
        self.closed: list[str] = []
        self.code = ""
        self.session_id = ""
        self.done = False

    async def instructor(self, on_question) -> None:
        http = Http(self.ports, 0)
        page = (await http.request("GET", "/account/signup"))[1]
        email = f"bench-{secrets.token_hex(4)}@example.com"
        data = {
            "csrf_token": token_of(page),
            "name": "Bench",
            "email": email,
            "password": "bench-password",
            "instructor": "yes",
        }
        status, _ = await http.request("POST", "/account/signup", data)
        if status != 303:
            raise RuntimeError(f"sign-up answered {status}")
        page = (await http.request("GET", "/classroom/"))[1]
        ids = await asyncio.to_thread(pick_spots, self.questions, self.mode)
        data = {"csrf_token": token_of(page), "title": "Load test", "mode": "paced", "ids": "\n".join(ids),
                "style": "quick" if self.mode == "quick" else "card"}
        status, text = await http.request("POST", "/classroom/new", data)
        if status != 303:
            said = re.findall(r'class="(?:notice|field-error|error)[^"]*"[^>]*>([^<]+)', text)
            raise RuntimeError(f"creating the session answered {status}: {' / '.join(said) or text[:300]}")
        page = (await http.request("GET", "/classroom/"))[1]
        self.session_id = re.search(r'href="/classroom/([0-9a-f]{32})/"', page).group(1)
        control = (await http.request("GET", f"/classroom/{self.session_id}/"))[1]
        self.code = CODE.search(control).group(1)
        self.token = token_of(control)
        self.instructor_http = http

    async def projector_counts(self, q: int) -> None:
        """Fetch the projector's screen, as it refreshes, until it counts every answer of question ``q``."""
        if q not in self.last_ack or len(self.acked.get(q, ())) < self.students:
            return
        everyone = f"{self.students} / {self.students}"
        bound = time.monotonic() + 10
        while time.monotonic() < bound:
            _status, text = await self.instructor_http.request(
                "GET", f"/classroom/{self.session_id}/projector", headers={"HX-Request": "true"}
            )
            if everyone in text:
                self.counted_s.append(time.monotonic() - self.last_ack[q])
                return
            await asyncio.sleep(0.1)

    async def act(self, action: str) -> None:
        http = self.instructor_http
        status, _ = await http.request("POST", f"/classroom/{self.session_id}/{action}", {"csrf_token": self.token})
        if status != 303:
            raise RuntimeError(f"{action} answered {status}")

    async def student(self, n: int, joined: asyncio.Event, everyone: list) -> None:
        http = Http(self.ports, n % 2)
        rng = random.Random(n)
        page = (await http.request("GET", f"/join/{self.code}"))[1]
        token = token_of(page)  # the session's token: the same for every form of this student
        data = {"csrf_token": token, "code": self.code, "name": f"Student {n:03d}"}
        status, _ = await http.request("POST", "/join", data)
        if status != 303:
            raise RuntimeError(f"student {n}: joining answered {status}")
        page = (await http.request("GET", f"/c/{self.code}"))[1]
        stage = STAGE_URL.search(page).group(1).replace("&amp;", "&")
        everyone.append(n)
        if len(everyone) == self.students:
            joined.set()
        answered = -1
        feed = None
        if self.sse:
            feed = Feed(http, f"/c/{self.code}/events")
            watcher = asyncio.create_task(feed.run(self))
        while not self.done:
            if feed is None:
                await asyncio.sleep(POLL_SECONDS * (0.75 + 0.5 * rng.random()))
            else:
                try:
                    # the stream says when; without it, poll as the page does
                    await asyncio.wait_for(feed.changed.wait(), 1.0 if feed.up else POLL_SECONDS)
                except asyncio.TimeoutError:
                    if feed.up or self.done:
                        continue
                feed.changed.clear()
                if self.done:
                    break
            status, text = await http.request("GET", stage, headers={"HX-Request": "true"}, stats=self.poll_ms)
            if status == 204:
                continue
            found = STAGE_URL.search(text)
            if found:
                stage = found.group(1).replace("&amp;", "&")
            position = re.search(r'name="position" value="(\d+)"', text)
            if not position or int(position.group(1)) <= answered:
                continue
            q = int(position.group(1))
            await asyncio.sleep(rng.random() * self.window)
            answer_id = uuid.uuid4().hex  # made by the client: every retry sends the same one
            self.sent[(n, q)] = answer_id
            data = {"csrf_token": token, "position": str(q), "answer_id": answer_id, **answer_for(text, rng)}
            status, reply = await http.request(
                "POST", f"/c/{self.code}/answer", data, headers={"HX-Request": "true"}, stats=self.answer_ms
            )
            if status == 200 and 'class="field-error"' in reply:
                # An amount above what the table holds: the form came back, nothing stored. Zeros always read.
                data.update({k: ["0"] for k, v in data.items() if isinstance(v, list) and v[0].isdigit()})
                status, reply = await http.request(
                    "POST", f"/c/{self.code}/answer", data, headers={"HX-Request": "true"}, stats=self.answer_ms
                )
            if status == 200 and "Answer received" in reply:
                self.acked.setdefault(q, set()).add(n)
                self.last_ack[q] = time.monotonic()
                answered = q
            else:
                self.closed.append(f"student {n} q{q}: {status} {re.sub(r'<[^>]+>', ' ', reply)[:160]!r}")
                answered = q
        if feed is not None:
            watcher.cancel()
        http.close()

    async def run(self, faults: dict[int, object] | None = None) -> None:
        await self.instructor(None)
        joined = asyncio.Event()
        everyone: list[int] = []
        tasks = [asyncio.create_task(self.student(n, joined, everyone)) for n in range(self.students)]
        await asyncio.wait_for(joined.wait(), 300)
        began = time.monotonic()
        for q in range(self.questions):
            await self.act("next")
            fault = None
            if faults and q in faults:
                # While the question's answers are coming in.
                await asyncio.sleep(min(1.0, self.window / 3))
                fault = asyncio.create_task(asyncio.to_thread(faults[q]))
            bound = time.monotonic() + QUESTION_BOUND
            while len(self.acked.get(q, ())) < self.students and time.monotonic() < bound:
                if any(t.done() and t.exception() for t in tasks):
                    break
                await asyncio.sleep(0.2)
            if fault is not None:
                await fault
            await self.projector_counts(q)
            await self.act("reveal")
            if q + 1 < self.questions:
                await asyncio.sleep(self.leaderboard)  # the class reads the answer and the leaderboard
            print(
                f"  question {q + 1:2d}: {len(self.acked.get(q, ())):3d}/{self.students} answers acknowledged "
                f"({time.monotonic() - began:5.1f} s)",
                flush=True,
            )
        await self.act("end")
        self.done = True
        results = await asyncio.gather(*tasks, return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        for r in failed[:5]:
            print(f"  a student stopped: {r}")
        self.instructor_http.close()


def pick_spots(count: int, mode: str = "quick") -> list[str]:
    """Library spots with the card and the options: the classroom's everyday questions (quick: those
    that have a quick question)."""
    from trainer import quick
    from trainer.library import in_exam_pool
    from trainer.scenarios import load_paths

    folders = [str(REPO / "scenarios")]
    # the drill library's spots: an exam pool's are not offered to a live session
    scenarios = [s for s in load_paths(folders).scenarios if not in_exam_pool(s.file, folders)]
    fits = (lambda s: quick.choose(s, s.topics, seed=s.id) is not None) if mode == "quick" else (lambda s: "card" in s.ask)
    chosen = sorted((s for s in scenarios if fits(s)), key=lambda s: (s.level or 0, s.id))
    if len(chosen) < count:
        raise SystemExit(f"the library has {len(chosen)} card spots, fewer than {count}")
    step = len(chosen) / count
    return [chosen[int(i * step)].id for i in range(count)]


def count_in_database(url: str, schema: str | None, run: Run) -> tuple[int, int, int]:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.connect() as connection:
        if schema:
            connection.exec_driver_sql(f'SET search_path TO "{schema}"')
        rows = connection.execute(
            text(
                "SELECT a.id, s.name, a.position FROM class_answers a JOIN class_students s ON s.id = a.student_id "
                "WHERE a.session_id = :sid"
            ),
            {"sid": run.session_id},
        ).all()
    engine.dispose()
    stored = {(int(name.split()[-1]), position): answer_id for answer_id, name, position in rows}
    answers = len(rows)
    duplicated = answers - len({(name, position) for _, name, position in rows})
    expected = run.students * run.questions
    kept = sum(1 for key, answer_id in run.sent.items() if stored.get(key) == answer_id)
    lost = expected - kept
    return answers, lost, duplicated


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (all cores, /proc/stat; 0 where there is none)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--mode", choices=("quick", "full"), default="quick",
                        help="quick: one tap per question (a new session's default); full: the full card")
    parser.add_argument("--window", type=float, default=4.0, help="seconds over which a question's answers arrive")
    parser.add_argument("--leaderboard", type=float, default=0.0,
                        help="seconds the instructor leaves the answer and the leaderboard up before Next (default 0: "
                        "Next at once, so the class's fetches of the answer and of the next question overlap)")
    parser.add_argument("--threads", type=int, default=8, help="threads per app process")
    parser.add_argument("--faults", action="store_true", help="restart an app process and PostgreSQL mid-session")
    parser.add_argument("--sse", action="store_true",
                        help="students wait on their event stream instead of polling; gunicorn gevent app processes")
    parser.add_argument("--server", choices=("waitress", "gunicorn"),
                        help="each app process: gunicorn with one worker (the default, as trainer serve runs on "
                        "POSIX; its class: --worker) or waitress")
    parser.add_argument("--worker", choices=("gthread", "gevent"),
                        help="gunicorn's worker class in each app process (default: trainer serve's, gevent)")
    parser.add_argument("--sqlite", action="store_true",
                        help="both app processes on one SQLite file (the embedded default) instead of PostgreSQL")
    parser.add_argument("--pg-restart", action="store_true",
                        help="--faults restarts the PostgreSQL server itself (TRAINER_BENCH_PG_RESTART) "
                        "instead of cutting every connection at a relay in front of it")
    args = parser.parse_args()
    server = args.server or "gunicorn"
    gate = None
    pg_url = PG_URL
    if args.faults and not args.pg_restart and not args.sqlite:
        from sqlalchemy.engine import make_url

        from tests.gate import Gate

        url = make_url(PG_URL)
        gate = Gate((url.host or "127.0.0.1", url.port or 5432))
        pg_url = url.set(host="127.0.0.1", port=gate.port).render_as_string(hide_password=False)

    worker = "gevent" if args.sse else args.worker  # gevent: streams that hold no thread; None: serve's default
    schema = None if args.sqlite else f"bench_classroom_{os.getpid()}_{secrets.token_hex(3)}"
    log_dir = Path(tempfile.mkdtemp(prefix="classroom-bench-"))
    database = f"sqlite:///{log_dir / 'live.sqlite3'}" if args.sqlite else pg_url
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "TRAINER_DATABASE_SCHEMA")},
        "DATABASE_URL": database,
        **({"TRAINER_DATABASE_SCHEMA": schema} if schema else {}),
        "TRAINER_SECRET_KEY": secrets.token_hex(32),  # the same key: both processes accept each other's cookies
        "TRAINER_INSTANCE": str(log_dir / "instance"),
        "TRAINER_PROCESSES": "1",
        "TRAINER_THREADS": str(args.threads),
        **({"TRAINER_WORKER": worker} if worker else {}),
    }
    apps = [App("a", env, log_dir, server), App("b", env, log_dir, server)]
    run = Run(args.students, args.questions, args.window, [a.port for a in apps], seed=1, sse=args.sse, mode=args.mode,
              leaderboard=args.leaderboard)
    faults: dict[int, object] = {}
    if args.faults:

        def restart_app() -> None:
            print("  fault: stopping app process a", flush=True)
            apps[0].stop()
            time.sleep(2)
            apps[0].start()
            print("  fault: app process a is back", flush=True)

        def restart_postgres() -> None:
            began = time.monotonic()
            if gate is None:
                print("  fault: restarting PostgreSQL", flush=True)
                subprocess.run(PG_RESTART, shell=True, check=True, capture_output=True, timeout=120)
            else:  # as a restart looks to the apps: every connection cut, none taken for a while
                print("  fault: PostgreSQL cut off at the relay (every connection closed, new ones refused)", flush=True)
                gate.close()
                time.sleep(2.5)
                gate.reopen()
            print(f"  fault: PostgreSQL is back after {time.monotonic() - began:.1f} s", flush=True)

        faults = {max(1, args.questions // 3): restart_app}
        if not args.sqlite:
            faults[max(2, 2 * args.questions // 3)] = restart_postgres
    try:
        apps[0].start()
        apps[1].start()
        print(
            f"classroom: {args.students} students, {args.questions} questions, answers within {args.window:g} s, "
            f"2 app processes ({server}{' gevent' if server == 'gunicorn' and args.sse else ''}"
            f"{'' if server == 'gunicorn' and args.sse else f' × {args.threads} threads'}), "
            f"students {'on event streams' if args.sse else 'polling'}, " + (f"PostgreSQL schema {schema}" if schema else "one SQLite file")
            + (", with faults" if args.faults else ""),
            flush=True,
        )
        began = time.monotonic()
        busy, client = machine_busy(), time.process_time()
        asyncio.run(run.run(faults))
        elapsed = time.monotonic() - began
        busy, client = machine_busy() - busy, time.process_time() - client
        answers, lost, duplicated = count_in_database(PG_URL if schema else database, schema, run)
    finally:
        for app in apps:
            app.stop()
        served = resource.getrusage(resource.RUSAGE_CHILDREN)
        if schema:
            _drop_schema(schema)
        if gate is not None:
            gate.stop()
    for line in run.closed[:5]:
        print(f"  not recorded: {line}")
    print(
        f"answers p50 {statistics.median(run.answer_ms or [0]):.1f} ms, p99 {percentile(run.answer_ms, 99):.1f} ms; "
        f"polls p50 {statistics.median(run.poll_ms or [0]):.1f} ms, p99 {percentile(run.poll_ms, 99):.1f} ms; "
        f"{len(run.answer_ms)} answer and {len(run.poll_ms)} poll requests in {elapsed:.0f} s; retries {Run.retries}"
    )
    if run.counted_s:
        print(f"the projector counted every answer at most {max(run.counted_s):.2f} s after the last one "
              f"(median {statistics.median(run.counted_s):.2f} s over {len(run.counted_s)} questions)")
    if args.sse:
        print(f"streams: {Run.streams_opened} opened, {Run.stream_events} events, {Run.stream_drops} dropped")
    apps_cpu = served.ru_utime + served.ru_stime
    requests = len(run.answer_ms) + len(run.poll_ms)
    print(
        f"CPU over the session: app processes {apps_cpu:.0f} s ({apps_cpu / max(requests, 1) * 1000:.2f} ms per "
        f"request), this client {client:.0f} s, the rest of the machine (PostgreSQL…) {max(busy - apps_cpu - client, 0):.0f} s"
        f" — of {elapsed * (os.cpu_count() or 1):.0f} s on {os.cpu_count()} cores"
    )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"classroom students={args.students} answers={answers} lost={lost} duplicated={duplicated} "
        f"p99_ms={percentile(run.answer_ms, 99):.0f}"
    )


def _drop_schema(schema: str) -> None:
    from sqlalchemy import create_engine

    engine = create_engine(PG_URL)
    with engine.begin() as connection:
        connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    engine.dispose()


if __name__ == "__main__":
    main()
