"""Tables for spreadsheets: one helper writes a table as CSV or as .xlsx, for every export.

CSV is UTF-8 with a byte-order mark, or Excel reads it in the machine's legacy code page and
shows 小美 as mojibake. Numbers stay numbers (``1000``, never ``"1,000"``), so a column adds up.
A text cell that a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@`` first; names
are typed by students) gets a leading apostrophe, in both formats.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from flask import Response
from openpyxl import Workbook

FORMATS = ("csv", "xlsx")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """A value as a spreadsheet cell: numbers as numbers, times in ISO 8601 (UTC), text made inert."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return value
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")  # to the second: microseconds only clutter a sheet
    text = str(value)
    return "'" + text if text[:1] in _FORMULA_STARTS else text


def table(
    columns: Sequence[str], rows: Iterable[Sequence[Any]], *, filename: str, fmt: str, sheet: str = "data"
) -> Response:
    """``rows`` under ``columns`` as a download named ``filename``.``fmt`` (csv or xlsx)."""
    if fmt not in FORMATS:
        raise ValueError(f"no such export format: {fmt!r}")
    cells = [[cell(v) for v in row] for row in rows]
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(columns)
        writer.writerows(cells)
        body: bytes | str = out.getvalue().encode("utf-8-sig")
        mimetype = "text/csv"
    else:
        book = Workbook(write_only=True)
        ws = book.create_sheet(sheet[:31])
        ws.append(list(columns))
        for row in cells:
            ws.append(row)
        out_bytes = io.BytesIO()
        book.save(out_bytes)
        body, mimetype = out_bytes.getvalue(), XLSX
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    response.headers["Cache-Control"] = "no-store"
    if fmt == "csv":
        response.headers["Content-Type"] = "text/csv; charset=utf-8"
    return response
