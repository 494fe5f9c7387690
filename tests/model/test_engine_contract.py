"""API contract over every op x format x rule set: the model result is conformant, the
window brackets it, explanations work (F32-NANOUT, F32-FTZ, F16-PREC, F64-IEEE in general)."""

from __future__ import annotations

import numpy as np
import pytest
from _engine_oracle import F32_SPECIALS
from hypothesis import given, settings
from hypothesis import strategies as st

from fpinspector.model import FORMATS, OPS, RULE_SETS, evaluate
from fpinspector.model.engine import grid
from fpinspector.model.engine.rules import arithmetic_gap

SPECIAL = {
    "f32": np.array(F32_SPECIALS + [0x3EAAAAAB, 0x4B800001, 0xC2F00000], dtype=np.uint32),
    "f16": np.array([0, 0x8000, 1, 0x83FF, 0x0400, 0x7BFF, 0x3C00, 0xBC00, 0x3555, 0x7C00,
                     0xFC00, 0x7E00, 0x7D00, 0x5640], dtype=np.uint16),
    "f64": np.array([0, 1 << 63, 1, 0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x7FEFFFFFFFFFFFFF,
                     0x3FF0000000000000, 0xBFF8000000000000, 0x3FD5555555555555,
                     0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
                     0x7FF0000000000001], dtype=np.uint64),
    # formats D3D defines no arithmetic for (FMT-BF16, FMT-E5M2, FMT-E4M3): every FP8
    # pattern; bf16's zeros, denormals, limits, INF and both NaN kinds
    "bf16": np.array([0, 0x8000, 1, 0x807F, 0x0080, 0x7F7F, 0x3F80, 0xBF80, 0x3EAB, 0x7F80,
                      0xFF80, 0x7FC0, 0x7FA0, 0x4B80], dtype=np.uint16),
    "e5m2": np.arange(256, dtype=np.uint8),
    "e4m3": np.arange(256, dtype=np.uint8),
}
CASES = [(op, f, r) for op, s in OPS.items() if s.result in ("same", "bool")
         for f in s.formats for r in RULE_SETS]


def _operands(op: str, fmt: str) -> list[np.ndarray]:
    v = SPECIAL[fmt]
    n = OPS[op].arity
    grids = np.meshgrid(*([v] * min(n, 2)), indexing="ij")
    base = [g.reshape(-1) for g in grids]
    while len(base) < n:  # more operands: rotate the existing ones
        base.append(np.roll(base[len(base) % 2], len(base)))
    return base


@pytest.mark.parametrize("op, fmt, rules", CASES)
def test_model_result_is_always_allowed_and_inside_window(op, fmt, rules):
    """For every op/format/rule set on special operands: allowed(bits) holds, lo <= bits <= hi
    in value order (or bits is NaN with nan_ok), and every explanation renders. A format
    D3D defines no arithmetic for is refused under d3d10/d3d11 with the sentence that says
    so (FMT-BF16, FMT-E5M2, FMT-E4M3)."""
    ops = _operands(op, fmt)
    if arithmetic_gap(fmt, rules):
        with pytest.raises(ValueError, match="D3D defines no arithmetic"):
            evaluate(op, *ops, format=fmt, rules=rules)
        return
    ev = evaluate(op, *ops, format=fmt, rules=rules)
    assert ev.allowed(ev.bits).all()
    if ev.result_format != "bool":
        f = FORMATS[fmt]
        k, klo, khi = (grid.to_key(x, f) for x in (ev.bits, ev.lo, ev.hi))
        nan = f.is_nan(ev.bits)
        assert (nan & ev.nan_ok | ((klo <= k) & (k <= khi))).all()
        with np.errstate(invalid="ignore"):
            fin = np.isfinite(f.decode(ev.bits)) & np.isfinite(ev.exact)
        assert np.isfinite(ev.ulp_error(ev.bits)[fin]).all()
    for i in (0, len(ops[0]) // 2, len(ops[0]) - 1):
        assert ev.steps_at(i) and isinstance(ev.explain_at(i), list)
        assert all(isinstance(r, str) for r in ev.rules_at(i))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=2, max_size=2),
       st.sampled_from(["add", "sub", "mul", "div"]), st.sampled_from(RULE_SETS))
def test_random_pairs_model_within_half_ulp_F32_PREC(pair, op, rules):
    """Random f32 pairs: where the result is finite and not flushed, the model's error is at
    most 0.5 ULP (correct rounding); under the 0.5-ULP rows its neighbours are refused."""
    a, b = (np.uint32(x) for x in pair)
    ev = evaluate(op, a, b, rules=rules)
    err = float(ev.ulp_error(ev.bits))
    bits = int(ev.bits)
    finite = np.isfinite(float(ev.exact)) and (bits & 0x7F800000) not in (0, 0x7F800000)
    correctly_rounded = rules == "ieee754" or (rules == "d3d11" and op != "div")
    if finite:
        assert abs(err) <= 0.5
    if finite and correctly_rounded:  # the window is the model pattern alone
        for far in (bits - 2, bits - 1, bits + 1, bits + 2):
            assert not ev.allowed(np.uint32(far % 2**32))


CONV_INPUTS = {"f32": [0x3F000000, 0xBF800000, 0x7FC00000, 0x4F800000, 0x00000001, 0xFF800000],
               "f16": [0x3C00, 0x0001, 0xFC00, 0x7E00], "f64": [0x3FF0000000000001, 0x7FF8000000000000],
               "i32": [0, -5, 2**24 + 1, -(2**31)], "u32": [0, 2**32 - 1, 2**24 + 3],
               "unorm8": [0, 3, 255], "unorm16": [0, 1, 65535], "snorm8": [-128, -127, 0, 127],
               "snorm16": [-32768, 1, 32767], "srgb8": [0, 10, 255]}


@pytest.mark.parametrize("op", [o for o, s in OPS.items() if s.result not in ("same", "bool")])
def test_conversion_ops_through_evaluate_CONV_ITOF_CONV_F16_INSTR(op):
    """Every conversion op: the model result is allowed and rules/explanations render
    (numeric correctness of the conversions is tested in test_convert*.py)."""
    spec = OPS[op]
    src = "f32" if op.startswith("to_f") else spec.formats[0]
    kw = {"format": src} if src in FORMATS else {}
    ev = evaluate(op, np.array(CONV_INPUTS[src]), **kw)
    assert np.asarray(ev.allowed(ev.bits)).all()
    assert ev.result_format == spec.result
    for i in range(len(CONV_INPUTS[src])):
        assert ev.steps_at(i) and isinstance(ev.rules_at(i), list)


def test_unsigned_conversion_exact_is_clamped_f11_clamp():
    """F11-CLAMP / CONV-UNSIGNED: to_f11 of -1.0 has exact result 0, so an observed 0 is
    0 ULP off (not 64) and the smallest denormal is 1 ULP off and not allowed."""
    import numpy as np

    from fpinspector.model import evaluate

    r = evaluate("to_f11", np.uint32(0xBF800000))
    assert float(r.exact) == 0.0
    assert float(r.ulp_error(np.uint16(0))) == 0.0 and bool(r.allowed(np.uint16(0)))
    assert float(r.ulp_error(np.uint16(1))) == 1.0 and not bool(r.allowed(np.uint16(1)))
    inf = evaluate("to_f11", np.uint32(0xFF800000), options={"neg_inf_to_f11": "inf"})
    assert float(inf.exact) == float("inf") and int(inf.bits) == 0x7C0
    pos = evaluate("to_f11", np.uint32(0x3FC00000))  # 1.5: unchanged by the clamp
    assert float(pos.exact) == 1.5
