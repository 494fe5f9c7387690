"""Tokenizer for pasted values: one linear pass, no backtracking-prone regular expressions.

The tokenizer only finds the pieces (numbers, byte runs, type words, brackets, debugger
addresses); :mod:`fpinspector.model.parse` decides widths and formats. Every regular
expression here is a plain alternation of bounded or single-quantifier pieces matched at a
known position, so the cost is linear in the input length.

Only ASCII is read (``re.ASCII``): Unicode digits and look-alike letters (``ınf``, ``İnf``,
``ſnan``, full-width ``１``) would otherwise match ``\\d`` or case-insensitive ``inf`` and
be read as something they are not; they are refused with a message naming the character.
Unicode spaces (no-break space, thin space, ...) separate values like ASCII spaces.
"""

from __future__ import annotations

import re
import unicodedata

from ..formats import ALIASES, FORMATS
from . import registers
from .tokens import ParseError, Token

__all__ = ["INT_WIDTHS", "TYPE_WORDS", "ParseError", "Token", "tokenize"]


# type words -> format hint (vector suffixes such as float4, half2x2, vec3 are accepted):
# the languages' and debuggers' type words, then every format's name and aliases (formats)
_FLOAT_TYPES = {
    "float32_t": "f32", "vec": "f32", "xmfloat": "f32", "asfloat": "f32",
    "float16_t": "f16", "min16float": "f16", "f16vec": "f16", "xmhalf": "f16",
    "asfloat16": "f16", "float64_t": "f64", "dvec": "f64", "asdouble": "f64",
    **{name: name for name in FORMATS}, **ALIASES,
}
#: words that carry no value or format (numpy's ``array([...], dtype=float32)``)
_NOISE_WORDS = {"array"}
#: integer type words -> width in bits (a decimal integer followed by one is a bit pattern)
INT_WIDTHS = {
    "int": 32, "uint": 32, "unsigned": 32, "signed": 32, "long": 32, "dword": 32,
    "int32_t": 32, "uint32_t": 32, "uint16_t": 16, "int16_t": 16, "short": 16, "ushort": 16,
    "word": 16, "__int64": 64, "int64_t": 64, "uint64_t": 64, "ulonglong": 64, "qword": 64,
}
TYPE_WORDS = _FLOAT_TYPES
_TYPE_RE = re.compile(r"([a-z_0-9]*?[a-z_])(\d(?:x\d)?)?$", re.ASCII)

_FLAGS = re.IGNORECASE | re.ASCII
_SPACES = "\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"  # Unicode space separators (Zs)
_END = r"(?![0-9A-Za-z_.#])"
_MASTER = re.compile(
    "|".join(
        [
            r"(?P<ws>[ \t\r\f\v" + _SPACES + "]+)",
            r"(?P<nl>\n)",
            r"(?P<repeat><repeats (?P<count>\d{1,9}) times>)",
            r"(?P<msvc>[+-]?\d\.#(?:INF|IND|QNAN|SNAN)\d*" + _END + ")",
            r"(?P<special>[+-]?(?:nan(?:\([0-9a-z_]{0,32}\))?|inf(?:inity)?|qnan|snan)" + _END + ")",
            r"(?P<hexfloat>[+-]?0x(?:[0-9a-f_]{0,4000}\.[0-9a-f_]{0,4000}|[0-9a-f_]{1,4000})"
            r"p[+-]?\d{1,6}[fhl]?" + _END + ")",
            r"(?P<hex>[+-]?0x[0-9a-f_]{1,4000}[ul]{0,3}" + _END + ")",
            r"(?P<bin>0b[01_]{1,200}" + _END + ")",
            r"(?P<hexh>[0-9a-f][0-9a-f_]{0,40}h" + _END + ")",
            r"(?P<bytes>[0-9a-f]{2}(?:[ \t]+[0-9a-f]{2}(?![0-9A-Za-z_.#]))+" + _END + ")",
            r"(?P<bare>(?:[0-9]{4}|[0-9]{8}|[0-9]{16})" + _END + ")",
            r"(?P<dec>[+-]?(?:\d[\d_']{0,4000}(?:\.\d{0,4000})?|\.\d{1,4000})"
            r"(?:e[+-]?\d{1,4000})?(?:#den)?[fhl]?" + _END + ")",
            # f11, f16, ...: format tags, not bare hex patterns ("f11 0x3c0", "0x3c0 f11")
            r"(?P<fword>(?:" + "|".join(sorted(FORMATS, key=len, reverse=True)) + ")" + _END + ")",
            r"(?P<barehex>(?=[a-f]{0,16}\d)[0-9a-f]{1,16}" + _END + ")",
            r"(?P<label>(?:\$\d{1,9}|[A-Za-z_][\w.\[\]]{0,200})[ \t]*=(?!=))",
            r"(?P<word>[A-Za-z_][\w]{0,100}(?:(?:::|\.)[A-Za-z_]\w{0,100}){0,8})",
            r"(?P<open>[({\[])",
            r"(?P<close>[)}\]])",
            r"(?P<sep>[,;:=|])",
        ]
    ),
    _FLAGS,
)
_GDB_ADDR = re.compile(r"[ \t]*0x[0-9a-f]{1,16}(?:[ \t]+<[^>\n]{0,256}>)?:", _FLAGS)
_VS_ADDR = re.compile(r"[ \t]*0x[0-9a-f]{8,16}(?: {2,}|\t)", _FLAGS)
_VS_WORD = r"(?:[0-9a-f]{2,16}|\?\?)(?![^ \t\n\r])"
_VS_DATA = re.compile(_VS_WORD + "(?: " + _VS_WORD + ")*", _FLAGS)
#: the same row with one space after the address, as a web page shows it (HTML folds the
#: two): only before 4 or more bytes, so a typed ``0x3f800000 3f800000`` keeps both values
_VS_ADDR_1 = re.compile(r"[ \t]*0x(?:[0-9a-f]{8}|[0-9a-f]{16}) (?=(?:[0-9a-f]{2} ){3}[0-9a-f]{2}"
                        r"(?![^ \t\n\r]))", _FLAGS)
