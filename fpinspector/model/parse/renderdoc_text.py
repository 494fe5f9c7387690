"""RenderDoc's buffer, mesh and constant-buffer text as it really is (issue 33): what its
tables put on the clipboard and in a CSV file, read by its own shape.

Why a reader of its own: RenderDoc (qrenderdoc ``BufferViewer``, ``RDTableView``,
``RDTreeView``, ``Formatter``) writes

* a Ctrl+C of a buffer or mesh row without a header: the Element (or VTX and IDX) index
  first, cells joined by one space, each positive float (and int) led by a space where its
  sign would be (``"12 7  1.00 -2.50"``, ``"0  7 -7 3"``);
* a CSV export with a ``", "``-joined header (``Element, pos.x, ...`` or ``VTX, IDX, ...``)
  and unquoted cells, a matrix cell's rows on new lines;
* a constant buffer as ``Name,Value,Byte Offset,Type`` (values quoted, ``"1.00, 0.50"``)
  or, copied from its tree, ``name  value  offset  type`` lines;
* floats with at most 5 decimals (``1.00``, ``0.33333``, ``1.00000E-06``, ``NaN``,
  ``INF``), hex-displayed integers (``xint``...) as bare zero-padded digits
  (``3F800000``), ``...`` rows for paged views and ``-- Restart`` for primitive restart.

Indexes, names, byte offsets and types are labels, never values; integers (int/uint
columns) are not floats and are left out of the values (:func:`renderdoc_integers` gives
them as integer codes, which the paste offers as a reading of their own); a hex cell is a bit pattern of its width
(4 digits f16, 8 f32, 16 f64), read exactly. A printed decimal reads as the nearest
pattern in the format and says it is not bit-exact (RenderDoc rounded it); a value that
does not fit f32 (``1.00000E-300``) reads as f64 when no format is given.
"""

from __future__ import annotations

import re

from ..formats import FORMATS, FloatFormat
from .lex import ParseError
from .literals import encode_decimals, special_bits
from .roles import DEFAULT_DECIMAL
from .values import MAX_VALUES, ParsedValue

__all__ = ["NoFloatInRenderDoc", "read_renderdoc", "renderdoc_integers"]

_FLOAT = re.compile(r"-?\d+\.\d{2,5}$|-?\d\.\d{5}E[+-]\d{2,3}$", re.ASCII)
_SPECIAL = re.compile(r"NaN$|nan$|-?INF$", re.ASCII)
_HEX = re.compile(r"[0-9A-F]{4}$|[0-9A-F]{8}$|[0-9A-F]{16}$", re.ASCII)
_UINT = re.compile(r"\d+$", re.ASCII)
_INT = re.compile(r"-?\d+$", re.ASCII)
_MESHLET = re.compile(r"\d+\[\d+\]$", re.ASCII)
#: Cells that hold no value: paged rows, restart rows, out-of-bounds, bools, structs.
_EMPTY = {"...", "--", "---", "Restart", "true", "false", "{", "}", "???"}
_HEX_FMT = {4: "f16", 8: "f32", 16: "f64"}
#: the widest format: a decimal the read width turns into inf or zero is read in it
_F64 = max(FORMATS.values(), key=lambda f: f.bits)
_TYPE_FMT = {"float": "f32", "half": "f16", "double": "f64"}
_CB_HEADER = "Name,Value,Byte Offset,Type"
#: A constant buffer tree line: name, value, byte offset (decimal, 0x..., '-' or none), type.
_TREE_TYPE = re.compile(
    r"(?:(?P<base>float|half|double|u?int|bool|u?short|u?byte|u?long)\d*(?:x\d+ \((?:row|column)_major\))?(?:\[\d+\])?|struct|Padding)$",
    re.ASCII)
_TREE_NAME = re.compile(r"[A-Za-z_][\w.\[\]]*$", re.ASCII)
_TREE_OFFSET = re.compile(r"\d+$|0x[0-9A-F]{8}$|-$", re.ASCII)
_NOTE_DEC = ("RenderDoc prints at most 5 decimals: the nearest {fmt} to the printed value, "
             "not bit-exact")
_NOTE_NAN = "RenderDoc prints NaN without its payload: a quiet NaN, not bit-exact"


def _tokens(text: str, a: int, b: int) -> list[tuple[str, int, int]]:
    """Whitespace- and comma-separated tokens of ``text[a:b]`` with their spans."""
    return [(m.group(), a + m.start(), a + m.end())
            for m in re.finditer(r"[^\s,]+", text[a:b])]


