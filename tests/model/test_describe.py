"""describe() and friends against independent oracles: Python's Decimal(float) and float.hex,
numpy float16/finfo/nextafter, struct. Rule IDs: FMT-* (limits, layout), DEC-* (values,
classes), CONV-F2F-SAT (f11/f10 maxima quoted in docs/rules.md)."""

from __future__ import annotations

import math
import re
import struct
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from fpinspector.model import FORMATS, describe, format_limits, to_c_literal
from fpinspector.model.describe import (
    byte_dump,
    exact_decimal,
    hex_float,
    shortest_decimal,
    ulp_distance,
    values_between,
)

F16_ALL = np.arange(1 << 16, dtype=np.uint16)


def _sig_digits(s: str) -> int:
    """Significant digits of a decimal string (numpy or ours)."""
    m = s.lower().lstrip("-").split("e")[0].replace(".", "").lstrip("0").rstrip("0")
    return max(1, len(m))


def test_exact_decimal_f16_exhaustive_DEC_values():
    """DEC-*: the full decimal expansion equals numpy's float16 value exactly, every pattern."""
    vals = F16_ALL.view(np.float16).astype(np.float64)
    for p in range(1 << 16):
        s = exact_decimal(p, "f16")
        v = vals[p]
        if math.isnan(v):
            assert s in ("nan", "-nan")
        elif math.isinf(v):
            assert s == ("inf" if v > 0 else "-inf")
        else:
            assert Fraction(Decimal(s)) == Fraction(float(v)), hex(p)
            assert s.startswith("-") == (math.copysign(1, v) < 0)


def test_exact_decimal_f64_matches_python_decimal_of_float():
    """Decimal(float) is Python's exact expansion: same number, same digits."""
    rng = np.random.default_rng(11)
    pats = list(rng.integers(0, 0x7FF0000000000000, 300, dtype=np.uint64)) + [1, 0x7FEFFFFFFFFFFFFF]
    for p in pats:
        x = struct.unpack("<d", struct.pack("<Q", int(p)))[0]
        s = exact_decimal(int(p), "f64")
        assert Decimal(s) == Decimal(x)
        ref = format(Decimal(x), "f")
        assert s == (ref.rstrip("0").rstrip(".") if "." in ref else ref)


@pytest.mark.slow
def test_shortest_f16_round_trips_with_numpy_digit_count():
    """Shortest decimal: reads back through numpy's float16 and has numpy's digit count
    (every finite pattern, both signs)."""
    v16 = F16_ALL.view(np.float16)
    for p in np.flatnonzero(np.isfinite(v16)):
        s = shortest_decimal(int(p), "f16")
        back = np.array([float(Fraction(Decimal(s)))]).astype(np.float16)  # exact in f64
        assert back.view(np.uint16)[0] == p or (v16[p] == 0 and float(back[0]) == 0.0), s
        if _integer_written_exactly(s, v16[p]):
            continue  # 65504.0, not numpy's 6.55e+04 padded to "65500.0"
        assert _sig_digits(s) == _sig_digits(np.format_float_scientific(v16[p], unique=True))


def _integer_written_exactly(text: str, value) -> bool:
    """The text is an integer value written out in full, positionally (65024.0)."""
    q = Fraction(float(value)) if isinstance(value, np.floating) else Fraction(value)
    return q.denominator == 1 and "e" not in text and Fraction(Decimal(text)) == q


@pytest.mark.parametrize("name", ["f16", "f11", "f10"])
def test_shortest_never_pads_an_integer_with_zeros_DEC_values(name):
    """Every finite integer value of f16/f11/f10 written positionally is its exact integer
    (f11 0x7BF is 65024.0 and f16 0x7BFF 65504.0, never "65000.0"/"65500.0"): Fraction
    oracle over every pattern."""
    f = FORMATS[name]
    seen = 0
    for p in range(f.mask + 1):
        v = f.exact_value(p)
        if isinstance(v, float) or Fraction(v).denominator != 1:
            continue  # NaN/INF, or not an integer
        s = shortest_decimal(p, name)
        if "e" not in s:
            assert Fraction(Decimal(s)) == Fraction(v), (hex(p), s)
            seen += 1
    assert seen > 20
    assert shortest_decimal(0x7BF, "f11") == "65024.0"
    assert shortest_decimal(0x7BFF, "f16") == "65504.0"
    assert shortest_decimal(0x3DF, "f10") == "64512.0"


