"""Debuggers' register displays: which of a register's many views hold its bits.

- ``p $xmm0`` and ``info registers xmm0`` print a union of views of the same 128 (256,
  512) bits: ``v8_bfloat16``, ``v8_half``, ``v4_float``, ``v2_double``, ``v16_int8``,
  ``v8_int16``, ``v4_int32``, ``v2_int64``, ``uint128``. Read whole they made 53 "values" of
  one register. Only the integer view with lanes as wide as the format is read (``v4_int32``
  for f32, ``v2_int64`` for f64, ``v8_int16`` for f16): its lanes are the bits exactly, in
  decimal (``print``) or hex (``info registers``), where the float view's hex in gdb before
  8.1 is the value converted to an integer (1.25 shows as ``0x1``). The float view is read
  where there is no such integer view (a format of another width, or a union without it).
- AArch64 ``p $v0`` / ``info registers v0``: ``{d = {f = ..., u = ..., s = ...}, s = {...},
  h = {bf = ..., f = ..., u = ..., s = ...}, b = {...}, q = {...}}``: the unsigned lanes
  (``u``) of the view as wide as the format (``d``, ``s``, ``h``), else its float lanes.
  gdb 13's ``info registers v0`` prints that union raw (hex), then natural: the raw one is
  read (:mod:`.debuggers` blanks the other). ``p $s0`` / ``$d0`` / ``$h0`` print ``{f = 1, u =
  1065353216, s = 1065353216}`` (``h`` adds ``bf``) and ``p $q0`` ``{u = <128 bits>, s =
  ...}``: the ``u`` lane (see :func:`_arm_scalar`).
- ``info registers rax``: the name, the raw hex and gdb's natural column: the raw hex.
- AArch64 ``info registers s0`` of older gdb: ``s0  0.333333343  (raw 0x3eaaaaab)``: the raw
  hex, as f32 (``s``), f64 (``d``) or f16 (``h``); gdb 13 prints ``s0  {f = 0x3f800000, u =
  ...} {f = 1, ...}``, read as above, its width from the name.
- gdb's ``p/x $xmm0.uint128`` (``p``, ``p/d``, ``p/t``; ``v2_int128`` of a ymm): the register
  as one number, leading zeros dropped: more hex digits than an f64 pattern, an integer
  beyond 64 bits in gdb's output, more than 64 binary digits. Cut into lanes of the
  format like Visual Studio's (below); which width is the reader's choice.
- Visual Studio's Registers window: ``XMM0 = 800000003FC00000000000003EAAAAAB`` (the 128
  bits, the highest lane first; YMM: 256): the f32 lanes, the lowest first as gdb and the
  float display (``XMM00 = +3.3333334E-001``) number them.
"""

from __future__ import annotations

import re
from typing import Any

from ..formats import FORMATS
from .roles import lane_default
from .tokens import ParseError, Token

__all__ = ["MEMBER", "lldb_hex_chunks", "register_line", "select_views", "wide_register",
           "wide_values"]

_FLAGS = re.IGNORECASE | re.ASCII
#: A view of a vector register in gdb's union (the label before its "=").
MEMBER = re.compile(r"v\d{1,2}_(?:bfloat16|half|float|double|u?int(?:8|16|32|64|128))"
                    r"|u?int(?:128|256|512)", _FLAGS)
_LANES = re.compile(r"v\d{1,2}_(?P<kind>bfloat16|half|float|double|u?int(?P<bits>\d+))", _FLAGS)
_FLOAT_VIEW = {"half": 16, "float": 32, "double": 64}
_VECTOR_NAME = re.compile(r"[ \t]*(?:[xyz]mm|[vq]|(?P<fp>[sdh]))\d{1,2}[ \t]+(?=\{)", _FLAGS)
#: AArch64's vector register union: views by lane width, each with float, unsigned and
#: signed lanes (names that are also ordinary field names: a union only when it is one)
ARM_MEMBERS = frozenset({"d", "s", "h", "b", "q", "f", "u", "bf"})
_ARM_TOP = frozenset({"d", "s", "h", "b", "q"})
_ARM_WIDTH = {"d": 64, "s": 32, "h": 16}
_GPR = (r"[re]?(?:[abcd]x|[sd]i|[sb]p|ip)|r(?:[89]|1[0-5])[dwb]?|eflags|[cdefgs]s|[fg]s_base"
        r"|mxcsr|k[0-7]|[xw](?:[12]?\d|3[01])|sp|pc|cpsr|fpsr|fpcr")
