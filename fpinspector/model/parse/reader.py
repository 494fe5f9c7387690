"""Read bit patterns from pasted text: hex, decimals, byte dumps, vectors, gdb, Visual Studio,
RenderDoc CSV and tab-separated copies.

Entry point :func:`parse`. Widths come from the text where it says them (hex digit count,
binary digit count, a type word such as ``half2(...)`` or ``float`` after a watch value)
and from ``format`` where it does not. Decimals are rounded exactly once into the format.
"""

from __future__ import annotations

from ..formats import FloatFormat, get_format
from .debuggers import plain
from .lex import ParseError, tokenize
from .registers import lldb_hex_chunks, select_views, wide_values
from .renderdoc_csv import _csv_header, _parse_csv
from .renderdoc_text import read_renderdoc
from .values import MAX_VALUES, ParsedValue
from .walk import _assemble

__all__ = ["ParsedValue", "ParseError", "parse", "MAX_INPUT_CHARS", "MAX_VALUES"]

#: Longest text accepted (characters); longer pastes are refused before any work.
MAX_INPUT_CHARS = 1 << 20


def parse(text: str, format: str | FloatFormat | None = None, *, byte_order: str = "little",
          renderdoc: bool = True) -> list[ParsedValue]:
    """Read every value in ``text``.

    Parameters
    ----------
    text : str
        Pasted text: ``0x3f800000``, ``3F800000``, ``3f800000h``, ``0x3c00``, ``0b0011...``,
        byte dumps ``00 00 80 3f``, decimals ``1.0f`` / ``-1.#IND`` / ``nan``, C hex floats,
        vectors ``float4(1, 2, 3, 4)``, gdb ``$1 = {...}``, ``x/4xw`` dumps and register
        displays (``p $xmm0``, ``info registers xmm0`` / ``rax`` / ``s0``), Visual
        Studio watch rows and memory windows, RenderDoc buffer CSV exports.
    format : str or FloatFormat, optional
        Format for values whose width the text does not give (decimals default to f32,
        byte dumps to 4-byte f32). When given it wins over widths in the text, and
        patterns wider than it are refused.
    byte_order : {"little", "big", "both"}
        How to read byte dumps (memory order); "both" returns both readings.
    renderdoc : bool
        False: do not read the text as RenderDoc's table (its row indexes are then values),
        for the reading of a text whose RenderDoc shape is only a guess.

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
    rd = read_renderdoc(text, fmt) if renderdoc else None
    if rd is not None:
        return rd
    found = _csv_header(text)
    if found is not None:
        return _parse_csv(text, found[0], fmt, byte_order, found[1])
    try:
        toks = tokenize(plain(text))
    except ParseError as exc:  # (the message quotes the text as pasted)
        raise ParseError(exc.reason, text, exc.index) from None
    return _assemble(select_views(wide_values(lldb_hex_chunks(toks), text), fmt, text), text, fmt, byte_order)
