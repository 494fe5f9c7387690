"""``raw_inputs.raw_exact``: the exact value of the raw inputs (no input flush, F32-FTZ)
and the ULP error against it, computed without a second displayed outcome.

Two checks:
- the old path's figures (the full ``ieee754`` evaluation, ``raw_evaluation``, and its
  verdict's ULP error) are given unchanged, over ops and operands with denormal, zero,
  INF and NaN inputs and observations;
- an oracle written here with ``Fraction``: the exact sum/product of the raw f32
  operands, and (observed - exact) / ulp with the ulp of the exact value's binade.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import numpy as np
import pytest

from fpinspector.model.engine.raw_inputs import raw_evaluation, raw_exact

DEN = (0x00000001, 0x80000003, 0x007FFFFF, 0x00400000)
OTHERS = (0x00000000, 0x80000000, 0x3F800000, 0xC0400000, 0x00800000, 0x7F7FFFFF,
          0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0x34000000)
OBSERVED = (0x00000000, 0x80000000, 0x00000001, 0x00000003, 0x80000009, 0x007FFFFF,
            0x00800000, 0x3F800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F7FFFFF)


def _old(op: str, ops: tuple[int, ...], rules: str = "d3d11"):
    """The old path: the full raw evaluation and its verdicts."""
    return raw_evaluation(op, ops, "f32", rules)


def _flushed(op: str, ops: tuple[int, ...], rules: str = "d3d11") -> tuple[float, float]:
    from fpinspector.model.engine import evaluate

    ev = evaluate(op, *ops, format="f32", rules=rules)
    lo = getattr(ev, "exact_lo", None)
    return (float(np.asarray(ev.exact).reshape(-1)[0]),
            float(np.asarray(lo).reshape(-1)[0]) if lo is not None else 0.0)


def _cases():
    for op in ("mul", "add", "sub", "div", "min", "max", "sqrt", "rcp", "lt"):
        arity = 1 if op in ("sqrt", "rcp") else 2
        for den in DEN:
            if arity == 1:
                yield op, (den,)
                continue
            for other in OTHERS:
                yield op, (den, other)
                yield op, (other, den)
    for a, b, c in itertools.product(DEN[:2], OTHERS[:4], (0x00000001, 0x3F800000, 0x7FC00000)):
        yield "mad", (a, b, c)


@pytest.mark.parametrize("op,ops", list(_cases()))
def test_raw_exact_equals_the_full_raw_evaluation_F32_FTZ(op: str, ops: tuple[int, ...]) -> None:
    """F32-FTZ: the raw inputs' exact value and the ULP error of every observation against
    it equal those of the full ieee754 evaluation (the old path), or both are absent."""
    old = _old(op, ops)
    new = raw_exact(op, ops, "f32", "d3d11", lambda: _flushed(op, ops))
    assert (old is None) == (new is None), (op, [hex(x) for x in ops])
    if old is None:
        return
    hi = float(np.asarray(old.exact).reshape(-1)[0])
    lo = float(np.asarray(old.exact_lo).reshape(-1)[0])
    assert new.result_format == old.result_format
    assert (new.exact == hi or hi != hi and new.exact != new.exact)
    if hi == hi:
        assert new.exact_lo == lo
    for obs in OBSERVED:
        want = old.verdict(0, obs).ulp_error
        got = new.ulp_error(obs)
        assert (want is None) == (got is None), (op, hex(obs))
        if want is not None:
            assert got == want, (op, [hex(x) for x in ops], hex(obs))


def test_no_raw_value_where_nothing_is_flushed_F32_FTZ() -> None:
    """No denormal operand, the ieee754 rules (no flush), or a flush that leaves the exact
    value (0x1 * +0): no raw value, and (the first two) nothing is evaluated."""
    def never() -> tuple[float, float]:
        raise AssertionError("the flushed exact value was looked up with no input flushed")

    assert raw_exact("mul", (0x3F800000, 0x40000000), "f32", "d3d11", never) is None
    assert raw_exact("mul", (0x00000001, 0x3F800000), "f32", "ieee754", never) is None
    assert raw_exact("mul", (0x00000001, 0x00000000), "f32", "d3d11", lambda: (0.0, 0.0)) is None


def _f32(p: int) -> Fraction:
    return Fraction(float(np.uint32(p).view(np.float32)))


def _ulp(x: Fraction) -> Fraction:
    """The spacing of f32 values in x's binade (the denormal spacing below 2^-126)."""
    x = abs(x)
    if x < Fraction(2) ** -126:
        return Fraction(2) ** -149
    k = 0
    while Fraction(2) ** (k + 1) <= x:
        k += 1
    while Fraction(2) ** k > x:
        k -= 1
    return Fraction(2) ** (k - 23)