_BAD = re.compile(r"[^\s,;(){}\[\]" + _SPACES + "]{1,40}", re.ASCII)
# Debugger command echoes pasted with their output: "(gdb) x/4xw &a", "(lldb) p f", "x/4xw 0x..".
_PROMPT = re.compile(r"[ \t]*(?:\((?:gdb|lldb)\)|(?:x|p|print|output)/\d{0,9}[a-z]{0,3}(?=[ \t]))"
                     r"[^\n]*", _FLAGS)
# "x/4xw 0x7ffe: 0x3f800000 ..." (command and output on one line): the values follow the colon
_ECHO_ADDR = re.compile(r"0x[0-9a-f]{1,16}(?:[ \t]+<[^>\n]{0,256}>)?:", _FLAGS)
# Visual Studio memory window in a float/double display: a 16-digit (x64) address, then two
# or more decimals only ("0x3f800000  1.5" stays a pattern and a value).
_VS_FADDR = re.compile(r"[ \t]*0x[0-9a-f]{16}(?: {2,}|\t)", _FLAGS)
_VS_FLOATS = re.compile(r"(?:[+-]?(?:\d+\.\d*(?:e[+-]?\d+)?(?:#den)?|\d\.#[a-z]+\d*|inf(?:inity)?"
                        r"|nan(?:\([a-z0-9_]{0,32}\))?)(?: {1,}|\t|$)){2,}[ \t]*$", _FLAGS)


def type_hint(word: str) -> tuple[str, str | int] | None:
    """('float', format) or ('int', width) for a type word such as ``float4``, else None."""
    w = word.lower()
    for prefix in ("directx::", "np.", "numpy.", "std::"):
        w = w.removeprefix(prefix)
    if w in INT_WIDTHS:
        return ("int", INT_WIDTHS[w])
    m = _TYPE_RE.match(w)
    if m and m.group(1) in _FLOAT_TYPES:
        return ("float", _FLOAT_TYPES[m.group(1)])
    if w in _FLOAT_TYPES:
        return ("float", _FLOAT_TYPES[w])
    return None


