"""The fired rules of a sweep chunk computed the whole-chunk way (F32-NANPROP, F32-NANOUT,
F32-INFINF, F32-IDENT, F16-PREC, F16-DENORM, IEEE-RNE): the same masks as the reference
path and as the ordinary/subset split, on chunks of edge-case operands (denormals, INF,
NaN, signed zeros, +/-1) under d3d11, d3d10 and ieee754, and against numpy's float16.

Why: f16 mul's chunks always take the whole-chunk way (``fired.WHOLE_CHUNK_KERNELS``), a
rule's mask may be a fact the facts keep (a read-only view of it is returned; nothing is
written into it), and the exact value's facts are read in float32 where the kernel gave it.
"""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model import evaluate
from fpinspector.model.engine import finish
from fpinspector.model.engine.finish import fired as fired_mod

RULE_SETS = ("d3d11", "d3d10", "ieee754")
N = 1 << 13
#: f16 patterns of every class: +/-0, denormals (smallest, largest, middle), +/-1, normals
#: near both ends, the largest finite, +/-INF, quiet and signalling NaNs of both signs
EDGES = np.array([0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0200, 0x0400, 0x8400,
                  0x3C00, 0xBC00, 0x3C01, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0xFE00,
                  0x7C01, 0x7FFF, 0x1400, 0x0C00], dtype=np.uint16)


