"""Rebuild what RenderDoc's buffer, mesh and constant-buffer views put on the clipboard or in
a CSV file, from known bit patterns, following RenderDoc's own formatting code, and write
one JSON case per text to ``tests/data/paste_corpus/renderdoc/``.

Why rebuilt and not captured: qrenderdoc makes this text only in its GUI (Ctrl+C in a
table, "Export to CSV" behind a file dialog) with a capture loaded; Debian's
python3-renderdoc 1.24 and renderdoccmd are the replay library and a command-line tool
and hold none of qrenderdoc's ``Formatter``/``BufferViewer`` code, so they cannot print
it. Every function below names the RenderDoc function it follows
(baldurk/renderdoc at ``RD_SOURCE``; paths relative to its root).

Expected bits are computed here with exact fractions (not by fpinspector): for a decimal
RenderDoc printed, the pattern nearest the printed value in the column's format, marked
``"exact": false`` where that is not the pattern the buffer held.

Usage: python scripts/renderdoc_paste_corpus.py [--check]  (--check: compare, write nothing)
"""

from __future__ import annotations

import argparse
import json
import math
import struct
import sys
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

RD_SOURCE = "baldurk/renderdoc 369520d3197c76907f4d5fafbee34a053d2e9664 (v1.35-83-g369520d31)"
OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "paste_corpus" / "renderdoc"

# --- bit patterns -> host values --------------------------------------------------------

_FMT = {"f16": (5, 10), "f32": (8, 23), "f64": (11, 52)}


def f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def f16(bits: int) -> float:
    """rdhalf -> float (qrenderdoc/Code/BufferFormatter.cpp GetVariants: halves are shown as
    the float they convert to)."""
    return struct.unpack("<e", struct.pack("<H", bits))[0]


def f64(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def as_float(fmt: str, bits: int) -> float:
    return {"f16": f16, "f32": f32, "f64": f64}[fmt](bits)


# --- the oracle: nearest pattern to a printed decimal, by exact fractions ---------------

def nearest_bits(text: str, fmt: str) -> int:
    """Round the decimal ``text`` to nearest-even in ``fmt`` (IEEE, overflow to inf)."""
    t = text.strip()
    ebits, mbits = _FMT[fmt]
    sign_bit = 1 << (ebits + mbits)
    inf = ((1 << ebits) - 1) << mbits
    low = t.lower()
    neg = low.startswith("-")
    if "nan" in low:
        return inf | (1 << (mbits - 1))  # a quiet NaN: RenderDoc prints no payload
    if "inf" in low:
        return (sign_bit if neg else 0) | inf
    q = Fraction(t.lstrip("+-").replace("E", "e"))
    sgn = sign_bit if neg else 0
    if q == 0:
        return sgn
    bias = (1 << (ebits - 1)) - 1
    emin = 1 - bias
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, emin)
    scaled = q / Fraction(2) ** (e - mbits)  # significand in units of the last place
    n = math.floor(scaled)
    rem = scaled - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2):
        n += 1
    if n >= 1 << (mbits + 1):
        n >>= 1
        e += 1
    if n < 1 << mbits:  # subnormal (e == emin)
        return sgn | n
    biased = e + bias
    if biased >= (1 << ebits) - 1:
        return sgn | inf
    return sgn | (biased << mbits) | (n - (1 << mbits))


# --- qrenderdoc/Code/QRDUtils.cpp, Formatter (default settings) -------------------------

MIN_FIGURES, MAX_FIGURES = 2, 5  # Formatter::m_minFigures / m_maxFigures
EXP_NEG, EXP_POS = 0.00001, 10000000.0  # m_expNegValue = 10^-5, m_expPosValue = 10^7


def fmt_double(d: float) -> str:
    """Formatter::Format(double f, bool): 'E' with 5 decimals outside [1e-5, 1e7], else 'f'
    with 5 decimals and trailing zeros trimmed down to 2. Qt's QString::arg(double) (Qt 5,
    qlocale.cpp doubleToString) spells inf as "inf", upper-cased by the 'E' format's
    CapitalEorX flag; a zero is never negative (``if (isZero(d)) negative = false``)."""
    if d != 0.0 and (abs(d) < EXP_NEG or abs(d) > EXP_POS):
        if math.isinf(d):
            return "-INF" if d < 0 else "INF"
        return _sci(d)
    if math.isnan(d):
        return "nan"
    ret = _fixed(0.0 if d == 0 else d)
    decimal = ret.rfind(".")
    if decimal > 0:
        decimal += MIN_FIGURES
        length = len(ret)
        remove = 0
        while length - remove - 1 > decimal and ret[length - remove - 1] == "0":
            remove += 1
        if remove:
            ret = ret[:length - remove]
    return ret


