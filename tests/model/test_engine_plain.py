"""Plain-element kernels (engine/plain.py) give the same Parts as the general handlers, bit
for bit: model bits, exact value, window keys, NaN allowance, flush facts and fired rules.

Proves the fast paths keep every rule they skip (F32-FTZ, F32-NANPROP, F32-SQRTNEG,
F32-LOG0, F32-DIV0, F32-SQRT-RCP, F32-INSTR, F16-PREC, F16-DENORM, F32-IDENT) by comparing
against the general engine on f32 special values, random patterns, random normal values,
values at binade / window edges, every f16 pattern against sampled partners, under all
three rule sets and the AMBIGUOUS options that change windows.
"""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model.engine.optable import OPS
from fpinspector.model.engine.plain import plain_handler
from fpinspector.model.engine.result import Ctx, run_chunked
from fpinspector.model.engine.tolerances import resolve_options, tolerance_for
from fpinspector.model.formats import get_format

from _engine_oracle import F32_SPECIALS

RNG = np.random.default_rng(7)
RULES = ("d3d11", "d3d10", "ieee754")


def _parts(op: str, fmt: str, rules: str, operands: list[np.ndarray], options=None):
    f = get_format(fmt)
    opts = resolve_options(options)
    ctx = Ctx(op, f, rules, opts, f.name == "f32" and rules != "ieee754")
    tol, _ = tolerance_for(op, f.name, rules, opts)
    handler = plain_handler(op, ctx, tol, OPS[op].handler)
    assert handler is not None, "expected a plain kernel"
    return run_chunked(OPS[op].handler, ctx, tol, operands), run_chunked(handler, ctx, tol,
                                                                          operands)


def _same(g, p) -> None:
    for name in ("bits", "hi", "lo", "klo", "khi", "nan_ok", "ftz_out", "unrounded"):
        a, b = getattr(p, name), getattr(g, name)
        assert a.dtype == b.dtype, name
        if name == "unrounded":  # the sign of an intermediate NaN follows numpy's SIMD NaN
            keep = ~np.isnan(g.hi)  # propagation (differs with array length); bits do not
            a, b = a[keep], b[keep]
        np.testing.assert_array_equal(a, b, err_msg=name)
    assert len(p.ftz_in) == len(g.ftz_in)
    for a, b in zip(p.ftz_in, g.ftz_in):
        np.testing.assert_array_equal(a, b)
    assert [e[0] for e in p.extras] == [e[0] for e in g.extras]
    for e, h in zip(p.extras, g.extras):
        np.testing.assert_array_equal(e[1], h[1])
        np.testing.assert_array_equal(e[2], h[2])
    for k in set(p.fired) | set(g.fired):
        a = p.fired.get(k, np.zeros(p.bits.shape, bool))
        b = g.fired.get(k, np.zeros(g.bits.shape, bool))
        np.testing.assert_array_equal(a, b, err_msg=k)
    assert (p.deny_denorm, p.tol_text) == (g.deny_denorm, g.tol_text)


def _f32_inputs(op: str) -> np.ndarray:
    """Specials, random patterns, random normal values, and binade / window edges."""
    n = 40_000
    rand = RNG.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    with np.errstate(over="ignore"):
        vals = np.ldexp(RNG.uniform(1, 2, n), RNG.integers(-140, 140, n)).astype(np.float32)
    edges = []
    for e in (-127, -126, -125, -124, -63, -1, 0, 1, 2, 63, 125, 126, 127, 128):
        m = np.float32(2.0**e) if e < 128 else np.float32(3.4e38)
        for k in range(-3, 4):
            edges.append(np.nextafter(m, np.float32(np.inf)) if k > 0 else m)
            m = np.nextafter(m, np.float32(np.inf) if k >= 0 else np.float32(0))
    for v in (0.5, 2.0, 1.0, 126.0, 127.0, 128.0, -125.0, -126.0, -127.0, -149.0, -150.0):
        m = np.float32(v)
        for _ in range(4):
            edges.append(m)
            edges.append(np.float32(-m))
            m = np.nextafter(m, np.float32(np.inf))
    edge = np.array(edges, dtype=np.float32).view(np.uint32)
    if op == "exp":  # the interesting range of 2^x
        vals = RNG.uniform(-160, 160, n).astype(np.float32)
    x = np.concatenate([np.array(F32_SPECIALS, np.uint32), rand, vals.view(np.uint32), edge])
    return np.concatenate([x, x ^ np.uint32(0x80000000)])


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("op", ["sqrt", "rcp", "rsq", "log", "exp"])
def test_f32_unary_plain_equals_general_F32_SQRT_RCP_F32_INSTR(op: str, rules: str) -> None:
    """F32-SQRT-RCP / F32-INSTR windows, F32-FTZ, F32-SQRTNEG, F32-LOG0, F32-DIV0 kept."""
    g, p = _parts(op, "f32", rules, [_f32_inputs(op)])
    _same(g, p)