@pytest.mark.parametrize("op,a,b", [
    ("mul", 0x00000003, 0x40400000),  # 3*2^-149 * 3
    ("mul", 0x007FFFFF, 0x3FC00000),  # the largest denormal * 1.5
    ("mul", 0x80000005, 0x4B000000),  # -5*2^-149 * 2^23
    ("add", 0x00000001, 0x00000002),  # two denormals
    ("add", 0x00400000, 0x3F800000),  # 2^-127 + 1
    ("sub", 0x00000007, 0x00000001),
])
def test_raw_exact_and_error_against_fractions_F32_FTZ(op: str, a: int, b: int) -> None:
    """F32-FTZ: the raw inputs' exact value is the exact sum/product of the operands as
    given (Fraction), and an observation's ULP error is (observed - exact) / ulp."""
    exact = {"mul": _f32(a) * _f32(b), "add": _f32(a) + _f32(b),
             "sub": _f32(a) - _f32(b)}[op]
    new = raw_exact(op, (a, b), "f32", "d3d11", lambda: _flushed(op, (a, b)))
    assert new is not None
    assert Fraction(new.exact) + Fraction(new.exact_lo) == exact
    for obs in (0x00000000, 0x00000009, 0x00000003, 0x3F800000, 0x80000001, 0x00800000):
        want = (_f32(obs) - exact) / _ulp(exact)
        got = new.ulp_error(obs)
        assert got is not None and got == pytest.approx(float(want), rel=1e-12, abs=0), hex(obs)
    with pytest.raises(ValueError):
        new.ulp_error(1 << 32)



@pytest.mark.parametrize("op,ops", [
    ("mul", (0x00000001, 0x7FC00000)),  # a denormal times a quiet NaN
    ("add", (0x7F800001, 0x80000003)),  # a signalling NaN plus a negative denormal
    ("mad", (0x00000001, 0x3F800000, 0x7FC00000)),  # a NaN addend
])
def test_a_nan_result_either_way_gives_no_raw_value_F32_FTZ_F32_NANPROP(
        op: str, ops: tuple[int, ...]) -> None:
    """F32-NANPROP: a NaN operand makes the result NaN whether the denormal is flushed or
    not, so the raw inputs have the same (NaN) exact value and no second line is shown
    (it said "NaN after input flush; NaN of the raw inputs")."""
    assert _flushed(op, ops)[0] != _flushed(op, ops)[0]  # NaN after the flush
    assert raw_exact(op, ops, "f32", "d3d11", lambda: _flushed(op, ops)) is None
    assert _old(op, ops) is None


def test_a_denormal_times_inf_gives_the_raw_value_F32_FTZ() -> None:
    """F32-FTZ the other way round: flushed, 2^-149 * INF is 0 * INF = NaN; raw, it is
    +INF, a different exact value, so the raw line is given."""
    ops = (0x00000001, 0x7F800000)
    assert _flushed("mul", ops)[0] != _flushed("mul", ops)[0]
    new = raw_exact("mul", ops, "f32", "d3d11", lambda: _flushed("mul", ops))
    assert new is not None and new.exact == float("inf")
    assert _old("mul", ops) is not None


