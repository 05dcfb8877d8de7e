"""Many scenario files: directories expanded, ids kept unique, large libraries loaded in processes."""

from __future__ import annotations

import errno
import multiprocessing
import os
import signal
from collections.abc import Iterable
from pathlib import Path

from .errors import ScenarioError, _clip
from .load import load_file
from .model import LoadResult, Scenario


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """Expand directories into their ``*.yaml`` files, in path order."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if _is_dir(path):
            files.extend(sorted(p for p in path.rglob("*.yaml") if p.is_file()))
        else:
            files.append(path)
    return files


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a name the system refuses (longer than it allows): reading it reports why
        return False


def _unreachable(path: Path) -> str | None:
    """Why ``path`` leads to no file at all (missing, a dangling link, a link loop), or None.

    Other failures (a name too long, no permission) are left to reading the file, which says why.
    """
    try:
        os.stat(path)
    except FileNotFoundError:
        try:
            target = os.readlink(path)
        except OSError:
            return "no such file or directory"
        return f"a symbolic link to {_clip(target)}, which does not exist"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link loop: its links lead back to one another, never to a file"
    return None


class NoScenarioFiles(ScenarioError):
    """A folder given to load that holds no scenario file: nothing in it would be checked or served."""

    def __init__(self, folder: str | Path):
        folder = Path(folder)
        skipped = _not_files(folder)
        why = "a scenario file is a regular file named *.yaml"
        if skipped:
            shown = ", ".join(_clip(str(p.relative_to(folder))) for p in skipped[:3])
            more = f" and {len(skipped) - 3} more" if len(skipped) > 3 else ""
            why += f"; not regular files: {shown}{more}"
        super().__init__(str(folder), None, None, f"no scenario files under {folder} ({why})")
        self.args = (self.message,)  # the message names the folder already: no "folder: " before it

    def __reduce__(self):
        return (NoScenarioFiles, (self.file,))


def _not_files(folder: Path) -> list[Path]:
    """Entries named *.yaml under ``folder`` that are not regular files (pipes, link loops, dangling links)."""
    try:
        return sorted(p for p in folder.rglob("*.yaml") if not p.is_file() and not p.is_dir())
    except OSError:
        return []


FILE_SECONDS = 10.0
"""In a loading process, a file that takes longer than this is reported instead of waited for."""


class _TookTooLong(Exception):
    pass


def _alarm(signum, frame):
    raise _TookTooLong


_timed = False  # set in loading processes, whose main thread is the one that loads


def _start_worker() -> None:
    global _timed
    signal.signal(signal.SIGALRM, _alarm)
    _timed = True


def _load_one(path: Path) -> Scenario | ScenarioError:
    """One file's Scenario or ScenarioError: whatever goes wrong stays with that file."""
    reason = _unreachable(path)
    if reason:
        return ScenarioError(str(path), None, None, reason)
    try:
        if _timed:
            signal.setitimer(signal.ITIMER_REAL, FILE_SECONDS)
        try:
            return load_file(path)
        finally:
            if _timed:
                signal.setitimer(signal.ITIMER_REAL, 0)
    except ScenarioError as exc:
        return exc
    except _TookTooLong:
        return ScenarioError(str(path), 1, None, f"took longer than {FILE_SECONDS:g} s to load; nothing was read from it")
    except Exception as exc:  # a bug in the loader or the engine: report it with the file, keep loading the rest
        return ScenarioError(str(path), 1, None, f"the loader failed on this file ({type(exc).__name__}: {_clip(str(exc))}); please report it")


# Below this many files a second process costs more than it saves.
PARALLEL_FROM = 400


def _load_all(files: list[Path], workers: int | None) -> list[Scenario | ScenarioError]:
    if workers is None:
        workers = min(os.cpu_count() or 1, 4) if len(files) >= PARALLEL_FROM else 1
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return [_load_one(path) for path in files]
    try:
        with multiprocessing.get_context("fork").Pool(workers, initializer=_start_worker) as pool:
            chunks = max(1, len(files) // (workers * 8))
            # Each file is bounded by FILE_SECONDS; waiting longer than all of them means a worker was lost.
            budget = FILE_SECONDS * (len(files) // workers + chunks) + 60
            return pool.map_async(_load_one, files, chunksize=chunks).get(timeout=budget)
    except Exception:  # the pool itself failed (a result that would not pickle, a worker lost): load here
        return [_load_one(path) for path in files]


def load_paths(paths: Iterable[str | Path], *, workers: int | None = 1) -> LoadResult:
    """Load every file; one broken file never stops the others. Ids must be unique.

    A folder holding no scenario file is an error (``NoScenarioFiles``), in its place among the files.
    ``workers=None`` picks a number of processes for large directories.
    """
    planned: list[Path | ScenarioError] = []
    for raw in paths:
        found = scenario_files([raw])
        planned.extend(found if found or not _is_dir(Path(raw)) else [NoScenarioFiles(raw)])
    loaded = iter(_load_all([p for p in planned if isinstance(p, Path)], workers))
    scenarios: list[Scenario] = []
    errors: list[ScenarioError] = []
    in_order: list[Scenario | ScenarioError] = []
    seen: dict[str, str] = {}
    for item in (p if isinstance(p, ScenarioError) else next(loaded) for p in planned):
        if isinstance(item, Scenario) and item.id in seen:
            line = item.lines.get("id", 1)
            item = ScenarioError(item.file, line, "id", f'id "{item.id}" is already used by {seen[item.id]}')
        if isinstance(item, ScenarioError):
            errors.append(item)
        else:
            seen[item.id] = item.file
            scenarios.append(item)
        in_order.append(item)
    return LoadResult(scenarios=scenarios, errors=errors, in_order=in_order)
