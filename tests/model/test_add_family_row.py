"""An op of an existing family is one row (issue 37): round_ha (tests/_round_half_away_row.py,
a row of the round family) is evaluated by the engine, with its allowed set, fired rules,
explanation and scalar exact function, and no change to the package's code: the family's
record says how its exact value and its model result are formed.

Oracle: every f16 pattern's value as a Fraction, rounded half away from zero with Python's
integers, back to f16 by numpy (an integer of an f16 value is an f16 value)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from _round_half_away_row import round_half_away_row

from fpinspector.model.engine import OPS, evaluate
from fpinspector.model.engine.exact import scalar as sc

ALL_F16 = np.arange(1 << 16, dtype=np.uint16)


def _oracle_f16(bits: np.ndarray) -> np.ndarray:
    """Half away from zero on each f16 value; NaN in: the canonical quiet NaN 0x7E00."""
    out = np.empty_like(bits)
    for i, v in enumerate(bits.view(np.float16).astype(np.float64)):
        if math.isnan(v):
            out[i] = 0x7E00
            continue
        if math.isinf(v) or v == 0:
            r = v
        else:
            q = Fraction(v)
            n = math.floor(abs(q) + Fraction(1, 2))
            r = math.copysign(float(n), v)  # (a zero result keeps the operand's sign)
        out[i] = np.float16(r).view(np.uint16)
    return out


@pytest.mark.parametrize("rules", ["ieee754", "d3d11"])
def test_a_round_family_row_evaluates_every_f16_pattern(rules):
    """F32-INSTR (round to integral: exact): the model result of every f16 pattern is the
    oracle's; the allowed set is that one result (any NaN for a NaN operand); -0.5 gives
    -1, -0.25 gives -0, 2.5 gives 3 (round_ne: -0, -0, 2)."""
    want = _oracle_f16(ALL_F16)
    with round_half_away_row():
        ev = evaluate("round_ha", ALL_F16, format="f16", rules=rules)
        got = np.asarray(ev.bits)
        nan = (want & 0x7C00) == 0x7C00
        nan &= (want & 0x03FF) != 0
        assert (got[~nan] == want[~nan]).all()
        assert ((got[nan] & 0x7C00) == 0x7C00).all()
        assert np.asarray(ev.allowed(want)).all()
        off = np.where(nan, want, want ^ 1)  # the neighbouring pattern: not allowed
        assert not np.asarray(ev.allowed(off))[~nan].any()
        ties = [0xB800, 0xB400, 0x4100]  # -0.5, -0.25, 2.5
        half = evaluate("round_ha", ties, format="f16", rules=rules)
        assert [int(b) for b in half.bits] == [0xBC00, 0x8000, 0x4200]  # -1, -0, 3
        even = evaluate("round_ne", ties, format="f16", rules=rules)
        assert [int(b) for b in even.bits] == [0x8000, 0x8000, 0x4000]  # -0, -0, 2
    assert "round_ha" not in OPS


def test_a_round_family_row_has_its_rules_explanation_and_scalar_exact():
    """The family's rows in the rule table apply to the new row (F32-INSTR, the round
    family's accuracy rule; F32-NANPROP for a NaN operand), the explanation rounds, and
    the scalar exact entry is the row's own function."""
    with round_half_away_row() as row:
        ev = evaluate("round_ha", [0x3FC00000, 0x7FC00000], format="f32", rules="d3d11")
        assert "F32-INSTR" in ev.rules_at(0)
        assert "F32-NANPROP" in ev.rules_at(1)
        steps = ev.steps_at(0)
        assert "exact result: 2.0 = 0x1.0000000000000p+1" in steps  # 1.5: a tie, away
        assert "rounded to nearest even in f32: 0x40000000 (2.0, normal)" in steps
        assert sc.entry("round_ha", row) is row.scalar
        assert sc.of_row(row, [Fraction(-5, 2)]) == -3
        assert math.copysign(1, sc.of_row(row, [Fraction(-1, 4)])) == -1
