"""Read bit patterns from pasted text: hex, decimals, byte dumps, vectors, gdb, Visual Studio,
RenderDoc CSV.

Entry point :func:`parse`. Widths come from the text where it says them (hex digit count,
binary digit count, a type word such as ``half2(...)`` or ``float`` after a watch value)
and from ``format`` where it does not. Decimals are rounded exactly once into the format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from .formats import FORMATS, FloatFormat, get_format
from .parse_lex import ParseError, Token, tokenize
from .parse_num import encode_decimals, encode_fraction, hexfloat_fraction, special_bits

__all__ = ["ParsedValue", "ParseError", "parse", "MAX_INPUT_CHARS", "MAX_VALUES"]

#: Longest text accepted (characters); longer pastes are refused before any work.
MAX_INPUT_CHARS = 1 << 20
#: Most values one parse may produce (``<repeats N times>`` included).
MAX_VALUES = 1 << 20

_HEX_WIDTH = {4: "f16", 8: "f32", 16: "f64"}
_BIN_WIDTH = {10: "f10", 11: "f11", 16: "f16", 32: "f32", 64: "f64"}
_INT_FMT = {16: "f16", 32: "f32", 64: "f64"}
_INT_RE = re.compile(r"[+-]?\d+$")


@dataclass(frozen=True)
class ParsedValue:
    """One value found in the text.

    Attributes
    ----------
    format : str
        Format name (``"f32"``...).
    bits : int
        The bit pattern.
    start, end : int
        Source span ``text[start:end]``.
    kind : str
        How it was written: ``hex``, ``bin``, ``decimal``, ``hexfloat``, ``special``,
        ``int`` (an integer view of the bits), ``bytes-le`` or ``bytes-be``.
    text : str
        The source text of the span.
    label : str
        A name from the paste (RenderDoc column and row), else empty.
    note : str
        Anything the reader should know (e.g. a clamp to 0 in an unsigned format).
    group : int
        Index of the source value; the two readings of a byte dump with
        ``byte_order="both"`` share it.
    """

    format: str
    bits: int
    start: int
    end: int
    kind: str
    text: str
    label: str = ""
    note: str = ""
    group: int = 0

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)

    @property
    def value(self) -> float:
        """The value as a float64 (exact for every format here)."""
        return float(FORMATS[self.format].decode(self.bits))


@dataclass
class _Item:
    tok: Token
    scope: int
    barrier: int
    hint: str | None
    ctor: str
    line: int


def parse(text: str, format: str | FloatFormat | None = None, *, byte_order: str = "little"
          ) -> list[ParsedValue]:
    """Read every value in ``text``.

    Parameters
    ----------
    text : str
        Pasted text: ``0x3f800000``, ``3F800000``, ``3f800000h``, ``0x3c00``, ``0b0011...``,
        byte dumps ``00 00 80 3f``, decimals ``1.0f`` / ``-1.#IND`` / ``nan``, C hex floats,
        vectors ``float4(1, 2, 3, 4)``, gdb ``$1 = {...}`` and ``x/4xw`` dumps, Visual
        Studio watch rows and memory windows, RenderDoc buffer CSV exports.
    format : str or FloatFormat, optional
        Format for values whose width the text does not give (decimals default to f32,
        byte dumps to 4-byte f32). When given it wins over widths in the text, and
        patterns wider than it are refused.
    byte_order : {"little", "big", "both"}
        How to read byte dumps (memory order); "both" returns both readings.

    Returns
    -------
    list of ParsedValue
        In text order.

    Raises
    ------
    ParseError
        (a ValueError) naming the offending index with a caret excerpt.

    Examples
    --------
    >>> [hex(v.bits) for v in parse("00 00 80 3f")]
    ['0x3f800000']
    """
    if not isinstance(text, str):
        raise ValueError(f"parse() needs text (str), got {type(text).__name__}")
    if byte_order not in ("little", "big", "both"):
        raise ValueError(f"byte_order must be 'little', 'big' or 'both', not {byte_order!r}")
    fmt = get_format(format) if format is not None else None
    if len(text) > MAX_INPUT_CHARS:
        raise ParseError(
            f"input is {len(text)} characters; the limit is {MAX_INPUT_CHARS} (1 MiB)", "", 0
        )
    header = _csv_header(text)
    if header is not None:
        return _parse_csv(text, header, fmt, byte_order)
    return _assemble(tokenize(text), text, fmt, byte_order)


# ---------------------------------------------------------------------------------------
# token stream -> values


def _walk(toks: list[Token], text: str) -> list[_Item | Token]:
    """Attach scope, line and type hints to value tokens; check brackets."""
    out: list[_Item | Token] = []
    stack: list[tuple[int, str | None, str, Token]] = []
    line, barrier, next_scope = 0, 0, 1
    line_hint: dict[int, str] = {}
    line_int: dict[int, int] = {}
    pending: Token | None = None
    for i, t in enumerate(toks):
        k = t.kind
        if k == "type":
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if nxt is not None and nxt.kind == "open":
                pending = t
            else:
                line_hint[line] = t.fmt  # type: ignore[assignment]
            continue
        if k == "int_word":
            line_int[line] = max(line_int.get(line, 0), int(t.extra))  # type: ignore[arg-type]
            continue
        if k == "open":
            parent_hint = stack[-1][1] if stack else None
            hint = pending.fmt if pending is not None else parent_hint
            ctor = str(pending.extra) if pending is not None else ""
            stack.append((next_scope, hint, ctor, t))
            next_scope += 1
            barrier += 1
            pending = None
            continue
        pending = None
        if k == "close":
            if not stack or {"(": ")", "{": "}", "[": "]"}[stack[-1][3].text] != t.text:
                raise ParseError(f"unmatched {t.text!r}", text, t.start)
            stack.pop()
            barrier += 1
            continue
        if k == "nl":
            line += 1
            continue
        if k == "repeat":
            out.append(t)
            continue
        scope = stack[-1][0] if stack else -(line + 1)
        hint = stack[-1][1] if stack else None
        ctor = stack[-1][2] if stack else ""
        out.append(_Item(t, scope, barrier, hint, ctor, line))
    if stack:
        raise ParseError(f"unclosed {stack[-1][3].text!r}", text, stack[-1][3].start)
    for it in out:
        if isinstance(it, _Item):
            if it.hint is None and it.line in line_hint:
                it.hint = line_hint[it.line]
            if it.line in line_int and it.tok.kind == "dec" and it.hint is None:
                if _INT_RE.match(it.tok.text):
                    it.tok = Token("int", it.tok.text, it.tok.start, it.tok.end,
                                   extra=line_int[it.line])
            elif it.line in line_int and it.tok.kind == "hex" and it.hint is None:
                it.hint = _INT_FMT.get(line_int[it.line])
    return out


def _mark_bytes(items: list[_Item | Token]) -> None:
    """0x-prefixed tokens of at most 2 digits, 2+ in a scope with no wider one, are bytes."""
    by_scope: dict[int, list[_Item]] = {}
    for it in items:
        if isinstance(it, _Item) and it.tok.kind in ("hex", "byte"):
            by_scope.setdefault(it.scope, []).append(it)
    for group in by_scope.values():
        hexes = [it for it in group if it.tok.kind == "hex"]
        if not hexes or any(len(it.tok.text) > 2 for it in hexes):
            continue
        if len(group) >= 2 and any(len(it.tok.text) == 2 for it in group):
            for it in hexes:
                it.tok.kind = "byte"


def _scope_widths(items: list[_Item | Token]) -> dict[int, int]:
    """Widest standard hex width (4, 8 or 16 digits) per scope, for gdb's ``0x0``."""
    widths: dict[int, int] = {}
    for it in items:
        if isinstance(it, _Item) and it.tok.kind == "hex" and len(it.tok.text) in _HEX_WIDTH:
            widths[it.scope] = max(widths.get(it.scope, 0), len(it.tok.text))
    return widths


