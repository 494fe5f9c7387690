"""gdb's and lldb's output made plain before the tokenizer reads it.

What a debugger prints around its values is not values: lldb's type prefix
``(float[4]) $0 =`` and index designators ``[0] =``, a field or variable whose name looks
like hex (``acc0 =``, ``c0 =``, ``f4 =``), gdb's ``display`` number (``1: farr =``),
clang's ``__attribute__((ext_vector_type(N)))`` in lldb's type (its lane type kept),
lldb's ASCII column after a memory dump, the three names of one glm component
(``{x = 1, r = 1, s = 1}``: one value). :func:`plain` blanks those (the text keeps its
length, so positions in messages stay true) and keeps what says a width: a type word
(``float``, ``double``, ``__fp16`` -> ``half``, ``uint32_t``) is left for the tokenizer.

Registers that hold no float value (mxcsr, eflags, rip, x87's st0..st7 of 80 bits) and
lldb's ``long double`` are refused with a message naming them, rather than read as a
pattern of some width. lldb's ``register read`` of a vector register (``xmm0 = {0x00 ...}``
bytes in memory order, ``-f x``: one 128/256-bit number, ``-f y``: its bytes as one hex run)
is rewritten in place as the bytes or lanes it holds.
"""

from __future__ import annotations

import re

from .tokens import ParseError


def type_hint(word: str) -> tuple[str, str | int] | None:
    """The tokenizer's reading of a type word (imported late: lex imports this module's
    neighbours)."""
    from .lex import type_hint as hint
    return hint(word)

__all__ = ["plain"]

_F = re.IGNORECASE | re.ASCII

# lldb: "(float[8]) $0 = ", "(acc) acc = ", "(float *) $39 = 0x0000555555554000 {",
# "(float) 0x55555555a060 = 1" (memory read -t), "  (double) [0] = " (parray)
_LLDB_TYPE = re.compile(
    r"^(?P<lead>[ \t]*)\((?P<type>[A-Za-z_][\w: \t]{0,80}?(?:[ \t]*\*)?(?:\[\d{1,9}\]){0,4})\)"
    r"[ \t]+(?P<name>\$\d{1,9}|0x[0-9a-f]{1,16}|\[\d{1,9}\]|[A-Za-z_][\w.\[\]>-]{0,200})"
    r"[ \t]*=[ \t]*(?P<ptr>0x[0-9a-f]{1,16}[ \t]*(?=\{))?", _F | re.MULTILINE)
_DESIGNATOR = re.compile(r"\[\d{1,9}\][ \t]*=(?!=)", _F)
# a name that reads as hex digits (acc0, c0, a1, f4, fade) before "=": never a value
_HEX_NAME = re.compile(r"(?<![\w.$])(?P<name>[a-f](?=[a-f]{0,14}\d)[0-9a-f]{1,15})[ \t]*=(?!=)", _F)
_DISPLAY = re.compile(r"^(?P<p>[ \t]*\d{1,6}:[ \t]+(?:/[a-z]{1,3}[ \t]+)?)"
                      r"(?=[A-Za-z_$][^\n=]{0,200}=)", _F | re.MULTILINE)
# lldb's anonymous union member line: "   = (x = 1, r = 1, s = 1)"
_ANON = re.compile(r"^[ \t]*=(?=[ \t]*[({])", re.MULTILINE)
# one glm component: "{x = 1, r = 1, s = 1}" / "(x = 1, r = 1, s = 1)": the same value
# under several names
_VIEWS = re.compile(r"[({](?P<body>[ \t]*[A-Za-z_]\w{0,30}[ \t]*=[ \t]*[^,(){}\n]{1,60}"
                    r"(?:,[ \t]*[A-Za-z_]\w{0,30}[ \t]*=[ \t]*[^,(){}\n]{1,60}){1,7})[)}]", _F)
_VIEW = re.compile(r"[ \t]*(?P<name>[A-Za-z_]\w*)[ \t]*=[ \t]*(?P<value>[^,]*?)[ \t]*(?:,|$)")
# lldb memory read: "0x55555555a060: 00 00 80 3f ... cd cc cc 3d  ...?...?.......="
_LLDB_BYTES = re.compile(r"^(?P<head>[ \t]*0x[0-9a-f]{1,16}:(?:[ \t][0-9a-f]{2}){1,64})"
                         r"(?P<ascii>[ \t]{2,}\S[^\n]*)$", _F | re.MULTILINE)
