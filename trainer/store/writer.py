"""Graded drill answers, stored from one background thread per process, a batch per transaction.

Every graded drill answer is an attempt row. Written by the request that
graded it, each answer was a transaction of its own: on SQLite one write
lock shared by every thread of every server process, held across Python
work while other threads had the interpreter, so that grading ran at a
sixth of a trivial route's rate (docs/store.md). Here a request hands its
row over and waits for it (group commit): a thread writes whatever has
gathered meanwhile in one transaction, so the rows of a busy moment share
one lock and one commit, and each request learns when its row is in.

What that costs, and how it is bounded:

- A request waits for its batch: the transaction before it, if one is
  running, then its own (a few milliseconds). ``Ticket.wait`` says whether
  the row was committed; only then may the request say it is stored. A row
  is never acknowledged from memory, so a killed process loses nothing it
  acknowledged.
- While the database cannot be reached, rows are kept and retried with
  back-off, up to ``limit`` rows; past that, new rows are refused at once.
  A request that gives up waiting says "not saved yet" and its client sends
  the row again under the same id (the insert ignores a row already there),
  so it is stored once, whichever copy gets in. A row the database refuses
  for itself (not a lost connection) is logged and given up on, not retried
  forever.
- ``flush`` waits for everything handed over so far; ``close`` writes what
  is left (``trainer serve`` calls it when a server process stops).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from enum import StrEnum

from sqlalchemy.exc import DBAPIError, DisconnectionError, OperationalError, TimeoutError
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

TRANSIENT = (OperationalError, DisconnectionError, TimeoutError)


def _transient(exc: BaseException) -> bool:
    """A lost connection, a server restarting, a lock not granted: worth trying again."""
    return isinstance(exc, TRANSIENT) or (isinstance(exc, DBAPIError) and exc.connection_invalidated)


class Outcome(StrEnum):
    WAITING = "waiting"  # in memory, or in a transaction not yet committed
    STORED = "stored"  # committed
    REFUSED = "refused"  # the database refused the row itself: logged, not retried
    DROPPED = "dropped"  # not taken: too many rows waiting while the database is away


class Ticket:
    """A row handed over: ``wait`` until it is committed (or given up on).

    Each ticket has a lock of its own, held until the row is done with: a request waits on its own
    row only, so a commit wakes just the requests whose rows it holds, not every request waiting
    (under the interpreter lock each needless wake-up costs the others a switch)."""

    __slots__ = ("_pending", "outcome", "result")

    def __init__(self, outcome: Outcome = Outcome.WAITING) -> None:
        self.outcome = outcome
        self.result = None  # what ``store`` said of this row, in the transaction that stored it
        self._pending = threading.Lock()
        if outcome is Outcome.WAITING:
            self._pending.acquire()

    def settle(self, outcome: Outcome, result: object = None) -> None:
        """The writer's side: the row is done with."""
        self.outcome = outcome
        self.result = result
        self._pending.release()

    def wait(self, timeout: float) -> bool:
        """True once the row is committed; False if it is not within ``timeout`` seconds, or never will be."""
        if self.outcome is Outcome.WAITING and self._pending.acquire(timeout=max(timeout, 0)):
            self._pending.release()
        return self.outcome is Outcome.STORED