def _fixed(d: float) -> str:
    """'f' with MAX_FIGURES decimals of the exact binary value, a tie rounded away from zero
    (Qt's double-conversion; qrenderdoc 1.24 prints the half -19.203125 as -19.20313, where
    C's printf gives -19.20312)."""
    q = Decimal(d).quantize(Decimal(1).scaleb(-MAX_FIGURES), rounding=ROUND_HALF_UP)
    return f"{q:f}"


def _sci(d: float) -> str:
    """'E' with MAX_FIGURES decimals, ties away from zero, a two-digit exponent at least
    (Qt's ZeroPadExponent)."""
    x = Decimal(d)
    exp = x.copy_abs().adjusted()
    q = x.scaleb(-exp).quantize(Decimal(1).scaleb(-MAX_FIGURES), rounding=ROUND_HALF_UP)
    if abs(q) >= 10:  # 9.999995 -> 10.00000: one more power of ten
        exp += 1
        q = x.scaleb(-exp).quantize(Decimal(1).scaleb(-MAX_FIGURES), rounding=ROUND_HALF_UP)
    return f"{q:f}E{'-' if exp < 0 else '+'}{abs(exp):02d}"


def fmt_uint(u: int, hex_digits: int = 0) -> str:
    """Formatter::Format(uint32_t/uint16_t/uint64_t u, bool hex) (QRDUtils.h): hex is
    zero-padded to the type's width and upper-cased, without 0x."""
    return f"{u:0{hex_digits}X}" if hex_digits else str(u)


# --- qrenderdoc/Windows/BufferViewer.cpp ------------------------------------------------

def interpret_variant(kind: str, raw: int) -> str:
    """interpretVariant(): floats and doubles get a space where the sign would be; NaN is
    " NaN"; zero (either sign) is " " + Format(0.0); xint-style columns are
    Formatter::HexFormat (8, 4 or 2 digits) and xlong Format(uint64, true)."""
    if kind in ("f32", "f16", "f64"):
        d = as_float(kind, raw)
        if d < 0:
            return fmt_double(d)
        if d > 0:
            return " " + fmt_double(d)
        if math.isnan(d):
            return " NaN"
        return " " + fmt_double(0.0)
    if kind == "xint":
        return fmt_uint(raw, 8)
    if kind == "xshort":
        return fmt_uint(raw, 4)
    if kind == "xlong":
        return fmt_uint(raw, 16)
    if kind == "uint":
        return fmt_uint(raw)
    if kind == "int":  # Formatter::Format(int32_t): QString::number, " " where the sign is
        i = raw - (1 << 32) if raw >> 31 else raw
        return f" {i}" if i >= 0 else str(i)
    raise ValueError(kind)


class Column:
    """One shader element of the buffer format: ``name``, ``kind`` (f32, f16, f64, xint,
    xshort, xlong, uint), ``comps`` (vector width) and ``rows`` (matrix rows)."""

    def __init__(self, name: str, kind: str, comps: int = 1, rows: int = 1):
        self.name, self.kind, self.comps, self.rows = name, kind, comps, rows


def headers(cols: list[Column], mesh: bool) -> list[str]:
    """BufferItemModel::headerData(): "VTX", "IDX" (mesh) or "Element", then name or
    name.x/.y/.z/.w per column of the element."""
    out = ["VTX", "IDX"] if mesh else ["Element"]
    for c in cols:
        if c.comps == 1:
            out.append(c.name)
        else:
            out.extend(f"{c.name}.{'xyzw'[i]}" for i in range(c.comps))
    return out


def element_cells(c: Column, vals: list[int]) -> list[str]:
    """BufferItemModel::data() for the element's columns: a vector gives one cell per
    component; a matrix gives one cell per column, its rows joined by newlines
    (``ret += lit("\\n")``). ``vals`` are row-major, as GetVariants returns them."""
    if c.rows == 1:
        return [interpret_variant(c.kind, v) for v in vals]
    return ["\n".join(interpret_variant(c.kind, vals[r * c.comps + k]) for r in range(c.rows))
            for k in range(c.comps)]


def model_rows(cols: list[Column], data: list[list[list[int]]], *, mesh: bool = False,
               indices: list[int] | None = None, restart: int = 0, paging_offset: int = 0,
               unclamped: int | None = None) -> list[list[str]]:
    """Every row of BufferItemModel::data(DisplayRole): "..." across a first row when
    paged (pagingOffset > 0); "..." in the last two rows of a clamped view, whose last row
    shows the last index; "--" / " Restart" on a primitive-restart row; the Element/VTX
    cell is row + pagingOffset; IDX is the index."""
    ncols = len(headers(cols, mesh))
    nrows = len(indices) if indices is not None else len(data)
    out: list[list[str]] = []
    if paging_offset > 0:
        out.append(["..."] * ncols)
    for row in range(nrows):
        if unclamped is not None and unclamped > paging_offset + nrows and row >= nrows - 2:
            cells = ["..."] * ncols
            if row == nrows - 1:
                for k in range(2 if mesh else 1):
                    cells[k] = str(unclamped - 1)
            out.append(cells)
            continue
        idx = row if indices is None else indices[row]
        if restart and idx == restart:
            out.append([str(row + paging_offset)] + ["--" if k == 1 else " Restart"
                                                     for k in range(1, ncols)])
            continue
        cells = [str(row + paging_offset)] + ([str(idx)] if mesh else [])
        for c, vals in zip(cols, data[idx]):
            cells.extend(element_cells(c, vals))
        out.append(cells)
    return out