def _gap_ok(text: str, start: int) -> bool:
    """RenderDoc puts a space where a positive float's sign would be: after the cell
    separator (one space, or ", ") there is a second blank, or the cell opens a line."""
    i = start - 1
    n = 0
    while i >= 0 and text[i] in " \t,":
        n += 1
        i -= 1
    return n >= 2 or i < 0 or text[i] == "\n"


class NoFloatInRenderDoc(ParseError):
    """RenderDoc text whose cells hold no float (int/uint cells, indexes, paged or restart
    rows): :func:`renderdoc_integers` may still read it as integer codes."""


class _Cells:
    """Collects value cells and turns them into ParsedValues (decimals rounded in one go)."""

    def __init__(self, text: str, fmt: FloatFormat | None) -> None:
        self.text, self.fmt = text, fmt
        self.items: list[list] = []  # [fmt name, bits|None, start, end, kind, label, note]
        self.skipped: list[str] = []
        self.ints: list[tuple[str, str]] = []  # (text, "i32" | "u32"): int/uint cells
        self.sep = 1  # the cell separator's length: one space (Ctrl+C), ", " (CSV)
        #: header-less, and RenderDoc's only by the sign gaps of its integer cells
        self.by_int_spacing = False

    def cell(self, tok: str, a: int, b: int, label: str, width: str | None = None,
             code: str | None = None, typed: bool = False, hex_ok: bool = True) -> bool:
        """Take one cell; False when it is not RenderDoc's (the caller gives up). An
        integer is an int/uint cell where ``code`` names its type, or in a buffer row (not
        ``typed``); in a constant-buffer entry of another type (a float array's parent
        line holds its byte offset) it is no code."""
        if len(self.items) >= MAX_VALUES:
            raise ParseError(f"more than {MAX_VALUES} values", self.text, a)
        f = self.fmt.name if self.fmt is not None else width
        if _FLOAT.match(tok):
            self.items.append([f, None, a, b, "decimal", label, ""])
        elif _SPECIAL.match(tok):
            name = f or DEFAULT_DECIMAL
            bits, note = special_bits(tok, FORMATS[name])
            self.items.append([name, bits, a, b, "special", label,
                               note or (_NOTE_NAN if "nan" in tok.lower() else "")])
        elif hex_ok and _HEX.match(tok) and width is None and _hex_cell(tok) and not (
                tok.isdigit() and _blanks_before(self.text, a) > self.sep):  # (" 16777216":
            # an int's sign gap; a hex cell has none)
            name = self.fmt.name if self.fmt is not None else _HEX_FMT[len(tok)]
            bits = int(tok, 16)
            if bits > FORMATS[name].mask:
                raise ParseError(f"{tok!r} is {len(tok) * 4} bits wide and does not fit {name}",
                                 self.text, a)
            self.items.append([name, bits, a, b, "hex", label, ""])
        elif _INT.match(tok):
            self.skipped.append(tok)
            if code is not None:  # (a constant buffer's int/uint entry)
                self.ints.append((tok, code))
            elif not typed:  # a buffer cell: " 5" has an int's sign gap, a uint none
                signed = tok.startswith("-") or _blanks_before(self.text, a) > self.sep
                self.ints.append((tok, "i32" if signed else "u32"))
        elif tok in _EMPTY or tok == "Restart":
            self.skipped.append(tok)
        else:
            return False
        return True

    def values(self) -> list[ParsedValue]:
        if not self.items:
            seen = ", ".join(repr(s) for s in dict.fromkeys(self.skipped)) or "nothing"
            if self.by_int_spacing:
                raise NoFloatInRenderDoc(
                    f"read as a RenderDoc Ctrl+C row of integer cells (an index, then {seen}"
                    "; two spaces before a number are where RenderDoc puts an int's sign): "
                    "no float in it. Typed numbers? Separate them with one space or a comma",
                    self.text, 0)
            raise NoFloatInRenderDoc(f"RenderDoc text with no float in it (only {seen}: "
                                     "indexes, integers, paged or restart rows)", self.text, 0)
        groups: dict[str, list[int]] = {}
        for i, it in enumerate(self.items):
            if it[1] is None:
                groups.setdefault(it[0] or DEFAULT_DECIMAL, []).append(i)
        for name, idx in groups.items():
            texts = [self.text[self.items[i][2]:self.items[i][3]] for i in idx]
            pats = encode_decimals(texts, FORMATS[name])
            fmt = FORMATS[name]
            wide = self.fmt is None and fmt.bits < _F64.bits  # (no format asked for)
            exact64 = encode_decimals(texts, _F64) if wide else []
            for k, (i, p) in enumerate(zip(idx, pats)):
                it = self.items[i]
                it[0], it[1] = name, p
                if wide and _lost_in(fmt, p, exact64[k]):
                    it[0], it[1] = _F64.name, exact64[k]
                it[6] = _NOTE_DEC.format(fmt=it[0])
                if it[0] != name:
                    it[6] += f"; outside {name}'s range, so read as {_F64.name}"
        return [ParsedValue(it[0], int(it[1]), it[2], it[3], it[4], self.text[it[2]:it[3]],
                            it[5], it[6], g) for g, it in enumerate(self.items)]


