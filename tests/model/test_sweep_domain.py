"""Sweep domains: axes give the patterns they promise, grids pair every A with every B.

Oracles: Python ints, struct's IEEE half/single packing (round-to-nearest-even), itertools.
"""

import itertools
import math
import struct

import numpy as np
import pytest

from fpinspector.model.sweep import Axis, GridDomain, UnaryDomain, parse_axis, parse_domain


def _f16_bits(x: float) -> int:
    return struct.unpack("<H", struct.pack("<e", x))[0]


def _f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def test_every_pattern_axis_is_each_f16_pattern_once_FMT_F16():
    """FMT-F16: 'all' enumerates the 2^16 patterns in order, no gaps, no repeats."""
    p = Axis.every("f16").patterns()
    assert p.dtype == np.uint16 and len(p) == 65536
    assert len(set(p.tolist())) == 65536 and p[0] == 0 and p[-1] == 0xFFFF


def test_bit_range_subsampling_matches_integer_oracle_FMT_F32():
    lo, hi, n = 0x3F800000, 0x40000000, 1000
    p = Axis.bit_range("f32", lo, hi, n).patterns()
    oracle = [lo + (i * (hi - lo)) // (n - 1) for i in range(n)]
    assert p.tolist() == oracle and p[0] == lo and p[-1] == hi


def test_bit_range_chunks_concatenate_to_whole_FMT_F32():
    ax = Axis.bit_range("f32", 0x00000000, 0x0000FFFF, 4097)
    whole = ax.patterns()
    parts = np.concatenate([ax.patterns(i, min(i + 333, ax.n)) for i in range(0, ax.n, 333)])
    assert np.array_equal(whole, parts)


def test_linear_axis_rounds_to_nearest_f16_pattern_DEC_NORMAL():
    """Linear values are rounded once, to nearest even (struct's binary16 packing)."""
    a, b, n = -3.0, 5.0, 777
    p = Axis.linear("f16", a, b, n).patterns()
    oracle = [_f16_bits(a + (b - a) * (i / (n - 1))) for i in range(n)]
    assert p.tolist() == oracle


def test_log_axis_is_geometric_and_hits_both_ends_FMT_F32():
    a, b, n = 1e-3, 1e3, 501
    ax = Axis.log("f32", a, b, n)
    p = ax.patterns()
    la, lb = math.log(a), math.log(b)
    oracle = [_f32_bits(math.exp(la + (lb - la) * (i / (n - 1)))) for i in range(n)]
    oracle[0], oracle[-1] = _f32_bits(a), _f32_bits(b)
    # float64 exp may differ from math.exp in the last bit: allow at most one f32 step
    assert np.max(np.abs(p.astype(np.int64) - np.array(oracle, np.int64))) <= 1
    assert p[0] == oracle[0] and p[-1] == oracle[-1]
    assert np.all(np.diff(ax.values()) >= 0)


def test_grid_operands_are_the_cartesian_product_in_row_major_order():
    """Chunk boundaries of a grid lose or repeat nothing."""
    A = Axis.bit_range("f16", 0x3C00, 0x3C06)
    B = Axis.linear("f16", -1.0, 1.0, 5)
    g = GridDomain(A, B)
    oracle = list(itertools.product(A.patterns().tolist(), B.patterns().tolist()))
    for chunk in (1, 3, 7, 35, 100):
        got = []
        for k0 in range(0, g.size, chunk):
            a, b = g.operands(k0, min(k0 + chunk, g.size))
            got += list(zip(a.tolist(), b.tolist()))
        assert got == oracle


def test_tiles_cover_an_exhaustive_grid_exactly_once():
    g = GridDomain(Axis.bit_range("f16", 0, 99), Axis.bit_range("f16", 1000, 1036))
    seen = np.zeros(g.shape, dtype=int)
    for r0, c0, t in g.tiles(16, 10):
        a, b = t.operands(0, t.size)
        seen[a.astype(int) - 0, b.astype(int) - 1000] += 1
        assert a[0] == r0 and b[0] == 1000 + c0
    assert np.all(seen == 1)


def test_parse_round_trips_describe():
    for spec in ("all", "bits:0x3C00:0x3FFF:17", "lin:-2.0:2.0:64", "log:1e-05:100.0:9"):
        ax = parse_axis(spec, "f16")
        assert parse_axis(ax.describe(), "f16") == ax
    d = parse_domain("lin:0:1:8 x log:1:2:4", "f32", 2)
    assert isinstance(d, GridDomain) and d.shape == (8, 4)
    assert isinstance(parse_domain("all", "f16", 1), UnaryDomain)


@pytest.mark.parametrize(
    "spec, arity, msg",
    [
        ("bits:0x10:0x5", 1, "increasing"),
        ("log:-1:1:5", 1, "same sign"),
        ("lin:0:inf:5", 1, "finite"),
        ("cubic:0:1", 1, "kind"),
        ("lin:0", 1, "START:STOP"),
        ("bits:0:0x1FFFF", 1, "patterns"),
        ("all x all", 1, "one axis"),
        ("all", 3, "one- and two-operand"),
        ("lin:a:b:4", 1, "bad domain"),
    ],
)
def test_bad_specs_raise_clear_value_errors(spec, arity, msg):
    with pytest.raises(ValueError, match=msg):
        parse_domain(spec, "f16", arity)


def test_f64_bit_ranges_above_2_63_are_exact_FMT_F64():
    """Negative f64 patterns (sign bit = 2^63) enumerate exactly; oracle: Python ints."""
    lo, hi = 0xBFF0000000000000, 0xBFF0000000000000 + 99
    assert Axis.bit_range("f64", lo, hi).patterns().tolist() == list(range(lo, hi + 1))
    p = Axis.bit_range("f64", 0, 0xFFFFFFFFFFFFFFFF, 9).patterns()
    assert p.tolist() == [(i * 0xFFFFFFFFFFFFFFFF) // 8 for i in range(9)]
    v = Axis.linear("f64", -1.0, 1.0, 5).values()
    assert v.tolist() == [-1.0, -0.5, 0.0, 0.5, 1.0]
    with pytest.raises(ValueError, match="too many"):
        parse_axis("all", "f64")