def _chunk(kind: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Operand pairs of N elements: ``ordinary`` moderate normals only, ``few`` 1% edge
    operands, ``many`` 12%, ``grid`` two A patterns x every eighth B (a sweep chunk's shape),
    ``edges`` every pair of EDGES repeated."""
    rng = np.random.default_rng(seed)
    if kind == "grid":
        b = np.arange(0, 1 << 16, 8, dtype=np.uint16)
        a = np.repeat(np.array([0x3555, 0xB556], dtype=np.uint16), b.size)
        return a, np.tile(b, 2)
    if kind == "edges":
        a, b = (g.ravel() for g in np.meshgrid(EDGES, EDGES, indexing="ij"))
        reps = -(-N // a.size)
        return np.tile(a, reps)[:N], np.tile(b, reps)[:N]
    ops = []
    for _ in range(2):
        x = rng.integers(0x3000, 0x4800, N).astype(np.uint16)  # products stay normal
        x |= (rng.integers(0, 2, N).astype(np.uint16) << 15)
        x[(x & 0x7FFF) == 0x3C00] += 1  # no +/-1 (F32-IDENT) among the ordinary ones
        share = {"ordinary": 0.0, "few": 0.005, "many": 0.06}[kind]
        k = rng.random(N) < share
        x[k] = rng.choice(EDGES, k.sum())
        ops.append(x)
    return ops[0], ops[1]


def _masks(ev) -> dict[str, np.ndarray]:
    return {k: np.asarray(v, dtype=bool) for k, v in ev.fired.items()}


def _assert_same(got: dict[str, np.ndarray], want: dict[str, np.ndarray], what: str) -> None:
    assert sorted(got) == sorted(want), what
    for k in want:
        assert np.array_equal(got[k], want[k]), f"{what}: {k}"


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("kind", ["ordinary", "few", "many", "grid", "edges"])
def test_f16_mul_fired_whole_chunk_equals_reference_and_split(monkeypatch, rules,
                                                              kind) -> None:
    """F32-NANPROP, F32-NANOUT, F32-INFINF, F32-IDENT, F16-PREC/IEEE-RNE, F16-DENORM: the
    fast path's whole-chunk masks equal the reference path's and the ordinary/subset
    split's, mask by mask; the whole-chunk way was taken (no ordinary mask)."""
    a, b = _chunk(kind, seed=len(kind))
    calls: list[int] = []
    ordinary = fired_mod._ordinary

    def counted(f):
        calls.append(f.n)
        return ordinary(f)

    monkeypatch.setattr(fired_mod, "_ordinary", counted)
    fast = _masks(evaluate("mul", a, b, format="f16", rules=rules))
    assert calls == []  # the whole-chunk way: no ordinary mask
    ref = _masks(evaluate("mul", a, b, format="f16", rules=rules, paths="reference"))
    _assert_same(fast, ref, f"{rules} {kind}: fast vs reference")
    monkeypatch.setattr(fired_mod, "WHOLE_CHUNK_KERNELS", frozenset())
    monkeypatch.setattr(fired_mod, "WHOLE_CHUNK_FROM", 0)  # the split, always
    split = _masks(evaluate("mul", a, b, format="f16", rules=rules))
    assert calls and calls[-1] == a.size  # (the ordinary mask of the chunk)
    _assert_same(split, ref, f"{rules} {kind}: split vs reference")


def test_f16_mul_fired_whole_chunk_against_numpy_float16() -> None:
    """d3d11 (F32-NANPROP, F32-NANOUT, F32-INFINF, F32-IDENT, F16-PREC, F16-DENORM) on a
    sweep-shaped chunk and on every pair of edge patterns, against numpy's float16 (its own
    decoder and IEEE product): an oracle nobody here wrote."""
    for kind in ("grid", "edges"):
        a, b = _chunk(kind, seed=0)
        x, y = a.view(np.float16), b.view(np.float16)
        with np.errstate(all="ignore"):
            exact = x.astype(np.float32) * y.astype(np.float32)  # exact: 22 bits at most
            res = (x * y)
        nan_in = np.isnan(x) | np.isnan(y)
        den = lambda v: (v != 0) & (np.abs(v) < np.float16(2.0**-14))  # noqa: E731
        want = {
            "F32-NANPROP": nan_in,
            "F32-NANOUT": nan_in,
            "F32-INFINF": (np.isinf(x) & (y == 0)) | ((x == 0) & np.isinf(y)),
            "F32-IDENT": ((np.abs(x) == 1) | (np.abs(y) == 1)) & ~nan_in,
            "F16-PREC": np.isfinite(exact) & (res.astype(np.float32) != exact),
            "F16-DENORM": den(x) | den(y) | den(res),
        }
        got = _masks(evaluate("mul", a, b, format="f16", rules="d3d11"))
        _assert_same(got, {k: v for k, v in want.items() if v.any()}, kind)


def test_rule_masks_are_read_only_views_and_facts_stay_unwritten() -> None:
    """A rule's mask may be a fact itself (F32-NANPROP is the NaN operands): the caller
    gets a read-only view, the facts' own array stays writable and unchanged, and a second
    row of the same rule ID ORs into a new array, not into the fact."""
    a, b = _chunk("edges", seed=0)
    ev = evaluate("mul", a, b, format="f16")
    f = ev._facts(0, a.size)
    nan_before = f.nan_in.copy()
    masks = finish.fired_rules(f)
    assert all(not m.flags.writeable for m in masks.values())
    assert f.nan_in.flags.writeable and np.array_equal(f.nan_in, nan_before)
    rows = [fired_mod.Row("X", ("mul",), lambda g: g.nan_in),
            fired_mod.Row("X", ("mul",), lambda g: g.identity)]
    out: dict[str, np.ndarray] = {}
    fired_mod._evaluate_rows(f, rows, out, None, f.n, final=True)
    assert np.array_equal(out["X"], nan_before | f.identity)
    assert np.array_equal(f.nan_in, nan_before) and out["X"] is not f.nan_in


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("kind", ["grid", "edges"])
def test_f16_mul_facts_from_the_float32_exact_value_equal_float64(rules, kind) -> None:
    """F32-NANOUT, F16-PREC / IEEE-RNE read the exact value's NaN, finite and inexact
    facts from the kernel's float32 product (``Core.hi32``): the same masks as from the
    float64 value, on chunks of every class of operand."""
    a, b = _chunk(kind, seed=3)
    ev = evaluate("mul", a, b, format="f16", rules=rules)
    f32 = ev._facts(0, a.size)
    assert f32.core.hi32 is not None and f32.core.hi32.dtype == np.float32
    f64 = finish.facts(f32.ctx, f32.ops, type(f32.core)(f32.core.bits, f32.core.hi,
                                                          f32.core.lo))
    for name in ("exact_nan", "exact_inf", "finite", "inexact"):
        assert np.array_equal(getattr(f32, name), getattr(f64, name)), name
    assert f32.exact_nan.any() and f32.inexact.any() and not f32.finite.all()


@pytest.mark.parametrize("rules", RULE_SETS)
def test_allowed_of_the_models_own_bits_without_the_equality_pass(rules) -> None:
    """ALLOWED: the model's own results (the array ``bits`` itself, as a sweep's ok_model
    asks) are each allowed, as a copy of them is on the reference path; an observation
    that differs is still judged (the shortcut takes only the very same array)."""
    a, b = _chunk("edges", seed=0)
    ev = evaluate("mul", a, b, format="f16", rules=rules)
    ref = evaluate("mul", a, b, format="f16", rules=rules, paths="reference")
    bits = np.asarray(ev.bits)
    assert ev.allowed(bits).all() and ref.allowed(bits.copy()).all()
    other = bits ^ np.uint16(0x0200)  # the result's fraction changed: not allowed where
    want = ref.allowed(other)  # the model is a number (a NaN stays any NaN)
    assert np.array_equal(ev.allowed(other), want) and not want.all()


def _den_oracle(pat: np.ndarray, fmt: str) -> np.ndarray:
    """Denormal patterns from the values (numpy's own float16 / float64 of the patterns):
    nonzero and below the smallest normal in magnitude (NaN compares False)."""
    if fmt == "f16":
        v = pat.view(np.float16)
        return (v != 0) & (np.abs(v) < np.float16(2.0**-14))
    v = pat.view(np.float64)
    return (v != 0) & (np.abs(v) < 2.0**-1022)


#: f64 patterns of every class: +/-0, denormals (smallest, largest), the smallest normal,
#: +/-1, the largest finite, +/-INF, quiet and signalling NaNs
EDGES64 = np.array([0, 1 << 63, 1, (1 << 63) | 1, (1 << 52) - 1, 1 << 52, 1 << 51,
                    0x3FF0000000000000, 0xBFF0000000000000, 0x7FEFFFFFFFFFFFFF,
                    0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
                    0x7FF0000000000001, 0x3CB0000000000000, 0x0010000000000001],
                   dtype=np.uint64)


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("op,fmt", [("mul", "f16"), ("add", "f16"), ("div", "f16"),
                                    ("mad", "f16"), ("mul", "f64"), ("add", "f64"),
                                    ("mad", "f64")])
def test_denormal_kept_from_magnitudes_equals_patterns_and_oracle(op, fmt, rules) -> None:
    """F16-DENORM, F64-DENORM: the mask from the smallest (magnitude - 1) of result and
    operands equals the general path (each pattern's denormal test, ORed) and a value
    oracle on every pair/triple of edge patterns (denormals, +/-0, the smallest normal,
    INF, NaNs); under ieee754 the row does not apply (IEEE-RNE speaks)."""
    edges = EDGES if fmt == "f16" else EDGES64
    arity = 3 if op == "mad" else 2
    ops = [g.ravel() for g in np.meshgrid(*([edges] * arity), indexing="ij")]
    ev = evaluate(op, *ops, format=fmt, rules=rules)
    rule = "F16-DENORM" if fmt == "f16" else "F64-DENORM"
    want = _den_oracle(np.asarray(ev.bits), fmt)
    for o in ops:
        want |= _den_oracle(o, fmt)
    assert want.any() and not want.all()
    got = _masks(ev)
    if rules == "ieee754":
        assert rule not in got
    else:
        assert np.array_equal(got[rule], want)
    f = finish.facts(ev._ctx, ops, ev._core(0, ev._n))
    assert f._mags is not None  # (the magnitudes' way is the one under test)
    general = fired_mod.grid.is_den(f.core.bits, f.ctx.fmt)
    for i in range(arity):
        general |= fired_mod.grid.is_den(ops[i], f.ctx.fmt)
    assert np.array_equal(fired_mod._denormal_kept(f), general)
    assert np.array_equal(general, want)


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("kind", ["ordinary", "few", "many", "grid", "edges"])
def test_fired_counts_are_the_masks_counts(rules, kind) -> None:
    """``finish.fired_counts`` (what a sweep's summary reads instead of counting the
    masks) of f16 mul's whole-chunk rows, and ``model_columns``' copy of it, are each
    mask's count of elements."""
    a, b = _chunk(kind, seed=5)
    ev = evaluate("mul", a, b, format="f16", rules=rules)
    cols = ev.model_columns()
    want = {k: int(np.count_nonzero(m)) for k, m in cols["fired"].items()}
    assert cols["fired_counts"] == want
    f = ev._facts(0, a.size)
    assert finish.fired_counts(f) == {k: int(np.count_nonzero(m))
                                      for k, m in finish.fired_rules(f).items()}


def test_fired_counts_of_ored_rows_uniform_chunks_and_split_chunks() -> None:
    """Two rows of one rule ID: the count of their OR. A uniform NaN chunk (sqrt of
    negative normals of one exponent): every element. A chunk whose rows ran on the
    ordinary elements and a subset of the rest: None (the summary counts the masks)."""
    a, b = _chunk("edges", seed=0)
    f = evaluate("mul", a, b, format="f16")._facts(0, a.size)
    rows = [fired_mod.Row("X", ("mul",), lambda g: g.nan_in),
            fired_mod.Row("X", ("mul",), lambda g: g.identity)]
    out: dict[str, np.ndarray] = {}
    counts: dict[str, int] = {}
    fired_mod._evaluate_rows(f, rows, out, None, f.n, final=True, counts=counts)
    assert counts == {"X": int(np.count_nonzero(f.nan_in | f.identity))}
    neg = np.arange(0xC0000000, 0xC0000000 + N, dtype=np.uint32)  # -2.0 upwards in magnitude
    ev = evaluate("sqrt", neg, format="f32")
    cols = ev.model_columns()
    assert cols["fired"] and cols["fired_counts"] == dict.fromkeys(cols["fired"], N)
    x = np.random.default_rng(1).integers(0x3F800000, 0x40000000, N).astype(np.uint32)
    x[::100] = 0x7FC00000  # 1% NaN: most elements ordinary, the rest on a subset
    ev = evaluate("mul", x, x[::-1], format="f32")
    cols = ev.model_columns()
    assert "F32-NANPROP" in cols["fired"] and "fired_counts" not in cols
    assert finish.fired_counts(ev._facts(0, N)) is None