def csv_export(cols: list[Column], rows: list[list[str]], mesh: bool) -> str:
    """BufferViewer::exportData(), CSV through the model: header cells and row cells joined
    by ", ", no quoting (a matrix cell's newlines go into the file as they are)."""
    lines = [", ".join(headers(cols, mesh))]
    lines.extend(", ".join(r) for r in rows)
    return "\n".join(lines) + "\n"


def csv_export_chunked(cols: list[Column], data: list[list[list[int]]], row_offset: int) -> str:
    """BufferViewer::exportData(), CSV of a buffer larger than the viewer holds (read in
    64k-row chunks): ``s << (rowOffset + idx) << ", "`` then every variant of every
    element (a matrix flattened row-major), joined by ", "."""
    lines = [", ".join(headers(cols, False))]
    for i, row in enumerate(data):
        parts = []
        for c, vals in zip(cols, row):
            parts.append(", ".join(interpret_variant(c.kind, v) for v in vals))
        lines.append(f"{row_offset + i}, " + ", ".join(parts))
    return "\n".join(lines) + "\n"


def table_copy(rows: list[list[str]], sel: list[tuple[int, int]]) -> str:
    """RDTableView::copyIndices(): widths from the selected cells (capped at 50), every
    cell of the bounding rectangle left-justified to its column's width (QString::arg with
    a negative field width), joined by one space, rows by newlines, the whole trimmed."""
    widths: dict[int, int] = {}
    for r, c in sel:
        widths[c] = max(widths.get(c, 0), len(rows[r][c]))
    widths = {c: min(50, w) for c, w in widths.items()}
    top, bottom = min(r for r, _ in sel), max(r for r, _ in sel)
    left, right = min(c for _, c in sel), max(c for _, c in sel)
    clip = ""
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            text = rows[r][c]
            cell = text.ljust(widths.get(c, 0))
            clip += cell if c == left else " " + cell
        clip += "\n"
    return clip.strip()


def row_selection(rows: list[list[str]], r: int) -> list[tuple[int, int]]:
    """The buffer and mesh tables are SingleSelection + SelectRows
    (qrenderdoc/Windows/BufferViewer.ui): a Ctrl+C copies one whole row."""
    return [(r, c) for c in range(len(rows[r]))]


# --- constant buffers: BufferViewer fixed variables (qrenderdoc/Code/BufferFormatter.cpp) -

def row_values(kind: str, vals: list[int]) -> str:
    """RowValuesToString(): Formatter::Format of each component (no sign padding), joined
    by ", "; a hex uint is Format(u, true)."""
    if kind in ("f32", "f16", "f64"):
        return ", ".join(fmt_double(as_float(kind, v)) for v in vals)
    if kind == "xint":
        return ", ".join(fmt_uint(v, 8) for v in vals)
    return ", ".join(fmt_uint(v) for v in vals)


_TYPE = {"f32": "float", "f16": "half", "f64": "double", "xint": "uint", "uint": "uint"}


class Var:
    """A constant: scalar/vector (``rows`` 1), matrix, array of those (``elements``) or a
    struct (``members``)."""

    def __init__(self, name: str, kind: str = "f32", vals: list[int] | None = None,
                 comps: int = 1, rows: int = 1, elements: int = 0,
                 members: list[Var] | None = None, offset: int = 0, row_major: bool = False,
                 array_stride: int = 0):
        self.name, self.kind, self.vals, self.comps, self.rows = name, kind, vals or [], comps, rows
        self.elements, self.members, self.offset, self.row_major = elements, members, offset, row_major
        self.array_stride = array_stride


def type_string(v: Var, comps: int, rows: int) -> str:
    """TypeString(): "float", "float4", "float4x4 (row_major)"."""
    t = "struct" if v.members is not None else _TYPE[v.kind]
    if rows == 1 and comps == 1:
        return t
    if rows == 1:
        return f"{t}{comps}"
    return f"{t}{rows}x{comps} ({'row_major' if v.row_major else 'column_major'})"


def human_offset(off: int, hex_offsets: bool) -> str:
    """Formatter::HumanFormat(u, OffsetSize): decimal, or "0x" + 8 hex digits with the
    offset display set to hexadecimal (or above 0xffffff)."""
    return "0x" + fmt_uint(off, 8) if (hex_offsets or off > 0xFFFFFF) else str(off)