def _sign_gap(text: str, start: int) -> bool:
    """Two or more spaces before ``start`` on its line, after a cell: the separator and the
    space RenderDoc's ``interpretVariant`` puts where a non-negative int's sign would be
    (an int/uint-only Ctrl+C row, ``"0  7 -7"``, has no float to show it is RenderDoc's)."""
    i = start - 1
    while i >= 0 and text[i] == " ":
        i -= 1
    return start - 1 - i >= 2 and i >= 0 and text[i] not in "\r\n\t,"


def _int_row(text: str, toks: list[tuple[str, int, int]]) -> bool:
    """Whether ``toks`` may be a Ctrl+C of integer cells only, by its shape: the index and
    two or more cells, joined by one space or, before a non-negative int, two (a copy of
    one row; several rows pad their cells to the column widths)."""
    if len(toks) < 3 or "\n" in text.strip():
        return "\n" in text.strip() and len(toks) >= 3
    return all(text[b:a2] in (" ", "  ") for (_, _, b), (_, a2, _) in zip(toks, toks[1:]))


def _blanks_before(text: str, start: int) -> int:
    """Spaces, tabs and commas right before ``start`` (a Ctrl+C copy of several rows pads
    each cell to its column's width, so there a uint may read as an i32: the same number,
    and a value from 2^31 on is a u32 whatever the gap)."""
    i = start - 1
    while i >= 0 and text[i] in " \t,":
        i -= 1
    return start - 1 - i


def _hex_cell(tok: str) -> bool:
    """A hex-displayed integer (xint...): zero-padded to its width, so a letter, a leading
    zero or 8+ digits; a 4-digit decimal without them is an integer column's value."""
    return not tok.isdigit() or tok[0] == "0" or len(tok) >= 8


def _lost_in(fmt: FloatFormat, p: int, p64: int) -> bool:
    """A finite nonzero decimal that ``fmt`` (pattern ``p``) turns into inf or zero."""
    mag64 = p64 & ~_F64.sign_mask
    mag = p & ~fmt.sign_mask
    finite64 = mag64 < _F64.pos_inf
    return bool(mag64 and finite64 and (mag == 0 or mag == fmt.pos_inf))


def read_renderdoc(text: str, fmt: FloatFormat | None) -> list[ParsedValue] | None:
    """The values of RenderDoc text, or None when ``text`` is not RenderDoc's."""
    cells = _read(text, fmt)
    return None if cells is None else cells.values()


def renderdoc_integers(text: str) -> list[tuple[str, int]]:
    """The integer cells of RenderDoc text (int/uint columns and entries, which
    :func:`read_renderdoc` leaves out of the floats) as integer codes: ``("i32" | "u32",
    32-bit pattern)`` in text order; [] when the text is not RenderDoc's or has none, or
    one is beyond 32 bits. Signed or not, as RenderDoc's ``interpretVariant`` prints them: an
    int with a space where its sign would be (``" 5"``, ``"-3"``), a uint without; a
    constant buffer's Type column says it."""
    try:
        cells = _read(text, None)
    except ParseError:
        return []
    if cells is None:
        return []
    out = []
    for tok, kind in cells.ints:
        v = int(tok)
        if kind == "i32" and v >= 1 << 31:
            kind = "u32"  # (a sign gap of a uint column's neighbour: the value says uint)
        if not -(1 << 31) <= v < 1 << 32 or (kind == "u32" and v < 0):
            return []
        out.append((kind, v % (1 << 32)))
    return out


def _read(text: str, fmt: FloatFormat | None) -> _Cells | None:
    lead = text.lstrip("\r\n")
    if lead.startswith(_CB_HEADER) and lead[len(_CB_HEADER):].lstrip("\r ")[:1] in ("\n", ""):
        return _cbuffer_csv(text, fmt)
    if lead.startswith(("Element, ", "VTX, IDX")):
        first = lead.split("\n", 1)[0].rstrip("\r ")
        head = [c.strip() for c in first.split(", ")]
        start = text.index(first) + len(first)
        return _rows(text, start, fmt, 1 if head[0] == "Element" else 2, head)
    found = _rows(text, 0, fmt, 0, None)
    if found is not None:
        return found
    return _tree_copy(text, fmt)