# lldb register read: "    xmm0 = {0x00 0x00 ...}", "    xmm0 = 0x3dcc...", "rip = 0x... sym"
_LLDB_REG = re.compile(r"^(?P<lead>[ \t]*)(?P<name>[a-z][a-z0-9_]{1,10})[ \t]=[ \t]"
                       r"(?P<value>[^\n]*)$", re.ASCII | re.MULTILINE)
_VECTOR_REG = re.compile(r"[xyz]mm\d{1,2}|v\d{1,2}|q\d{1,2}", _F)
_NOT_FLOAT_REG = re.compile(
    r"mxcsr|[re]?flags|cpsr|fpsr|fpcr|[re]ip|pc|[cdefgs]s|[fg]s_base|k[0-7]|fctrl|fstat|ftag"
    r"|fiseg|fioff|foseg|fooff|fop|st[0-7]|mm[0-7]|fp[0-7]", _F)
_GDB_REG = re.compile(r"^[ \t]*(?P<name>[a-z][a-z0-9_]{1,10})[ \t]{2,}(?P<rest>\S[^\n]*)$",
                      re.ASCII | re.MULTILINE)
_LONG_DOUBLE = re.compile(r"long[ \t]+double|__float80|_Float64x", _F)
_FP16_TYPES = re.compile(r"__fp16|_Float16|__bf16", _F)
_INT_TYPE = re.compile(r"(?:unsigned[ \t]+|signed[ \t]+)?(?:u?int(?:8|16|32|64)_t|int|long"
                       r"|short|char|unsigned|uint\d+)$", _F)
# lldb names an unnamed clang vector type by its attribute: "(float
# __attribute__((ext_vector_type(2))))": the lane type is the width word
_EXT_VECTOR = re.compile(r"\((?P<base>[A-Za-z_][\w \t]{0,40}?)[ \t]+__attribute__\(\("
                         r"ext_vector_type\(\d{1,4}\)\)\)\)", _F)
# gdb's info registers of an AArch64 vector or scalar register: "v0  {raw, hex} {natural}":
# the raw union holds the bits; the natural one (decimals) is the same value again
_ARM_REG_LINE = re.compile(r"^[ \t]*[vqsdh]\d{1,2}[ \t]+(?=\{)", _F | re.MULTILINE)
_FLOATISH = re.compile(r"\d\.\d|\d[eE][+-]?\d|nan|inf", _F)


Edits = list[tuple[int, int, str]]  # (start, end, replacement: at most end - start chars)


def _blank(chars: Edits, s: int, e: int) -> None:
    chars.append((s, e, ""))


def _put(chars: Edits, s: int, word: str) -> None:
    chars.append((s, s + len(word), word))


def _apply(text: str, edits: Edits) -> str:
    """``text`` with each edit's span replaced by its word padded with spaces (newlines
    kept), so every position stays where it was."""
    if not edits:
        return text
    out, pos = [], 0
    for s, e, word in sorted(edits, key=lambda x: (x[0], x[1])):
        if s < pos:  # (a word first, then the blank that holds it: the rest of it)
            s = pos
            if s >= e:
                continue
        out.append(text[pos:s])
        seg = text[s:e]
        fill = word[:e - s] + "".join("\n" if c == "\n" else " " for c in seg[len(word):])
        out.append(fill)
        pos = e
    out.append(text[pos:])
    return "".join(out)


# A command echoed with its output ("(gdb) x/4fh harr", "(lldb) memory read -s 8 -f f ..."):
# its size and format letters say the width of what follows.
_ECHO = re.compile(r"^[ \t]*(?:\((?P<tool>gdb|lldb)\)[ \t]*)?(?P<cmd>x/\d{0,9}(?P<letters>[a-z]{0,3})"
                   r"(?=[ \t])|(?:memory|mem)[ \t]+read\b|register[ \t]+read\b)(?P<args>[^\n]*)$",
                   _F | re.MULTILINE)
_OUT_ADDR = re.compile(r"[ \t]*0x[0-9a-f]{1,16}(?:[ \t]+<[^>\n]{0,256}>)?:", _F)
_OUT_REG = re.compile(r"[ \t]*[xyz]mm\d{1,2}[ \t]=(?=[ \t]*\{)", _F)
_INT_WORD = {1: "", 2: "uint16_t", 4: "uint32_t", 8: "uint64_t"}
_FLOAT_WORD = {2: "half", 4: "float", 8: "double"}
_GDB_SIZE = {"b": 1, "h": 2, "w": 4, "g": 8}


