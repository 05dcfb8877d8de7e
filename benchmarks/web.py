"""Throughput and latency of the web app, served the way ``trainer serve`` serves it.

Starts ``trainer serve`` (gunicorn on POSIX, waitress elsewhere) on a free loopback port in its own
process, then drives it with N concurrent clients, each on its own
keep-alive connection (opened again, as a browser does, when the server
closes it while idle), for a fixed number of requests per phase:

- baseline: ``GET /healthz``, a trivial route of the same app;
- drill page: ``GET /drill/<id>``, the full page with the table drawn;
- grade: ``POST /drill/<id>`` as htmx sends it, returning the feedback fragment;
  the answers cycle through ``--variants`` distinct answers (default 40: right,
  a little off, "1,400", full-width digits, an unreadable entry, as a class of
  learners sends them). The app keeps the markup of short graded answers, so
  with ``--variants`` above ``--requests`` every answer is new and the run
  measures grading and rendering from scratch.

Each client first opens the drill page once (untimed) for its session
cookie and CSRF token, and sends one graded answer, which makes its learner:
the browser keeps that cookie, so the timed answers add to one history. The phases run in turns (five
rounds each), so other work on the machine weighs on all three alike. Prints requests/second and
p50/p99 latency per phase; the last line is
``grade/baseline throughput ratio: X.XX``. Targets: ratio >= 0.5, drill
page p99 < 50 ms. Traffic goes to 127.0.0.1 only and the run is bounded.

    python benchmarks/web.py [--clients 50] [--requests 5000] [--variants 40] [--scenarios DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from trainer.scenarios import load_paths  # noqa: E402

HOST = "127.0.0.1"
ROUNDS = 5
TOKEN = re.compile(rb'name="csrf_token" value="([^"]+)"')
SERVED = re.compile(r"open http://\S+ in a browser \(([^)]*)\)")  # what trainer serve says it runs


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


FULL_WIDTH = str.maketrans("0123456789,", "０１２３４５６７８９，")


def variants(answer: dict, count: int) -> list[dict]:
    """Answers as a class of learners types them: right, off by a little, with commas, in full width,
    unreadable; past those, random amounts, so that every answer is new (nothing is kept)."""
    amounts = [k for k, v in answer.items() if isinstance(v, str) and v.isdigit()]
    out = [answer]
    i = 0
    while len(out) < min(count, 40) and amounts:
        key = amounts[i % len(amounts)]
        value = int(answer[key])
        typed = [f"{value:,}", f"{value:,}".translate(FULL_WIDTH), str(value + 100), str(max(value - 100, 0)), "abc"]
        out.append({**answer, key: typed[(i // len(amounts)) % len(typed)]})
        i += 1
    rng = random.Random(1)
    seen = {tuple(sorted((k, str(v)) for k, v in a.items())) for a in out}
    while len(out) < count and amounts:
        candidate = {**answer, **{k: str(rng.randrange(0, 2 * int(answer[k]) + 2)) for k in amounts}}
        signature = tuple(sorted((k, str(v)) for k, v in candidate.items()))
        if signature not in seen:
            seen.add(signature)
            out.append(candidate)
    return out


def pick_spot(folder: str) -> tuple[str, dict[str, str]]:
    """The spot with the most questions, and a right answer to it built from the engine's solution."""
    result = load_paths([folder])
    if not result.scenarios:
        raise SystemExit(f"no scenarios in {folder}")
    scenario = max(result.scenarios, key=lambda s: (len(s.ask), "card" in s.ask, s.id))
    solved = scenario.solve()
    answer: dict[str, str | list[str]] = {}
    if solved.get("card"):
        card = solved["card"]
        answer.update({k: str(card[k]) for k in ("current_total", "last_full_increment", "committed", "to_add")})
        answer["acted"] = "yes" if card["acted"] else "no"
    if solved.get("options"):
        opts = solved["options"]
        answer["legal"] = [a for a in ("fold", "check") if opts[a]] + [
            a for a in ("call", "bet", "raise") if opts[a] is not None
        ]
        answer["call"] = "" if opts["call"] is None else f"{opts['call']:,}"
        wager = opts["bet"] and (opts["bet"]["min"], opts["bet"]["max"]) or opts["raise"] and (
            opts["raise"]["min_to"],
            opts["raise"]["max_to"],
        )
        answer["min_to"], answer["max_to"] = (str(wager[0]), str(wager[1])) if wager else ("", "")
    answer["pot"] = str(solved["pot"])
    return scenario.id, answer


_LENGTH = re.compile(rb"\r\ncontent-length:\s*(\d+)", re.I)
_COOKIE = re.compile(rb"\r\nset-cookie:\s*([^;\r]+)", re.I)


