"""Pasting text into the inspector state: the readings a paste allows (bytes or decimals,
byte order, value width), which value became which operand and which were not used.

Why readings: ``10 20 30 40`` is four bytes of one f32 or four decimals; ``00 3c 00 40`` is
one f32 or two f16. The first reading is taken and named; the others are offered so a
wrong guess is one click away instead of silent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from ..convert import decode_rgb9e5, unpack_r11g11b10
from ..describe import shortest_decimal
from ..engine import OPS
from ..formats import CodeFormat, FloatFormat, get_format, operand_format
from ..parse import MAX_VALUES, ParseError, parse
from ..parse.codes import parse_codes
from ..parse.lex import type_hint
from ..parse.renderdoc_text import NoFloatInRenderDoc, renderdoc_integers
from ..parse.roles import DEFAULT_DECIMAL, LANE_ONLY_PRINTS, LANES, PRINTED, THREE_DIGIT
from ..parse.values import ParsedValue
from ..parse.widths import candidates
from .codec import snapshot_from_string
from .edits import carry_operand
from .inspector import InspectorState
from .snapshot import MAX_OPERANDS, STATE_PREFIX

__all__ = ["MAX_PASTE_CHARS", "PasteResult", "Reading", "needs_readings", "operand_letters",
           "paste_text", "paste_work", "readings"]

#: Longest text a paste may hold: ~0.1 s of parsing, far more than any debugger dump of a
#: few values (and QLineEdit's own limit).
MAX_PASTE_CHARS = 32767
_REPEATS = re.compile(r"<repeats\s+(\d{1,9})\s+times>", re.IGNORECASE)
_BYTES_ONLY = re.compile(r"^[\s,;]*(?:[0-9A-Fa-f]{2}[ \t]+)+[0-9A-Fa-f]{2}[\s,;]*$")
_DECIMAL_BYTES = re.compile(r"^[\s]*(?:[0-9]{2}[ \t]+)+[0-9]{2}\s*$")
#: A packed 32-bit word with its format named before or after it: "R11G11B10 0x7F7FDFBF",
#: "0x1F000000 rgb9e5".
_PACKED = re.compile(r"(?i)^\s*(?:(?P<pre>r11g11b10(?:_float)?|r9g9b9e5(?:_sharedexp)?|rgb9e5)"
                     r"\s*[:=]?\s*(?P<a>\S+)|(?P<b>\S+)\s+(?P<post>r11g11b10(?:_float)?"
                     r"|r9g9b9e5(?:_sharedexp)?|rgb9e5))\s*$")


@dataclass(frozen=True)
class Reading:
    """One way to read a paste: ``key`` names it (``as written``, ``big-endian``,
    ``f16 width``, ``decimals``...), ``label`` says it in words, ``items`` are the
    (format, pattern) values in text order; ``word`` is a packed 32-bit word
    (R11G11B10 or RGB9E5) when the paste was one."""

    key: str
    label: str
    items: tuple[tuple[str, int], ...]
    word: int | None = None


@dataclass(frozen=True)
class PasteResult:
    """What a paste did: ``message`` (which reading, which value became which operand,
    which were not used), the ``reading`` taken and the ``others`` on offer."""

    message: str
    reading: Reading | None = None
    others: tuple[Reading, ...] = ()


def operand_letters(op: str, arity: int) -> list[str]:
    """A, B, C for ordinary ops; a0..aN-1, b0..bN-1 for the dot products (the op row's
    ``operand_names``)."""
    spec = OPS.get(op)
    if spec is not None:
        return spec.operand_names(arity)
    return [chr(ord("A") + i) for i in range(arity)]


def _items(values: list[ParsedValue]) -> tuple[tuple[str, int], ...]:
    return tuple((get_format(v.format).name, int(v.bits)) for v in values)


def _count(items: tuple[tuple[str, int], ...]) -> str:
    fmts = sorted({f for f, _ in items})
    n = len(items)
    if len(fmts) == 1:
        return f"{'one' if n == 1 else n} {fmts[0]}"
    return f"{n} values ({', '.join(fmts)})"


def _label(values: list[ParsedValue]) -> str:
    lossy = next((v.note for v in values if "not bit-exact" in v.note), "")
    return _kinds_label(values) + (f" ({lossy})" if lossy else "")


def _kinds_label(values: list[ParsedValue]) -> str:
    kinds = {v.kind for v in values}
    items = _items(values)
    if _lanes(values):
        bits = sum(get_format(f).bits for f, _ in items)
        return f"{bits} register bits as {_count(items)} lanes, the lowest first"
    if kinds == {"bytes-le"}:
        return f"bytes of {_count(items)}, little-endian"
    if kinds == {"bytes-be"}:
        return f"bytes of {_count(items)}, big-endian"
    if kinds <= {"decimal", "special"}:
        return f"{len(items)} decimal{'s' if len(items) > 1 else ''} ({_count(items)})"
    if kinds == {"hex"} and len(items) == 1:
        return f"a hex pattern ({_count(items)})"
    if kinds == {"hex"}:
        return f"{len(items)} hex pattern{'s' if len(items) > 1 else ''} ({_count(items)})"
    return _count(items)


def _packed(text: str) -> Reading | None:
    """A packed R11G11B10 or RGB9E5 word named by its format, read into its channels."""
    m = _PACKED.match(text)
    if m is None:
        return None
    tag = (m.group("pre") or m.group("post")).lower()
    vals = parse(m.group("a") or m.group("b"), format="f32")  # 32 bits, as written
    if len(vals) != 1 or vals[0].kind not in ("hex", "bin", "int"):
        raise ValueError(f"a {tag.upper()} word is one 32-bit pattern (0x...), "
                         f"not {m.group('a') or m.group('b')!r}")
    word = int(vals[0].bits)
    if tag.startswith("r11"):
        r, g, b = (int(x) for x in unpack_r11g11b10(np.uint32(word)))
        label = (f"an R11G11B10 word: R = {_value('f11', r)}, G = {_value('f11', g)}, "
                 f"B = {_value('f10', b)}")
        return Reading("as written", label, (("f11", r), ("f11", g), ("f10", b)), word)
    rgb = np.asarray(decode_rgb9e5(np.uint32(word)), np.float64).reshape(-1)
    pats = tuple(("f32", int(np.float32(v).view(np.uint32))) for v in rgb)  # exact in f32
    label = "an RGB9E5 word: " + ", ".join(f"{c} = {_value(*p)}" for c, p in zip("RGB", pats))
    return Reading("as written", label, pats, word)


def readings(text: str, inspected: str | None = None) -> list[Reading]:
    """Every sensible reading of ``text``, the one taken first. ``inspected`` is the
    inspector's format: where it is f11 or f10, a 3-digit pattern is read in it (and in
    the other as the alternative). ValueError (a ParseError) when the text has no
    reading at all."""
    packed = _packed(text)
    if packed is not None:
        return [packed]
    try:
        base = parse(text)
    except ParseError as exc:
        codes = _integer_codes(text) if isinstance(exc, NoFloatInRenderDoc) else None
        if codes is not None:
            return [codes, *_as_numbers(text)]
        if "-digit pattern" in exc.reason and inspected in PRINTED:
            return _short_patterns(text, inspected, exc)
        if "3-digit pattern" not in exc.reason or inspected not in THREE_DIGIT:
            raise
        out = []
        for fmt in (inspected, *(f for f in THREE_DIGIT if f != inspected)):
            try:
                vals = parse(text, format=fmt)
            except ParseError:
                if fmt == inspected:
                    raise
                continue  # 0x7bf has no f10 reading
            out.append(Reading("as written" if fmt == inspected else f"{fmt} patterns",
                               f"{_label(vals)}, the inspector's {inspected}" if fmt == inspected
                               else _label(vals), _items(vals)))
        return out
    if not base:
        raise ValueError("nothing to paste: no value found in the text")
    out = [Reading("as written", _label(base) + _losses(base), _items(base))]
    kinds = {v.kind for v in base}
    alts: list[tuple[str, dict]] = []
    if kinds == {"bytes-le"}:
        if _BYTES_ONLY.match(text) and _DECIMAL_BYTES.match(text):
            # 10 20 30 40: the digits may be decimal numbers
            vals = parse(re.sub(r"[ \t]+", ", ", text.strip()))
            out.append(Reading("decimals", _label(vals), _items(vals)))
        alts.append(("big-endian", {"byte_order": "big"}))
        nbytes = len(base) * (get_format(base[0].format).bits // 8)
        width = get_format(base[0].format).bits // 8
        for fmt in PRINTED:
            w = get_format(fmt).bits // 8
            if w != width and nbytes % w == 0:
                alts.append((f"{fmt} width", {"format": fmt}))
                alts.append((f"{fmt} width, big-endian", {"format": fmt, "byte_order": "big"}))
    elif kinds <= {"decimal", "special"} or _REGISTER.search(text) or _lanes(base):
        # a decimal's width or a register's lanes the text may not say: the others
        alts += [(f"{fmt} width", {"format": fmt}) for fmt in _DECIMAL_WIDTHS]
    elif kinds <= {"hex", "int"} and len(fmts := {v.format for v in base}) == 1:
        # 16-bit patterns (gdb's p/x of a v8_bfloat16 or v8_int16 view): f16 or bfloat16
        alts += [(f"{fmt} width", {"format": fmt}) for fmt in _same_width_lanes(fmts.pop())]
    for key, kw in alts:
        try:
            vals = parse(text, **kw)
        except ValueError:
            continue
        out.append(Reading(key, _label(vals), _items(vals)))
    out[1:1] = _int_patterns(base)
    codes = _integer_codes(text) if any(v.label for v in base) else None
    if codes is not None:
        n = len(codes.items)
        out[0] = replace(out[0], label=out[0].label + f"; {n} integer cell{'s' if n > 1 else ''}"
                         " (int/uint) left out: offered as integer codes")
        out.append(codes)
    elif "bytes-le" not in kinds and (row := _uint_row(text)) is not None:  # (not a dump)
        out[0] = replace(out[0], label=out[0].label + "; or a RenderDoc Ctrl+C row of uint "
                         "cells (nothing marks it: no sign gap, no float): its codes offered")
        out.append(row)
    chunks = _chunk_readings(text) if kinds == {"hex"} else []
    if chunks:
        out[0] = replace(out[0], label=out[0].label + "; the type names no lane width: "
                         "f16 and f64 lanes offered")
    out += chunks
    wider = _other_widths(base)
    wide_inspector = inspected in PRINTED and get_format(inspected).bits > 16
    if wide_inspector:  # an f16 held in the inspected f32 register: offered
        out[1:1] = wider  # first, before the same 16 bits read as a bfloat16
    else:
        out += wider
    out += _lane_widths(base)
    if _BF16_CUE.search(text):  # the view's name says bfloat16 (a command line echoed)
        inspected = _BF16_VIEW
        wide_inspector = False
    halves = wide_inspector and _typed_halves(text, base)
    sixteen = inspected is not None and all(  # (16-bit patterns, a bf16 at hand)
        v.kind in ("hex", "int") and inspected in _same_width_lanes(v.format) for v in base)
    if halves or sixteen or inspected in _NOT_DEFAULT_LANES and (
            _width_open(base, inspected) or bool(chunks)
            or ((_REGISTER.search(text) or _lanes(base)) and kinds <= {"hex", "int"})):
        keep = [r for r in out if r.key == f"{inspected} width"]
        out = keep + [r for r in out if r not in keep]
        if keep and halves:
            out[0] = replace(out[0], label=out[0].label + f", the inspector's {inspected} (no "
                             "debugger's text around them; as a _Float16's 5-digit print: "
                             "f16, offered)")
    first = {f for f, _ in out[0].items}
    if first and first <= LANE_ONLY_PRINTS and kinds <= {"decimal", "special"}:
        out[0] = replace(out[0], label=out[0].label + ": as gdb prints a bfloat16 lane (4 "
                         "significant digits, a 7-bit NaN payload); the other widths offered")
    seen: set[tuple] = set()
    unique = []
    for r in out:  # a reading that gives the same values as an earlier one is no choice
        if r.items not in seen:
            seen.add(r.items)
            unique.append(r)
    return unique


#: a vector register (gdb's union views, an xmm/ymm name): its lanes may be of any width
_REGISTER = re.compile(r"(?i)\bv\d{1,2}_(?:int|float|double|half)|\b[xyz]mm\d"
                       r"|\{d = \{f = |^[ \t]*[vq]\d{1,2}[ \t]+\{|\$[vq]\d{1,2}\b", re.MULTILINE)
_MSVC_NAN = re.compile(r"#[QS]NAN", re.IGNORECASE)
_INT_TEXT = re.compile(r"[+-]?\d{1,5}$")
#: a bfloat16 view named in the text (gdb's ``v8_bfloat16``, AArch64's ``.h.bf``)
#: in a command (``p $xmm4.v8_bfloat16``), not as one view of a whole union
_BF16_CUE = re.compile(r"(?i)\.v\d{1,2}_bfloat16\b|\.h\.bf\b|\$h\d{1,2}\.bf\b")
#: the format those views name (formats' alias table: one place for a format's names)
_BF16_VIEW = get_format("bfloat16").name
#: the widths offered for decimals whose width the text may not say: the default first,
#: then the other prints widest first, then gdb's bfloat16 lanes
_DECIMAL_WIDTHS = (DEFAULT_DECIMAL, *(f for f in reversed(PRINTED) if f != DEFAULT_DECIMAL),
                   *sorted(LANE_ONLY_PRINTS))
#: lane formats other than the default decimal width: where the inspector shows one, its
#: width wins over the default for values the text leaves open
_NOT_DEFAULT_LANES = frozenset(f for fs in LANES.values() for f in fs) - {DEFAULT_DECIMAL}


#: the 16-bit width of the debuggers' decimal prints (a _Float16's 5 digits)
_HALF_PRINTS = frozenset(f for f in PRINTED if get_format(f).bits == 16)


def _same_width_lanes(fmt: str) -> tuple[str, ...]:
    """The other formats a pattern read in ``fmt`` may be, where ``fmt`` is its width's
    default lane format (16 bits: f16, then bfloat16); none for any other format."""
    lanes = LANES.get(get_format(fmt).bits, ())
    return lanes[1:] if lanes and lanes[0] == fmt else ()


def _lanes(values: list[ParsedValue]) -> bool:
    """Whether every value is a lane of a register printed as one number (gdb's
    ``uint128``, Visual Studio's XMM0): its lane width is the reader's choice."""
    return bool(values) and all(v.note.startswith("a lane of a ") for v in values)


#: lldb's ``p/x`` of a vector whose type names no lane width (a typedef such as
#: ``fp16x4``): ``(fp16x4) $0 = (0x2e66c000, 0x80007bff)``, 32-bit chunks of any lanes
_LLDB_CHUNKS = re.compile(r"^(?P<lead>[ \t]*)\((?P<type>[A-Za-z_]\w{0,80})\)(?=[ \t]+\S{1,200}"
                          r"[ \t]*=[ \t]*\((?:[ \t]*0x[0-9a-f]{8}[ \t]*,?){1,64}\)[ \t]*$)",
                          re.IGNORECASE | re.ASCII | re.MULTILINE)


def _chunk_readings(text: str) -> list[Reading]:
    """The f16 and f64 lanes of lldb's 32-bit chunks where the type names no lane width
    (read as f32 first, the inspector's width first where it is f16 or f64)."""
    found = list(_LLDB_CHUNKS.finditer(text))
    if not found or any(type_hint(m.group("type")) is not None for m in found):
        return []
    out = []
    for fmt, word in (("f16", "half4"), ("f64", "double2")):
        try:
            vals = parse(_LLDB_CHUNKS.sub(lambda m: f"{m.group('lead')}({word})", text))
        except ParseError:
            continue
        if {v.format for v in vals} == {fmt}:
            out.append(Reading(f"{fmt} width", f"{_label(vals)}: lldb prints a vector's hex "
                               "in 32-bit chunks and its type names no lane width", _items(vals)))
    return out


def _integer_codes(text: str) -> Reading | None:
    """RenderDoc's int/uint cells as a reading of integer codes (i32/u32), or None."""
    found = renderdoc_integers(text)
    if not found:
        return None
    kinds = sorted({k for k, _ in found})
    return Reading("integer codes", f"{len(found)} integer code{'s' if len(found) > 1 else ''} "
                   f"({', '.join(kinds)}) from RenderDoc's int/uint cells: an integer-code op "
                   "(itof, utof) takes them as operands", tuple(found))


#: one line of 3 or more unsigned integers joined by single spaces: RenderDoc's Ctrl+C of a
#: row of uint cells (its index, then the cells: a uint has no sign gap), or typed numbers
_UINT_ROW = re.compile(r"[ \t]*\d{1,10}(?: \d{1,10}){2,64}[ \t]*(?:\r?\n)?")


def _uint_row(text: str) -> Reading | None:
    """The cells of a possible RenderDoc row of uint cells as u32 codes, the first number
    (its row index) left out: offered, never taken, since the text may be typed."""
    if len(text) > 1024 or not _UINT_ROW.fullmatch(text):
        return None
    nums = [int(t) for t in text.split()]
    if any(v >= 1 << 32 for v in nums):
        return None
    items = tuple(("u32", v) for v in nums[1:])
    return Reading("integer codes", f"{len(items)} integer codes (u32), as a RenderDoc Ctrl+C "
                   f"row of uint cells (row {nums[0]}) holds them: an integer-code op (itof, "
                   "utof) takes them as operands", items)


def _as_numbers(text: str) -> list[Reading]:
    """A header-less RenderDoc row of integers only (``0  7 -7``: read so by its sign gaps)
    as every number in it, the row index too: offered, in case it was typed."""
    if text.lstrip().startswith(("Element, ", "VTX, IDX", "Name,Value")):
        return []  # (a header says RenderDoc)
    try:
        vals = parse(text, renderdoc=False)
    except ParseError:
        return []
    return [Reading("every number", f"{_label(vals)}: every number, the first too (not "
                    "RenderDoc's row index and integer cells)", _items(vals))] if vals else []


def _short_patterns(text: str, inspected: str, exc: ParseError) -> list[Reading]:
    """A pattern whose digits name no width (gdb's ``p/x`` drops leading zeros: ``0x1``)
    is read in the inspector's width, the others offered; ``exc`` where none holds it."""
    out: list[Reading] = []
    for fmt in (inspected, *(f for f in _DECIMAL_WIDTHS if f in PRINTED and f != inspected)):
        try:
            vals = parse(text, format=fmt)
        except ParseError:
            continue
        label = f"{_label(vals)}: its digits name no width"
        out.append(Reading("as written" if not out else f"{fmt} width",
                           f"{label}, the inspector's {inspected}" if fmt == inspected else
                           label, _items(vals)))
    if not out or out[0].items[0][0] != inspected:
        raise exc
    return out


def _other_widths(base: list[ParsedValue]) -> list[Reading]:
    """A lone hex pattern read in the other widths its bits fill: 4 digits (an f16) as the
    f32 pattern they make, 8 digits (an f32) as two f16 and 16 (an f64) as two f32, the
    low half first (lane 0 of a register, the first value in little-endian memory).

    Why: the digits' count picks the width, but a half pair copied as one word from a
    register view (``0x3c003c00``) or an f16 held in an f32 register (``0x3c00``) is as
    likely; the other reading is offered, never taken."""
    if len(base) != 1 or base[0].kind != "hex":
        return []
    fmt, bits = get_format(base[0].format), int(base[0].bits)
    if fmt.name != LANES.get(fmt.bits, ("",))[0]:
        return []  # (a bfloat16, an f11...: no debugger's register or word of that width)
    wider = LANES.get(fmt.bits * 2)
    if fmt.bits < 32 and wider:
        f = wider[0]
        return [Reading(f"{f} width", f"{f} pattern 0x{bits:08X} = {_value(f, bits)}",
                        ((f, bits),))]
    w = fmt.bits // 2
    half = LANES.get(w, ("",))[0]
    if not half:
        return []
    items = ((half, bits & ((1 << w) - 1)), (half, bits >> w))
    return [Reading(f"two {half}", f"two {half}: "
                    + ", ".join(_value(f, b) for f, b in items) + " (low half first)", items)]


#: Most patterns re-cut (a 512-bit register holds 32 lanes of 16 bits; a dump of thousands
#: from ``<repeats N times>`` is no register view, and 2^17 lanes cost seconds to offer)
_MAX_RECUT = 1024


def _lane_widths(base: list[ParsedValue]) -> list[Reading]:
    """Patterns of one width (gdb's ``p/x $xmm1.v4_int32``, ``p $xmm0.v2_int64``, ``x/4xw``,
    lldb's ``-s 4``) re-cut into lanes of the other widths, the lowest first (lane order is
    little-endian memory order): the integer view asked for may not be as wide as the
    values in the register. Several patterns (one 64-bit integer too; a lone hex pattern
    has :func:`_other_widths`), all hex or integer, all of one width; offered, never taken."""
    if not base or len(base) > _MAX_RECUT or any(v.kind not in ("hex", "int") for v in base):
        return []
    widths = {get_format(v.format).bits for v in base}
    if len(widths) != 1 or next(iter(widths)) not in LANES or (
            len(base) == 1 and (base[0].kind == "hex" or next(iter(widths)) != 64)):
        return []
    width = next(iter(widths))
    raw = np.array([int(v.bits) for v in base], dtype=f"<u{width // 8}").tobytes()
    total = width * len(base)
    out = []
    for w, fmts in LANES.items():
        if w == width or total % w:
            continue
        lanes = np.frombuffer(raw, dtype=f"<u{w // 8}").tolist()
        for fmt in fmts:
            items = tuple((fmt, b) for b in lanes)
            out.append(Reading(f"{fmt} lanes", f"{total} bits as {_count(items)} lanes, the "
                               f"lowest first (the text's {width}-bit units re-cut, "
                               "little-endian)", items))
    return out


def _int_patterns(base: list[ParsedValue]) -> list[Reading]:
    """Integers of up to 5 digits (gdb's ``x/fh`` and ``p/d`` of a half print its bits so):
    as 16-bit and 32-bit patterns, where they fit (two's complement)."""
    if not base or any(v.kind != "decimal" or not _INT_TEXT.match(v.text) for v in base):
        return []
    ints = [int(v.text) for v in base]
    out = []
    for w, fmt, first in ((w, f, k == 0) for w, fs in LANES.items() if w <= 32
                          for k, f in enumerate(fs)):
        if all(-(1 << (w - 1)) <= i < 1 << w for i in ints):
            items = tuple((fmt, i % (1 << w)) for i in ints)
            out.append(Reading(f"{w}-bit patterns" if first else f"{fmt} patterns",
                               f"{len(items)} integer{'s' if len(items) > 1 else ''} as "
                               f"{w}-bit patterns ({_count(items)})", items))
    return out


def _losses(base: list[ParsedValue]) -> str:
    """What the text itself lost, said with the reading: lldb's ``NaN`` (no payload, no
    sign) and decimals printed with 5 to 7 digits that no width prints so (lldb's
    ``float32[]`` register format, RenderDoc): their nearest values, maybe not the bits."""
    notes = []
    if any(v.kind == "special" and v.text.lstrip("+-") == "NaN" for v in base):
        notes.append("NaN as lldb prints it has no payload or sign: read as the quiet NaN")
    if any(v.kind == "special" and _MSVC_NAN.search(v.text) for v in base):
        notes.append("NaN as Visual Studio prints it (1.#QNAN, 1.#SNAN) has no payload: read "
                     "as the quiet or signalling NaN of its sign, the payload lost")
    short = [v for v in base if v.kind == "decimal" and candidates(v.text) == set()
             and 5 <= len(v.text.lstrip("+-").split("e")[0].split("E")[0]
                          .replace(".", "").strip("0")) <= 7]
    if short:
        notes.append(f"{len(short)} decimal{'s' if len(short) > 1 else ''} printed with too "
                     "few digits for their width: the nearest values, maybe not the bits")
    return "".join(f"; {n}" for n in notes)


#: Decimals and nothing a debugger prints around them (no ``$1 =``, ``(float)``, ``x/``,
#: field names, addresses): text typed or copied bare, whose width no tool says
_BARE = re.compile(r"[\s\d.eE+\-,;(){}\[\]]*")


def _typed_halves(text: str, base: list[ParsedValue]) -> bool:
    """Whether ``base`` holds f16 decimals that only their digits made f16, in bare text
    (``1.2344``: 5 significant digits are how gdb prints a ``_Float16``, and how people
    type): the inspector's f32 or f64 width wins there, f16 stays one click away. About 4%
    of 5-digit decimals are an f16's %.5g print; with a debugger's cue around them
    (``$1 = 0.33325``) they stay f16. (bfloat16's 4 digits count only in gdb's output.)"""
    return (len(text) <= 4096 and _BARE.fullmatch(text) is not None
            and any(v.kind == "decimal" for v in base)
            and all(v.kind in ("decimal", "special") and v.format in _HALF_PRINTS for v in base))


def _width_open(base: list[ParsedValue], fmt: str) -> bool:
    """Whether every value is a decimal read in the default f32 that ``fmt`` holds as
    written too (``1.5``, not ``0.100000001``, gdb's print of an f32), or already in ``fmt``
    (a value f32 cannot hold): the inspector's width then wins. A decimal rounded by its
    tool (RenderDoc's 5 places, noted "not bit-exact") says nothing about its width."""
    bf16 = fmt in LANE_ONLY_PRINTS
    return all(v.kind in ("decimal", "special")
               and (v.format == fmt
                    or v.format == DEFAULT_DECIMAL and (v.kind == "special" or "not bit-exact" in v.note
                                              or fmt in (candidates(v.text, bf16) or {fmt})
                                              or not candidates(v.text, bf16)))
               for v in base)


def needs_readings(op_format: str, text: str) -> bool:
    """Whether pasting ``text`` while the op takes ``op_format`` parses it as values (not
    a state string, not codes, not too long): the part worth doing on another thread for a
    long text, the check included."""
    t = text.strip()
    return (len(text) <= MAX_PASTE_CHARS and not t.startswith(STATE_PREFIX)
            and parse_codes(op_format, text) is None)


def paste_work(text: str) -> int:
    """What reading ``text`` costs, in characters and values: its length plus the copies its
    ``<repeats N times>`` make (30 characters can make 131072 values, ~0.6 s). The app reads
    a paste on a thread from a bound of this, not of the text's length."""
    if len(text) > MAX_PASTE_CHARS:
        return len(text)  # refused at once by paste_text
    return len(text) + sum(min(int(n), MAX_VALUES) for n in _REPEATS.findall(text))


def paste_text(state: InspectorState, text: str, reading: str | None = None,
               found: list[Reading] | None = None) -> PasteResult:
    """Paste text: a state string restores the whole view; values fill the inspector and
    the operands A, B, C... (integers are codes while a code op is picked), read the
    ``reading`` way (its key; the first reading by default). ``found`` are the text's
    :func:`readings` when the caller has them (read on another thread). ValueError, with
    the state untouched, for text it cannot use."""
    if len(text) > MAX_PASTE_CHARS:  # parsing megabytes would freeze the window
        raise ValueError(
            f"too much text: {len(text):,} characters (at most {MAX_PASTE_CHARS:,}; "
            f"the inspector takes one value and the operands at most {MAX_OPERANDS})")
    if text.strip().startswith(STATE_PREFIX):
        state.restore(snapshot_from_string(text))
        return PasteResult("restored the pasted state")
    if found is None:  # (``found``: the caller knows these are values, not codes)
        codes = parse_codes(state.snapshot.op_format, text)  # itof & co: integer operands
        if codes is not None:
            return PasteResult(_paste_codes(state, codes))
        found = readings(text, state.snapshot.fmt)
    taken = found[0]
    if reading is None and _codes_only(taken) and not _takes_codes(state):
        # "1  2 3" is also how a person types numbers: while the op takes floats, the first
        # reading that has floats is taken, and the integer codes stay one click away
        taken = next((r for r in found if not _codes_only(r)), taken)
    if reading is not None:
        match = [r for r in found if r.key == reading]
        if not match:
            raise ValueError(f"no reading {reading!r} of this text "
                             f"(it reads as: {', '.join(r.key for r in found)})")
        taken = match[0]
    return PasteResult(_fill(state, taken), taken, tuple(r for r in found if r is not taken))


def _codes_only(reading: Reading) -> bool:
    return all(isinstance(operand_format(f), CodeFormat) for f, _ in reading.items)


def _takes_codes(state: InspectorState) -> bool:
    return isinstance(operand_format(state.snapshot.op_format), CodeFormat)


def _fill(state: InspectorState, reading: Reading) -> str:
    items = list(reading.items)
    s = state.snapshot
    spec = OPS.get(s.op)
    arity = spec.arity if spec else 2
    if _codes_only(reading):
        return _fill_codes(state, items)
    if reading.word is not None:  # a packed word: the word view, and R inspected
        with state.batch():
            state.update(word=reading.word, fmt=items[0][0], bits=items[0][1])
        return (f"read as {reading.label}; the 32-bit word view shows 0x{reading.word:08X}, "
                "the inspector its R channel (operands unchanged)")
    with state.batch():
        state.update(fmt=items[0][0], bits=items[0][1])
        if len(items) > 1:
            target = s.op_format
            if len({f for f, _ in items}) == 1 and (spec is None or items[0][0] in spec.formats):
                target = items[0][0]
            ops = [carry_operand(b, f, target) for f, b in items[:MAX_OPERANDS]]
            ops += [carry_operand(b, s.op_format, target) for b in s.operands[len(ops):]]
            state.update(op_format=target, operands=ops)
    head = f"read as {reading.label}"
    first = _value(*items[0])
    if len(items) == 1:  # (a width reading's label ends with the value: not twice)
        said = "" if reading.label.endswith(f"= {first}") else f": {first}"
        return f"{head}{said} into the inspector (operands unchanged)"
    snap = state.snapshot
    names = operand_letters(snap.op, arity)
    used = [f"{n} = {_value(snap.op_format, snap.operands[i])}"
            for i, n in enumerate(names[:len(items)])]
    msg = f"{head}: {', '.join(used)}; the inspector shows {first}"
    unused = items[arity:]
    if unused:
        shown = ", ".join(_value(f, b) for f, b in unused[:4]) + (" …" if len(unused) > 4 else "")
        msg += f"; not used ({snap.op} takes {arity}): {shown}"
    return msg


def _value(fmt: str, bits: int) -> str:
    t = operand_format(fmt)
    if isinstance(t, CodeFormat):
        return str(int(t.values(bits)))
    assert isinstance(t, FloatFormat)
    return shortest_decimal(bits, t)


def _fill_codes(state: InspectorState, items: list[tuple[str, int]]) -> str:
    """Integer codes (RenderDoc's int/uint cells) into the operands of an integer-code op,
    each checked against the op's code type; ValueError, the state untouched, when the op
    takes floats or a code does not fit."""
    target = operand_format(state.snapshot.op_format)
    if not isinstance(target, CodeFormat):
        raise ValueError(f"these are integer codes ({', '.join(sorted({f for f, _ in items}))})"
                         f": {state.snapshot.op} takes {target.name} values; pick an "
                         "integer-code op (itof, utof, ...) to paste them as operands")
    codes = []
    for f, bits in items:
        value = int(operand_format(f).values(bits))  # type: ignore[union-attr]
        codes.append(target.pattern(value))  # (ValueError: outside the op's type)
    return _paste_codes(state, codes)


def _paste_codes(state: InspectorState, codes: list[int]) -> str:
    if len(codes) > MAX_OPERANDS:
        raise ValueError(f"{len(codes)} codes: the operands take at most {MAX_OPERANDS}")
    ops = list(state.snapshot.operands)
    ops[:len(codes)] = codes
    state.update(operands=ops)
    s = state.snapshot
    spec = OPS.get(s.op)
    arity = spec.arity if spec else 2
    names = operand_letters(s.op, arity)
    used = [f"{n} = {_value(s.op_format, s.operands[i])}" for i, n in enumerate(names[:len(codes)])]
    msg = f"{len(codes)} {s.op_format} code{'s' if len(codes) > 1 else ''}: {', '.join(used)}"
    if len(codes) > arity:
        msg += f"; not used ({s.op} takes {arity}): " + ", ".join(
            _value(s.op_format, c) for c in s.operands[arity:len(codes)])
    return msg