def _fits(fmt: FloatFormat, bits: int, tok: Token, text: str) -> int:
    if bits > fmt.mask:
        raise ParseError(
            f"{tok.text!r} is {bits.bit_length()} bits wide and does not fit {fmt.name} "
            f"({fmt.bits} bits)", text, tok.start)
    return bits


def _pattern_format(it: _Item, digits: int, width_map: dict[int, str], fmt: FloatFormat | None,
                    scope_w: dict[int, int], text: str) -> FloatFormat:
    if fmt is not None:
        return fmt
    if digits in width_map:
        return FORMATS[width_map[digits]]
    if it.hint is not None:
        return FORMATS[it.hint]
    w = scope_w.get(it.scope, 0)
    if width_map is _HEX_WIDTH and w >= digits:
        return FORMATS[_HEX_WIDTH[w]]
    if width_map is _HEX_WIDTH and digits == 3:
        raise ParseError("a 3-digit pattern is f11 or f10: pass format='f11' or 'f10'",
                         text, it.tok.start)
    choices = ", ".join(f"{d} = {n}" for d, n in width_map.items())
    raise ParseError(f"cannot tell the format of a {digits}-digit pattern ({choices}); "
                     "pass format=", text, it.tok.start)


def _assemble(toks: list[Token], text: str, fmt: FloatFormat | None, byte_order: str,
              label: str = "") -> list[ParsedValue]:
    items = _walk(toks, text)
    _mark_bytes(items)
    scope_w = _scope_widths(items)
    # entries: (kind, payload): "val" -> [fmt, bits, tok, kind, note]; "byte" -> (tok, barrier)
    entries: list[list] = []
    decimals: dict[str, list[int]] = {}
    total = 0
    for it in items:
        if isinstance(it, Token):  # <repeats N times>
            if not entries:
                raise ParseError("'<repeats>' with no value before it", text, it.start)
            total += int(it.extra) - 1  # type: ignore[arg-type]
            if total > MAX_VALUES:
                raise ParseError(f"more than {MAX_VALUES} values", text, it.start)
            last = entries[-1]  # shared, so a decimal encoded below fills every copy
            entries.extend([last] * (int(it.extra) - 1))  # type: ignore[arg-type]
            continue
        total += 1
        if total > MAX_VALUES:
            raise ParseError(f"more than {MAX_VALUES} values", text, it.tok.start)
        t = it.tok
        k = t.kind
        if k == "byte":
            entries.append(["byte", t, it.barrier])
        elif k == "hex":
            f = _pattern_format(it, len(t.text.lstrip("0")) if fmt else len(t.text),
                                _HEX_WIDTH, fmt, scope_w, text)
            entries.append(["val", f, _fits(f, int(t.text, 16), t, text), t, "hex", "", it])
        elif k == "bin":
            f = _pattern_format(it, len(t.text), _BIN_WIDTH, fmt, scope_w, text)
            entries.append(["val", f, _fits(f, int(t.text, 2), t, text), t, "bin", "", it])
        elif k == "int":
            width = int(t.extra)  # type: ignore[arg-type]
            f = fmt or FORMATS[_INT_FMT[width]]
            v = int(t.text)
            if v < -(1 << (width - 1)) or v >= (1 << width):
                raise ParseError(f"{t.text} does not fit a {width}-bit integer", text, t.start)
            entries.append(["val", f, _fits(f, v % (1 << width), t, text), t, "int", "", it])
        elif k == "special":
            f = fmt or FORMATS[t.fmt or it.hint or "f32"]
            bits, note = special_bits(t.text, f)
            entries.append(["val", f, bits, t, "special", note, it])
        elif k == "hexfloat":
            f = fmt or FORMATS[t.fmt or it.hint or "f32"]
            mag, neg = hexfloat_fraction(t.text)
            entries.append(["val", f, encode_fraction(f, mag, neg), t, "hexfloat",
                            _neg_note(f, neg and mag != 0), it])
        elif k == "dec":
            f = fmt or FORMATS[t.fmt or it.hint or "f32"]
            decimals.setdefault(f.name, []).append(len(entries))
            neg = t.text.startswith("-") and any(c in "123456789" for c in t.text)
            entries.append(["val", f, None, t, "decimal", _neg_note(f, neg), it])
    for name, idx in decimals.items():
        pats = encode_decimals([entries[i][3].text for i in idx], FORMATS[name])
        for i, p in zip(idx, pats):
            entries[i][2] = p
    return _emit(entries, text, fmt, byte_order, label)