def tree_items(v: Var, base: int, depth: int, hex_offsets: bool) -> list[tuple[int, list[str]]]:
    """BufferViewer::UI_AddFixedVariables() / UI_FixedAddMatrixRows(): the tree rows
    (depth, [name, value, byte offset, type]); a matrix's value is VarString's
    "{r0}\\n{r1}" with one "name.rowN" child per row; an array one child per element."""
    out: list[tuple[int, list[str]]] = []
    off = human_offset(base + v.offset, hex_offsets)
    if v.members is not None:
        out.append((depth, [v.name, "", off, "struct"]))
        for m in v.members:
            out.extend(tree_items(m, base + v.offset, depth + 1, hex_offsets))
        return out
    n = v.comps * v.rows
    if v.elements:
        out.append((depth, [v.name, "", off, f"{type_string(v, v.comps, v.rows)}[{v.elements}]"]))
        stride = v.array_stride or 16 * v.rows
        for e in range(v.elements):
            sub = Var(f"{v.name}[{e}]", v.kind, v.vals[e * n:(e + 1) * n], v.comps, v.rows,
                      offset=v.offset + e * stride, row_major=v.row_major)
            out.extend(tree_items(sub, base, depth + 1, hex_offsets))
        return out
    if v.rows == 1:
        out.append((depth, [v.name, row_values(v.kind, v.vals), off, type_string(v, v.comps, 1)]))
        return out
    rows = [row_values(v.kind, v.vals[r * v.comps:(r + 1) * v.comps]) for r in range(v.rows)]
    out.append((depth, [v.name, "\n".join("{" + r + "}" for r in rows), off,
                        type_string(v, v.comps, v.rows)]))
    for r, text in enumerate(rows):
        out.append((depth + 1, [f"{v.name}.row{r}", text, "", type_string(v, v.comps, 1)]))
    return out


def _has_children(items: list[tuple[int, list[str]]], i: int) -> bool:
    return i + 1 < len(items) and items[i + 1][0] > items[i][0]


def cbuffer_csv(items: list[tuple[int, list[str]]]) -> str:
    """BufferViewer::exportCSV(): "Name,Value,Byte Offset,Type", a leaf as
    name,"value",offset,type and an item with children as name,,offset,type."""
    out = "Name,Value,Byte Offset,Type\n"
    for i, (_, t) in enumerate(items):
        if _has_children(items, i):
            out += f"{t[0]},,{t[2]},{t[3]}\n"
        else:
            out += f'{t[0]},"{t[1]}",{t[2]},{t[3]}\n'
    return out


def cbuffer_copy(items: list[tuple[int, list[str]]], sel: list[int]) -> str:
    """RDTreeView::copySelection(): widths over the selected rows' four cells, plus
    2 * (maxDepth - minDepth - 1) for the indent (capped at 50), the name indented two
    spaces a level, each line trimmed."""
    depths = [items[i][0] for i in sel]
    lo, hi = min(depths), max(depths)
    widths = [0, 0, 0, 0]
    for i in sel:
        for k in range(4):
            widths[k] = max(widths[k], len(items[i][1][k]))
    widths = [min(50, w + 2 * (hi - lo - 1)) for w in widths]
    clip = ""
    for i in sel:
        d, cells = items[i]
        line = ""
        for k in range(4):
            text = cells[k]
            if k == 0:
                text = " " * ((d - lo) * 2) + text
            # QString::arg(text, -width): left-justified, but a width made negative by the
            # indent term (-2 when every row has the same depth) right-justifies to -width
            w = widths[k]
            cell = text.ljust(w) if w >= 0 else text.rjust(-w)
            line += cell if k == 0 else " " + cell
        clip += line.strip() + "\n"
    return clip


# --- cases ------------------------------------------------------------------------------

def value_expect(kind: str, raw: int, text: str, fmt: str | None = None) -> tuple[str, int, bool]:
    """(format, bits, exact) a user expects from one printed value."""
    if kind in ("xint", "xshort", "xlong"):
        f = {"xint": "f32", "xshort": "f16", "xlong": "f64"}[kind]
        return f, raw, True
    f = fmt or "f32"
    bits = nearest_bits(text, f)
    return f, bits, (f == kind and bits == raw)


class Corpus:
    def __init__(self) -> None:
        self.cases: dict[str, dict] = {}

    def add(self, name: str, command: str, text: str, values: list[tuple[str, int, bool]] | None,
            *, why: str = "", format_arg: str | None = None,
            codes: list[tuple[str, int]] | None = None) -> None:
        """``codes``: the int/uint cells as (i32 | u32, pattern), offered as integer codes;
        with no ``values`` they are all the text holds."""
        assert name not in self.cases, name
        case: dict = {"tool": "renderdoc", "tool_version": RD_SOURCE, "command": command,
                      "text": text}
        if values is None and codes:
            kinds = sorted({k for k, _ in codes})
            case["expect"] = {"format": kinds[0] if len(kinds) == 1 else kinds,
                              "formats": [k for k, _ in codes], "bits": [b for _, b in codes],
                              "codes": True}
        elif values is None:
            case["expect"] = {"refused": True, "why": why}
        else:
            fmts = sorted({f for f, _, _ in values})
            case["expect"] = {"format": fmts[0] if len(fmts) == 1 else fmts,
                              "formats": [f for f, _, _ in values],
                              "bits": [b for _, b, _ in values],
                              "exact": all(e for _, _, e in values)}
        if codes and values is not None:
            case["expect"]["integer_codes"] = [[k, b] for k, b in codes]
        if format_arg:
            case["format_arg"] = format_arg  # the inspector's format (the text has no width)
        self.cases[name] = case


