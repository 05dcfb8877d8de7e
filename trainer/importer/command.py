"""``trainer import``: hand-history files and folders in, one scenario file per spot out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import yaml

from .api import PHH_SUFFIXES, Limits, Report, import_files
from .spots import Mode, Spot

# What a folder given to ``trainer import`` is searched for.
SUFFIXES = (*PHH_SUFFIXES, ".txt", ".log")


def named_files(paths: list[str]) -> Iterator[tuple[str, Path]]:
    """Each file with the name the spots will cite: a file's own name, or for a
    folder's files the folder's name and the path below it."""
    for given in map(Path, paths):
        if given.is_dir():
            for path in sorted(p for p in given.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES):
                yield f"{given.resolve().name}/{path.relative_to(given).as_posix()}", path
        else:
            yield given.name, given


def run(paths: list[str], out: Path, mode: Mode, limits: Limits = Limits()) -> tuple[list[Spot], Report]:
    """Import the files and write each spot to ``out/<file>/<id>.yaml``."""
    named = ((name, path.read_bytes()) for name, path in named_files(paths))
    spots, report = import_files(named, mode, limits)
    write_spots(spots, out)
    return spots, report


def write_spots(spots: list[Spot], out: Path) -> None:
    for spot in spots:
        target = out / spot.folder / f"{spot.id}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(spot_yaml(spot), encoding="utf-8")


def spot_yaml(spot: Spot) -> str:
    return yaml.safe_dump(spot.document, sort_keys=False, allow_unicode=True, width=120)