@pytest.mark.parametrize("options", [{"rcp_tolerance": "ulp"}, {"rcp_tolerance": "rel"},
                                     {"ftz_output": "either"}])
def test_f32_rcp_options_plain_equals_general_F32_SQRT_RCP(options: dict) -> None:
    """AMBIGUOUS rcp_tolerance / ftz_output readings take the same windows on both paths."""
    g, p = _parts("rcp", "f32", "d3d11", [_f32_inputs("rcp")], options)
    _same(g, p)


def test_f32_unary_chunk_all_plain_and_none_plain_F32_FTZ() -> None:
    """Chunks with only plain (or no plain) elements take the kernel-only / general-only
    branches; F32-FTZ still fires on denormal operands."""
    plain = np.ldexp(RNG.uniform(1, 2, 1000), RNG.integers(-60, 60, 1000))
    plain = plain.astype(np.float32).view(np.uint32)
    for x in (plain, np.arange(1, 1001, dtype=np.uint32)):  # the second: all denormal
        g, p = _parts("sqrt", "f32", "d3d11", [x])
        _same(g, p)
    assert p.fired["F32-FTZ"].all()


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("op", ["add", "sub", "mul"])
def test_f16_binary_plain_equals_general_F16_PREC(op: str, rules: str) -> None:
    """F16-PREC rounding, F16-DENORM, F32-IDENT, overflow: every f16 pattern as A against
    random partners plus the specials/edge patterns as B, and random pairs."""
    a = np.arange(1 << 16, dtype=np.uint16)
    edges = np.array([0, 0x8000, 1, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x7BFF, 0xFBFF,
                      0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x3BFF, 0x3C01], np.uint16)
    parts_a = [a, np.tile(a, 2)]
    parts_b = [RNG.integers(0, 1 << 16, a.size, dtype=np.uint16),
               np.concatenate([np.roll(a, 12345), a[::-1]])]
    for e in edges:
        parts_a.append(a)
        parts_b.append(np.full(a.size, e, np.uint16))
    A = np.concatenate(parts_a)
    B = np.concatenate(parts_b)
    g, p = _parts(op, "f16", rules, [A, B])
    _same(g, p)
    g, p = _parts(op, "f16", rules, [B, A])
    _same(g, p)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("op", ["frc", "round_ne", "round_ni", "round_pi", "round_z"])
def test_f32_frc_round_plain_equals_general_F32_INSTR(op: str, rules: str) -> None:
    """F32-INSTR frc clamp below 1.0 / d3d10 1-ULP subtraction / exact round_*: same Parts;
    half-integers (ties for round_ne) and tiny negatives (frc near 1) included."""
    x = _f32_inputs("frc")
    halves = (np.arange(-2000, 2000) + 0.5).astype(np.float32).view(np.uint32)
    tiny = -np.ldexp(1.0, -np.arange(1, 60)).astype(np.float32)
    near = np.nextafter(np.float32(-1.0), np.float32(0)) * np.ones(3, np.float32)
    extra = np.concatenate([halves, tiny.view(np.uint32), near.view(np.uint32)])
    g, p = _parts(op, "f32", rules, [np.concatenate([x, extra])])
    _same(g, p)