_GPR_LINE = re.compile(rf"[ \t]*(?:{_GPR})[ \t]+(?P<raw>0x[0-9a-f]{{1,16}})"
                       r"(?:[ \t]+(?P<natural>[^\n]*?))?[ \t]*$", _FLAGS)
_FP_LINE = re.compile(r"[ \t]*(?P<kind>[sdh])(?:[12]?\d|3[01])[ \t]+\S+[ \t]+"
                      r"\(raw[ \t]+(?P<raw>0x[0-9a-f]{1,16})\)[ \t]*$", _FLAGS)


def register_line(text: str, pos: int, eol: int, toks: list[Token]) -> int | None:
    """A gdb register line at ``pos`` (up to ``eol``): its value's tokens appended to
    ``toks`` and the position to go on from, or None when the line is not one."""
    m = _FP_LINE.match(text, pos, eol)
    if m:
        fmt = {"s": "f32", "d": "f64", "h": "f16"}[m.group("kind").lower()]
        toks.append(Token("type", m.group("kind"), m.start("kind"), m.end("kind"), fmt=fmt,
                          extra="gdb register"))
        _raw(m, toks)
        return eol
    m = _GPR_LINE.match(text, pos, eol)
    if m and _natural_of(m.group("raw"), m.group("natural")):
        _raw(m, toks)
        return eol
    m = _VECTOR_NAME.match(text, pos, eol)
    if m:  # the union follows: its views are chosen by select_views
        if m.group("fp"):  # AArch64's s0 / d0 / h0: its width, for the {f, u, s} union
            toks.append(Token("type", m.group("fp"), m.start("fp"), m.start("fp") + 1,
                              fmt={"s": "f32", "d": "f64", "h": "f16"}[m.group("fp").lower()],
                              extra="gdb register"))
        return m.end()
    return None


_WIDE_NAME = re.compile(r"[xy]mm\d{1,2}", _FLAGS)
_WIDE_BITS = re.compile(r"[ \t]*(?P<bits>[0-9a-f]{64}|[0-9a-f]{32})(?![0-9a-z_.#])", _FLAGS)


def wide_register(text: str, name: str, pos: int, toks: list[Token]) -> int | None:
    """After Visual Studio's ``XMM0 =`` (label ``name``, value at ``pos``): the register's
    32 or 64 hex digits as one ``wide`` token (:func:`select_views` splits it into lanes of
    the format); the position after them, or None when no such value follows."""
    if not _WIDE_NAME.fullmatch(name):
        return None
    m = _WIDE_BITS.match(text, pos)
    if m is None:
        return None
    toks.append(Token("wide", m.group("bits"), m.start("bits"), m.end("bits")))
    return m.end("bits")


#: gdb's ``uint128``/``v2_int128`` views and ``p/x``, ``p/d``, ``p/t`` of them print the
#: register as one number, leading zeros dropped: more hex digits than an f64 pattern has,
#: an integer beyond 64 bits, or more binary digits than 64. No float print looks so.
_LONG_HEX = re.compile(r"[0-9a-f]{17,64}", _FLAGS)
_LONG_BIN = re.compile(r"[01]{65,256}", re.ASCII)
_INTEGER = re.compile(r"[+-]?\d{19,78}", re.ASCII)
_BINARY = re.compile(r"[01]+", re.ASCII)
_GDB_OUTPUT = re.compile(r"\$\d{1,9}[ \t]*=|\bu?int(?:128|256)\b", re.ASCII)
#: an echoed command that asks for a register as 128-bit numbers (``p $xmm6.uint128``):
#: then a number of any size is the register (one whose top 64 bits are zero prints
#: below 2^64), unless a whole union is printed (its other views: ``v4_int32 =``)
_NAMED_128 = re.compile(r"\.(?:uint128|v2_int128)\b", re.ASCII)
_MEMBER_WORD = re.compile(r"\b(?:v\d{1,2}_\w+|uint128)[ \t]*=", re.ASCII)
_INTEGER_ANY = re.compile(r"[+-]?\d{1,40}", re.ASCII)


