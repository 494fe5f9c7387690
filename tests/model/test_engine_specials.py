"""f32 special values crossed with each other for every binary op, against scalar oracles
(Fraction arithmetic + struct packing, written from docs/rules.md; tests/model/_engine_oracle.py)."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from _engine_oracle import (
    F32_SPECIALS,
    d3d_binary_bits,
    f32,
    flush,
    is_nan32,
    minmax_bits,
)

from fpinspector.model import evaluate

PAIRS = list(itertools.product(F32_SPECIALS, repeat=2))
A = np.array([p[0] for p in PAIRS], dtype=np.uint32)
B = np.array([p[1] for p in PAIRS], dtype=np.uint32)


@pytest.mark.parametrize("rules", ["d3d11", "d3d10", "ieee754"])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_arith_specials_match_oracle_F32_FTZ_F32_INFINF_F32_DIV0_F32_NANPROP(op, rules):
    """Model bits = flush, exact op, RNE, flush (F32-FTZ, F32-IDENT, F32-INFINF, F32-DIV0,
    F32-NANPROP); ieee754 keeps denormals (IEEE-RNE). The oracle result is always allowed."""
    ev = evaluate(op, A, B, rules=rules)
    flush_on = rules != "ieee754"
    want = [d3d_binary_bits(op, int(a), int(b), flush_on) for a, b in PAIRS]
    got = ev.bits
    for k, w in enumerate(want):
        if w is None:
            assert is_nan32(int(got[k])), (hex(A[k]), hex(B[k]))
        else:
            assert int(got[k]) == w, (op, hex(A[k]), hex(B[k]), hex(int(got[k])), hex(w))
    obs = np.array([0x7FC00000 if w is None else w for w in want], dtype=np.uint32)
    assert ev.allowed(obs).all()
    # F32-NANOUT: a NaN result accepts any NaN pattern, a non-NaN result none
    nan_res = np.array([w is None for w in want])
    if op == "div" and rules == "d3d11":  # §22 note: INF / y, |y| > 2^126 may give NaN
        # (d3d11's two-step route only: F32-DIV-D3D10 has IEEE specials)
        fa, fb = np.abs(A.view(np.float32)), np.abs(B.view(np.float32))
        nan_res |= np.isinf(fa) & np.isfinite(fb) & (fb > 2.0**126)
    assert (ev.allowed(np.full(len(A), 0xFFC12345, np.uint32)) == nan_res).all()


@pytest.mark.parametrize("rules", ["d3d11", "ieee754"])
@pytest.mark.parametrize("op", ["min", "max"])
def test_minmax_specials_F32_MINMAX_NAN_F32_MINMAX_ZERO_F32_MINMAX_FTZ_IEEE_MINMAX(op, rules):
    """min/max: the allowed set is exactly the oracle's set of patterns among candidates."""
    ev = evaluate(op, A, B, rules=rules)
    cands = sorted(set(F32_SPECIALS) | {0x00000000, 0x80000000, 0x7FC00000})
    for c in cands:
        ok = ev.allowed(np.full(len(A), c, dtype=np.uint32))
        for k, (a, b) in enumerate(PAIRS):
            allowed = minmax_bits(op, a, b, rules)
            want = is_nan32(c) if allowed is None else (c in allowed)
            assert ok[k] == want, (op, rules, hex(a), hex(b), hex(c))
    for k, (a, b) in enumerate(PAIRS):  # the model picks inside the allowed set
        allowed = minmax_bits(op, a, b, rules)
        got = int(ev.bits[k])
        assert is_nan32(got) if allowed is None else got in allowed


@pytest.mark.parametrize("op", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_compare_specials_F32_CMPNAN_F32_CMPZERO_F32_CMPINF(op):
    """Comparisons of flushed values; NaN false except ne (F32-CMPNAN), -0 == +0, INF ordered."""
    ev = evaluate(op, A, B)
    pyop = {"eq": "__eq__", "ne": "__ne__", "lt": "__lt__", "le": "__le__",
            "gt": "__gt__", "ge": "__ge__"}[op]
    want = [getattr(flush(f32(a)), pyop)(flush(f32(b))) for a, b in PAIRS]
    assert ev.result_format == "bool"
    assert ev.bits.tolist() == want
    assert ev.allowed(np.array(want)).all() and not ev.allowed(~np.array(want)).any()


def test_every_binary_op_raises_nothing_F32_NOEXC():
    """F32-NOEXC: no exceptions, warnings or traps for any special pair and any op."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            for op in ("add", "sub", "mul", "div", "min", "max", "eq", "lt", "mad"):
                args = (A, B) if op != "mad" else (A, B, B[::-1].copy())
                for rules in ("d3d11", "d3d10", "ieee754"):
                    ev = evaluate(op, *args, rules=rules)
                    ev.allowed(ev.bits)
                    if ev.result_format != "bool":
                        ev.ulp_error(ev.bits)
                        ev.lo, ev.hi


def test_special_zero_signs_F32_IDENT():
    """F32-IDENT: x + 0 = x, x * 1 = x, x / 1 = x, and -0 + +0 = +0 (a NaN-free check)."""
    xs = np.array([0x3FC00000, 0xC0400000, 0x80000000, 0x7F7FFFFF], dtype=np.uint32)
    for op, ident in (("add", 0), ("sub", 0), ("mul", 0x3F800000), ("div", 0x3F800000)):
        ev = evaluate(op, xs, np.uint32(ident))
        want = xs.copy()
        if op == "add":
            want[2] = 0x00000000  # -0 + +0 = +0
        assert (ev.bits == want).all(), op
        assert ev.fired["F32-IDENT"].all()
    assert int(evaluate("add", 0x80000000, 0x80000000).bits) == 0x80000000
    assert math.copysign(1, f32(int(evaluate("sub", 0x80000000, 0).bits))) == -1
