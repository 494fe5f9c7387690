"""CONV-OVERFLOW, CONV-INF-NAN, CONV-SAT-OCP: the rules that say what happened to a value
out of range converted into bf16 or OCP FP8, checked against values computed here from the
formats' widths (OCP OFP8 rev 1.0 table 1; bfloat16: f32's exponent, 7 fraction bits)."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from fpinspector.model.convert import convert

#: largest finite value, has an infinity (from the specifications, not from the engine)
LIMITS = {"bf16": ((2 - 2 ** -7) * 2.0 ** 127, True), "e5m2": (57344.0, True),
          "e4m3": (448.0, False)}
NON_SATURATING = ("d3d", "ieee", "rtz")
SATURATING = ("rne_sat", "rtz_sat")


def _f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _inputs() -> np.ndarray:
    """Every f32 exponent with its edge fractions, the targets' limits and their
    neighbours, both signs, INF and NaN."""
    pats = [(e << 23) | f for e in range(255) for f in (0, 1, 0x400000, 0x7FFFFF)]
    for mx, _ in LIMITS.values():
        b = _f32(mx)
        pats += [b - 1, b, b + 1, b + 0x10000, b + 0x80000]
    pats += [0x7F800000, 0x7FC00000]
    pats = [p for p in pats if p < 0x80000000]
    return np.array(pats + [p | 0x80000000 for p in pats], dtype=np.uint32)


#: (exponent bits, fraction bits) of each target
WIDTHS = {"bf16": (8, 7), "e5m2": (5, 2), "e4m3": (4, 3)}


def _decode(bits: int, dst: str) -> float:
    """A target pattern's value from the widths alone (E4M3: S.1111.111 is its NaN and the
    rest of the top exponent is normal)."""
    e_bits, f_bits = WIDTHS[dst]
    has_inf = LIMITS[dst][1]
    sign = -1.0 if bits >> (e_bits + f_bits) & 1 else 1.0
    e, f = bits >> f_bits & ((1 << e_bits) - 1), bits & ((1 << f_bits) - 1)
    bias, top = (1 << (e_bits - 1)) - 1, (1 << e_bits) - 1
    if has_inf and e == top:
        return sign * math.inf if f == 0 else math.nan
    if not has_inf and e == top and f == (1 << f_bits) - 1:
        return math.nan
    if e == 0:
        return sign * f * 2.0 ** (1 - bias - f_bits)
    return sign * (1 + f / (1 << f_bits)) * 2.0 ** (e - bias)


def _values(words: np.ndarray) -> list[float]:
    return [struct.unpack("<f", struct.pack("<I", int(w)))[0] for w in words]


@pytest.mark.parametrize("dst", sorted(LIMITS))
@pytest.mark.parametrize("variant", NON_SATURATING + SATURATING)
def test_out_of_range_rules_fire_exactly_where_the_value_left_the_range(dst, variant):
    """CONV-OVERFLOW fires where a finite input gave INF or NaN; CONV-INF-NAN where an
    infinity gave NaN; CONV-SAT-OCP where a saturating mode gave the largest finite value
    for a value beyond it or an infinity, and the result is then exactly +/-max."""
    mx, has_inf = LIMITS[dst]
    words = _inputs()
    r = convert(words, "f32", dst, variant=variant)
    out = [_decode(int(b), dst) for b in np.asarray(r.bits)]
    for i, (x, y) in enumerate(zip(_values(words), out)):
        fired = set(r.rules_at(i))
        overflowed = math.isfinite(x) and not math.isfinite(y)
        assert ("CONV-OVERFLOW" in fired) == overflowed, (hex(int(words[i])), variant, fired)
        assert ("CONV-INF-NAN" in fired) == (math.isinf(x) and math.isnan(y)), (x, y)
        beyond = math.isinf(x) or (math.isfinite(x) and abs(x) > mx)
        if variant in SATURATING:
            assert math.isnan(x) or (not overflowed and not math.isnan(y))
            if beyond:
                assert y == math.copysign(mx, x) and "CONV-SAT-OCP" in fired, (x, y, fired)
        else:
            assert "CONV-SAT-OCP" not in fired
            if math.isinf(x):
                assert math.isinf(y) if has_inf else math.isnan(y), (x, y)


def test_the_spec_examples():
    """OCP OFP8 section 5: f32 1000.0 into E4M3 is NaN without saturation (CONV-OVERFLOW),
    448 with it (CONV-SAT-OCP); +INF into E4M3 is NaN (CONV-INF-NAN); 1e6 into E5M2 is INF."""
    w = np.array([_f32(1000.0), _f32(math.inf)], dtype=np.uint32)
    plain, sat = convert(w, "f32", "e4m3"), convert(w, "f32", "e4m3", variant="rne_sat")
    assert [int(b) for b in plain.bits] == [0x7F, 0x7F]
    assert plain.rules_at(0) == ["CONV-OVERFLOW"] and plain.rules_at(1) == ["CONV-INF-NAN"]
    assert [int(b) for b in sat.bits] == [0x7E, 0x7E]
    assert sat.rules_at(0) == ["CONV-SAT-OCP"] == sat.rules_at(1)
    e5 = convert(np.array([_f32(1e6)], dtype=np.uint32), "f32", "e5m2")
    assert int(e5.bits[0]) == 0x7C and e5.rules_at(0) == ["CONV-OVERFLOW"]
    assert any("CONV-OVERFLOW" in line for line in plain.explain_at(0))
