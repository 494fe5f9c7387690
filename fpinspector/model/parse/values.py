"""Parsed values and their final assembly: byte dumps grouped by width, asdouble pairs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

from ..formats import FORMATS, FloatFormat
from .lex import ParseError

__all__ = ["ParsedValue", "MAX_VALUES"]

#: Most values one parse may produce: 131072, ``<repeats N times>`` copies included (each
#: byte of a dump counts). The one limit on what a paste expands to: reading the most takes
#: about a quarter of a second, and a 1 MiB paste of patterns holds fewer values than this.
MAX_VALUES = 1 << 17


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
        if (out and i and e is entries[i - 1] and e[0] == "val"
                and e[6].ctor != "asdouble"):  # a <repeats> copy of the value just made
            out.append(_copy(out[-1], group))
            group += 1
            i += 1
            continue
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


def _copy(v: ParsedValue, group: int) -> ParsedValue:
    """``v`` with another group: the copies of ``<repeats N times>``, made without the
    frozen dataclass's per-field ``__setattr__`` (a hundred thousand of them stay fast)."""
    new = object.__new__(ParsedValue)
    new.__dict__.update(v.__dict__, group=group)
    return new


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
    orders: tuple[Literal["little", "big"], ...] = (
        ("little", "big") if byte_order == "both" else (cast(Literal["little", "big"], byte_order),))
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