def _f32_pairs() -> tuple[np.ndarray, np.ndarray]:
    """Specials crossed with specials, random patterns, random values (wide exponents) and
    edge values crossed with random values."""
    sp = np.array(F32_SPECIALS, np.uint32)
    sa, sb = (m.ravel() for m in np.meshgrid(sp, sp))
    n = 30_000
    ra = RNG.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    rb = RNG.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    with np.errstate(over="ignore"):
        va = np.ldexp(RNG.uniform(1, 2, n), RNG.integers(-130, 130, n)).astype(np.float32)
        vb = np.ldexp(RNG.uniform(1, 2, n), RNG.integers(-130, 130, n)).astype(np.float32)
    va[::2] = -va[::2]
    edge = _f32_inputs("add")[-400:]
    ea = np.repeat(edge, 20)
    eb = np.tile(vb[:20].view(np.uint32), edge.size)
    A = np.concatenate([sa, ra, va.view(np.uint32), ea, eb, np.full(50, 0x3F800000, np.uint32)])
    B = np.concatenate([sb, rb, vb.view(np.uint32), eb, ea, vb[:50].view(np.uint32)])
    return A, B


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_f32_binary_plain_equals_general_F32_PREC_F32_DIV(op: str, rules: str) -> None:
    """F32-PREC (cr / d3d10 1 ULP), F32-DIV (x * rcp(y) window), IEEE-RNE, F32-IDENT and
    F32-FTZ: the plain kernel gives the same Parts as eval_binary."""
    A, B = _f32_pairs()
    g, p = _parts(op, "f32", rules, [A, B])
    _same(g, p)


@pytest.mark.parametrize("options", [{"lenient_d3d11": True}, {"ftz_output": "either"}])
def test_f32_binary_options_plain_equals_general_F32_PREC(options: dict) -> None:
    """AMBIGUOUS lenient_d3d11 (1 ULP) and ftz_output=either windows on both paths."""
    A, B = _f32_pairs()
    for op in ("mul", "div"):
        g, p = _parts(op, "f32", "d3d11", [A, B], options)
        _same(g, p)


def _f32_triples() -> list[np.ndarray]:
    """Random patterns, random values, near-cancelling c = -(a*b) (+/- a few ULPs) and
    specials in every position."""
    n = 20_000
    r = [RNG.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32) for _ in range(3)]
    with np.errstate(over="ignore", under="ignore"):
        v = [np.ldexp(RNG.uniform(1, 2, n) * RNG.choice([-1, 1], n),
                      RNG.integers(-70, 70, n)).astype(np.float32) for _ in range(3)]
        cancel = (-(v[0].astype(np.float64) * v[1])).astype(np.float32)
        toward = (np.inf * RNG.choice([-1, 1], n)).astype(np.float32)
        cancel = np.nextafter(cancel, toward)
    sp = np.array(F32_SPECIALS, np.uint32)
    k = sp.size
    cols = [np.concatenate([r[i], v[i].view(np.uint32), v[i].view(np.uint32)]) for i in range(3)]
    cols[2][-n:] = cancel.view(np.uint32)
    for i in range(3):  # each special in each position, others random values
        for j in range(3):
            cols[j] = np.concatenate([cols[j], np.repeat(sp, 30) if i == j
                                      else np.tile(v[j][:30].view(np.uint32), k)])
    return cols


@pytest.mark.parametrize("options", [None, {"fused_step_ulp": 1.0}, {"ftz_output": "either"}])
@pytest.mark.parametrize("rules", RULES)
def test_f32_mad_plain_equals_general_F32_FUSED(rules: str, options) -> None:
    """F32-FUSED serial-order window (0.5 / 1 ULP steps), IEEE-RNE, F32-FTZ, F32-INFINF:
    the plain kernel gives the same Parts as eval_fused."""
    g, p = _parts("mad", "f32", rules, _f32_triples(), options)
    _same(g, p)