def _rows(text: str, start: int, fmt: FloatFormat | None, nlabels: int,
          head: list[str] | None) -> _Cells | None:
    """Buffer / mesh rows (CSV after its header, or a header-less Ctrl+C): a line that
    opens with an index starts a row, its first ``nlabels`` cells (Element, or VTX and
    IDX) are labels; lines that open with a cell continue a matrix cell's rows."""
    cells = _Cells(text, fmt)
    cells.sep = 2 if head else 1
    # header-less: the index and the sign-space are the evidence, looked for in the
    # opening 2000 characters (a copied row is short) before the whole text is cut up
    toks = _tokens(text, start, len(text) if head else min(len(text), 2000))
    if not toks:
        return None if head is None else cells
    if head is None:
        t0 = toks[0][0]
        if not (_UINT.match(t0) or _MESHLET.match(t0) or t0 == "..."):
            return None
        t1 = toks[1][0] if len(toks) > 2 else ""
        idx_like = bool(_UINT.match(t1)) and not (len(t1) >= 8 or (len(t1) > 1 and t1[0] == "0"))
        nlabels = 2 if (idx_like or t1 == "--") and text[toks[0][2]:toks[1][1]] == " " else 1
        evidence = False
        int_row: bool | None = None
        other_evidence = False
        for tok, a, _ in toks[1:]:
            if (_FLOAT.match(tok) and tok[0] != "-") or tok in ("NaN", "INF"):
                if not _gap_ok(text, a):
                    return None
                evidence = other_evidence = True
            elif tok in ("-INF", "Restart", "...") or (tok.startswith("-") and _FLOAT.match(tok)):
                evidence = other_evidence = True
            elif _HEX.match(tok) and (not tok.isdigit() or tok[0] == "0"):
                evidence = other_evidence = True  # xint & co: zero-padded, upper-case, no 0x
            elif _UINT.match(tok) and _sign_gap(text, a):
                if int_row is None:  # (weighed once: the row's shape)
                    int_row = _int_row(text, toks)
                evidence = evidence or int_row  # an int column's " 5": the sign's space
        if not evidence:
            return None
        cells.by_int_spacing = not other_evidence
        toks = _tokens(text, 0, len(text))
    not_hex = _decimal_columns(text, toks, nlabels) if head else set()
    row_label = ""
    labels_left = 0
    col = 0
    line_start = True
    prev_end = start
    for tok, a, b in toks:
        if "\n" in text[prev_end:a]:
            line_start = True
        prev_end = b
        opens_row = line_start and (_UINT.match(tok) or _MESHLET.match(tok) or tok == "...")
        line_start = False
        if opens_row:
            labels_left, col = nlabels, 0
            row_label = ""
        if labels_left:
            labels_left -= 1
            name = head[col] if head and col < len(head) else ("VTX", "IDX")[col] if (
                nlabels == 2) else "Element"
            row_label += (" " if row_label else "") + f"{name} {tok}"
            col += 1
            continue
        name = head[col] if head and col < len(head) else f"cell {col}"
        if not cells.cell(tok, a, b, f"{row_label}: {name}" if row_label else name,
                          hex_ok=col not in not_hex):
            if head is None:
                return None
            raise ParseError(f"cannot read {tok!r} in RenderDoc's CSV (a float, a hex "
                             "pattern, an integer, '...' or 'Restart' expected)", text, a)
        col += 1
    return cells


def _decimal_columns(text: str, toks: list[tuple[str, int, int]], nlabels: int) -> set[int]:
    """The columns of a CSV body that cannot be hex (xint, xshort, xlong): RenderDoc pads a
    hex cell to its width, so a column whose cells differ in length or hold a token that is
    no hex cell is decimal, and its 8-digit cells (``16777216`` of a uint) are integers."""
    lengths: dict[int, set[int]] = {}
    bad: set[int] = set()
    col, prev_end = 0, 0
    for tok, a, b in toks:
        if prev_end == 0 or "\n" in text[prev_end:a]:
            col = 0  # (counted as the reader counts: the row's labels first)
        prev_end = b
        if col >= nlabels:
            lengths.setdefault(col, set()).add(len(tok))
            if not _HEX.match(tok):
                bad.add(col)
        col += 1
    return bad | {c for c, n in lengths.items() if len(n) > 1}