def wide_values(toks: list[Token], text: str) -> list[Token]:
    """``toks`` with each number too wide for any float pattern here (see ``_LONG_HEX``) made
    a ``wide`` token of 32 (128 bits) or 64 (256 bits) hex digits, which
    :func:`select_views` cuts into lanes of the format; other tokens as given. An integer
    counts only in gdb's output (``$1 =``, or a ``uint128`` view named in ``text``): gdb
    prints no float as 20 digits, but an exact decimal (``340282346638528859811704183484516925440``,
    FLT_MAX) elsewhere is a float."""
    gdb = _GDB_OUTPUT.search(text) is not None
    named = _NAMED_128.search(text) is not None and _MEMBER_WORD.search(text) is None
    out: list[Token] = []
    for t in toks:
        digits = None
        if named and t.kind in ("hex", "dec") and not t.fmt and (
                t.kind == "hex" and t.extra == "0x" or _INTEGER_ANY.fullmatch(t.text)):
            n = int(t.text, 16) if t.kind == "hex" else int(t.text)  # (the echoed command
            if -(1 << 127) <= n < 1 << 128:  # says 128 bits: leading zeros were dropped)
                digits = f"{n % (1 << 128):x}"
        elif t.kind == "hex" and t.extra == "0x" and _LONG_HEX.fullmatch(t.text):
            digits = t.text
        elif t.kind == "dec" and not t.fmt and _LONG_BIN.fullmatch(t.text):
            digits = f"{int(t.text, 2):x}"
        elif gdb and t.kind == "dec" and not t.fmt and _INTEGER.fullmatch(t.text) and not (
                _BINARY.fullmatch(t.text)):  # (p/t of 64 bits or fewer: a pattern)
            n = int(t.text)
            if (n >= 1 << 64 or n < -(1 << 63)) and -(1 << 255) <= n < 1 << 256:
                width = 128 if -(1 << 127) <= n < 1 << 128 else 256
                digits = f"{n % (1 << width):x}"
        if digits is None:
            out.append(t)
            continue
        width = 32 if len(digits) <= 32 else 64
        out.append(Token("wide", digits.zfill(width), t.start, t.end, extra="number"))
    return out


def lldb_hex_chunks(toks: list[Token]) -> list[Token]:
    """lldb's ``p/x`` of a clang ``ext_vector_type`` prints 32-bit chunks whatever the lane
    type: ``(half4) $0 = (0x35553c00, 0x7e000001)`` is four f16 lanes, ``(double2) $1 =
    (0x55555555, 0x3fd55555, ...)`` two f64. After a half or double type word, a
    parenthesized run of 8-digit patterns is re-cut into lanes of that width, the lowest
    first (a chunk's span for each of its f16 lanes, a pair's for an f64 lane)."""
    out: list[Token] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        lane = FORMATS[t.fmt].bits if t.kind == "type" and t.fmt in FORMATS else 32
        if (lane in (16, 64) and i + 2 < len(toks)
                and toks[i + 1].kind == "close" and toks[i + 2].kind == "open"
                and toks[i + 2].text == "("):
            j = i + 3
            while (j < len(toks) and toks[j].kind == "hex" and toks[j].extra == "0x"
                   and len(toks[j].text) == 8):
                j += 1
            run = toks[i + 3:j]
            per = lane // 32 or 1  # (chunks per lane: an f64 lane is two)
            if run and j < len(toks) and toks[j].kind == "close" and len(run) % per == 0:
                out.extend(toks[i:i + 3])
                for k in range(0, len(run), per):
                    group = run[k:k + per]
                    value = sum(int(c.text, 16) << (32 * n) for n, c in enumerate(group))
                    s, e = group[0].start, group[-1].end
                    if lane == 64:
                        out.append(Token("hex", f"{value:016x}", s, e, extra="0x"))
                    else:
                        out += [Token("hex", f"{value & 0xFFFF:04x}", s, e, extra="0x"),
                                Token("hex", f"{value >> 16:04x}", s, e, extra="0x")]
                i = j
                continue
        out.append(t)
        i += 1
    return out