def _echo_word(m: re.Match[str], body: str) -> str:
    """The type word a command's letters give its output lines ('' for none)."""
    floatish = bool(_FLOATISH.search(body))
    cmd, args = m.group("cmd").lower(), m.group("args")
    if cmd.startswith("x/"):
        letters = m.group("letters").lower()
        size = next((_GDB_SIZE[c] for c in letters if c in _GDB_SIZE), 0)
        kind = next((c for c in letters if c in "xduofz"), "")  # (t: binary digits)
        if kind == "f":  # gdb 13 prints x/fh as integers (the pattern)
            return _FLOAT_WORD.get(size, "") if floatish or size != 2 else _INT_WORD[2]
        return _INT_WORD.get(size, "") if kind and not floatish else ""
    f = re.search(r"(?:-f|--format)[ \t]+(?P<f>\S+)", args)
    sz = re.search(r"(?:-s|--size)[ \t]+(?P<s>\d+)", args)
    fmt = f.group("f").lower() if f else ""
    if cmd.startswith("register"):
        return {"float64[]": "double", "float32[]": "float", "float16[]": "half"}.get(fmt, "")
    size = int(sz.group("s")) if sz else 0
    if fmt in ("f", "float"):
        return _FLOAT_WORD.get(size, "")
    if fmt in ("x", "d", "u", "hex", "decimal", "unsigned decimal") and not floatish:
        return _INT_WORD.get(size, "")
    return ""


def _echoes(text: str, edits: Edits) -> None:
    """Each echoed command's width, written where its output lines' addresses were."""
    cmds = list(_ECHO.finditer(text))
    for k, m in enumerate(cmds):
        end = cmds[k + 1].start() if k + 1 < len(cmds) else len(text)
        body = text[m.end():end]
        word = _echo_word(m, body)
        if not word:
            continue
        pos = m.end() + 1
        while pos < end:
            eol = text.find("\n", pos, end)
            eol = end if eol < 0 else eol
            a = _OUT_ADDR.match(text, pos, eol) or _OUT_REG.match(text, pos, eol)
            if a and a.end() - a.start() > len(word):
                _put(edits, a.start(), word)
                _blank(edits, a.start() + len(word), a.end())
            pos = eol + 1


def plain(text: str) -> str:
    """``text`` with the debugger's labels, indexes and non-value columns blanked (same
    length); ParseError for text that is a non-float register or an x87 value."""
    if "ext_vector_type" in text:  # clang's "(float __attribute__((ext_vector_type(2))))"
        text = _apply(text, [(m.start(), m.end(), f"({m.group('base')})")
                             for m in _EXT_VECTOR.finditer(text)])
    edits: Edits = []
    if "x/" in text or " read" in text:
        _echoes(text, edits)
    has_eq = "=" in text
    _registers(text, edits, has_eq)
    if has_eq:
        for m in _LLDB_TYPE.finditer(text):
            _lldb_type(text, m, edits)
        if ":" in text:
            for m in _DISPLAY.finditer(text):
                _blank(edits, m.start("p"), m.end("p"))
        for m in _ANON.finditer(text):
            _blank(edits, m.start(), m.end())
    if "} {" in text:
        for m in _ARM_REG_LINE.finditer(text):  # AArch64 info registers: raw, then natural
            _natural_union(text, m.end(), edits)
    if ":" in text and "  " in text:
        for m in _LLDB_BYTES.finditer(text):
            _blank(edits, m.start("ascii"), m.end("ascii"))
    out = _apply(text, edits)
    if "=" not in out:
        return out
    edits = []
    for m in _VIEWS.finditer(out):
        _views(out, m, edits)
    out = _apply(out, edits)
    edits = []
    if "[" in out:
        for m in _DESIGNATOR.finditer(out):
            _blank(edits, m.start(), m.end())
    for m in _HEX_NAME.finditer(out):
        _blank(edits, m.start(), m.end())
    return _apply(out, edits)


def _natural_union(text: str, pos: int, edits: Edits) -> None:
    """After an AArch64 register's name at ``pos``: where its line holds a second
    brace group after the first (gdb's natural view), that group is blanked."""
    eol = text.find("\n", pos)
    eol = len(text) if eol < 0 else eol
    depth = 0
    for i in range(pos, eol):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                rest = text[i + 1:eol].strip()
                if rest.startswith("{") and rest.endswith("}"):
                    _blank(edits, i + 1, eol)
                return


