"""``import_files``: named texts in, spots and a report out, within size and count bounds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from . import phh, text
from .model import HandError, HandRecord, Refusal, Refused
from .spots import Mode, Spot, replay, spots

PHH_SUFFIXES = (".phh", ".phhs")


@dataclass(frozen=True, kw_only=True)
class Limits:
    """Bounds on one import: how many files, how large each and all together, how many spots."""

    files: int = 100
    file_bytes: int = 10_000_000
    total_bytes: int = 50_000_000
    spots: int = 100_000


@dataclass(kw_only=True)
class FileCount:
    file: str
    hands: int = 0
    imported: int = 0
    refused: Counter = field(default_factory=Counter)  # Refused -> hands
    spots: int = 0
    unread: Refused | None = None  # why the whole file was refused, when it was


@dataclass(kw_only=True)
class Report:
    files: list[FileCount] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)

    def lines(self) -> list[str]:
        """One line per refused hand, then one per file with its counts."""
        out = [str(r) for r in self.refusals]
        for f in self.files:
            if f.unread is not None:
                out.append(f"{f.file}: not read ({f.unread})")
                continue
            refused = ", ".join(f"{n} {kind}" for kind, n in sorted(f.refused.items())) or "none"
            out.append(f"{f.file}: {f.hands} hands, {f.imported} imported, refused: {refused}; {f.spots} spots")
        return out


def import_files(
    named_texts: Iterable[tuple[str, str | bytes]], mode: Mode | str = Mode.EVERY_DECISION, limits: Limits = Limits()
) -> tuple[list[Spot], Report]:
    """Spots from hand histories: ``(name, text)`` pairs, PHH when the name ends in .phh or .phhs.

    Nothing in a file is evaluated: PHH is read by ``tomllib``, the clients' text
    by regular expressions. A file or hand that cannot be imported is in the
    report with its file, hand and line; the others go on."""
    mode = Mode(mode)
    made: list[Spot] = []
    report = Report()
    used: set[str] = set()
    total = 0
    for count, (name, content) in enumerate(named_texts, 1):
        tally = FileCount(file=name)
        report.files.append(tally)
        size = len(content.encode("utf-8") if isinstance(content, str) else content)
        total += size
        over = _over(count, size, total, len(made), limits)
        if over:
            _refuse(report, tally, Refusal(file=name, hand=None, line=None, kind=Refused.TOO_LARGE, message=over))
            continue
        body = decode(content)
        reader = phh.records if name.lower().endswith(PHH_SUFFIXES) else text.records
        for item in reader(body, name):
            if isinstance(item, HandError):
                _refuse(report, tally, Refusal(file=name, hand=item.hand, line=item.line, kind=item.kind, message=item.message))
                continue
            try:
                decisions = replay(item)
            except HandError as exc:
                _refuse(report, tally, Refusal(file=name, hand=item.hand, line=exc.line, kind=exc.kind, message=exc.message))
                continue
            tally.hands += 1
            tally.imported += 1
            new = spots(item, decisions, mode, used)[: max(0, limits.spots - len(made))]
            tally.spots += len(new)
            made += new
    return made, report


def records(name: str, content: str | bytes) -> list[HandRecord | HandError]:
    """The hands of one file as read, before the engine checks them (for tests and tools)."""
    reader = phh.records if name.lower().endswith(PHH_SUFFIXES) else text.records
    return list(reader(decode(content), name))


def decode(content: str | bytes) -> str:
    """Text as the clients save it: UTF-8 (with or without a byte-order mark), else Windows-1252."""
    if isinstance(content, str):
        return content.removeprefix("\ufeff")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    return content.decode("latin-1")


def _over(count: int, size: int, total: int, spots: int, limits: Limits) -> str | None:
    if count > limits.files:
        return f"more than {limits.files} files in one import"
    if size > limits.file_bytes:
        return f"the file has {size:,} bytes, more than the {limits.file_bytes:,} allowed"
    if total > limits.total_bytes:
        return f"the files together pass {limits.total_bytes:,} bytes"
    if spots >= limits.spots:
        return f"{limits.spots:,} spots already made, the most one import makes"
    return None


def _refuse(report: Report, tally: FileCount, refusal: Refusal) -> None:
    report.refusals.append(refusal)
    if refusal.hand is None:
        tally.unread = refusal.kind
    else:
        tally.refused[refusal.kind] += 1
        tally.hands += 1
