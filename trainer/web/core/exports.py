"""Tables for spreadsheets: the CSV of raw rows, and the .xlsx gradebook, for every export.

CSV is UTF-8 with a byte-order mark, or Excel reads it in the machine's legacy code page and
shows 小美 as mojibake. Numbers stay numbers (``1000``, never ``"1,000"``), so a column adds up.
A CSV text cell that a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@`` first; names
are typed by students) gets a leading apostrophe: CSV has no cell types.

The .xlsx is a workbook of several sheets (``Sheet``): each with its header frozen, a filter on
its rows, columns as wide as what they hold, times as real date cells with a number format, and
text typed as text, so ``=HYPERLINK(...)`` is a string a spreadsheet shows and never runs — with
no apostrophe to see.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from flask import Response
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

FORMATS = ("csv", "xlsx")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
DATE_FORMAT = "yyyy-mm-dd hh:mm:ss"
DURATION_FORMAT = "[h]:mm:ss"
PERCENT_FORMAT = "0.0"
_MAX_WIDTH = 60


def cell(value: Any) -> Any:
    """A value as a CSV cell: numbers as numbers, times in ISO 8601 with their offset, text made inert."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return value
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")  # to the second: microseconds only clutter a sheet
    if isinstance(value, timedelta):
        return int(value.total_seconds())
    text = str(value)
    return "'" + text if text[:1] in _FORMULA_STARTS else text


@dataclass(frozen=True, kw_only=True)
class Sheet:
    """One sheet of a workbook. ``footer``: rows under the table, after a blank row and outside its
    filter (a column's total under the column). ``percent``: columns shown with one decimal."""

    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]
    footer: Sequence[Sequence[Any]] = ()
    percent: frozenset[str] = field(default_factory=frozenset)


def _width(value: Any) -> int:
    """How many character widths a cell needs: a Chinese character takes two."""
    if value is None:
        return 0
    if isinstance(value, datetime):
        return 19
    if isinstance(value, float):
        return len(f"{value:.1f}")
    text = value if isinstance(value, str) else str(value)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _put(ws: Any, row: int, col: int, value: Any, percent: bool = False) -> int:
    """Write one typed cell; returns its width."""
    if isinstance(value, bool):
        value = "yes" if value else "no"
    if isinstance(value, datetime):
        # Spreadsheets have no time zones: the time as the reader's sheet shows it (the caller
        # has put it in the zone the sheet is about), as a real date cell.
        target = ws.cell(row=row, column=col, value=value.replace(tzinfo=None, microsecond=0))
        target.number_format = DATE_FORMAT
    elif isinstance(value, timedelta):
        target = ws.cell(row=row, column=col, value=value)
        target.number_format = DURATION_FORMAT
    elif isinstance(value, int | float) or value is None:
        target = ws.cell(row=row, column=col, value=value)
        if percent and value is not None:
            target.number_format = PERCENT_FORMAT
    else:
        text = ILLEGAL_CHARACTERS_RE.sub("", str(value))
        target = ws.cell(row=row, column=col, value=text)
        target.data_type = "s"  # text, whatever it starts with: never a formula
    return _width(value)


def _sheet_title(title: str, taken: set[str]) -> str:
    name = "".join(" " if ch in "[]:*?/\\" else ch for ch in title)[:31] or "sheet"
    base, n = name, 1
    while name.lower() in taken:
        n += 1
        name = f"{base[:28]}~{n}"
    taken.add(name.lower())
    return name


def workbook(sheets: Iterable[Sheet]) -> bytes:
    book = Workbook()
    book.remove(book.active)
    taken: set[str] = set()
    for sheet in sheets:
        ws = book.create_sheet(_sheet_title(sheet.title, taken))
        widths = [0] * len(sheet.columns)
        for col, name in enumerate(sheet.columns, start=1):
            widths[col - 1] = _put(ws, 1, col, name)
            ws.cell(row=1, column=col).font = Font(bold=True)
        for r, row in enumerate(sheet.rows, start=2):
            for col, value in enumerate(row, start=1):
                w = _put(ws, r, col, value, sheet.columns[col - 1] in sheet.percent if col <= len(sheet.columns) else False)
                if col <= len(widths):
                    widths[col - 1] = max(widths[col - 1], w)
        last = len(sheet.rows) + 1
        for r, row in enumerate(sheet.footer, start=last + 2):
            for col, value in enumerate(row, start=1):
                w = _put(ws, r, col, value, isinstance(value, float))
                if col <= len(widths):
                    widths[col - 1] = max(widths[col - 1], w)
        ws.freeze_panes = "A2"
        if sheet.columns:
            ws.auto_filter.ref = f"A1:{get_column_letter(len(sheet.columns))}{last}"
        for col, width in enumerate(widths, start=1):
            ws.column_dimensions[get_column_letter(col)].width = min(_MAX_WIDTH, max(6, width + 2))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _download(body: bytes, *, filename: str, fmt: str) -> Response:
    response = Response(body, mimetype="text/csv" if fmt == "csv" else XLSX)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    response.headers["Cache-Control"] = "no-store"
    if fmt == "csv":
        response.headers["Content-Type"] = "text/csv; charset=utf-8"
    return response


def book(sheets: Sequence[Sheet], *, raw: Sheet, filename: str, fmt: str) -> Response:
    """A download named ``filename``.``fmt``: the CSV holds ``raw``'s rows (CSV has one table);
    the .xlsx holds ``sheets`` and then ``raw``."""
    if fmt not in FORMATS:
        raise ValueError(f"no such export format: {fmt!r}")
    if fmt == "xlsx":
        return _download(workbook([*sheets, raw]), filename=filename, fmt=fmt)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(raw.columns)
    writer.writerows([cell(v) for v in row] for row in raw.rows)
    return _download(out.getvalue().encode("utf-8-sig"), filename=filename, fmt=fmt)