def _neg_note(f: FloatFormat, neg: bool) -> str:
    return f"negative value becomes 0 in unsigned {f.name} (CONV-UNSIGNED)" if (
        neg and not f.signed) else ""


def _emit(entries: list[list], text: str, fmt: FloatFormat | None, byte_order: str,
          label: str) -> list[ParsedValue]:
    out: list[ParsedValue] = []
    group = 0
    i = 0
    while i < len(entries):
        e = entries[i]
        if e[0] == "val":
            f, bits, t, kind, note, it = e[1:]
            if it.ctor == "asdouble":
                j = _asdouble(entries, i, text, out, group, label)
                group += 1
                i = j
                continue
            out.append(ParsedValue(f.name, int(bits), t.start, t.end, kind,
                                   text[t.start:t.end], label, note, group))
            group += 1
            i += 1
            continue
        j = i
        while j < len(entries) and entries[j][0] == "byte" and entries[j][2] == e[2]:
            j += 1
        group = _bytes(entries[i:j], text, fmt, byte_order, label, out, group)
        i = j
    return out


def _asdouble(entries: list[list], i: int, text: str, out: list[ParsedValue], group: int,
              label: str) -> int:
    """HLSL ``asdouble(lo, hi)``: two 32-bit halves make one f64 pattern."""
    pair = entries[i:i + 2]
    t0 = pair[0][3]
    if (len(pair) < 2 or pair[1][0] != "val" or pair[1][6].scope != pair[0][6].scope
            or any(p[4] not in ("hex", "int") or p[2] > 0xFFFFFFFF for p in pair)):
        raise ParseError("asdouble() takes two 32-bit patterns (low, high)", text, t0.start)
    if i + 2 < len(entries) and entries[i + 2][0] == "val" and (
            entries[i + 2][6].scope == pair[0][6].scope):
        raise ParseError("asdouble() takes exactly two 32-bit patterns", text,
                         entries[i + 2][3].start)
    bits = (int(pair[1][2]) << 32) | int(pair[0][2])
    end = pair[1][3].end
    out.append(ParsedValue("f64", bits, t0.start, end, "hex", text[t0.start:end], label, "", group))
    return i + 2


