"""Graded drill answers, stored from one background thread per process, a batch per transaction.

Every graded drill answer is an attempt row. Written by the request that
graded it, each answer was a transaction of its own: on SQLite one write
lock shared by every thread of every server process, held across Python
work while other threads had the interpreter, so that grading ran at a
sixth of a trivial route's rate (docs/store.md). Here a request only hands
its row over; a thread writes whatever has gathered meanwhile in one
transaction, so the rows of a busy moment share one lock and one commit.

What that costs, and how it is bounded:

- A row waits in memory only while the transaction before it runs (a few
  milliseconds). ``flush`` waits for everything handed over so far: the
  pages that read attempts call it first, so a learner sees their own last
  answer. Another server process may not show an answer for those few
  milliseconds.
- While the database cannot be reached, rows are kept and retried with
  back-off, up to ``limit`` rows; past that, new rows are dropped and
  logged. A row the database refuses for itself (not a lost connection) is
  logged and dropped, not retried forever.
- ``close`` writes what is left (``trainer serve`` calls it when a server
  process stops). What a killed process held is lost: at most one batch.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable

from sqlalchemy.exc import DBAPIError, DisconnectionError, OperationalError, TimeoutError
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

TRANSIENT = (OperationalError, DisconnectionError, TimeoutError)


def _transient(exc: BaseException) -> bool:
    """A lost connection, a server restarting, a lock not granted: worth trying again."""
    return isinstance(exc, TRANSIENT) or (isinstance(exc, DBAPIError) and exc.connection_invalidated)


class BatchWriter:
    """Hands rows to a thread that stores them with ``store(session, rows)`` and commits."""

    def __init__(
        self,
        sessions: Callable[[], Session],
        store: Callable[[Session, list[dict]], None],
        *,
        name: str = "rows",
        batch: int = 500,
        gather: float = 0.02,
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
        self._rows: list[dict] = []
        self._handed = 0  # rows handed over in this process
        self._done = 0  # rows stored, or given up on
        self._closing = False
        self._waited_for = 0  # a flush waits for the rows up to here: write them now
        self._thread: threading.Thread | None = None
        self._pid: int | None = None
        self.dropped = 0

    # -- the requests' side

    def submit(self, row: dict) -> bool:
        """Hand a row over; False if it was dropped (the queue is full while the database is away)."""
        with self._cond:
            self._start()
            if len(self._rows) >= self.limit:
                self.dropped += 1
                if self.dropped == 1 or self.dropped % 1000 == 0:
                    log.error("%s not stored, %d so far: the database has not answered for a while",
                              self.name, self.dropped)
                return False
            self._rows.append(row)
            self._handed += 1
            # Wake the thread for the first row (it then gathers more) or a full batch, not for
            # every row: each wake-up costs the requests a switch of the interpreter lock.
            if len(self._rows) == 1 or len(self._rows) >= self.batch:
                self._cond.notify_all()
        return True

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
                # Let a batch gather: one row alone costs several times its share of a batch.
                self._cond.wait_for(self._due, self.gather)
                if not self._rows:
                    return  # closing, and nothing left
                batch = self._rows[: self.batch]
            stored = self._write(batch)
            with self._cond:
                del self._rows[:stored]
                self._done += stored
                self._cond.notify_all()
                if stored == 0:
                    return  # closing while the database is away: close() says what is left

    def _due(self) -> bool:
        return self._closing or len(self._rows) >= self.batch or self._waited_for > self._done

    def _write(self, batch: list[dict]) -> int:
        """Store the batch; the number of rows done with (all of them unless closing while the database is away)."""
        delay, longest = self.backoff
        while True:
            try:
                self._commit(batch)
                return len(batch)
            except Exception as exc:
                if not _transient(exc):
                    return self._one_by_one(batch)
                with self._cond:
                    if self._closing:
                        return 0
                log.warning("storing %d %s failed, trying again in %.2f s: %s", len(batch), self.name, delay,
                            str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__)
                time.sleep(delay)
                delay = min(delay * 2, longest)

    def _one_by_one(self, batch: list[dict]) -> int:
        """A batch the database refused: store each row alone, so that only the bad one is lost."""
        for i, row in enumerate(batch):
            try:
                self._commit([row])
            except Exception as exc:
                if _transient(exc):
                    return i if i else self._write(batch)  # the connection went: back to retrying
                log.exception("a %s row was refused and is not stored: %r", self.name, row)
        return len(batch)

    def _commit(self, rows: list[dict]) -> None:
        with self._sessions() as session:
            try:
                self._store(session, rows)
                session.commit()
            except BaseException:
                session.rollback()
                raise
