"""What the parser knows of each format as the debuggers print it, in one table (issue 37):
the parse and paste code ask these rows and the format records of ``formats`` (bits,
signedness), never a format's name.

Why here and not in ``FloatFormat``: these are facts about the tools, not the encodings.
gdb and lldb print a float with 9 significant digits, a double with 17, a ``_Float16``
with 5, and gdb a bfloat16 vector lane with 4; a register lane or memory word of 16 bits
is an f16 unless the view says bfloat16; a decimal no cue names is an f32. Every name
here is a key of ``formats.FORMATS`` (a test checks it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["DEFAULT_DECIMAL", "LANES", "LANE_ONLY_PRINTS", "PRINTS", "PRINTED", "Print",
           "THREE_DIGIT", "lane_default"]


@dataclass(frozen=True)
class Print:
    """How debuggers print one format's values as decimals.

    ``digits``: significant digits of the print (``%.Ng``). ``numpy``: the numpy type that
    rounds a value into the format, None where numpy has none (bfloat16: rounded by hand).
    ``short_counts``: a print of fewer digits that gives the value back is weak evidence of
    the width (an f16's or f32's print with trailing zeros dropped); not for a double, whose
    17 digits give back many a short decimal. ``gdb_lanes_only``: only gdb prints it, as a
    lane of a vector view (bfloat16's ``%.4g``): weighed only in gdb's output.
    ``msvc_digits``: the digits of Visual Studio's print, where they differ (a float in a
    memory window: ``1.0863247e+009``, 8 digits and the CRT's 3-digit exponent)."""

    digits: int
    numpy: type[np.floating] | None
    short_counts: bool = True
    gdb_lanes_only: bool = False
    msvc_digits: int = 0


#: format name -> its print, the widths gdb and lldb print decimals in
PRINTS: dict[str, Print] = {
    "f16": Print(5, np.float16),
    "f32": Print(9, np.float32, msvc_digits=8),
    "f64": Print(17, np.float64, short_counts=False),
    "bf16": Print(4, None, gdb_lanes_only=True),
}
#: the widths of every debugger's decimals (not only of gdb's vector lanes), narrowest first
PRINTED: tuple[str, ...] = tuple(n for n, p in PRINTS.items() if not p.gdb_lanes_only)
#: the widths only gdb's vector lanes print (bfloat16)
LANE_ONLY_PRINTS: frozenset[str] = frozenset(n for n, p in PRINTS.items() if p.gdb_lanes_only)
#: the width of a decimal that no type word, suffix, digit count or range names
DEFAULT_DECIMAL = "f32"

#: lane bits -> the formats a register lane or memory word of that width may hold, the one
#: a pattern of that many bits is read in (no cue naming another) first
LANES: dict[int, tuple[str, ...]] = {16: ("f16", "bf16"), 32: ("f32",), 64: ("f64",)}

#: the packed formats whose 3-digit patterns (``0x7bf``) say no width: each is offered
#: where the inspector shows the other (R11G11B10's 11- and 10-bit floats)
THREE_DIGIT: tuple[str, ...] = ("f11", "f10")


def lane_default(bits: int) -> str | None:
    """The format a pattern of ``bits`` bits is read in, None for no lane width."""
    lanes = LANES.get(bits)
    return lanes[0] if lanes else None
