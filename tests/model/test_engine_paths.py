"""The fast paths equal the reference path (engine/paths.py): for every op, format and rule
set, ``evaluate(..., paths="fast")`` and ``paths="reference"`` give identical bits, allowed
sets, ULP errors and fired rules.

Operands: every f16 pattern (unary) and f16 pairs; f32 and f64 special values crossed with
each other plus random patterns and random ordinary values (F32_CASES per op and rule set:
at least 10^6 f32 cases per op across the rule sets); options that change sets.
"""

from __future__ import annotations

import os
import zlib

import numpy as np
import pytest

from fpinspector.model import evaluate
from fpinspector.model.engine import OPS, RULE_SETS
from fpinspector.model.engine.paths import FAST_KERNELS, use_reference
from fpinspector.model.engine.rules import arithmetic_gap
from fpinspector.model.formats import get_format

#: f32 cases per (op, rule set); three rule sets make >= 10^6 per op.
F32_CASES = int(os.environ.get("FPINSPECTOR_DIFF_CASES", 1 << 19))
MATH_OPS = [name for name, s in OPS.items() if s.family != "conversion"]


def _specials(fmt) -> np.ndarray:
    """Zeros, denormals (both ends), smallest/largest normals, ones, INF, NaNs, and values
    near overflow / underflow boundaries, both signs."""
    f = fmt
    one = int(f.encode(1.0))
    base = [0, 1, 2, 3, f.frac_mask - 1, f.frac_mask, f.frac_mask + 1, one, one + 1, one - 1,
            int(f.encode(1.5)), int(f.encode(2.0)), int(f.encode(0.5)), int(f.encode(3.0)),
            int(f.encode(0.25)), f.max_finite_bits, f.max_finite_bits - 1, f.pos_inf,
            f.pos_inf + 1, f.quiet_nan, f.quiet_nan + 5, f.pos_inf | (f.frac_mask >> 1),
            (f.bias - 1) << f.frac_bits, (f.bias + f.frac_bits) << f.frac_bits,
            (2 * f.bias - 2) << f.frac_bits, (f.frac_bits + 1) << f.frac_bits]
    pats = base + [p | f.sign_mask for p in base]
    return np.array(sorted(set(pats)), dtype=f.dtype)