def _cells_expect(cols: list[Column], data_row: list[list[int]], texts: list[str],
                  fmt_arg: str | None) -> list[tuple[str, int, bool]]:
    """Expected values of a row in cell (text) order: a matrix cell holds its rows."""
    out = []
    k = 0
    for c, vals in zip(cols, data_row):
        if c.kind in ("int", "uint"):  # integer cells: codes (see _codes), no float
            k += len(vals)
            continue
        if c.rows == 1:
            for v in vals:
                out.append(value_expect(c.kind, v, texts[k], fmt_arg))
                k += 1
        else:
            for comp in range(c.comps):
                parts = texts[k].split("\n")
                for r in range(c.rows):
                    out.append(value_expect(c.kind, vals[r * c.comps + comp], parts[r], fmt_arg))
                k += 1
    return out


def _codes(cols: list[Column], data_row: list[list[int]]) -> list[tuple[str, int]]:
    """The row's int/uint cells as integer codes (i32 / u32, 32-bit pattern)."""
    return [("i32" if c.kind == "int" else "u32", v) for c, vals in zip(cols, data_row)
            if c.kind in ("int", "uint") for v in vals]


F32 = [0x3F800000, 0xC0200000, 0x3DCCCCCD, 0x40490FDB, 0x358637BD, 0x7F7FFFFF, 0x000116C2,
       0x00000001, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0x4B3C614E,
       0x3727C5AC, 0x477FE000, 0x3EAAAAAB, 0xBF000000, 0x42F6E979, 0x00800000]
F16 = [0x3C00, 0xC100, 0x3555, 0x0001, 0x03FF, 0x7BFF, 0x7C00, 0xFC00, 0x7E00, 0x8000, 0x2E66]
F64 = [0x3FF0000000000000, 0x3FD5555555555555, 0x0000000000000001, 0x7FEFFFFFFFFFFFFF,
       0xC00921FB54442D18, 0x3E7AD7F29ABCAF48, 0x7FF8000000000000, 0x01A56E1FC2F8F359]