def _lldb_type(text: str, m: re.Match[str], chars: Edits) -> None:
    """lldb's ``(T) name =``: blanked, ``T`` kept as a width word the tokenizer knows
    (``float``, ``double``, ``half``, an integer type) or dropped (a struct, a vector)."""
    t = " ".join(m.group("type").replace("*", " ").split())
    if _LONG_DOUBLE.search(t):
        raise ParseError(f"lldb's ({t}) is an x87 80-bit value: no format here holds it "
                         "(cast it to double)", text, m.start("type"))
    _blank(chars, m.start("type") - 1, m.end())
    base = re.sub(r"\[\d+\]", "", t).strip()
    word = ""
    if _FP16_TYPES.fullmatch(base):
        word = "half"
    elif base in ("float", "double") or (type_hint(base) or ("",))[0] == "float":
        word = base
    elif _INT_TYPE.fullmatch(base):
        eol = text.find("\n", m.end())
        body = text[m.end():] if base.endswith("]") or "\n" in text[m.end():] else \
            text[m.end():eol if eol >= 0 else len(text)]
        if not _FLOATISH.search(body):  # (p/f of integers prints floats: no integer cue)
            word = {"int": "int32_t", "unsigned": "uint32_t", "long": "int64_t",
                    "short": "int16_t", "char": ""}.get(base, base.split()[-1])
    if word:
        _put(chars, m.start("type") - 1, f"({word})")


def _views(text: str, m: re.Match[str], chars: Edits) -> None:
    """A glm component's views (``x = 1, r = 1, s = 1``): one value, the first."""
    body = m.group("body")
    views = [(v.group("name"), v.group("value")) for v in _VIEW.finditer(body)]
    if len(views) < 2 or len({v for _, v in views}) != 1 or not views[0][1]:
        return
    first = _VIEW.match(body)
    assert first is not None
    _blank(chars, m.start("body") + first.end(), m.end("body"))


def _registers(text: str, chars: Edits, has_eq: bool) -> None:
    for m in _LLDB_REG.finditer(text) if has_eq else ():
        name = m.group("name")
        if _NOT_FLOAT_REG.fullmatch(name):
            raise ParseError(f"register {name} holds no float value (flags, an address or "
                             "an x87 80-bit value)", text, m.start("name"))
        if _VECTOR_REG.fullmatch(name):
            _lldb_vector(text, m, chars)
    for m in _GDB_REG.finditer(text) if "  " in text or "\t" in text else ():
        name = m.group("name")
        if _NOT_FLOAT_REG.fullmatch(name) and not m.group("rest").startswith("{"):
            raise ParseError(f"register {name} holds no float value (flags, an address or "
                             "an x87 80-bit value)", text, m.start("name"))


_BYTE_LIST = re.compile(r"\{(?:[ \t]*0x[0-9a-f]{2})+[ \t]*\}$", _F)
_WIDE_HEX = re.compile(r"0x(?P<d>[0-9a-f]{32}|[0-9a-f]{64})$", _F)
_WIDE_RUN = re.compile(r"(?P<d>[0-9a-f]{32}|[0-9a-f]{64})(?P<ascii>[ \t]+\S.*)?[ \t]*$", _F)
_WIDE_DEC = re.compile(r"\d{20,78}$")


def _lldb_vector(text: str, m: re.Match[str], chars: Edits) -> None:
    """lldb's ``register read`` of a vector register: ``{0x00 0x00 ...}`` (its bytes, memory
    order) stays a byte dump; ``0x<32 or 64 digits>`` (``-f x``, the number), ``<digits>``
    (``-f d``) and ``-f y``/``-f Y`` (the bytes as one run, memory order, maybe an ASCII
    column) become the register's number in hex after its name, as Visual Studio writes
    it (``xmm0 = 3DCC...``), which :mod:`.registers` cuts into lanes of the format."""
    v = m.group("value").rstrip()
    s = m.start("value")
    if _BYTE_LIST.match(v):
        _blank(chars, m.start("name"), s)
        return
    w = _WIDE_HEX.match(v)
    r = _WIDE_RUN.match(v)
    if w:
        digits = w.group("d")
    elif _WIDE_DEC.match(v):
        n = int(v)
        if n >> 256:
            return
        digits = f"{n:0{32 if n < 1 << 128 else 64}x}"
    elif r:
        digits = bytes.fromhex(r.group("d"))[::-1].hex()
    else:
        return
    if len(digits) > len(m.group("value")):
        raise ParseError(f"cannot read register {m.group('name')}'s value", text, s)
    _put(chars, s, digits)
    _blank(chars, s + len(digits), m.end("value"))