@pytest.mark.parametrize("bad", [-1, 1 << 32, 1 << 40])
def test_every_figure_rejects_a_pattern_outside_the_format_with_the_same_words(bad: int) -> None:
    """An observation that is no f32 pattern: the verdict on the flushed inputs, the
    ULP figure and the raw inputs' ULP error all refuse it, in the same words (one check),
    instead of one of them reading a wrapped-around pattern."""
    from fpinspector.model import evaluate
    from fpinspector.model.engine.explain import ulp_figure
    from fpinspector.model.formats import FORMATS

    ops = (0x00000001, 0x3F800000)
    want = re.escape(f"observed result: 0x{bad:X} is not a f32 pattern")
    raw = raw_exact("mul", ops, "f32", "d3d11", lambda: _flushed("mul", ops))
    assert raw is not None
    ev = evaluate("mul", *ops, format="f32", rules="d3d11")
    for figure in (lambda: raw.ulp_error(bad), lambda: ulp_figure(FORMATS["f32"], 1.0, 0.0, bad),
                   lambda: ev.verdict(0, bad)):
        with pytest.raises(ValueError, match=want):
            figure()


_EDGES = {
    "f32": (0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0x3F800000,
            0xC0400000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFA00001, 0x3EAAAAAB),
    "f16": (0x0000, 0x8000, 0x0001, 0x83FF, 0x0400, 0x7BFF, 0x3C00, 0xC200, 0x7C00, 0xFC00,
            0x7E00, 0xFD01, 0x3555),
    "f64": (0, 1 << 63, 1, 0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x3FF0000000000000,
            0xBFF0000000000000, 0x7FF0000000000000, 0x7FF8000000000000, 0x7FF4000000000001,
            0x3FD5555555555555),
}


def _exact_cases():
    from fpinspector.model.engine import OPS

    for op, spec in OPS.items():
        if spec.traits.converts or spec.result == "bool":
            continue
        for fmt in spec.formats:
            e = _EDGES.get(fmt)
            if e is None:
                continue
            for i in range(len(e)):
                yield op, fmt, tuple(e[(i + 5 * k) % len(e)] for k in range(spec.arity))


@pytest.mark.parametrize("rules", ["ieee754", "d3d11"])
def test_exact_of_one_is_the_evaluations_exact_value_bit_for_bit(rules: str) -> None:
    """``Evaluation.exact_of_one`` (the raw inputs' exact value, computed without the
    bits) gives the very float64 pair of :attr:`exact` and :attr:`exact_lo` of a fresh
    evaluation, NaN payloads and zero signs included, for every op that rounds or picks,
    in f16/f32/f64, on zero, denormal, normal, INF and NaN operands."""
    from fpinspector.model.engine import evaluate

    def pair(ev) -> bytes:
        return np.array([ev.exact.reshape(-1)[0], ev.exact_lo.reshape(-1)[0]]).tobytes()

    for op, fmt, ops in _exact_cases():
        try:
            want = pair(evaluate(op, *ops, format=fmt, rules=rules))
        except ValueError:
            continue
        got = np.array(evaluate(op, *ops, format=fmt, rules=rules).exact_of_one()).tobytes()
        assert got == want, (op, fmt, [hex(x) for x in ops])


def test_the_raw_inputs_exact_value_rounds_nothing_F32_FTZ(monkeypatch) -> None:
    """F32-FTZ: a flushed operand's raw exact value (2^-149 x 1.5) is computed without the
    raw evaluation's model bits: neither the general path's rounding nor a kernel runs."""
    import importlib

    evaluate_module = importlib.import_module("fpinspector.model.engine.evaluate")

    def no_bits(*args, **kwargs):
        raise AssertionError("the raw inputs' model bits were computed")

    monkeypatch.setattr(evaluate_module, "compute", no_bits)
    monkeypatch.setattr(evaluate_module, "bits_kernel", lambda ctx: None)
    ops = (0x00000001, 0x3FC00000)
    new = raw_exact("mul", ops, "f32", "d3d11", lambda: (0.0, 0.0))
    assert new is not None and new.exact == 1.5 * 2.0 ** -149
