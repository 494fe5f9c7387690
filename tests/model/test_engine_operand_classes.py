"""The finisher reads operand classes (NaN, INF, zero after the input flush, +/-1) on the
bit patterns instead of decoding values. Proven here against the value definitions, with
numpy's own float views as the decoder and the flush applied by hand: every f16 pattern as
operand A against f16 specials and random patterns as B; f32 (with and without F32-FTZ)
and f64 specials, denormals and random patterns in every pairing. Facts.nan_in feeds
F32-NANPROP, Facts.identity F32-IDENT (and its exact-result pin), and the F32-INFINF row
INF - INF, INF / INF and INF * 0."""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model import evaluate
from fpinspector.model.engine import finish
from fpinspector.model.engine.finish import fired

RNG = np.random.default_rng(20261124)
VIEW = {"f16": (np.uint16, np.float16), "f32": (np.uint32, np.float32),
        "f64": (np.uint64, np.float64)}


def _specials(fmt: str) -> np.ndarray:
    u, fl = VIEW[fmt]
    bits = np.dtype(u).itemsize * 8
    frac = {16: 10, 32: 23, 64: 52}[bits]
    sign = 1 << (bits - 1)
    inf = ((1 << (bits - 1 - frac)) - 1) << frac
    one = int(np.array(1.0, fl).view(u))
    mags = [0, 1, 2, (1 << frac) - 1, 1 << frac, one, one + 1, inf - 1, inf, inf + 1,
            inf | (1 << (frac - 1)), (1 << (bits - 1)) - 1]
    pats = mags + [m | sign for m in mags]
    rand = RNG.integers(0, 1 << min(bits, 63), 64, dtype=np.uint64)
    return np.concatenate([np.array(pats, dtype=np.uint64), rand]).astype(u)


def _pairs(fmt: str) -> tuple[np.ndarray, np.ndarray]:
    u, _ = VIEW[fmt]
    b = _specials(fmt)
    a = np.arange(1 << 16, dtype=np.uint32).astype(u) if fmt == "f16" else b
    aa, bb = np.meshgrid(a, b, indexing="ij")
    return aa.ravel(), bb.ravel()


def _value(fmt: str, pats: np.ndarray, flush: bool) -> np.ndarray:
    """The operand's value after the input flush, by numpy's float view."""
    _, fl = VIEW[fmt]
    with np.errstate(invalid="ignore"):
        v = pats.view(fl).astype(np.float64)
    if flush:
        den = (v != 0) & (np.abs(v) < float(np.finfo(fl).smallest_normal))
        v = np.where(den, np.copysign(0.0, v), v)
    return v


CASES = [("f16", "d3d11"), ("f32", "d3d11"), ("f32", "ieee754"), ("f64", "d3d11")]


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
@pytest.mark.parametrize("fmt,rules", CASES)
def test_operand_classes_on_patterns_equal_value_definitions_F32_NANPROP_IDENT_INFINF(
        fmt, rules, op):
    a, b = _pairs(fmt)
    ev = evaluate(op, a, b, format=fmt, rules=rules)
    ctx = ev._ctx
    f = finish.facts(ctx, [a, b], ev._core(0, a.size))
    assert f._mags is not None  # (the pattern reading is what is under test)
    x, y = _value(fmt, a, ctx.flush), _value(fmt, b, ctx.flush)
    nan = np.isnan(x) | np.isnan(y)
    np.testing.assert_array_equal(f.nan_in, nan)
    ident = {"add": (x == 0) | (y == 0), "sub": (x == 0) | (y == 0),
             "mul": (np.abs(x) == 1) | (np.abs(y) == 1), "div": np.abs(y) == 1}[op] & ~nan
    np.testing.assert_array_equal(f.identity, ident)
    ix, iy = np.isinf(x), np.isinf(y)
    infinf = {"add": ix & iy & (np.sign(x) != np.sign(y)),
              "sub": ix & iy & (np.sign(x) == np.sign(y)),
              "mul": (ix & (y == 0)) | ((x == 0) & iy), "div": ix & iy}[op]
    np.testing.assert_array_equal(fired._infinf(f), infinf)
    assert infinf.any() and ident.any() and nan.any()  # every class is in the sample


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "mad"])
@pytest.mark.parametrize("fmt,rules", CASES)
def test_inexact_equals_the_exact_value_not_on_the_grid_F32_PREC(fmt, rules, op):
    """Facts.inexact (the accuracy rule's mask; where nothing is flushed it compares the
    model's value with the exact value) against grid.representable of the exact value
    and its residual, on the same operand pairs (mad: C = 0.75 and -A)."""
    from fpinspector.model.engine import grid

    a, b = _pairs(fmt)
    if op == "mad":
        u, fl = VIEW[fmt]
        c = np.where(np.arange(a.size) % 2 == 0, np.array(0.75, fl).view(u),
                     a ^ np.array(-0.0, fl).view(u))
        ops = [a, b, c]
    else:
        ops = [a, b]
    ev = evaluate(op, *ops, format=fmt, rules=rules)
    f = finish.facts(ev._ctx, ops, ev._core(0, a.size))
    want = ~grid.representable(f.hi, ev._ctx.fmt) | (np.asarray(f.lo) != 0)
    np.testing.assert_array_equal(f.inexact, want)
    assert want.any() and not want.all()
