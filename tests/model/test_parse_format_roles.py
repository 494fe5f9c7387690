"""The parser and the paste read formats as data (issue 37): no code in
``fpinspector/model/parse`` or ``fpinspector/model/state`` compares a format name; what they
need of a format is its record (bits, signedness) or a row of the one parse table
(model/parse/roles.py: how debuggers print each width, which formats a lane may hold).

The second half checks that table against things it does not compute itself: the format
records, numpy's own type widths, and IEEE 754's count of the digits that give a binary
value back (2019, 5.12.2: ``1 + ceil(p log10 2)`` for ``p`` significand bits).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from _name_literals import name_comparisons

from fpinspector.model.formats import FORMATS
from fpinspector.model.parse import roles

MODEL = Path(__file__).resolve().parents[2] / "fpinspector" / "model"
CHECKED = (MODEL / "parse", MODEL / "state")


def test_the_counter_finds_format_name_comparisons():
    """The check below can fail: it sees each spelling of a format-name comparison."""
    src = ('if t.fmt in ("f16", "f64"): pass\nif c == {"f16", "bf16"}: pass\n'
           'if "bf16" in c: pass\nif inspected not in ("f11", "f10"): pass\n'
           'x = {"f32": 1}\ny = parse(t, format="f16")\nif f == "half": pass\n')
    assert len(name_comparisons(src, FORMATS)) == 4


def test_no_parse_or_state_module_compares_a_format_name():
    """ISSUE-37: the parser has one table of format roles (parse/roles.py, its names keys
    of formats.FORMATS) and reads the records; a comparison written back fails here."""
    found = {}
    for folder in CHECKED:
        for path in sorted(folder.rglob("*.py")):
            hits = name_comparisons(path.read_text(encoding="utf-8"), FORMATS)
            if hits:
                found[str(path.relative_to(MODEL))] = hits
    assert not found, f"format names compared (read parse/roles.py or the record): {found}"


def test_every_name_of_the_table_is_a_format():
    """The table is shared with formats: a name it holds that formats does not know (a
    format renamed or dropped) fails here, not at a paste."""
    names = {*roles.PRINTS, *roles.THREE_DIGIT, roles.DEFAULT_DECIMAL,
             *(f for fs in roles.LANES.values() for f in fs)}
    assert names <= set(FORMATS)


def test_lane_widths_are_the_records_bits():
    """A lane of N bits holds formats of N bits, signed (a register lane has a sign bit)."""
    for bits, fmts in roles.LANES.items():
        assert fmts and roles.lane_default(bits) == fmts[0]
        for f in fmts:
            assert FORMATS[f].bits == bits and FORMATS[f].signed, f
    assert roles.lane_default(11) is None
    assert {FORMATS[f].signed for f in roles.THREE_DIGIT} == {False}


def test_print_digits_are_ieee_round_trip_digits():
    """gdb's %.9g / %.17g / %.5g (and its %.4g of a bfloat16 lane) are IEEE 754's digits
    that give the value back, ``1 + ceil(p log10 2)``; numpy's type is the record's width."""
    for name, pr in roles.PRINTS.items():
        p = FORMATS[name].frac_bits + 1
        assert pr.digits == 1 + math.ceil(p * math.log10(2)), name
        if pr.numpy is not None:
            info = np.finfo(pr.numpy)
            assert (info.nmant, info.bits) == (FORMATS[name].frac_bits, FORMATS[name].bits)
    assert roles.DEFAULT_DECIMAL in roles.PRINTED
    assert roles.LANE_ONLY_PRINTS.isdisjoint(roles.PRINTED)
