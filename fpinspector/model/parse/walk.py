"""Token stream -> values: scopes (brackets, lines), type hints, widths, bytes, decimals."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import cast

from ..formats import FORMATS, FloatFormat
from .lex import ParseError, Token
from .literals import encode_decimals, encode_fraction, hexfloat_fraction, special_bits
from .values import MAX_VALUES, ParsedValue, _emit, _neg_note
from .widths import decimal_widths, int_width

_HEX_WIDTH = {4: "f16", 8: "f32", 16: "f64"}
_BIN_WIDTH = {10: "f10", 11: "f11", 16: "f16", 32: "f32", 64: "f64"}
_INT_FMT = {16: "f16", 32: "f32", 64: "f64"}
_INT_RE = re.compile(r"[+-]?\d+$", re.ASCII)
#: Deepest bracket nesting read (debugger output nests a few levels; this bounds the work
#: a paste of a million "(" costs).
MAX_DEPTH = 64


@dataclass
class _Item:
    tok: Token
    scope: int
    barrier: int
    hint: str | None
    ctor: str
    line: int


def _walk(toks: list[Token], text: str) -> list[_Item | Token]:
    """Attach scope, line and type hints to value tokens; check brackets."""
    out: list[_Item | Token] = []
    stack: list[tuple[int, str | None, str, Token]] = []
    line, barrier, next_scope = 0, 0, 1
    line_hint: dict[int, str] = {}
    line_int: dict[int, int] = {}
    parent: dict[int, int] = {}
    late_hint: dict[int, str] = {}  # "array([...], dtype=float16)": a type word inside a scope
    used: set[int] = set()
    pending: Token | None = None
    for i, t in enumerate(toks):
        k = t.kind
        if k == "type":
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if nxt is not None and nxt.kind == "open":
                pending = t
            elif stack:
                late_hint[stack[-1][0]] = t.fmt  # type: ignore[assignment]
            else:
                line_hint[line] = t.fmt  # type: ignore[assignment]
            continue
        if k == "int_word":
            line_int[line] = max(line_int.get(line, 0), int(cast(int, t.extra)))
            continue
        if k == "open":
            parent_hint = stack[-1][1] if stack else None
            hint = pending.fmt if pending is not None else parent_hint
            ctor = str(pending.extra) if pending is not None else ""
            if stack:
                parent[next_scope] = stack[-1][0]
            stack.append((next_scope, hint, ctor, t))
            if len(stack) > MAX_DEPTH:
                raise ParseError(f"brackets nested more than {MAX_DEPTH} deep", text, t.start)
            next_scope += 1
            barrier += 1
            pending = None
            continue
        pending = None
        if k == "close":
            if not stack or {"(": ")", "{": "}", "[": "]"}[stack[-1][3].text] != t.text:
                raise ParseError(f"unmatched {t.text!r}", text, t.start)
            sid = stack.pop()[0]
            if sid in late_hint and sid not in used:  # lldb "(float) $0 = 1": a cast
                line_hint[line] = late_hint.pop(sid)
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
        used.update(sid for sid, *_ in stack)
        out.append(_Item(t, scope, barrier, hint, ctor, line))
    if stack:
        raise ParseError(f"unclosed {stack[-1][3].text!r}", text, stack[-1][3].start)
    for it in out:
        if isinstance(it, _Item):
            sid = it.scope
            while it.hint is None and sid > 0:
                it.hint = late_hint.get(sid)
                sid = parent.get(sid, 0)
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
    """0x-prefixed tokens of at most 2 digits, 2+ in a scope with no wider one, are bytes;
    not where one is tagged with an 8-bit format ("e4m3 0x7e e4m3 0x38": two FP8 values)."""
    by_scope: dict[int, list[_Item]] = {}
    for it in items:
        if isinstance(it, _Item) and it.tok.kind in ("hex", "byte"):
            by_scope.setdefault(it.scope, []).append(it)
    for group in by_scope.values():
        hexes = [it for it in group if it.tok.kind == "hex"]
        if not hexes or any(len(it.tok.text) > 2 for it in hexes):
            continue
        if any(it.hint in FORMATS and FORMATS[it.hint].bits == 8 for it in hexes):
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
    if it.hint is not None and FORMATS[it.hint].bits == 4 * digits and width_map is _HEX_WIDTH:
        return FORMATS[it.hint]  # a tag of the pattern's own width ("bf16 0x3f80")
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


_PLAIN_INT = re.compile(r"[+-]?\d{1,80}$", re.ASCII)
_BITS_TEXT = re.compile(r"[01]{1,64}$", re.ASCII)
_HINT_BITS = {"f16": 16, "f32": 32, "f64": 64}


def _integers_as_patterns(items: list[_Item | Token]) -> None:
    """Integers that no debugger prints for a float value are the bits: gdb's ``p/d``,
    ``x/dw``, lldb's ``-f d`` print a float's pattern as a decimal integer (``1065353216``),
    ``p/t`` as binary digits. A paste of integers only, one of 10 or more digits (a float
    or a double is never printed so: %.9g writes an exponent; a double of 10+ integer
    digits is no graphics value), reads as patterns: binary where the digits are 0 and 1,
    else two's complement of the width of the type word or of the range (32, else 64)."""
    vals = [it for it in items if isinstance(it, _Item)]
    if not vals or any(it.tok.kind != "dec" or it.tok.fmt or not _PLAIN_INT.match(it.tok.text)
                       for it in vals):
        return
    digits = [it.tok.text.lstrip("+-") for it in vals]
    if max(len(d) for d in digits) < 10:
        return
    hint_bits = {_HINT_BITS.get(it.hint or "") for it in vals}
    width = next(iter(hint_bits)) if len(hint_bits) == 1 else None
    if all(_BITS_TEXT.match(d) and not it.tok.text.startswith("-") for d, it in
           zip(digits, vals)):
        longest = max(len(d) for d in digits)
        w = width or next(b for b in (16, 32, 64, 128) if longest <= b)
        if longest <= w <= 64:
            for d, it in zip(digits, vals):
                it.tok = Token("bin", d.zfill(w), it.tok.start, it.tok.end)
            return
    iw = width or int_width([int(it.tok.text) for it in vals])
    if iw is None:
        return
    for it in vals:
        it.tok = Token("int", it.tok.text, it.tok.start, it.tok.end, extra=iw)
        it.hint = None