def _vs_watch_name_end(text: str, pos: int, eol: int) -> int:
    """Visual Studio watch rows are ``Name<TAB>Value<TAB>Type``: skip the name column."""
    line = text[pos:eol]
    if line[:2] in ("+\t", "-\t"):  # the expand/collapse marker of a watch row
        line = line[1:]
        pos += 1
    lead = len(line) - len(line.lstrip(" \t"))
    pos += lead
    line = line[lead:]
    if line.count("\t") < 2:
        return pos
    fields = line.split("\t")
    last_words = fields[-1].replace("*", " ").split()
    first = fields[0].strip()
    if not last_words or not all(type_hint(w) for w in last_words):
        return pos
    if first[:1].isalpha() or first[:1] in "_$+":
        return pos + len(fields[0]) + 1
    return pos


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens; raises :class:`ParseError` at the first unreadable piece."""
    toks: list[Token] = []
    n = len(text)
    pos = 0
    line_start = True
    while pos < n:
        if line_start:
            line_start = False
            eol = text.find("\n", pos)
            eol = n if eol < 0 else eol
            m = _PROMPT.match(text, pos, eol)
            if m:  # a debugger command line: its output follows on the next lines
                out = _ECHO_ADDR.search(text, pos, m.end())
                pos = out.end() if out else m.end()
                continue
            m = _VS_ADDR.match(text, pos, eol) or _VS_ADDR_1.match(text, pos, eol)
            if m and _VS_DATA.match(text, m.end(), eol):
                # Visual Studio memory window: address, data, then an ASCII column
                pos = _vs_memory_row(text, m.end(), eol, toks)
                continue
            m = _VS_FADDR.match(text, pos, eol)
            if m and _VS_FLOATS.match(text, m.end(), eol):  # float display: skip the address
                pos = m.end()
                continue
            m = _GDB_ADDR.match(text, pos, eol)
            if m:  # gdb x/ dump: "0xADDR <sym+8>:" then values
                pos = m.end()
                continue
            reg = registers.register_line(text, pos, eol, toks)
            if reg is not None:  # gdb "info registers" lines: the raw bits
                pos = reg
                continue
            pos = _vs_watch_name_end(text, pos, eol)
            continue
        m = _MASTER.match(text, pos)
        if m is None:
            raise _unreadable(text, pos)
        kind = m.lastgroup or ""
        s, e = m.start(), m.end()
        tok = m.group(kind)
        if kind == "nl":
            toks.append(Token("nl", tok, s, e))
            line_start = True
        elif kind == "label":
            name = tok.rstrip(" \t=")
            if registers.MEMBER.fullmatch(name):  # a view of a gdb register union
                toks.append(Token("member", name, s, e))
            elif name.lower() in registers.ARM_MEMBERS:  # maybe one of an AArch64 union
                toks.append(Token("amember", name, s, e))
            lanes = registers.wide_register(text, name, e, toks)
            if lanes is not None:  # Visual Studio's "XMM0 = <32 hex digits>"
                e = lanes
        elif kind in ("ws", "sep"):
            pass
        elif kind == "repeat":
            toks.append(Token("repeat", tok, s, e, extra=int(m.group("count"))))
        elif kind == "msvc" or kind == "special":
            _check_payload(text, tok, s)
            toks.append(Token("special", tok, s, e))
        elif kind == "hexfloat":
            mant = tok.lower().lstrip("+-")[2:].partition("p")[0]
            if not any(c in "0123456789abcdef" for c in mant):
                raise ParseError(f"hex float {tok!r} has no hex digits", text, s)
            toks.append(_with_suffix(Token("hexfloat", tok, s, e)))
        elif kind == "hex":
            body = tok.rstrip("uUlL")
            if body[0] in "+-":
                raise ParseError("a bit pattern has no sign (set the sign bit instead)", text, s)
            if not body[2:].replace("_", ""):
                raise ParseError(f"{tok!r} has no hex digits", text, s)
            toks.append(Token("hex", body[2:].replace("_", ""), s, e, extra="0x"))
        elif kind == "hexh":
            toks.append(Token("hex", tok[:-1].replace("_", ""), s, e, extra="h"))
        elif kind == "bin":
            if not tok[2:].replace("_", ""):
                raise ParseError(f"{tok!r} has no binary digits", text, s)
            toks.append(Token("bin", tok[2:].replace("_", ""), s, e))
        elif kind == "bytes":
            for bm in re.finditer(r"[0-9a-f]{2}", tok, _FLAGS):
                toks.append(Token("byte", bm.group(), s + bm.start(), s + bm.end()))
        elif kind == "bare":
            if tok[0] == "0":  # "00000000": a zero-padded pattern, never a decimal
                toks.append(Token("hex", tok, s, e, extra="bare"))
            else:
                toks.append(Token("dec", tok, s, e))
        elif kind == "dec":
            if tok[-4:].lower() == "#den":  # Visual Studio marks a denormal "1.401298e-45#DEN"
                tok = tok[:-4]
            toks.append(_with_suffix(Token("dec", tok, s, e)))
        elif kind == "barehex":
            _bare_hex(text, tok, s, e, toks)
        elif kind in ("word", "fword"):
            _word(text, tok, s, e, toks)
        elif kind == "open":
            toks.append(Token("open", tok, s, e))
        elif kind == "close":
            toks.append(Token("close", tok, s, e))
        pos = e
    return toks


def _unreadable(text: str, pos: int) -> ParseError:
    """The error for text the tokenizer cannot read at ``pos``, naming a non-ASCII
    character (a look-alike such as dotless ``ı`` would otherwise pass for ``i``)."""
    bad = _BAD.match(text, pos)
    word = bad.group() if bad else text[pos]
    for k, ch in enumerate(word):
        if ord(ch) > 127:
            name = unicodedata.name(ch, "unnamed character")
            plain = "".join(c for c in unicodedata.normalize("NFKD", ch)
                            if not unicodedata.combining(c))
            if not (plain.isascii() and plain.isprintable() and plain.strip()):
                up = ch.upper()  # dotless ı -> I -> i
                plain = (up.lower() if ch.islower() else up) if up.isascii() else ""
            hint = f" (it looks like {plain!r}: type the ASCII character)" if plain else ""
            return ParseError(f"cannot read {word!r}: {ch!r} is U+{ord(ch):04X} {name}, "
                              f"not an ASCII character{hint}", text, pos + k)
    return ParseError(f"cannot read {word!r}", text, pos)


def _check_payload(text: str, tok: str, s: int) -> None:
    """``nan(0x...)`` (gdb's NaN with a payload) must carry hex digits."""
    low = tok.lower()
    if "(0x" not in low:
        return
    payload = low[low.index("(0x") + 3:].rstrip(")").replace("_", "")
    if not payload or any(c not in "0123456789abcdef" for c in payload):
        raise ParseError(f"NaN payload in {tok!r} is not a hex number", text,
                         s + low.index("(0x") + 1)


def _with_suffix(tok: Token) -> Token:
    last = tok.text[-1].lower()
    if tok.kind == "dec" or tok.kind == "hexfloat":
        if last == "f":
            tok.fmt, tok.text = "f32", tok.text[:-1]
        elif last == "h":
            tok.fmt, tok.text = "f16", tok.text[:-1]
        elif last == "l":
            tok.fmt, tok.text = "f64", tok.text[:-1]
    return tok


def _bare_hex(text: str, tok: str, s: int, e: int, toks: list[Token]) -> None:
    """A bare run of hex digits: hex if it has a letter and a pattern width, else an error."""
    if any(c in "abcdefABCDEF" for c in tok) and len(tok) in (3, 4, 8, 16):
        toks.append(Token("hex", tok, s, e, extra="bare"))
        return
    raise ParseError(
        f"cannot read {tok!r}: write hex patterns with 0x (0x{tok}) or as 4, 8 or 16 digits",
        text,
        s,
    )


def _word(text: str, tok: str, s: int, e: int, toks: list[Token]) -> None:
    if tok.lower() in _NOISE_WORDS:
        return
    hint = type_hint(tok)
    if hint is None:
        raise ParseError(f"unknown word {tok!r}", text, s)
    kind, val = hint
    if kind == "int":
        toks.append(Token("int_word", tok, s, e, extra=val))
    else:
        toks.append(Token("type", tok, s, e, fmt=str(val), extra=tok.lower()))


def _vs_memory_row(text: str, pos: int, eol: int, toks: list[Token]) -> int:
    """Data of one Visual Studio memory-window row; the ASCII column after it is skipped."""
    m = _VS_DATA.match(text, pos, eol)
    assert m is not None  # checked by the caller
    width = None
    for dm in re.finditer(r"\S+", m.group()):
        word = dm.group()
        s = pos + dm.start()
        if word == "??":
            raise ParseError("unreadable memory ('??') in the dump", text, s)
        if width is None:
            width = len(word)
        elif len(word) != width:
            break  # the ASCII column happened to look like hex: stop at the width change
        if width == 2:
            toks.append(Token("byte", word, s, s + 2))
        else:
            toks.append(Token("hex", word, s, s + len(word), extra="bare"))
    return eol