@pytest.mark.parametrize("name", ["f11", "f10"])
def test_shortest_small_unsigned_is_minimal(name):
    """f11/f10: the string rounds back (nearest-even, table oracle) and no string with one
    digit fewer does."""
    f = FORMATS[name]
    table = sorted((Fraction(f.exact_value(i)), i) for i in range(f.pos_inf))
    vals = [t[0] for t in table]

    def nearest(q: Fraction) -> int:
        import bisect

        k = bisect.bisect_left(vals, q)
        if k < len(vals) and vals[k] == q:
            return table[k][1]
        # above max, IEEE rounds as if 2^16 (pattern pos_inf, even) were the next value
        lo = table[k - 1]
        hi = table[k] if k < len(vals) else (Fraction(2) ** 16, f.pos_inf)
        dl, dh = q - lo[0], hi[0] - q
        return lo[1] if dl < dh else hi[1] if dh < dl else (lo[1] if lo[1] % 2 == 0 else hi[1])

    for p in range(1, f.pos_inf):
        s = shortest_decimal(p, name)
        assert nearest(Fraction(Decimal(s))) == p, (p, s)
        n = _sig_digits(s)
        if n > 1 and not _integer_written_exactly(s, f.exact_value(p)):
            exact = Decimal(exact_decimal(p, name))
            for rnd in ("ROUND_FLOOR", "ROUND_CEILING"):
                from decimal import Context

                c = Context(prec=n - 1, rounding=rnd).plus(exact)
                assert nearest(Fraction(c)) != p, (p, s, c)


def test_shortest_f32_f64_round_trip_with_numpy_and_python_digits():
    assert shortest_decimal(0x3DCCCCCD, "f32") == "0.1"
    assert shortest_decimal(0x3FB999999999999A, "f64") == "0.1"
    assert shortest_decimal(0x80000000, "f32") == "-0.0"
    rng = np.random.default_rng(2)
    for p in rng.integers(0, 0x7F800000, 300):
        s = shortest_decimal(int(p), "f32")
        assert struct.unpack("<I", struct.pack("<f", float(s)))[0] == p  # no double rounding:
        # a shortest string is never near a midpoint of f32