#: gdb's value line (``$1 = ...``; lldb writes its type first: ``(float) $0 = ...``) or a
#: bfloat16 view named: the text where a decimal of 4 digits may be a bfloat16 lane
_GDB_VALUE = re.compile(r"(?m)^[ \t]*\$\d{1,9}[ \t]*=|\bv\d{1,2}_bfloat16\b|\.h\.bf\b",
                        re.ASCII)


def _decimal_formats(items: list[_Item | Token], text: str) -> dict[int, str]:
    """id(item) -> format for decimals whose width only their digits say (see :mod:`.widths`)."""
    undecided = [it for it in items if isinstance(it, _Item) and it.tok.kind in ("dec", "special")
                 and not it.tok.fmt and it.hint is None]
    if not undecided:
        return {}
    try:
        found = decimal_widths([(it.tok.text, it.tok.kind == "special") for it in undecided],
                               bf16=_GDB_VALUE.search(text) is not None)
    except ValueError as exc:
        bad = next((it for it in undecided if str(exc).startswith(it.tok.text)), undecided[0])
        raise ParseError(str(exc), text, bad.tok.start) from None
    return {id(it): f for it, f in zip(undecided, found) if f is not None}


def _assemble(toks: list[Token], text: str, fmt: FloatFormat | None, byte_order: str,
              label: str = "") -> list[ParsedValue]:
    items = _walk(toks, text)
    widths: dict[int, str] = {}
    if fmt is None:
        _integers_as_patterns(items)
        widths = _decimal_formats(items, text)
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
            total += int(cast(int, it.extra)) - 1
            if total > MAX_VALUES:
                raise ParseError(f"more than {MAX_VALUES} values", text, it.start)
            last = entries[-1]  # shared, so a decimal encoded below fills every copy
            entries.extend([last] * (int(cast(int, it.extra)) - 1))
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
            lane = str(t.extra).startswith("lane:")  # (a lane of a register's bits)
            note = f"a lane of a {str(t.extra)[5:]}-bit register value" if lane else ""
            entries.append(["val", f, _fits(f, int(t.text, 16), t, text), t, "hex", note, it])
        elif k == "bin":
            f = _pattern_format(it, len(t.text), _BIN_WIDTH, fmt, scope_w, text)
            entries.append(["val", f, _fits(f, int(t.text, 2), t, text), t, "bin", "", it])
        elif k == "int":
            width = int(cast(int, t.extra))
            f = fmt or FORMATS[_INT_FMT[width]]
            v = int(t.text)
            if v < -(1 << (width - 1)) or v >= (1 << width):
                raise ParseError(f"{t.text} does not fit a {width}-bit integer", text, t.start)
            entries.append(["val", f, _fits(f, v % (1 << width), t, text), t, "int", "", it])
        elif k == "special":
            f = fmt or FORMATS[t.fmt or it.hint or widths.get(id(it), "f32")]
            bits, note = special_bits(t.text, f)
            entries.append(["val", f, bits, t, "special", note, it])
        elif k == "hexfloat":
            f = fmt or FORMATS[t.fmt or it.hint or "f32"]
            mag, neg = hexfloat_fraction(t.text)
            entries.append(["val", f, encode_fraction(f, mag, neg), t, "hexfloat",
                            _neg_note(f, neg and mag != 0), it])
        elif k == "dec":
            f = fmt or FORMATS[t.fmt or it.hint or widths.get(id(it), "f32")]
            decimals.setdefault(f.name, []).append(len(entries))
            neg = t.text.startswith("-") and any(c in "123456789" for c in t.text)
            entries.append(["val", f, None, t, "decimal", _neg_note(f, neg), it])
    for name, idx in decimals.items():
        pats = encode_decimals([entries[i][3].text for i in idx], FORMATS[name])
        for i, p in zip(idx, pats):
            entries[i][2] = p
    return _emit(entries, text, fmt, byte_order, label)