def build() -> Corpus:
    cp = Corpus()
    # 1. buffer viewer rows, float4 (Element + 4 floats), Ctrl+C of one row and CSV.
    pos = Column("pos", "f32", 4)
    data = [[[F32[(4 * r + k) % len(F32)] for k in range(4)]] for r in range(5)]
    rows = model_rows([pos], data)
    for r in range(5):
        text = table_copy(rows, row_selection(rows, r))
        cp.add(f"buffer_float4_row{r}_ctrl_c", "buffer viewer Ctrl+C (one row)", text,
               _cells_expect([pos], data[r], rows[r][1:], None))
    cp.add("buffer_float4_csv", "buffer viewer Export to CSV", csv_export([pos], rows, False),
           [e for r in range(5) for e in _cells_expect([pos], data[r], rows[r][1:], None)])
    # 2. rows numbered 10 and up (two- and three-digit Element cells).
    many = [[[F32[(r * 3 + k) % len(F32)] for k in range(2)]] for r in range(120)]
    uv = Column("uv", "f32", 2)
    rows = model_rows([uv], many)
    for r in (9, 10, 11, 57, 99, 100, 119):
        cp.add(f"buffer_float2_row{r}_ctrl_c", "buffer viewer Ctrl+C (one row)",
               table_copy(rows, row_selection(rows, r)),
               _cells_expect([uv], many[r], rows[r][1:], None))
    cp.add("buffer_float2_rows_0_to_119_csv", "buffer viewer Export to CSV",
           csv_export([uv], rows, False),
           [e for r in range(120) for e in _cells_expect([uv], many[r], rows[r][1:], None)])
    # 3. mesh view: VTX IDX then attributes, with an index buffer and primitive restart.
    mpos = Column("POSITION", "f32", 4)
    mcol = Column("TEXCOORD0", "f32", 2)
    verts = [[[F32[(v + k) % len(F32)] for k in range(4)], [F32[(v * 7 + k) % len(F32)]
                                                           for k in range(2)]]
             for v in range(16)]
    idx = [0, 1, 2, 0xFFFF, 3, 4, 5, 15, 14, 13, 12, 0xFFFF, 11]
    rows = model_rows([mpos, mcol], verts, mesh=True, indices=idx, restart=0xFFFF)
    for r in (0, 2, 4, 7, 10, 12):
        cp.add(f"mesh_vsin_row{r}_ctrl_c", "mesh viewer (VS In) Ctrl+C (one row)",
               table_copy(rows, row_selection(rows, r)),
               _cells_expect([mpos, mcol], verts[idx[r]], rows[r][2:], None))
    cp.add("mesh_vsin_restart_row_ctrl_c", "mesh viewer (VS In) Ctrl+C of a restart row",
           table_copy(rows, row_selection(rows, 3)), None,
           why="a primitive-restart row: VTX, '--' and 'Restart' cells, no value")
    cp.add("mesh_vsin_csv_with_restart", "mesh viewer (VS In) Export to CSV",
           csv_export([mpos, mcol], rows, True),
           [e for r, i in enumerate(idx) if i != 0xFFFF
            for e in _cells_expect([mpos, mcol], verts[i], rows[r][2:], None)])
    # 4. paged views: "..." first row (paging offset), clamped tail rows.
    rows = model_rows([uv], many[:8], paging_offset=256)
    cp.add("buffer_paged_first_row_ctrl_c", "buffer viewer Ctrl+C of the paged '...' row",
           table_copy(rows, row_selection(rows, 0)), None,
           why="the '...' row of a paged view holds no value")
    cp.add("buffer_paged_row_ctrl_c", "buffer viewer Ctrl+C (paged, Element 259)",
           table_copy(rows, row_selection(rows, 4)),
           _cells_expect([uv], many[3], rows[4][1:], None))
    cp.add("buffer_paged_csv", "buffer viewer Export to CSV (paged view)",
           csv_export([uv], rows, False),
           [e for r in range(8) for e in _cells_expect([uv], many[r], rows[r + 1][1:], None)])
    rows = model_rows([mpos, mcol], verts, mesh=True, indices=list(range(10)), unclamped=5000)
    cp.add("mesh_clamped_tail_csv", "mesh viewer Export to CSV (view clamped, '...' rows)",
           csv_export([mpos, mcol], rows, True),
           [e for r in range(8) for e in _cells_expect([mpos, mcol], verts[r], rows[r][2:], None)])
    cp.add("mesh_clamped_last_row_ctrl_c", "mesh viewer Ctrl+C of the clamped last row",
           table_copy(rows, row_selection(rows, 9)), None,
           why="the last row of a clamped view: its index and '...' cells, no value")
    # 5. hex columns (xint / xshort / xlong) beside floats.
    hx = [Column("bits", "xint"), Column("f", "f32")]
    hdata = [[[b], [b]] for b in (0x3F800000, 0x40000000, 0x00000001, 0x7FC00000, 0x41200000,
                                  0xBF800000, 0x00800000, 0x12345678)]
    rows = model_rows(hx, hdata)
    for r in range(len(hdata)):
        cp.add(f"buffer_xint_float_row{r}_ctrl_c", "buffer viewer Ctrl+C (xint bits; float f)",
               table_copy(rows, row_selection(rows, r)),
               _cells_expect(hx, hdata[r], rows[r][1:], None))
    cp.add("buffer_xint_float_csv", "buffer viewer Export to CSV (xint bits; float f)",
           csv_export(hx, rows, False),
           [e for r in range(len(hdata)) for e in _cells_expect(hx, hdata[r], rows[r][1:], None)])
    x4 = [Column("v", "xint", 4)]
    x4data = [[[0x40000000, 0x40400000, 0x40800000, 0x3F000000]],
              [[0x00000000, 0x80000000, 0x7F800000, 0x33333333]]]
    rows = model_rows(x4, x4data)
    cp.add("buffer_xint4_digits_only_ctrl_c", "buffer viewer Ctrl+C (xint4, digits only)",
           table_copy(rows, row_selection(rows, 0)), _cells_expect(x4, x4data[0], rows[0][1:], None))
    cp.add("buffer_xint4_csv", "buffer viewer Export to CSV (xint4)", csv_export(x4, rows, False),
           [e for r in range(2) for e in _cells_expect(x4, x4data[r], rows[r][1:], None)])
    xs = [Column("h", "xshort", 2), Column("d", "xlong")]
    xsdata = [[[0x3C00, 0x7BFF], [0x3FF0000000000000]], [[0x0001, 0xFC00], [0x7FF0000000000001]]]
    rows = model_rows(xs, xsdata)
    for r in range(2):
        cp.add(f"buffer_xshort2_xlong_row{r}_ctrl_c",
               "buffer viewer Ctrl+C (xshort2 h; xlong d)",
               table_copy(rows, row_selection(rows, r)), _cells_expect(xs, xsdata[r], rows[r][1:], None))
    # 5b. int and uint columns beside a float: integer codes, offered, never floats.
    iu = [Column("f", "f32"), Column("i", "int", 2), Column("u", "uint")]
    iudata = [[[0x3FC00000], [5, 0xFFFFFFFD], [3000000000]],
              [[0xBF800000], [0x80000000, 0], [1065353216]],
              [[0x3DCCCCCD], [0x7FFFFFFF, 1], [0]]]
    rows = model_rows(iu, iudata)
    for r in range(len(iudata)):
        cp.add(f"buffer_float_int2_uint_row{r}_ctrl_c",
               "buffer viewer Ctrl+C (float f; int2 i; uint u)",
               table_copy(rows, row_selection(rows, r)),
               _cells_expect(iu, iudata[r], rows[r][1:], None), codes=_codes(iu, iudata[r]))
    cp.add("buffer_float_int2_uint_csv", "buffer viewer Export to CSV (float f; int2 i; uint u)",
           csv_export(iu, rows, False),
           [e for r in range(len(iudata)) for e in _cells_expect(iu, iudata[r], rows[r][1:], None)],
           codes=[c for r in range(len(iudata)) for c in _codes(iu, iudata[r])])
    io = [Column("i", "int", 2)]
    iodata = [[[7, 0xFFFFFFF9]], [[0x7FFFFFFF, 0x80000000]]]
    rows = model_rows(io, iodata)
    cp.add("buffer_int2_csv", "buffer viewer Export to CSV (int2 i: integers only)",
           csv_export(io, rows, False), None,
           codes=[c for r in range(len(iodata)) for c in _codes(io, iodata[r])])
    # 6. matrices: a float2x2 per element (one cell per matrix column, rows on new lines).
    m = Column("m", "f32", 2, 2)
    mdata = [[[0x3F800000, 0x40000000, 0x40400000, 0x40800000]],
             [[0xBF800000, 0x3DCCCCCD, 0x00000001, 0x7F800000]]]
    rows = model_rows([m], mdata)
    for r in range(2):
        cp.add(f"buffer_float2x2_row{r}_ctrl_c", "buffer viewer Ctrl+C (float2x2 m: matrix cells)",
               table_copy(rows, row_selection(rows, r)), _cells_expect([m], mdata[r], rows[r][1:], None))
    cp.add("buffer_float2x2_csv", "buffer viewer Export to CSV (float2x2 m: matrix cells)",
           csv_export([m], rows, False),
           [e for r in range(2) for e in _cells_expect([m], mdata[r], rows[r][1:], None)])
    # 7. the chunked CSV of a buffer larger than the viewer holds (matrices flattened).
    big = [[[F32[(r + k) % len(F32)] for k in range(4)]] for r in range(6)]
    cp.add("buffer_large_chunked_csv", "buffer viewer Export to CSV (large buffer, chunked)",
           csv_export_chunked([pos], big, 65536),
           [value_expect("f32", v, interpret_variant("f32", v)) for row in big for v in row[0]])
    cp.add("buffer_large_chunked_matrix_csv",
           "buffer viewer Export to CSV (large buffer, chunked, float2x2)",
           csv_export_chunked([m], mdata, 131072),
           [value_expect("f32", v, interpret_variant("f32", v)) for row in mdata for v in row[0]])
    # 8. half and double columns: the text has no width; the inspector's format is given.
    hcol = Column("h", "f16", 4)
    hdata16 = [[[F16[(4 * r + k) % len(F16)] for k in range(4)]] for r in range(3)]
    rows = model_rows([hcol], hdata16)
    for r in range(3):
        cp.add(f"buffer_half4_row{r}_ctrl_c", "buffer viewer Ctrl+C (half4, inspector in f16)",
               table_copy(rows, row_selection(rows, r)),
               _cells_expect([hcol], hdata16[r], rows[r][1:], "f16"), format_arg="f16")
    cp.add("buffer_half4_csv", "buffer viewer Export to CSV (half4, inspector in f16)",
           csv_export([hcol], rows, False),
           [e for r in range(3) for e in _cells_expect([hcol], hdata16[r], rows[r][1:], "f16")],
           format_arg="f16")
    dcol = Column("d", "f64", 2)
    ddata = [[[F64[(2 * r + k) % len(F64)] for k in range(2)]] for r in range(4)]
    rows = model_rows([dcol], ddata)
    for r in range(4):
        cp.add(f"buffer_double2_row{r}_ctrl_c",
               "buffer viewer Ctrl+C (double2, inspector in f64)",
               table_copy(rows, row_selection(rows, r)),
               _cells_expect([dcol], ddata[r], rows[r][1:], "f64"), format_arg="f64")
    cp.add("buffer_double2_csv", "buffer viewer Export to CSV (double2, inspector in f64)",
           csv_export([dcol], rows, False),
           [e for r in range(4) for e in _cells_expect([dcol], ddata[r], rows[r][1:], "f64")],
           format_arg="f64")
    # A double beyond f32's range, no format given: only f64 holds the printed value.
    tiny = [[[0x01A56E1FC2F8F359, 0x7FEFFFFFFFFFFFFF]]]
    rows = model_rows([dcol], tiny)
    text = table_copy(rows, row_selection(rows, 0))
    cp.add("buffer_double2_out_of_f32_range_ctrl_c",
           "buffer viewer Ctrl+C (double2 beyond f32 range, no format given)", text,
           _cells_expect([dcol], tiny[0], rows[0][1:], "f64"))
    # 9. constant buffers: CSV export and Ctrl+C of the tree.
    cb = [Var("tint", "f32", [0x3F800000, 0x3F000000, 0x3E800000, 0x3F800000], 4, offset=0),
          Var("exposure", "f32", [0x3FB33333], offset=16),
          Var("c0", "f32", [0x3DCCCCCD, 0xC0490FDB, 0x00000001], 3, offset=32),
          Var("world", "f32", [0x3F800000, 0, 0, 0, 0, 0x3F800000, 0, 0, 0, 0, 0x3F800000, 0,
                               0x41200000, 0xC1A00000, 0x3F000000, 0x3F800000], 4, 4,
              offset=48, row_major=True),
          Var("weights", "f32", [0x3E4CCCCD, 0x3ECCCCCD, 0x3F19999A, 0x7FC00000], 1,
              elements=4, offset=112),
          Var("mask", "xint", [0x3F800000, 0x7F800000], 2, offset=176),
          Var("light", members=[Var("dir", "f32", [0xBF13CD3A, 0xBF13CD3A, 0x3F13CD3A], 3),
                                Var("range", "f32", [0x4B3C614E], offset=12)], offset=192),
          Var("hvals", "f16", [0x3C00, 0x0001, 0x7C00, 0x3555], 4, offset=208)]
    def cb_expect(v: Var) -> list[tuple[str, int, bool]]:
        """The Type column names the width: half -> f16."""
        if v.members is not None:
            return [e for mm in v.members for e in cb_expect(mm)]
        texts = row_values(v.kind, v.vals).split(", ")
        return [value_expect(v.kind, b, t, "f16" if v.kind == "f16" else None)
                for b, t in zip(v.vals, texts)]
    for hex_off in (False, True):
        items = [it for v in cb for it in tree_items(v, 0, 0, hex_off)]
        name = "hex_offsets" if hex_off else "decimal_offsets"
        cp.add(f"cbuffer_csv_{name}", "constant buffer Export to CSV" +
               (" (offsets shown in hex)" if hex_off else ""), cbuffer_csv(items),
               [e for v in cb for e in cb_expect(v)])
    items = [it for v in cb for it in tree_items(v, 0, 0, False)]
    # single entries of the tree, copied (context menu Copy / Ctrl+C)
    flat = {n: (v, vals) for n, v, vals in _flat(cb)}
    for i, (_, cells) in enumerate(items):
        if cells[0] not in flat or "\n" in cells[1]:
            continue
        v, vals = flat[cells[0]]
        exp = [value_expect(v.kind, b, t, "f16" if v.kind == "f16" else None)
               for b, t in zip(vals, cells[1].split(", "))]
        cp.add(f"cbuffer_copy_{_slug(cells[0])}", "constant buffer Ctrl+C (one entry)",
               cbuffer_copy(items, [i]), exp)
    # a selection of several entries, the matrix and its rows
    wi = [i for i, (_, c) in enumerate(items) if c[0].startswith("world")]
    cp.add("cbuffer_copy_matrix_rows", "constant buffer Ctrl+C (matrix and its rows)",
           cbuffer_copy(items, wi[1:]),
           [value_expect("f32", b, t) for r in range(4)
            for b, t in zip(cb[3].vals[4 * r:4 * r + 4], items[wi[1 + r]][1][1].split(", "))])
    cp.add("cbuffer_csv_padding_only", "constant buffer Export to CSV (a padding row only)",
           'Name,Value,Byte Offset,Type\n,"12 bytes",,Padding\n', None,
           why="a padding row: a byte count, no value")
    return cp


def _flat(vs: list[Var]) -> list[tuple[str, Var, list[int]]]:
    out = []
    for v in vs:
        if v.members is not None:
            out.extend(_flat(v.members))
        elif v.elements:
            n = v.comps * v.rows
            out.extend((f"{v.name}[{e}]", v, v.vals[e * n:(e + 1) * n]) for e in range(v.elements))
        else:
            out.append((v.name, v, v.vals))
    return out


def _slug(s: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in s).strip("_")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files")
    args = ap.parse_args()
    cp = build()
    bad = 0
    if not args.check:
        OUT.mkdir(parents=True, exist_ok=True)
    for name, case in sorted(cp.cases.items()):
        path = OUT / f"{name}.json"
        body = json.dumps(case, indent=1, ensure_ascii=True) + "\n"
        if args.check:
            if not path.exists() or path.read_text() != body:
                print(f"differs: {path.name}")
                bad += 1
        else:
            path.write_text(body)
    print(f"{len(cp.cases)} cases {'checked' if args.check else 'written'} in {OUT}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