def _lanes_of(t: Token, bits: int) -> list[Token]:
    """A ``wide`` token's lanes of ``bits`` (f32 for formats of other widths), the lowest
    (the last digits) first. A lane's span is its digits where the token's text is the
    source's hex, else the whole number's."""
    digits = {16: 4, 32: 8, 64: 16}.get(bits, 8)
    note = f"lane:{len(t.text) * 4}"
    if t.extra == "number":
        return [Token("hex", t.text[k - digits:k], t.start, t.end, extra=note)
                for k in range(len(t.text), 0, -digits)]
    return [Token("hex", t.text[k - digits:k], t.start + k - digits, t.start + k, extra=note)
            for k in range(len(t.text), 0, -digits)]


def _natural_of(raw: str, natural: str | None) -> bool:
    """Whether ``natural`` is gdb's natural column for the raw hex: none, the same number
    in decimal (signed or not), the same hex with a symbol (``<main+8>``) or flags
    (``[ IF ZF ]``). Anything else is other values, never dropped as a column."""
    if not natural:
        return True
    value = int(raw, 16)
    word = natural.split()[0]
    if re.fullmatch(r"-?\d{1,20}", word):
        n = int(word)
        return n in (value, value - (1 << 64), value - (1 << 32))
    if word.lower() == raw.lower():
        return natural[len(word):].strip()[:1] in ("", "<")
    return natural.startswith("[") and natural.rstrip().endswith("]")


def _raw(m: re.Match[str], toks: list[Token]) -> None:
    raw = m.group("raw")
    toks.append(Token("hex", raw[2:], m.start("raw"), m.end("raw"), extra="0x"))


def select_views(toks: list[Token], fmt: Any = None, text: str = "") -> list[Token]:
    """Tokens with each gdb register union reduced to the one view that holds the bits for
    ``fmt`` (a FloatFormat or None: f32), and each wide register value split into its
    lanes, see the module docstring; other tokens as given. Raises :class:`ParseError`
    for a union with no view to read as ``fmt`` (in ``text``)."""
    if not any(t.kind in ("member", "amember", "wide") for t in toks):
        return toks
    bits = getattr(fmt, "bits", 32)
    out: list[Token] = []
    i = 0
    while i < len(toks):
        if toks[i].kind == "wide":
            out.extend(_lanes_of(toks[i], bits))
            i += 1
            continue
        kind = toks[i].kind
        if kind not in ("member", "amember"):
            out.append(toks[i])
            i += 1
            continue
        start = i
        views, i = _views(toks, i, kind)
        chosen = _chosen(toks, views, bits) if kind == "member" else (
            _chosen_arm(toks, views, bits) or _arm_scalar(toks, views, start, fmt, text))
        if chosen is None and kind == "member":
            raise ParseError(f"this register has no {bits}-bit or f32 lanes to read"
                             f"{f' as {fmt.name}' if fmt is not None else ''}", text,
                             toks[start].start)
        if chosen is None:  # not a register union: as written (its names are not values)
            chosen = [t for t in toks[start:i] if t.kind != "amember"]
        out.extend(chosen)
    return out


def _views(toks: list[Token], i: int, kind: str) -> tuple[dict[str, tuple[int, int]], int]:
    """The members of one union from ``toks[i]`` on: name -> (start, end) of its value,
    and the index after the union (views one a line included)."""
    views: dict[str, tuple[int, int]] = {}
    while i < len(toks) and toks[i].kind == kind:
        end = _value_end(toks, i + 1)
        views[toks[i].text.lower()] = (i + 1, end)
        i = end
        while (i < len(toks) and toks[i].kind == "nl" and i + 1 < len(toks)
               and toks[i + 1].kind in ("nl", kind)):
            i += 1  # (one view a line: the union goes on)
    return views, i


