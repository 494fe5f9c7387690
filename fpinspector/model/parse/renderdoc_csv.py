"""RenderDoc buffer exports: a header row of column names, then rows of cells separated by
commas (its CSV) or tabs (what its buffer viewer copies); index columns (VTX, IDX, ...)
name the rows and are never values."""

from __future__ import annotations

import re

from ..formats import FloatFormat
from .lex import ParseError, tokenize
from .values import ParsedValue
from .walk import _assemble

_HEADER_CELL = re.compile(r"[A-Za-z_#][\w .#\[\]()/:-]{0,100}$", re.ASCII)
_INDEX_COLS = {"row", "index", "idx", "vtx", "#", "element", "elem", "offset", "eid"}
_NUMBER_WORDS = {"inf", "infinity", "nan", "qnan", "snan", "-inf", "+inf"}


def _csv_header(text: str) -> tuple[list[str], str] | None:
    """(column names, separator) when the first line is a header of names and the second
    line has as many cells; None otherwise."""
    nl = text.find("\n")
    if nl < 0:
        return None
    first = text[:nl].rstrip("\r")
    sep = "\t" if "\t" in first else ","
    if sep not in first:
        return None
    cells = [c.strip().strip('"') for c in first.split(sep)]
    for c in cells:
        if not _HEADER_CELL.match(c) or c.lower() in _NUMBER_WORDS or c.count("(") != c.count(")"):
            return None
    nl2 = text.find("\n", nl + 1)
    second = text[nl + 1:nl2 if nl2 >= 0 else len(text)].rstrip("\r")
    if second.count(sep) != first.count(sep):
        return None
    return cells, sep


def _parse_csv(text: str, header: list[str], fmt: FloatFormat | None, byte_order: str,
               sep: str = ",") -> list[ParsedValue]:
    out: list[ParsedValue] = []
    pos = text.find("\n") + 1
    row = 0
    while pos < len(text):
        eol = text.find("\n", pos)
        eol = len(text) if eol < 0 else eol
        line = text[pos:eol].rstrip("\r")
        if line.strip():
            cells = line.split(sep)
            if len(cells) != len(header):
                raise ParseError(f"row has {len(cells)} cells, the header {len(header)}",
                                 text, pos)
            off = pos
            row_name = str(row)
            for name, cell in zip(header, cells):
                if name.lower() in _INDEX_COLS and cell.strip():
                    row_name = cell.strip()
            for name, cell in zip(header, cells):
                a = off + len(cell) - len(cell.lstrip())
                off += len(cell) + 1
                body = cell.strip().strip('"')
                if name.lower() in _INDEX_COLS or not body:
                    continue
                a += cell.strip().index(body)
                out.extend(_cell(text, a, a + len(body), fmt, byte_order, f"{name}[{row_name}]"))
            row += 1
        pos = eol + 1
    return [ParsedValue(v.format, v.bits, v.start, v.end, v.kind, v.text, v.label, v.note, g)
            for g, v in enumerate(out)] if byte_order != "both" else out


def _cell(text: str, a: int, b: int, fmt: FloatFormat | None, byte_order: str, label: str
          ) -> list[ParsedValue]:
    try:
        toks = tokenize(text[a:b])
    except ParseError as exc:
        raise ParseError(exc.reason, text, a + exc.index) from None
    for t in toks:
        t.start += a
        t.end += a
    return _assemble(toks, text, fmt, byte_order, label)