def _bytes(run: list[list], text: str, fmt: FloatFormat | None, byte_order: str, label: str,
           out: list[ParsedValue], group: int) -> int:
    """Group a byte dump (memory order) into values of the format's width."""
    f = fmt or FORMATS["f32"]
    first = run[0][1]
    if f.bits % 8:
        raise ParseError(f"{f.name} has no whole-byte width; byte dumps need f16, f32 or f64",
                         text, first.start)
    w = f.bits // 8
    if len(run) % w:
        raise ParseError(
            f"byte dump of {len(run)} bytes is not a whole number of {w}-byte {f.name} values "
            "(pass format=, or check the dump)", text, first.start)
    orders = ("little", "big") if byte_order == "both" else (byte_order,)
    for k in range(0, len(run), w):
        chunk = run[k:k + w]
        raw = bytes(int(c[1].text, 16) for c in chunk)
        s, e = chunk[0][1].start, chunk[-1][1].end
        for order in orders:
            kind = "bytes-le" if order == "little" else "bytes-be"
            note = "byte order not given: both readings" if byte_order == "both" else ""
            out.append(ParsedValue(f.name, int.from_bytes(raw, order), s, e, kind, text[s:e],
                                   label, note, group))
        group += 1
    return group


# ---------------------------------------------------------------------------------------
# RenderDoc buffer CSV export: a header row of column names, then comma-separated rows

_HEADER_CELL = re.compile(r"[A-Za-z_#][\w .#\[\]()/:-]{0,100}$")
_INDEX_COLS = {"row", "index", "idx", "vtx", "#", "element", "elem", "offset"}
_NUMBER_WORDS = {"inf", "infinity", "nan", "qnan", "snan", "-inf", "+inf"}


def _csv_header(text: str) -> list[str] | None:
    nl = text.find("\n")
    if nl < 0:
        return None
    first = text[:nl].rstrip("\r")
    if "," not in first:
        return None
    cells = [c.strip().strip('"') for c in first.split(",")]
    for c in cells:
        if not _HEADER_CELL.match(c) or c.lower() in _NUMBER_WORDS or c.count("(") != c.count(")"):
            return None
    nl2 = text.find("\n", nl + 1)
    second = text[nl + 1:nl2 if nl2 >= 0 else len(text)].rstrip("\r")
    if second.count(",") != first.count(","):
        return None
    return cells


def _parse_csv(text: str, header: list[str], fmt: FloatFormat | None, byte_order: str
               ) -> list[ParsedValue]:
    out: list[ParsedValue] = []
    pos = text.find("\n") + 1
    row = 0
    while pos < len(text):
        eol = text.find("\n", pos)
        eol = len(text) if eol < 0 else eol
        line = text[pos:eol].rstrip("\r")
        if line.strip():
            cells = line.split(",")
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