def _chosen_arm(toks: list[Token], views: dict[str, tuple[int, int]], bits: int
                ) -> list[Token] | None:
    """AArch64's union: the ``u`` lanes of the view of ``bits`` (``s`` for formats of
    other widths), else its ``f`` lanes; None when ``views`` is not that union."""
    if len(views) < 4 or not set(views) <= _ARM_TOP:  # (gdb prints all five views)
        return None
    top = {64: "d", 16: "h"}.get(bits, "s")
    if top not in views:
        return None
    s, e = views[top]
    if e - s < 2 or toks[s].kind != "open" or toks[s + 1].kind != "amember":
        return None
    inner, end = _views(toks, s + 1, "amember")
    if end != e - 1 or not set(inner) <= ARM_MEMBERS - _ARM_TOP | {"s"}:
        return None
    width = _ARM_WIDTH[top]
    if "u" in inner:
        lanes = _as_patterns(_without_designators(toks[slice(*inner["u"])]), width)
        if lanes is not None:
            return lanes
    if "f" in inner:
        return _float_lanes(toks[slice(*inner["f"])], width, top)
    return None


def _arm_scalar(toks: list[Token], views: dict[str, tuple[int, int]], start: int, fmt: Any,
                text: str = "") -> list[Token] | None:
    """AArch64's scalar views: ``p $s0`` / ``info registers s0`` print ``{f = 1, u =
    1065353216, s = 1065353216}`` (``h0`` adds ``bf``), ``p $q0`` ``{u = <128 bits>, s =
    ...}``: the ``u`` lane is the bits. Its width: ``bf`` says 16, the register's name
    (``s0 {...}``) or the format asked says it, else a ``u`` beyond 32 bits or an ``f``
    of 17 digits says 64, else 32. None when ``views`` is not such a union."""
    names = set(views)
    if names in ({"u", "s"}, {"u"}):  # q0: one 128-bit number (s, the same, may be blanked)
        body = _without_designators(toks[slice(*views["u"])])
        if len(body) == 1 and body[0].kind == "wide":  # (made so by wide_values)
            return _lanes_of(body[0], getattr(fmt, "bits", 32))
        if len(body) != 1 or body[0].kind not in ("dec", "hex"):
            return None
        t = body[0]
        n = int(t.text, 16) if t.kind == "hex" else int(t.text) if t.text.isdigit() else -1
        if not (1 << 64 <= n < 1 << 128 or 0 <= n < 1 << 64 and _same_u_s(text, t, n)):
            return None  # (a field named u: as written)
        wide = Token("wide", f"{n:032x}", t.start, t.end, extra="number")
        return _lanes_of(wide, getattr(fmt, "bits", 32))
    if names not in ({"f", "u", "s"}, {"bf", "f", "u", "s"}):
        return None
    named = toks[start - 2] if start >= 2 and toks[start - 1].kind == "open" else None
    u = _without_designators(toks[slice(*views["u"])])
    if len(u) != 1 or u[0].kind not in ("dec", "hex"):
        return None
    value = int(u[0].text, 16) if u[0].kind == "hex" else int(u[0].text)
    f = toks[slice(*views["f"])]
    if "bf" in names:
        width = 16
    elif named is not None and named.kind == "type" and named.extra == "gdb register":
        width = FORMATS[str(named.fmt)].bits
    elif fmt is not None and fmt.bits in (16, 32, 64):
        width = fmt.bits
    else:
        from .widths import candidates  # (widths imports formats: late, as lex does)
        digits = candidates(f[0].text) if len(f) == 1 and f[0].kind == "dec" else None
        f64_digits = digits is not None and {FORMATS[d].bits for d in digits} == {64}
        width = 64 if value >> 32 or f64_digits else 32
    return _as_patterns(u, width)