def test_window_on_grid_residual_matches_window_tol_F32_SQRT_RCP() -> None:
    """The plain window's on-grid branch: ends that land exactly on an f32 value in float64
    while the TwoSum residual (or lo) points in or out, against result.window_tol."""
    from fpinspector.model.engine.plain import _window
    from fpinspector.model.engine.result import window_tol

    f32 = get_format("f32")
    n = 4000
    g = np.ldexp(RNG.uniform(1, 2, n), RNG.integers(-100, 100, n)).astype(np.float32)
    hi = g.astype(np.float64) * RNG.choice([-1.0, 1.0], n)
    ulp = np.spacing(np.abs(g)).astype(np.float64)
    tiny = np.abs(hi) * 2.0**-60 * RNG.choice([-1.0, 1.0], n)  # below float64 resolution
    d = ulp * RNG.integers(1, 4, n) + tiny  # hi +/- d rounds onto the f32 grid, e != 0
    lo = np.where(RNG.random(n) < 0.5, 0.0, np.abs(hi) * 2.0**-70 * RNG.choice([-1, 1], n))
    got = _window(hi, d, d, lo)
    want = window_tol(hi, lo, d, d, f32)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


@pytest.mark.parametrize("op,fmt", [("sqrt", "f32"), ("div", "f32"), ("min", "f32"),
                                    ("add", "f16")])
def test_chunked_record_equals_one_chunk_F32_FTZ(op: str, fmt: str, monkeypatch) -> None:
    """Chunk boundaries lose or repeat nothing: a record built in many small chunks (rules
    such as F32-FTZ / F32-SQRTNEG firing only in later chunks) equals the one-call record."""
    import fpinspector.model.engine.result as result

    f = get_format(fmt)
    n = 5000
    if fmt == "f32":
        x = np.concatenate([np.full(2500, 0x3F800000, np.uint32),
                            RNG.integers(0, 1 << 32, n - 2500, dtype=np.uint64).astype(np.uint32)])
    else:
        x = np.concatenate([np.full(2500, 0x3C00, np.uint16),
                            RNG.integers(0, 1 << 16, n - 2500, dtype=np.uint16)])
    y = x[::-1].copy()
    ops = [x] if op == "sqrt" else [x, y]
    opts = resolve_options(None)
    ctx = Ctx(op, f, "d3d11", opts, fmt == "f32")
    tol, _ = tolerance_for(op, fmt, "d3d11", opts)
    handler = plain_handler(op, ctx, tol, OPS[op].handler) or OPS[op].handler
    whole = handler(ctx, tol, ops)
    monkeypatch.setattr(result, "CHUNK", 700)
    chunked = result.run_chunked(handler, ctx, tol, ops)
    _same(whole, chunked)
    assert list(chunked.fired) == sorted(chunked.fired)


def test_round_f16_matches_numpy_cast_F16_PREC_F16_DENORM() -> None:
    """F16-PREC / F16-DENORM rounding of exact sums and products: the flag-free rounding
    equals numpy's double -> half cast (independent oracle) on every f16 value times /
    plus sampled partners, across the denormal range, ties and the overflow midpoint."""
    from fpinspector.model.engine.grid import round_f16 as _round_f16

    v = np.arange(1 << 16, dtype=np.uint16).view(np.float16).astype(np.float64)
    v = v[np.isfinite(v)]
    part = RNG.choice(v, 64)
    with np.errstate(all="ignore"):
        hi = np.concatenate([np.outer(v, part).ravel(), np.add.outer(v, part).ravel(),
                             [65504.0, 65519.99, 65520.0, -65520.0, 2.0**-25, 3 * 2.0**-25,
                              -(2.0**-25), 2.0**-14 - 2.0**-25, 0.0, -0.0]])
        hi = hi[np.isfinite(hi)]
        want = hi.astype(np.float16).view(np.uint16)
    np.testing.assert_array_equal(_round_f16(hi), want)


@pytest.mark.parametrize("op", ["exp", "sqrt", "log"])
def test_f32_unary_ftz_either_plain_equals_general_F32_FTZ(op: str) -> None:
    """Option ftz_output=either keeps the unflushed window as an extra allowance: the
    kernel's extras (exp overflow to INF included) equal the general ones."""
    g, p = _parts(op, "f32", "d3d11", [_f32_inputs(op)], {"ftz_output": "either"})
    _same(g, p)
