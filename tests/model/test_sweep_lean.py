"""Lean chunk columns of exhaustive f32 sqrt / rcp sweeps (sweep/lean.py).

The lean path must give bit-for-bit the columns, summaries, worst inputs and first
non-conformant rows of the full engine path (F32-SQRT-RCP, F32-SQRTNEG, F32-NANOUT,
F32-FTZ chunks fall back); model bits are also checked against independent oracles
(numpy's IEEE float32 sqrt, Fraction division for rcp).
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from fpinspector.model.sweep import Axis, UnaryDomain
from fpinspector.model.sweep.lean import lean_columns
from fpinspector.model.sweep.runner import run_sweep
from fpinspector.model.sweep.stages import ModelStage

pytest.importorskip("fpinspector.model.engine")
from fpinspector.model import evaluate  # noqa: E402

RNG = np.random.default_rng(20261122)


def _chunk(top: int) -> np.ndarray:
    """Patterns with sign+exponent ``top``: both binade ends and random mantissas."""
    base = np.uint32(top << 23)
    m = np.concatenate([np.arange(64), (1 << 23) - 1 - np.arange(64),
                        RNG.integers(0, 1 << 23, 128)]).astype(np.uint32)
    return base | m


def _bytes_equal(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _engine_columns(op: str, b: np.ndarray, rules: str) -> dict:
    ev = evaluate(op, b, format="f32", rules=rules)
    m = np.asarray(ev.bits)
    return {"model": m, "exact": np.asarray(ev.exact, np.float64),
            "err_model": np.asarray(ev.ulp_error(m), np.float64),
            "ok_model": np.asarray(ev.allowed(m), bool),
            "fired": {r: np.asarray(v, bool) for r, v in ev.fired.items()}}


@pytest.mark.parametrize("op", ["sqrt", "rcp"])
@pytest.mark.parametrize("rules", ["d3d11", "d3d10"])
def test_lean_columns_equal_engine_at_every_sign_and_exponent_F32_SQRT_RCP(op, rules):
    """F32-SQRT-RCP / F32-SQRTNEG / F32-NANOUT: for every one of the 512 sign+exponent
    classes the lean columns (where offered) equal the engine's byte for byte (NaN
    payloads of exact included), and the fired rules in the same order."""
    offered = 0
    for top in range(512):
        b = _chunk(top)
        lean = lean_columns(op, b)
        e = top & 0xFF
        if e in (0, 0xFF) or (op == "rcp" and e > 251):
            assert lean is None, hex(top)
            continue
        assert lean is not None, hex(top)
        offered += 1
        ref = _engine_columns(op, b, rules)
        for col in ("model", "exact", "err_model", "ok_model"):
            assert _bytes_equal(lean[col], ref[col]), (op, rules, hex(top), col)
        assert list(lean["fired"]) == list(ref["fired"]), (hex(top), ref["fired"].keys())
        for r, m in ref["fired"].items():
            assert _bytes_equal(lean["fired"][r], m)
    assert offered == (508 if op == "sqrt" else 502)


def test_lean_model_against_independent_oracles_F32_SQRT_RCP():
    """F32-SQRT-RCP: lean model bits are the correctly rounded results (numpy's IEEE
    float32 sqrt; rcp by Fraction and round-half-even), errors within 0.5 ULP."""
    for top in (1, 100, 127, 128, 200, 254):
        b = _chunk(top)
        s = lean_columns("sqrt", b)
        with np.errstate(all="ignore"):
            assert np.array_equal(s["model"], np.sqrt(b.view(np.float32)).view(np.uint32))
        assert np.all(np.abs(s["err_model"]) <= 0.5)
    for top in (1, 127, 200, 251, 256 + 3, 256 + 127, 256 + 250):
        b = _chunk(top)[::8]
        r = lean_columns("rcp", b)
        for x, got in zip(b.view(np.float32), r["model"].view(np.float32)):
            q = 1 / Fraction(float(x))
            lo = np.float32(float(q))  # nearest float64 then float32; fix by Fraction
            cands = [np.nextafter(lo, np.float32(-np.inf)), lo,
                     np.nextafter(lo, np.float32(np.inf))]
            best = min(cands, key=lambda c: (abs(Fraction(float(c)) - q),
                                             int(np.float32(c).view(np.uint32)) & 1))
            assert got == best, (x, got, best)


@pytest.mark.parametrize("case", ["mixed exponent", "empty", "int32", "2-D", "other op"])
def test_lean_declines_non_ordinary_chunks_F32_FTZ(case):
    """F32-FTZ and friends: chunks that are not one normal sign+exponent class (or not
    sqrt/rcp f32 patterns) go to the full engine."""
    b = np.arange(0x3F7FFFF0, 0x3F800010, dtype=np.uint32)
    args = {"mixed exponent": ("sqrt", b), "empty": ("sqrt", b[:0]),
            "int32": ("sqrt", b.view(np.int32)), "2-D": ("sqrt", b.reshape(4, 8)),
            "other op": ("rsq", b[:8])}[case]
    assert lean_columns(*args) is None


class _FakeGpu:
    """A GPU that differs from the model: last-bit flips, NaNs, INFs, and (in one range)
    most elements, so both the subset and the whole-chunk verdict paths run."""

    def __call__(self, op, *ops, format="f32"):
        b = ops[0]
        with np.errstate(all="ignore"):
            x = b.view(np.float32)
            g = (np.sqrt(x) if op == "sqrt" else np.float32(1) / x).view(np.uint32).copy()
        g[b % 97 == 3] ^= np.uint32(1)
        g[b % 389 == 5] = np.uint32(0x7FC00001)
        g[b % 1009 == 7] = np.uint32(0x7F800000)
        many = (b >= 0x40100000) & (b < 0x40101000)
        g[many] ^= np.uint32(2)
        return g


def _summary_json(res) -> str:
    return json.dumps(res.summary.to_dict(), sort_keys=False, default=repr,
                      allow_nan=True)


RANGES = [(0x007FF000, 0x00801800), (0x3F7FF000, 0x3F800FFF), (0x400FF800, 0x40102000),
          (0x7DFFF000, 0x7E001000), (0x7F7FF000, 0x7F801000), (0x807FF000, 0x80801000),
          (0xBF7FE123, 0xBF801234), (0xFF7FF800, 0xFF800800), (0xFFFFF000, 0xFFFFFFFF)]


@pytest.mark.parametrize("op", ["sqrt", "rcp"])
@pytest.mark.parametrize("gpu", [False, True])
def test_sweep_with_lean_chunks_equals_full_path_F32_SQRT_RCP(op, gpu, monkeypatch):
    """F32-SQRT-RCP, F32-NANOUT, F32-FTZ: whole sweeps over binade edges, denormals,
    negatives, INF/NaN and chunk boundaries that straddle exponents give the same summary
    (counts, histograms, worst inputs, first non-conformant rows) and columns with and
    without lean chunks."""
    from fpinspector.model.sweep import stages

    taken = []
    real = stages.lean_columns

    def counting(o, b):
        out = real(o, b)
        taken.append(out is not None)
        return out

    monkeypatch.setattr(stages, "lean_columns", counting)
    for start, stop in RANGES:
        dom = UnaryDomain(Axis.bit_range("f32", start, stop, stop - start + 1))
        results = []
        for lean in (True, False):
            stage = ModelStage(op, "f32", "d3d11", gpu=_FakeGpu() if gpu else None)
            assert stage.lean
            stage.lean = lean
            results.append(run_sweep(dom, stage, result_format="f32", chunk_size=1 << 11,
                                     keep_elements=True, first_n=20, top_k=5,
                                     prefetch=False))
        a, b = results
        assert _summary_json(a) == _summary_json(b), (op, hex(start))
        assert list(a.columns) == list(b.columns)
        for col in a.columns:
            assert _bytes_equal(a.columns[col], b.columns[col]), (op, hex(start), col)
        assert list(a.fired) == list(b.fired)
        for r in a.fired:
            assert _bytes_equal(a.fired[r], b.fired[r])
    assert 10 < sum(taken) < len(taken)  # both lean and full chunks were compared


def test_lean_only_with_default_rules_and_engine_F32_SQRT_RCP():
    """F32-SQRT-RCP: options, other rule sets, other ops and replaced evaluators keep the
    full engine path."""
    assert ModelStage("sqrt", "f32", "d3d11").lean
    assert not ModelStage("sqrt", "f32", "ieee754").lean
    assert not ModelStage("rcp", "f32", "d3d11", options={"rcp_tolerance": "ulp"}).lean
    assert not ModelStage("rsq", "f32", "d3d11").lean
    assert not ModelStage("sqrt", "f16", "d3d11").lean
    assert not ModelStage("sqrt", "f32", "d3d11", evaluate=evaluate).lean
