"""What every imported spot must satisfy, checked against the hand as the file wrote it."""

from __future__ import annotations

from pathlib import Path

from tests.oracle import phh_dir
from trainer.importer import HandRecord, Limits, Refused, Verb, import_files, records
from trainer.importer.command import write_spots
from trainer.scenarios import load_paths

PHH = phh_dir()
HH = PHH.parent / "hh"


def data_files() -> list[tuple[str, Path]]:
    """Every hand-history file shipped beside the repository, named as the report names it."""
    files = []
    for folder in (PHH, HH):
        if folder.is_dir():
            files += [(f"{folder.name}/{p.relative_to(folder).as_posix()}", p)
                      for p in sorted(folder.rglob("*")) if p.is_file() and p.name != "README.md"]
    return files


def sample(files: list[tuple[str, Path]]) -> list[tuple[str, Path]]:
    """Every client text file and WSOP hand, and one Pluribus hand in 60: each file kind, quickly."""
    pluribus = [f for f in files if "/pluribus/" in f[0]]
    return [f for f in files if "/pluribus/" not in f[0]] + pluribus[::60]


def check_import(files: list[tuple[str, Path]], out: Path, mode: str = "every-decision") -> dict:
    """Import ``files`` into ``out``, load what was written, and check every decision
    against the hand as written. Returns counts for the caller's own assertions."""
    by_name = dict(files)
    limits = Limits(files=len(files), total_bytes=10**9, spots=10**6)
    spots, report = import_files(((name, path.read_bytes()) for name, path in files), mode, limits)
    # every hand is imported or refused with a located reason
    for refusal in report.refusals:
        assert refusal.file in by_name and refusal.message, refusal
        if refusal.kind is not Refused.TOO_LARGE:
            assert refusal.line is not None and refusal.line >= 1, refusal
            assert refusal.hand is not None or refusal.kind is Refused.UNREADABLE, refusal
    for tally in report.files:
        assert tally.hands == tally.imported + sum(tally.refused.values()), tally
    write_spots(spots, out)
    loaded = load_paths([str(out)])
    assert not loaded.errors, "\n".join(map(str, loaded.errors[:5]))
    assert len(loaded.scenarios) == len(spots)
    for scenario in loaded.scenarios:
        assert not scenario.check_expect(), scenario.file
    hands: dict[tuple[str, str], HandRecord] = {}
    for name, path in files:
        for item in records(name, path.read_bytes()):
            if isinstance(item, HandRecord):
                hands.setdefault((name, item.hand), item)
    calls = raises = 0
    for scenario in loaded.scenarios:
        source = scenario.source
        record = hands[(source["file"], str(source["hand"]))]
        move = record.moves[source["decision"] - 1]
        answer = scenario.solution
        hand = scenario.hand()
        seat = next(s for s in hand.seats if s.position == answer["to_act"])
        assert scenario.names[answer["to_act"]] == move.player, scenario.file
        options, card = answer["options"], answer["card"]
        verb = move.verb
        if verb is Verb.CHECK_OR_CALL:
            verb = Verb.CHECK if options["check"] else Verb.CALL
        if verb is Verb.ALLIN:  # partypoker's "is all-In [X]": a call when it adds no more than is owed
            verb = Verb.CALL if move.added <= card["to_add"] else Verb.RAISE
        if verb is Verb.CALL:
            # ④ is what the player owes; the call is that, capped at the stack, and is what they put in
            assert options["call"] == min(card["to_add"], seat.stack), scenario.file
            if move.added is not None:
                assert move.added == options["call"], scenario.file
            assert options["call"] <= card["to_add"], scenario.file
            calls += 1
        elif verb in (Verb.BET, Verb.RAISE):
            bounds = options["bet"] or options["raise"]
            low, high = (bounds["min"], bounds["max"]) if options["bet"] else (bounds["min_to"], bounds["max_to"])
            # 888poker writes the chips a raise adds; the others the total it raises to
            to = move.to if move.to is not None else card["committed"] + move.added
            assert low <= to <= high, (scenario.file, move)
            raises += 1
        elif verb is Verb.CHECK:
            assert options["check"], scenario.file
    return {"spots": len(spots), "calls": calls, "raises": raises, "report": report, "scenarios": loaded.scenarios}


__all__ = ["HH", "PHH", "check_import", "data_files", "sample"]