class BatchWriter:
    """Hands rows to a thread that stores them with ``store(session, rows)`` and commits.

    ``store`` may return a list with something for each row (the ratings a first try moved): each
    ticket carries its row's, once committed."""

    def __init__(
        self,
        sessions: Callable[[], Session],
        store: Callable[[Session, list[dict]], None],
        *,
        name: str = "rows",
        batch: int = 500,
        gather: float = 0.0005,
        limit: int = 100_000,
        backoff: tuple[float, float] = (0.05, 2.0),
    ) -> None:
        self._sessions = sessions
        self._store = store
        self.name = name
        self.batch = batch
        self.gather = gather
        self.limit = limit
        self.backoff = backoff
        self._cond = threading.Condition()
        self._rows: list[tuple[dict, Ticket]] = []
        self._handed = 0  # rows handed over in this process
        self._done = 0  # rows stored, or given up on
        self._closing = False
        self._waited_for = 0  # a flush waits for the rows up to here: write them now
        self._thread: threading.Thread | None = None
        self._pid: int | None = None
        self.dropped = 0
        # The last try failed for want of the database: requests need not hold a thread waiting.
        self.away = False

    # -- the requests' side

    def submit(self, row: dict) -> Ticket:
        """Hand a row over; its ticket says when it is committed (at once ``DROPPED`` while too many wait)."""
        with self._cond:
            self._start()
            if len(self._rows) >= self.limit:
                self.dropped += 1
                if self.dropped == 1 or self.dropped % 1000 == 0:
                    log.error("%s not taken, %d so far: the database has not answered for a while",
                              self.name, self.dropped)
                return Ticket(Outcome.DROPPED)
            ticket = Ticket()
            self._rows.append((row, ticket))
            self._handed += 1
            # Wake the thread for the first row (it then gathers more) or a full batch, not for
            # every row: each wake-up costs the requests a switch of the interpreter lock.
            if len(self._rows) == 1 or len(self._rows) >= self.batch:
                self._cond.notify_all()
        return ticket

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every row handed over so far is stored (or given up on); False on timeout."""
        with self._cond:
            if self._pid != os.getpid():
                return True  # nothing handed over in this process
            target = self._waited_for = self._handed
            self._cond.notify_all()
            return self._cond.wait_for(lambda: self._done >= target, timeout)

    def close(self, timeout: float = 10.0) -> None:
        """Store what is left and stop the thread; say what could not be stored in ``timeout``."""
        with self._cond:
            if self._pid != os.getpid() or self._thread is None:
                return
            self._closing = True
            self._cond.notify_all()
        self._thread.join(timeout)
        with self._cond:
            if self._rows:
                log.error("%s not stored, %d: the database did not answer before the process stopped",
                          self.name, len(self._rows))
            self._thread = None
            self._pid = None
            self._closing = False

    def _start(self) -> None:
        """The thread of this process (a forked server process starts its own; the parent's is not there)."""
        if self._pid == os.getpid():
            return
        self._rows, self._handed, self._done, self._closing, self._waited_for = [], 0, 0, False, 0
        self._pid = os.getpid()
        self._thread = threading.Thread(target=self._run, name=f"store {self.name}", daemon=True)
        self._thread.start()

    # -- the thread

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._rows or self._closing)
                # Let a batch gather for a moment: a row alone costs several times its share of a
                # batch. Under load the rows that came during the last commit are the next batch.
                self._cond.wait_for(self._due, self.gather)
                if not self._rows:
                    return  # closing, and nothing left
                batch = self._rows[: self.batch]
            outcomes, results = self._write([row for row, _ in batch])
            with self._cond:
                for i, ((_, ticket), outcome) in enumerate(zip(batch, outcomes)):
                    ticket.settle(outcome, results[i] if i < len(results) else None)
                del self._rows[: len(outcomes)]
                self._done += len(outcomes)
                self._cond.notify_all()
                if not outcomes:
                    return  # closing while the database is away: close() says what is left

    def _due(self) -> bool:
        return self._closing or len(self._rows) >= self.batch or self._waited_for > self._done

    def _write(self, batch: list[dict]) -> tuple[list[Outcome], list]:
        """Store the batch: the outcome of each row done with (all of them unless closing while the
        database is away), and what ``store`` said of each."""
        delay, longest = self.backoff
        while True:
            try:
                results = self._commit(batch)
                self.away = False
                return [Outcome.STORED] * len(batch), results
            except Exception as exc:
                if not _transient(exc):
                    return self._one_by_one(batch)
                self.away = True
                with self._cond:
                    if self._closing:
                        return [], []
                log.warning("storing %d %s failed, trying again in %.2f s: %s", len(batch), self.name, delay,
                            str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__)
                time.sleep(delay)
                delay = min(delay * 2, longest)

    def _one_by_one(self, batch: list[dict]) -> tuple[list[Outcome], list]:
        """A batch the database refused: store each row alone, so that only the bad one is lost."""
        outcomes: list[Outcome] = []
        results: list = []
        for i, row in enumerate(batch):
            try:
                results.extend(self._commit([row])[:1] or [None])
                outcomes.append(Outcome.STORED)
            except Exception as exc:
                if _transient(exc):  # the connection went: back to retrying the rest
                    return (outcomes, results) if outcomes else self._write(batch)
                log.exception("a %s row was refused and is not stored: %r", self.name, row)
                outcomes.append(Outcome.REFUSED)
                results.append(None)
        return outcomes, results

    def _commit(self, rows: list[dict]) -> list:
        with self._sessions() as session:
            try:
                results = self._store(session, rows)
                session.commit()
                return list(results) if results else []
            except BaseException:
                session.rollback()
                raise