@pytest.mark.parametrize("name", ["f32", "f64", "f16"])
def test_shortest_one_notation_for_every_format_DEC_values(name):
    """One notation, whatever numpy writes (numpy 2.1 and 2.4 lay out the same float32
    digits as 10000000.0 and 1e+07): positional exactly when 1e-5 <= |x| < 1e16, else
    scientific with two or more exponent digits; the digits are the shortest round trip's
    (numpy's unique digits for f32, repr's for f64), or the exact integer where padding
    them with zeros would name another number. Oracles: Fraction and Python's repr."""
    f = FORMATS[name]
    rng = np.random.default_rng(11)
    pats = [int(p) for p in rng.integers(0, min(f.mask, 2**63 - 1), 4000, dtype=np.int64)]
    pats += [int(p) for p in rng.integers(0, f.pos_inf, 1000, dtype=np.int64)] if name != "f64" \
        else [int(p) | 2**63 for p in rng.integers(0, f.pos_inf, 1000, dtype=np.int64)]
    for p in pats:
        v = f.exact_value(p)
        if isinstance(v, float) or v == 0:
            continue
        s = shortest_decimal(p, name)
        text = Decimal(s)
        if Fraction(10) ** -5 <= abs(Fraction(text)) < Fraction(10) ** 16:
            assert "e" not in s and s.endswith(tuple("0123456789")) and "." in s, (hex(p), s)
        else:
            mantissa, _, exp = s.partition("e")
            assert exp[0] in "+-" and len(exp) >= 3 and exp[1:].isdigit(), (hex(p), s)
        if name == "f16":
            continue
        x = struct.unpack("<d" if name == "f64" else "<f", p.to_bytes(f.bits // 8, "little"))[0]
        digits = repr(x) if name == "f64" else np.format_float_scientific(np.float32(x),
                                                                          unique=True)
        if _integer_written_exactly(s, v) and Decimal(digits) != text:
            continue  # 123456792.0, not 123456790.0
        assert text == Decimal(digits), (hex(p), s, digits)
    examples = {("f32", 0x4B189680): "10000000.0", ("f32", 0xD9FCA32E): "-8888889011863552.0",
                ("f32", 0x4CEB79A3): "123456792.0", ("f32", 0x00000001): "1e-45",
                ("f32", 0x5A0E1BCA): "1e+16", ("f64", 0x3EE4F8B588E368F1): "0.00001",
                ("f64", 0x3EB0C6F7A0B5ED8D): "1e-06", ("f16", 0x0001): "6e-08",
                ("f32", 0x7F7FFFFF): "3.4028235e+38"}
    for (fmt, p), want in examples.items():
        if fmt == name:
            assert shortest_decimal(p, fmt) == want, (hex(p), want)


def test_hex_float_f64_matches_float_hex():
    """C99 %a style equals Python's float.hex with trailing zeros dropped (denormals too)."""
    rng = np.random.default_rng(4)
    for p in list(rng.integers(0, 1 << 63, 300, dtype=np.uint64)) + [1, 0x000FFFFFFFFFFFFF]:
        x = struct.unpack("<d", struct.pack("<Q", int(p)))[0]
        if not math.isfinite(x):
            continue
        ref = re.sub(r"\.?0+p", "p", x.hex()) if x else "0x0p+0"
        assert hex_float(int(p), "f64") == ref


@pytest.mark.parametrize("name", ["f16", "f11", "f10"])
def test_hex_float_small_exhaustive_reads_back(name):
    f = FORMATS[name]
    dec = f.decode(np.arange(1 << f.bits))
    for p in range(1 << f.bits):
        s = hex_float(p, name)
        if math.isnan(dec[p]):
            assert s.endswith("nan")
            continue
        assert float.fromhex(s) == dec[p] if "inf" not in s else math.isinf(dec[p])
        e = (p >> f.frac_bits) & f.exp_max
        if e == 0 and p & f.frac_mask:  # denormal: 0x0.xxxp-14
            assert s.lstrip("-").startswith("0x0.") and s.endswith("p-14")
    assert hex_float(0x4200, "f16") == "0x1.8p+1"


def test_describe_fields_and_neighbours_f16_sample_vs_numpy():
    """Fields (sign, biased/unbiased exponent, fraction), class, next up/down and ULP."""
    v16 = F16_ALL.view(np.float16)
    for p in range(0, 1 << 16, 37):
        info = describe(p, "f16")
        assert info.hex == f"0x{p:04X}" and info.binary.replace(" ", "") == f"{p:016b}"
        assert (info.sign, info.exponent_biased, info.fraction) == (p >> 15, (p >> 10) & 31, p & 1023)
        v = v16[p]
        if np.isnan(v):
            assert info.class_name == "nan" and info.exponent_unbiased is None
            continue
        with np.errstate(over="ignore"):
            up = np.nextafter(v, np.float16(np.inf))
        assert float(np.uint16(info.next_up).view(np.float16)) == float(up)
        if np.isfinite(v) and v != 0:
            assert info.exponent_unbiased == math.frexp(float(v))[1] - 1 or (
                info.class_name == "denormal" and info.exponent_unbiased == -14)
        assert info.value == float(v) or info.value == float(v)
    d = describe(0x3F800000, "f32").to_dict()
    assert d["class"] == "normal" and d["exact"] == "1" and d["hex_float"] == "0x1p+0"
    assert describe(0x7F800000, "f32").to_dict()["value"] == "inf"  # JSON has no inf


@pytest.mark.parametrize("name, np_type", [("f16", np.float16), ("f32", np.float32),
                                           ("f64", np.float64)])
def test_format_limits_vs_finfo_FMT(name, np_type):
    """FMT-*: limits agree with numpy.finfo, and each *_bits decodes to its value."""
    lim = format_limits(name)
    fi = np.finfo(np_type)
    f = FORMATS[name]
    assert lim["max_finite"] == float(fi.max)
    assert lim["min_normal"] == float(fi.smallest_normal)
    assert lim["min_denormal"] == float(fi.smallest_subnormal)
    assert lim["epsilon"] == float(fi.eps)
    for k in ("max_finite", "min_normal", "min_denormal"):
        assert float(f.decode(lim[k + "_bits"])) == lim[k]
    assert float(f.decode(lim["one_bits"])) == 1.0
    assert Decimal(lim["max_finite_exact"]) == Decimal(float(fi.max))


def test_format_limits_f11_f10_CONV_F2F_SAT_values():
    """docs/rules.md CONV-F2F-SAT quotes the maxima: f11 65024, f10 64512."""
    assert format_limits("f11")["max_finite"] == 65024.0
    assert format_limits("f10")["max_finite"] == 64512.0
    assert format_limits("f11")["min_denormal"] == 2.0**-20
    assert format_limits("f10")["min_denormal"] == 2.0**-19
    assert format_limits("f10")["epsilon"] == 2.0**-5


def test_c_literals_and_byte_dumps():
    assert to_c_literal(0x3F800000, "f32") == "asfloat(0x3f800000)"
    assert to_c_literal(0x3F800000, "f32", "decimal") == "1.0f"
    assert to_c_literal(0x3C00, "f16", "decimal") == "1.0h"
    assert to_c_literal(0x3C00, "f16") == "asfloat16(uint16_t(0x3c00))"
    assert to_c_literal(0x3FF0000000000000, "f64") == "asdouble(0x00000000, 0x3ff00000)"
    assert to_c_literal(0x7F800000, "f32", "decimal") == "asfloat(0x7f800000)"
    assert to_c_literal(0x40400000, "f32", "hexfloat") == "0x1.8p+1f"
    with pytest.raises(ValueError, match="no shader type"):
        to_c_literal(0x3C0, "f11")
    with pytest.raises(ValueError, match="style"):
        to_c_literal(0, "f32", "pascal")
    assert byte_dump(0x3F800000, "f32") == struct.pack("<f", 1.0).hex(" ")
    assert byte_dump(0x3F800000, "f32", "big") == struct.pack(">f", 1.0).hex(" ")
    assert byte_dump(0x3C00, "f16") == struct.pack("<e", 1.0).hex(" ")
    with pytest.raises(ValueError, match="whole number of bytes"):
        byte_dump(1, "f11")
    with pytest.raises(ValueError, match="outside"):
        describe(0x10000, "f16")


def test_ulp_distance_counts_representable_steps():
    """Signed step count; by exhaustive f16 enumeration of the values strictly between."""
    v16 = F16_ALL.view(np.float16).astype(np.float64)
    finite_sorted = np.unique(v16[np.isfinite(v16)])  # -0 and +0 merge into one value
    rng = np.random.default_rng(9)
    pats = F16_ALL[~np.isnan(v16)]
    a, b = rng.choice(pats, 400), rng.choice(pats, 400)
    d = ulp_distance(a, b, "f16")
    for i in range(400):
        va, vb = float(v16[a[i]]), float(v16[b[i]])
        allv = np.concatenate([[-np.inf], finite_sorted, [np.inf]])
        ia, ib = np.searchsorted(allv, va), np.searchsorted(allv, vb)
        assert d[i] == ib - ia
    assert ulp_distance(0x8001, 0x0001, "f16") == 2
    assert ulp_distance(0x8000, 0x0000, "f16") == 0
    assert ulp_distance(0x0000000000000000, 0x7FF0000000000000, "f64") == 0x7FF0000000000000
    assert ulp_distance(0xFFF0000000000000, 0x7FF0000000000000, "f64") == 2 * 0x7FF0000000000000
    with pytest.raises(ValueError, match="NaN"):
        ulp_distance(0x7E00, 0, "f16")


def test_values_between_is_sorted_and_complete():
    got = values_between(0x8002, 0x0002, "f16")
    assert list(got) == [0x8002, 0x8001, 0x0000, 0x0001, 0x0002]
    vals = FORMATS["f32"].decode(values_between(0x3F800000, 0x3F800010, "f32"))
    assert np.all(np.diff(vals) > 0) and len(vals) == 17
    with pytest.raises(ValueError, match="limit"):
        values_between(0, 0x7C00, "f16", limit=100)


def test_values_between_f64_across_zero_matches_nextafter():
    """f64 sign bit is 2^63: the list across zero must still step like math.nextafter."""
    import math
    import struct

    lo = struct.unpack("<Q", struct.pack("<d", -3 * 5e-324))[0]
    hi = struct.unpack("<Q", struct.pack("<d", 2 * 5e-324))[0]
    got = [struct.unpack("<d", struct.pack("<Q", int(p)))[0] for p in values_between(lo, hi, "f64")]
    want, x = [], -3 * 5e-324
    while x <= 2 * 5e-324:
        want.append(x)
        x = math.nextafter(x, math.inf)
        if x == 0:
            x = 0.0  # -0 and +0 are one point
    assert got == want


def test_display_decimal_is_exact_when_short_else_shortest():
    """f16 max finite is 65504 (shortest round trip '65500' is another number); 0.1f stays 0.1."""
    from fractions import Fraction

    from fpinspector.model.describe import display_decimal

    assert display_decimal(0x7BFF, "f16") == "65504.0"
    assert Fraction(display_decimal(0x7BFF, "f16")) == FORMATS["f16"].exact_value(0x7BFF)
    assert display_decimal(0x3DCCCCCD, "f32") == "0.1"  # exact has 27 digits: shortest
    assert display_decimal(0x0001, "f16") == "0.000000059604644775390625"
    assert display_decimal(0x7C00, "f16") == "inf"