_S_VIEW = re.compile(r"[ \t]*,[ \t]*s[ \t]*=[ \t]*(?P<n>-?(?:0x[0-9a-f]{1,32}|\d{1,40}))[ \t]*\}",
                     _FLAGS)


def _same_u_s(text: str, u: Token, n: int) -> bool:
    """Whether ``u`` (the ``u`` view's number ``n``) is followed in ``text`` by ``, s = n}``:
    gdb's q register whose top bits are zero (``p $q4`` after ``ldr d4``: a number below
    2^64; :func:`plain` blanked ``s``, the same value). A struct of two such fields holding
    the same number reads so too."""
    m = _S_VIEW.match(text, u.end, u.end + 200)
    if m is None:
        return False
    t = m.group("n")
    v = int(t, 16) if "x" in t.lower() else int(t)
    return v % (1 << 128) == n


def _value_end(toks: list[Token], i: int) -> int:
    """Index after the value starting at ``i``: a bracketed group, or one token and any
    ``<repeats N times>`` after it."""
    if i < len(toks) and toks[i].kind == "open":
        depth = 0
        for j in range(i, len(toks)):
            depth += {"open": 1, "close": -1}.get(toks[j].kind, 0)
            if depth == 0:
                return j + 1
        return len(toks)  # (unclosed: the walk reports it)
    j = i + 1 if i < len(toks) and toks[i].kind not in ("member", "amember", "close") else i
    while j < len(toks) and toks[j].kind == "repeat":
        j += 1
    return j


def _chosen(toks: list[Token], views: dict[str, tuple[int, int]], bits: int
            ) -> list[Token] | None:
    """The tokens of the view read for lanes of ``bits``: the integer view (as bit
    patterns of that width), else the float view of that width, else the f32 one."""
    for name, (s, e) in views.items():
        m = _LANES.fullmatch(name)
        if m and m.group("bits") == str(bits):
            lanes = _as_patterns(_without_designators(toks[s:e]), bits)
            if lanes is not None:
                return lanes
    for want in (bits, 32):
        for name, (s, e) in views.items():
            m = _LANES.fullmatch(name)
            if m and _FLOAT_VIEW.get(m.group("kind").lower()) == want:
                return _float_lanes(toks[s:e], want, name)
    return None  # (a union of integer views only: no lane of a float format)


def _float_lanes(value: list[Token], bits: int, name: str) -> list[Token]:
    """A float view's lanes (the value of view ``name``) with its format, f16/f32/f64 by
    ``bits``, as a type hint on its brackets."""
    body = _without_designators(value)
    if body and body[0].kind == "open":
        return [Token("type", name, body[0].start, body[0].start, fmt=lane_default(bits),
                      extra=name), *body]
    return body


def _without_designators(body: list[Token]) -> list[Token]:
    """gdb's ``p/f`` writes ``{[0] = 3.1400001, [1.40129846e-45] = 0, ...}``: the
    bracketed indexes (and the ``[...]`` groups in general) are not lanes."""
    out: list[Token] = []
    depth = 0
    for t in body:
        if t.kind == "open" and t.text == "[":
            depth += 1
            continue
        if depth and t.kind == "close" and t.text == "]":
            depth -= 1
            continue
        if not depth:
            out.append(t)
    return out


def _as_patterns(body: list[Token], bits: int) -> list[Token] | None:
    """The integer view's lanes as ``bits``-wide patterns (int tokens: two's complement),
    or None when a lane is not an integer (``p/f`` prints every view as floats)."""
    out: list[Token] = []
    for t in body:
        if t.kind == "dec" and re.fullmatch(r"[+-]?\d+", t.text):
            out.append(Token("int", t.text, t.start, t.end, extra=bits))
        elif t.kind == "hex":
            out.append(Token("int", str(int(t.text, 16)), t.start, t.end, extra=bits))
        elif t.kind in ("open", "close", "repeat"):
            out.append(t)
        else:
            return None
    return out