def _operands(op: str, fname: str, n: int, rng: np.random.Generator) -> list[np.ndarray]:
    fmt = get_format(fname)
    arity = OPS[op].arity
    sp = _specials(fmt)
    if fname == "f16" and arity == 1:
        return [np.arange(1 << 16, dtype=np.uint16)]
    crossed = np.meshgrid(*[sp] * min(arity, 2), indexing="ij")
    crossed = [c.reshape(-1) for c in crossed]
    m = crossed[0].size
    cols = []
    for k in range(arity):
        col = crossed[k] if k < len(crossed) else rng.choice(sp, m)
        rand_bits = rng.integers(0, 1 << fmt.bits, n // 2, dtype=np.uint64).astype(fmt.dtype)
        ordinary = (rng.uniform(0.5, 2.0, n - n // 2) * 2.0 ** rng.integers(-8, 8, n - n // 2))
        ordinary *= rng.choice([-1.0, 1.0], ordinary.size)
        ord_bits = np.asarray(fmt.encode(ordinary), dtype=fmt.dtype)
        cols.append(np.concatenate([col, rand_bits, ord_bits]))
    return cols


def _observations(ev, fmt) -> list[np.ndarray]:
    b = np.asarray(ev.bits).astype(np.int64)
    top = (1 << fmt.bits) - 1
    out = [np.clip(b + d, 0, top).astype(fmt.dtype) for d in (-2, -1, 0, 1, 2)]
    for p in (0, fmt.sign_mask, fmt.quiet_nan, fmt.quiet_nan | fmt.sign_mask, fmt.pos_inf,
              fmt.max_finite_bits, 1):  # (x86 makes the negative quiet NaN)
        out.append(np.full(b.shape, p, dtype=fmt.dtype))
    return out


def _assert_same(fast, ref, fmt, rng) -> None:
    np.testing.assert_array_equal(np.asarray(fast.bits), np.asarray(ref.bits), "bits")
    assert fast.fired.keys() == ref.fired.keys()
    for k in fast.fired:
        np.testing.assert_array_equal(fast.fired[k], ref.fired[k], k)
    if fast.result_format == "bool":
        return
    for o in _observations(ref, fmt):
        np.testing.assert_array_equal(fast.allowed(o), ref.allowed(o), "allowed")
        np.testing.assert_array_equal(fast.ulp_error(o), ref.ulp_error(o), "ulp_error")
    for name in ("lo", "hi", "nan_ok"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(ref, name), name)
    for i in rng.choice(np.asarray(fast.bits).size, 50):
        assert fast.allowed_set(int(i)) == ref.allowed_set(int(i))
    assert ref.allowed(ref.bits).all(), "the model's own result is always allowed"


def _cases() -> list[tuple[str, str, str]]:
    out = []
    for op in MATH_OPS:
        for fname in OPS[op].formats:
            for rules in RULE_SETS:
                if not arithmetic_gap(fname, rules):  # (bf16/FP8 under d3d: refused)
                    out.append((op, fname, rules))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("op,fname,rules", _cases())
def test_fast_path_equals_reference_path(op, fname, rules):
    """bits, allowed sets, ULP errors, fired rules: fast == reference (engine/paths.py)."""
    rng = np.random.default_rng(zlib.crc32(f"{op} {fname} {rules}".encode()))
    n = F32_CASES if fname == "f32" else 1 << 14
    if op in ("dp3", "dp4") and rules == "d3d10":  # 6 / 24 serial orders at 1 ULP a step:
        n //= 4  # the slowest reference; the op still gets >= 10^6 cases across rule sets
    ops = _operands(op, fname, n, rng)
    fmt = get_format(fname)
    fast = evaluate(op, *ops, format=fname, rules=rules, paths="fast")
    ref = evaluate(op, *ops, format=fname, rules=rules, paths="reference")
    _assert_same(fast, ref, fmt, rng)


@pytest.mark.parametrize("op,fname,rules",
                         [c for c in _cases() if (c[1], c[0]) in FAST_KERNELS])
def test_fast_path_equals_reference_path_on_operands_without_nan_results(op, fname, rules):
    """Specials (INF, zeros, denormals, the largest values) crossed with each other and with
    ordinary values, keeping only the elements whose result is not a NaN: kernels that
    vouch for every result but a NaN (f64's) then vouch for the whole array, INF operands
    included, and still give the reference path's record (INF + 1 observed as INF: 0 ULP)."""
    rng = np.random.default_rng(zlib.crc32(f"no nan {op} {fname} {rules}".encode()))
    fmt = get_format(fname)
    ops = _operands(op, fname, 2048, rng)
    with np.errstate(invalid="ignore"):
        keep = ~np.isnan(evaluate(op, *ops, format=fname, rules=rules,
                                  paths="reference").exact)
    ops = [o[keep] for o in ops]
    fast = evaluate(op, *ops, format=fname, rules=rules, paths="fast")
    ref = evaluate(op, *ops, format=fname, rules=rules, paths="reference")
    _assert_same(fast, ref, fmt, rng)


@pytest.mark.parametrize("options", [{"ftz_output": "either"}, {"fused_step_ulp": 1.0},
                                     {"lenient_d3d11": True}, {"rcp_tolerance": "rel"},
                                     {"inf_div_huge_nan": False}, {"frc_allow_one": True}])
@pytest.mark.parametrize("op", ["add", "mul", "div", "mad", "rcp", "sqrt", "frc", "min"])
def test_fast_path_equals_reference_path_with_options(op, options):
    rng = np.random.default_rng(3)
    ops = _operands(op, "f32", 1 << 14, rng)
    fmt = get_format("f32")
    fast = evaluate(op, *ops, options=options, paths="fast")
    ref = evaluate(op, *ops, options=options, paths="reference")
    _assert_same(fast, ref, fmt, rng)


def test_every_fast_kernel_is_covered():
    """Each entry of the path table is an op/format the differential test runs."""
    covered = {(f, op) for op, f, _ in _cases()}
    assert set(FAST_KERNELS) <= covered


def test_reference_switch_from_the_environment(monkeypatch):
    """FPINSPECTOR_ENGINE_PATHS=reference turns the fast kernels off for a whole process."""
    monkeypatch.setenv("FPINSPECTOR_ENGINE_PATHS", "reference")
    assert use_reference(None) and not use_reference("fast")
    monkeypatch.setenv("FPINSPECTOR_ENGINE_PATHS", "bogus")
    with pytest.raises(ValueError, match="paths"):
        use_reference(None)


def test_mad_double_rounding_midpoints_F32_FUSED():
    """a*b lands exactly halfway between two f32 values and c is far below float64's
    precision there: float64 rounds a*b + c onto the midpoint, and only the TwoSum residual
    gives the correctly rounded fused result (Fraction oracle); both paths agree."""
    from fractions import Fraction

    from _engine_oracle import bits32, f32, round_f32

    a = bits32(1 + 2**-12)  # (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: an f32 midpoint
    cs = [bits32(2.0**-60), bits32(-(2.0**-60)), bits32(2.0**-90), 0, 0x80000000]
    A = np.full(len(cs), a, np.uint32)
    C = np.array(cs, np.uint32)
    fast = evaluate("mad", A, A, C, paths="fast")
    ref = evaluate("mad", A, A, C, paths="reference")
    np.testing.assert_array_equal(fast.bits, ref.bits)
    for k, c in enumerate(cs):
        q = Fraction(f32(a)) ** 2 + Fraction(f32(c))
        assert int(fast.bits[k]) == bits32(round_f32(q)), hex(c)


@pytest.mark.parametrize("op", ["sqrt", "rsq", "log", "rcp", "exp", "frc", "round_ni"])
@pytest.mark.parametrize("rules", RULE_SETS)
def test_fast_path_equals_reference_path_on_exhaustive_order_chunks(op, rules):
    """Chunks of consecutive patterns sharing one sign and exponent, as an exhaustive sweep
    hands them out (negative normals, NaNs, INF, denormals, zeros, ordinary values): the
    fast path's shortcuts for such chunks give the reference path's record."""
    fmt = get_format("f32")
    starts = [0xBE000000, 0x7F800000, 0xFF800000, 0x80000000, 0x00000000, 0x3E000000,
              0x7F000000, 0x00800000]
    x = np.concatenate([np.arange(s, s + 4096, dtype=np.uint32) for s in starts])
    fast = evaluate(op, x, rules=rules, paths="fast")
    ref = evaluate(op, x, rules=rules, paths="reference")
    _assert_same(fast, ref, fmt, np.random.default_rng(0))
    for s in range(0, x.size, 4096):  # each chunk on its own, as the sweep stage sees it
        part = x[s:s + 4096]
        a = evaluate(op, part, rules=rules, paths="fast")
        b = evaluate(op, part, rules=rules, paths="reference")
        cols = a.model_columns()
        assert cols["fired"].keys() == b.fired.keys()
        for k in b.fired:
            np.testing.assert_array_equal(cols["fired"][k], b.fired[k], k)
        np.testing.assert_array_equal(cols["exact"], b.exact)
        np.testing.assert_array_equal(cols["err_model"], b.ulp_error(b.bits))


def test_rules_of_uniform_nan_chunks_whatever_was_evaluated_before_F32_NANOUT():
    """F32-NANOUT, F32-FTZ: a chunk whose results are all NaN and whose operands share one
    class takes its rules from one element, kept per evaluation and class; each chunk's
    rules equal the reference path's whatever op, rule set, option or class came before
    (the same class is a NaN chunk under ieee754 and none under d3d11 for denormals)."""
    starts = [0xBE000000, 0x80000001, 0xFF800001, 0x7F800001, 0xBF800000]
    order = [(op, rules, opts, s) for s in starts for op in ("sqrt", "rsq", "log", "frc", "round_ni")
             for rules in RULE_SETS for opts in ({}, {"ftz_output": "either"})]
    rng = np.random.default_rng(11)
    for i in rng.permutation(len(order)).tolist() * 2:  # (twice: every key seen before)
        op, rules, opts, s = order[i]
        x = np.arange(s, s + 2048, dtype=np.uint32)
        fast = evaluate(op, x, rules=rules, options=opts).fired
        ref = evaluate(op, x, rules=rules, options=opts, paths="reference").fired
        assert fast.keys() == ref.keys(), (op, rules, opts, hex(s))
        for k in ref:
            np.testing.assert_array_equal(fast[k], ref[k], f"{op} {rules} {opts} {s:#x} {k}")


def _issue34_operands(op: str, rng: np.random.Generator) -> list[np.ndarray]:
    """Operands of the allowed-set classes of issue 34: log2 near 1 (absolute window
    across zero), divisors near 2^126 and beyond, exp of zeros and denormals, exact-zero
    results, frc, values at FLT_MAX (1-ULP windows at the top), dp4 for balanced orders."""
    f = get_format("f32")
    one = 0x3F800000
    near = np.concatenate([one + np.arange(-64, 65), rng.integers(0, 1 << 32, 256)])
    base = np.concatenate([_specials(f), near, [0x7E800000 + d for d in range(-3, 4)],
                           [0x7F7FFFFF - d for d in range(4)]]).astype(np.uint32)
    arity = OPS[op].arity
    if arity == 1:
        return [np.concatenate([base, base | np.uint32(0x80000000)])]
    cols = [rng.choice(base, 4096) for _ in range(arity)]
    if op == "div":
        cols[1][:1024] = rng.choice([0x7E800000 + d for d in range(-3, 4)]
                                    + [0x7F000000, 0x7F7FFFFF], 1024)
    return cols


@pytest.mark.parametrize("rules,options", [
    ("d3d11", None), ("d3d10", None), ("d3d11", {"ftz_output": "either"}),
    ("d3d11", {"fused_step_ulp": 1.0}), ("d3d10", {"d3d10_div_route": True}),
    ("d3d11", {"lenient_d3d11": True})])
@pytest.mark.parametrize("op", ["log", "exp", "div", "add", "mul", "sqrt", "rcp", "frc",
                                "mad", "dp4"])
def test_fast_path_equals_reference_path_on_issue_34_cases(op, rules, options):
    """The fast paths give the reference path's sets on the cases whose sets issue 34
    changed (engine/finish/ is the one place that decides them)."""
    rng = np.random.default_rng(zlib.crc32(f"34 {op} {rules} {options}".encode()))
    ops = _issue34_operands(op, rng)
    if op == "dp4" and (rules == "d3d10" or options):
        ops = [o[:256] for o in ops]  # 1-ULP steps in 15 orders: the slowest reference
    fmt = get_format("f32")
    fast = evaluate(op, *ops, rules=rules, options=options, paths="fast")
    ref = evaluate(op, *ops, rules=rules, options=options, paths="reference")
    _assert_same(fast, ref, fmt, rng)