class Client(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection, lean enough that the server, not the client, is measured.

    A server may close a keep-alive connection that sat idle (gunicorn after its ``keepalive``
    seconds): as a browser does, the client then opens a new one and sends the request again,
    if no byte of its answer had come. The time that takes counts in the request's latency.
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.transport: asyncio.Transport | None = None
        self.cookie = b""
        self.reconnects = 0
        self._buffer = bytearray()
        self._waiter: asyncio.Future | None = None

    async def connect(self) -> None:
        loop = asyncio.get_running_loop()
        self._buffer.clear()
        await loop.create_connection(lambda: self, HOST, self.port)

    def connection_made(self, transport) -> None:
        self.transport = transport

    def build(self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}"]
        if self.cookie:
            lines.append("Cookie: " + self.cookie.decode())
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if method == "POST":
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + body

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        length = _LENGTH.search(self._buffer, 0, end)
        if length is None:
            self._waiter.set_exception(RuntimeError("a response without Content-Length"))
            return
        total = end + 4 + int(length.group(1))
        if len(self._buffer) >= total:
            response = bytes(self._buffer[:total])
            del self._buffer[:total]
            self._waiter.set_result(response)

    def connection_lost(self, exc) -> None:
        self.transport = None
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(_Closed() if not self._buffer else
                                       (exc or ConnectionError("the server closed the connection mid-answer")))

    async def send(self, request: bytes) -> tuple[int, bytes]:
        for attempt in range(3):
            if self.transport is None or self.transport.is_closing():
                self.reconnects += attempt == 0
                await self.connect()
            self._waiter = asyncio.get_running_loop().create_future()
            self.transport.write(request)
            try:
                response = await self._waiter
            except _Closed:
                continue  # closed while idle, before any byte of the answer: again on a new connection
            return int(response[9:12]), response
        raise ConnectionError("the server closed three connections in a row before answering")

    async def request(self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None):
        """Untimed set-up requests: also keep the session cookie."""
        status, response = await self.send(self.build(method, path, body, headers))
        head = response[: response.find(b"\r\n\r\n")]
        cookie = _COOKIE.search(head)
        if cookie:
            self.cookie = cookie.group(1)
        return status, response[len(head) + 4 :]

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


class _Closed(ConnectionError):
    """The server closed an idle keep-alive connection."""


def server_cpu() -> float:
    """CPU seconds (user + system) used so far by the server and its worker processes (Linux only;
    0 elsewhere). Per request it is what a phase costs the server whatever else the machine runs,
    where requests per second also measure the other work."""
    root = getattr(server_cpu, "pid", None)
    if root is None or not os.path.exists(f"/proc/{root}/stat"):
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


async def phase(clients: list[Client], total: int, make) -> tuple[float, list[float]]:
    """``total`` requests spread over the clients, each waiting for its answer before the next."""
    latencies: list[float] = []
    remaining = total

    async def worker(client: Client) -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            request = make(client)
            start = time.perf_counter()
            status, response = await client.send(request)
            latencies.append(time.perf_counter() - start)
            if status != 200:
                raise RuntimeError(f"{request.split(b' ', 2)[:2]} answered {status}: {response[:300]!r}")

    began = time.perf_counter()
    cpu = time.process_time()
    served = server_cpu()
    await asyncio.gather(*(worker(c) for c in clients))
    elapsed = time.perf_counter() - began
    phase.server_cpu = server_cpu() - served
    phase.client_cpu = (time.process_time() - cpu) / elapsed  # share of one core the client itself used
    return elapsed, latencies


def report(name: str, elapsed: float, latencies: list[float], served: float) -> tuple[float, float]:
    """Print a phase's figures; its requests per second and the server's CPU milliseconds per request."""
    rate = len(latencies) / elapsed
    per_request = served / len(latencies) * 1000
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    print(
        f"{name:<18} {rate:8.1f} req/s   p50 {cuts[49] * 1000:6.1f} ms   p99 {cuts[98] * 1000:6.1f} ms"
        f"   server CPU {per_request:5.2f} ms/req   ({len(latencies)} requests; client used {phase.client_cpu:.0%} of a core)"
    )
    return rate, per_request


async def drive(port: int, spot_id: str, answer: dict, clients_n: int, total: int, count: int) -> None:
    clients = [Client(port) for _ in range(clients_n)]
    set_up = time.perf_counter()
    await asyncio.gather(*(c.connect() for c in clients))
    drill = f"/drill/{urllib.parse.quote(spot_id)}"
    answers = variants(answer, count)
    bodies: dict[int, list[bytes]] = {}
    for k, c in enumerate(clients):  # as a browser would: open the page, keep the session cookie and token
        status, page = await c.request("GET", drill)
        if status != 200:
            raise RuntimeError(f"GET {drill} answered {status}")
        token = TOKEN.search(page).group(1).decode()
        mine = answers[k :: len(clients)] or answers  # the class's answers, shared out among the learners
        bodies[id(c)] = [urllib.parse.urlencode({"csrf_token": token, **a}, doseq=True).encode() for a in mine]
        # A first graded answer makes the learner, whose id the browser then keeps in its cookie: the
        # right answer, since an unreadable one ("abc") is not graded and makes no learner (every
        # graded answer of that client would then make a new learner, its cookie thrown away).
        first = urllib.parse.urlencode({"csrf_token": token, **answer}, doseq=True).encode()
        status, _ = await c.request("POST", drill, first, {"HX-Request": "true"})
        if status != 200:
            raise RuntimeError(f"POST {drill} answered {status}")
    sent = {id(c): 0 for c in clients}
    print(f"set-up (untimed: connect, open the drill, a first answer each): {time.perf_counter() - set_up:.1f} s")

    # Requests are built before the clock starts.
    health = {id(c): c.build("GET", "/healthz") for c in clients}
    pages = {id(c): c.build("GET", drill) for c in clients}
    htmx = {"HX-Request": "true", "HX-Current-URL": f"http://{HOST}:{port}{drill}"}
    posts = {id(c): [c.build("POST", drill, b, htmx) for b in bodies[id(c)]] for c in clients}

    def baseline(c):
        return health[id(c)]

    def page(c):
        return pages[id(c)]

    def grade(c):
        sent[id(c)] += 1
        mine = posts[id(c)]
        return mine[sent[id(c)] % len(mine)]

    phases = (("baseline /healthz", baseline), ("drill page GET", page), ("grade POST (htmx)", grade))
    for _, make in phases:
        await phase(clients, min(total, 500), make)  # warm-up
    # The phases take turns in rounds, so a burst of other work on the machine
    # lands on all of them alike instead of on one.
    spent = {name: 0.0 for name, _ in phases}
    seen: dict[str, list[float]] = {name: [] for name, _ in phases}
    cpu = {name: 0.0 for name, _ in phases}
    served = {name: 0.0 for name, _ in phases}
    for r in range(ROUNDS):
        share = total // ROUNDS + (1 if r < total % ROUNDS else 0)
        for name, make in phases:
            elapsed, latencies = await phase(clients, share, make)
            spent[name] += elapsed
            seen[name] += latencies
            cpu[name] += phase.client_cpu * elapsed
            served[name] += phase.server_cpu
    results, costs = {}, {}
    for name, _ in phases:
        phase.client_cpu = cpu[name] / spent[name]
        results[name], costs[name] = report(name, spent[name], seen[name], served[name])
    for c in clients:
        c.close()
    print(f"connections the server closed while idle, opened again: {sum(c.reconnects for c in clients)}")
    if costs["grade POST (htmx)"]:
        # What the ratio would be were the server's CPU the only limit: steadier than the ratio on a
        # busy machine, and it leaves out time the server spends waiting (on commits, say).
        print(f"grade/baseline server-CPU ratio (baseline CPU per request / grade's): "
              f"{costs['baseline /healthz'] / costs['grade POST (htmx)']:.2f}")
    print(f"grade/baseline throughput ratio: {results['grade POST (htmx)'] / results['baseline /healthz']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=5000, help="timed requests per phase")
    parser.add_argument("--scenarios", default=str(REPO / "scenarios"))
    parser.add_argument(
        "--variants", type=int, default=40, help="distinct answers posted (more than --requests: every answer is new)"
    )
    args = parser.parse_args()

    spot_id, answer = pick_spot(args.scenarios)
    port = free_port()
    with tempfile.TemporaryDirectory() as instance:
        env = {**os.environ, "TRAINER_INSTANCE": instance}
        command = [sys.executable, "-m", "trainer.cli", "serve", "--host", HOST, "--port", str(port),
                   "--scenarios", args.scenarios]
        log = open(Path(instance) / "server.log", "w+b")  # noqa: SIM115 - closed below
        server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        server_cpu.pid = server.pid
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=1):
                        break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        log.seek(0)
                        raise SystemExit("the server did not start:\n" + log.read().decode()) from None
                    time.sleep(0.1)
            log.seek(0)
            served = SERVED.search(log.read().decode(errors="replace"))
            print(f"{args.clients} clients, {args.requests} timed requests per phase, {args.variants} distinct answers, "
                  f"spot {spot_id!r}, server: trainer serve ({served.group(1) if served else '?'}), "
                  f"{os.cpu_count()} CPUs")
            asyncio.run(drive(port, spot_id, answer, args.clients, args.requests, args.variants))
        finally:
            server.terminate()
            server.wait(timeout=10)
            log.close()


if __name__ == "__main__":
    main()