def _split_csv(text: str) -> list[list[tuple[str, int, int]]]:
    """Records of a CSV with their fields' spans (inside quotes when quoted); a quoted
    field may hold newlines."""
    records: list[list[tuple[str, int, int]]] = []
    fields: list[tuple[str, int, int]] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] == '"':
            j = text.find('"', i + 1)
            if j < 0:
                raise ParseError("unclosed '\"' in RenderDoc's CSV", text, i)
            fields.append((text[i + 1:j], i + 1, j))
            i = j + 1
        else:
            j = i
            while j < n and text[j] not in ",\n":
                j += 1
            fields.append((text[i:j].rstrip("\r"), i, j))
            i = j
        if i < n and text[i] == ",":
            i += 1
            if i == n:
                fields.append(("", i, i))
            continue
        if fields and any(f[0] for f in fields):
            records.append(fields)
        fields = []
        i += 1
    if fields and any(f[0] for f in fields):
        records.append(fields)
    return records


def _width(type_text: str) -> str | None:
    m = _TREE_TYPE.match(type_text.strip())
    return _TYPE_FMT.get(m.group("base") or "") if m else None


def _cbuffer_csv(text: str, fmt: FloatFormat | None) -> _Cells:
    """``Name,Value,Byte Offset,Type`` (BufferViewer::exportCSV): values from the Value
    field only, their width from the Type field (float, half, double)."""
    cells = _Cells(text, fmt)
    for rec in _split_csv(text)[1:]:
        if len(rec) != 4:
            raise ParseError(f"a constant-buffer CSV row has 4 fields (Name, Value, Byte "
                             f"Offset, Type), this one {len(rec)}", text, rec[0][1])
        (name, _, _), (value, va, vb), _, (typ, _, _) = rec
        _value_cells(cells, text, va, vb, name, _width(typ), _int_code(typ))
    return cells


def _int_code(type_text: str) -> str | None:
    """The code type of an integer constant-buffer entry (``uint2`` -> u32), else None."""
    m = _TREE_TYPE.match(type_text.strip())
    base = m.group("base") if m else None
    return {"int": "i32", "uint": "u32"}.get(base or "")


def _value_cells(cells: _Cells, text: str, a: int, b: int, name: str, width: str | None,
                 code: str | None = None) -> None:
    toks = _tokens(text, a, b)
    for k, (tok, ta, _) in enumerate(toks):
        tok_c = tok.strip("{}")
        ta += tok.index(tok_c) if tok_c else 0
        label = name if len(toks) == 1 else f"{name}[{k}]"
        if not tok_c or not cells.cell(tok_c, ta, ta + len(tok_c), label, width, code, True):
            if tok_c:
                raise ParseError(f"cannot read {tok_c!r} in a RenderDoc constant-buffer value",
                                 text, ta)


def _tree_copy(text: str, fmt: FloatFormat | None) -> _Cells | None:
    """Lines copied from the constant-buffer tree (RDTreeView::copySelection): name,
    value, byte offset, type; None unless every line is one."""
    if len(text.lstrip().split("\n", 1)[0]) > 400:
        return None  # columns are at most 50 wide (RDTreeView::copySelection)
    lines = [(m.group(), m.start()) for m in re.finditer(r"[^\n]+", text)]
    if not lines:
        return None
    cells = _Cells(text, fmt)
    for line, at in lines:
        if len(line) > 400:  # columns are at most 50 wide (RDTreeView::copySelection)
            return None
        parts = [(m.group(), at + m.start(), at + m.end())
                 for m in re.finditer(r"\S+", line.rstrip("\r"))]
        if not parts:
            continue
        if len(parts) < 3 or not _TREE_NAME.match(parts[0][0]):
            return None
        typ = parts[-1][0]
        k = len(parts) - 1
        if typ in ("(row_major)", "(column_major)"):
            k -= 1
            typ = parts[k][0] + " " + typ
        if _TREE_TYPE.match(typ) is None:
            return None
        if typ == "Padding":
            continue
        if k > 2 and _TREE_OFFSET.match(parts[k - 1][0]):
            k -= 1
        va, vb = parts[1][1], parts[k - 1][2]
        if va >= vb:
            continue  # a struct or array parent: no value of its own
        try:
            _value_cells(cells, text, va, vb, parts[0][0], _width(typ), _int_code(typ))
        except ParseError:
            return None
    if not cells.items and not cells.skipped:
        return None
    return cells
