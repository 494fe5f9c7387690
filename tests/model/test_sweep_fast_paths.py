"""Fast sweep paths against independent oracles.

The fast paths (bincount histogram, doubled-bits top-k, GPU verdicts on differing elements
only, row-run grid operands) must give exactly what the plain definitions give: Python
binning, sorted(), whole-chunk evaluation and integer divmod.
"""

from __future__ import annotations

import bisect
import json
import math

import numpy as np
import pytest

from fpinspector.model import evaluate
from fpinspector.model.sweep import Axis, GridDomain, UnaryDomain, histogram_counts
from fpinspector.model.sweep.runner import run_sweep
from fpinspector.model.sweep.stages import ModelStage
from fpinspector.model.sweep.summary import HIST_EDGES


def _python_bin(e: float) -> int:
    """Bin by the definition: 0 exactly, (edge[i-1], edge[i]], inf, NaN last."""
    e = abs(e)
    if math.isnan(e):
        return len(HIST_EDGES)
    if e == 0:
        return 0
    if math.isinf(e):
        return len(HIST_EDGES) - 1
    return bisect.bisect_left(list(HIST_EDGES[:-1]), e)


def test_histogram_bin_edges_are_upper_inclusive_at_every_power_of_two_F32_PREC():
    """Every edge 2^k, its float64 neighbours, denormals, max, infinities and NaN payloads
    land where Python binning puts them (F32-PREC: errors are binned in ULPs)."""
    vals = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, np.finfo(np.float64).max,
            -np.finfo(np.float64).max, np.inf, -np.inf, np.nan,
            np.uint64(0xFFF8000000000001).view(np.float64)]
    for k in range(-4, 40):
        p = 2.0**k
        vals += [p, np.nextafter(p, 0), np.nextafter(p, np.inf), -p]
    err = np.array(vals, dtype=np.float64)
    oracle = np.bincount([_python_bin(float(e)) for e in err], minlength=len(HIST_EDGES) + 1)
    assert np.array_equal(histogram_counts(err), oracle)


@pytest.mark.parametrize("big", [0, 1, 37, 1000])
def test_histogram_of_mostly_small_errors_equals_python_binning_F32_PREC(big):
    """A correctly rounded model's errors (all within 0.5 ULP) with a few larger ones
    (overflow to INF, NaN, huge, just above 0.5 and 1): the histogram bins only those
    few itself; every count still lands where Python binning puts it."""
    rng = np.random.default_rng(big)
    n = 10_000
    err = rng.uniform(-0.5, 0.5, n)
    err[rng.integers(0, n, 500)] = 0.0
    err[:4] = [0.5, -0.5, -0.0, 5e-324]
    special = [np.inf, -np.inf, np.nan, 1e300, np.nextafter(0.5, 1), 1.0, -1.0000001, 3e9]
    at = rng.choice(np.arange(4, n), big, replace=False)
    err[at] = rng.choice(special, big)
    oracle = np.bincount([_python_bin(float(e)) for e in err], minlength=len(HIST_EDGES) + 1)
    assert np.array_equal(histogram_counts(err), oracle)


def _worst_oracle(err: np.ndarray, k: int) -> list[tuple[float, int]]:
    keyed = [(-abs(float(e)), i) for i, e in enumerate(err) if not math.isnan(e)]
    return [(-a, i) for a, i in sorted(keyed)[:k]]


@pytest.mark.parametrize("chunk", [64, 1000, 1 << 14])
def test_top_k_over_chunks_equals_sorted_with_ties_by_index_F32_PREC(chunk):
    """Ties (many equal errors, as 0.5-ULP maxima are) keep the lowest indices, whatever
    the chunking; NaN errors never enter."""
    rng = np.random.default_rng(3)
    n = 5000
    err = rng.choice([0.0, 0.25, 0.5, -0.5, 3.0, np.nan, np.inf, -np.inf], n)
    err[rng.integers(0, n, 40)] = rng.standard_normal(40) * 1e3
    assert _swept_worst(err, chunk, 25) == _worst_oracle(err, 25)


def _swept_worst(err: np.ndarray, chunk: int, k: int) -> list[tuple]:
    """The sweep's top ``k`` (key, index) of ``err`` over f32 patterns 0..n-1, in chunks."""
    dom = UnaryDomain(Axis.bit_range("f32", 0, len(err) - 1))
    res = run_sweep(dom, lambda ops: {"err_model": err[ops[0].astype(np.int64)],
                                      "model": ops[0], "ok_model": np.ones(len(ops[0]), bool)},
                    result_format="f32", chunk_size=chunk, top_k=k, prefetch=False)
    w = res.summary.worst["err_model"]
    return list(zip(w["key"].tolist(), w["index"].tolist()))


class FakeGpu:
    """A 'GPU' returning the model's result except on chosen elements (no GL needed)."""

    def __init__(self, op: str, fmt: str, mutate) -> None:
        self.op, self.fmt, self.mutate = op, fmt, mutate

    def __call__(self, op, *operands, format="f32"):
        bits = np.asarray(evaluate(op, *operands, format=format).bits).copy()
        return self.mutate(bits, operands)


def _flip_some(every: int):
    def mutate(bits, operands):
        sel = (operands[0].astype(np.int64) % every) == 0
        out = bits.copy()
        out[sel] ^= out.dtype.type(1)  # one step off (or a NaN payload change)
        out[sel & ((operands[0].astype(np.int64) % (3 * every)) == 0)] = 0x7F800001  # NaN
        out[(operands[0].astype(np.int64) % 997) == 1] = 0x80000000  # -0
        return out
    return mutate


@pytest.mark.parametrize("every", [50, 2])  # subset path and whole-chunk fallback
@pytest.mark.parametrize("op", ["sqrt", "rcp", "mov"])
def test_gpu_verdicts_on_differing_elements_equal_whole_chunk_evaluation_F32_SQRT_RCP(op, every):
    """err_gpu / ok_gpu / err_gpu_model equal the evaluation of the whole chunk against
    the GPU result (F32-SQRT-RCP tolerances, F32-NANOUT for NaNs)."""
    ops = (np.arange(0x00700000, 0xFFFFFFFF, 0x00F0F0F1, dtype=np.uint64).astype(np.uint32),)
    stage = ModelStage(op, "f32", gpu=FakeGpu(op, "f32", _flip_some(every)))
    out = stage(ops)
    ev = evaluate(op, *ops, format="f32")
    g = out["gpu"]
    assert np.array_equal(out["err_gpu"], ev.ulp_error(g), equal_nan=True)
    assert np.array_equal(out["ok_gpu"], ev.allowed(g))
    both_nan = np.isnan(g.view(np.float32)) & np.isnan(ev.bits.view(np.float32))
    assert np.array_equal(np.flatnonzero((g != ev.bits) & ~both_nan), out["gpu_diff"])
    from fpinspector.model.sweep import ulp_distance

    assert np.array_equal(out["err_gpu_model"], ulp_distance(g, ev.bits, "f32"), equal_nan=True)
    assert 0 < out["gpu_diff"].size < g.size


def test_summary_with_gpu_diff_equals_summary_without_F32_PREC():
    """The err_gpu_model shortcut (look at differing elements only) changes nothing."""
    dom = UnaryDomain(Axis.bit_range("f32", 0x3F000000, 0x3F000000 + 40000))
    stage = ModelStage("sqrt", "f32", gpu=FakeGpu("sqrt", "f32", _flip_some(300)))
    with_diff = run_sweep(dom, stage, result_format="f32", chunk_size=7000, prefetch=False)

    def no_diff(ops):
        out = dict(stage(ops))
        del out["gpu_diff"]
        return out

    plain = run_sweep(dom, no_diff, result_format="f32", chunk_size=7000, prefetch=False)
    a, b = with_diff.summary.to_dict(), plain.summary.to_dict()
    assert json.dumps(a) == json.dumps(b)  # NaN errors compare equal as text
    assert a["histograms"]["err_gpu_model"][0] < a["total"]
    assert "gpu_diff" not in with_diff.columns


def test_grid_operands_equal_divmod_oracle_on_random_ranges():
    """Row-run operand generation equals element k = (A[k // nb], B[k % nb])."""
    g = GridDomain(Axis.bit_range("f16", 0, 0xFFFF, 300), Axis.bit_range("f16", 5, 1000, 77))
    k = np.arange(g.size)
    a_all, b_all = g.axes[0].patterns()[k // 77], g.axes[1].patterns()[k % 77]
    rng = np.random.default_rng(11)
    cuts = [(0, 0), (0, g.size), (76, 78), (77, 154), (g.size - 1, g.size)]
    cuts += [tuple(sorted(rng.integers(0, g.size + 1, 2))) for _ in range(300)]
    for k0, k1 in cuts:
        a, b = g.operands(int(k0), int(k1))
        assert np.array_equal(a, a_all[k0:k1]) and np.array_equal(b, b_all[k0:k1])
        assert a.dtype == b.dtype == np.uint16


NAN_PATTERNS = {"f32": [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFFFFFFF],
                "f16": [0x7E00, 0xFE00, 0x7C01, 0xFFFF]}


@pytest.mark.parametrize("fmt", ["f32", "f16"])
def test_nan_shortcut_only_where_engine_judges_nan_by_nan_ness_F32_NANOUT(fmt):
    """The compare stage treats a GPU NaN as the model's NaN only for ops whose NaN
    results the engine judges by NaN-ness alone (F32-NANOUT). Check the stage's probe
    against 4000 random operand patterns (NaN payloads of both signs included): where
    the probe says yes, four NaN patterns get identical verdicts and errors; mov, which
    passes NaN bits through, must say no."""
    from fpinspector.model import OPS
    from fpinspector.model.formats import get_format

    f = get_format(fmt)
    rng = np.random.default_rng(9)
    checked = 0
    for name, spec in OPS.items():
        if fmt not in spec.formats or spec.arity > 3 or name.startswith("dp"):
            continue
        fixed = (np.asarray(f.encode(0.75), f.dtype),) if spec.arity == 3 else ()
        ops = [rng.integers(0, f.mask, 4000, dtype=np.uint64, endpoint=True).astype(f.dtype)
               for _ in range(spec.arity - len(fixed))]
        for o in ops:
            o[::7] = f.quiet_nan | rng.integers(0, 2, o[::7].size, dtype=o.dtype) * o.dtype.type(
                f.sign_mask)
        ev = evaluate(name, *ops, *fixed, format=fmt)
        if ev.result_format != fmt:
            continue
        stage = ModelStage(name, fmt, fixed=fixed)
        alike = stage._nan_alike(f)
        nans = [np.full(ev.bits.shape, p, dtype=f.dtype) for p in NAN_PATTERNS[fmt]]
        ok = [ev.allowed(n) for n in nans]
        err = [ev.ulp_error(n) for n in nans]
        same = all(np.array_equal(o, ok[0]) for o in ok) and all(
            np.array_equal(e, err[0], equal_nan=True) for e in err)
        assert same or not alike, name
        if name == "mov":
            assert not alike
        checked += 1
    assert checked >= 15


@pytest.mark.skipif(__import__("platform").libc_ver()[0] != "glibc", reason="glibc malloc only")
def test_freed_chunk_buffers_are_reused_not_faulted_in_again():
    """After keep_freed_buffers(), worker threads allocating and freeing chunk-sized
    arrays (2-4 MiB, as sweep stage threads do) fault their pages in about once, not on
    every chunk. Untuned glibc faults ~1,700 pages per round here (measured: 225k faults
    for this loop), the page-fault churn a 2^32 sweep paid in kernel time."""
    import resource
    import threading

    from fpinspector.model.sweep.alloc import keep_freed_buffers

    assert keep_freed_buffers() is True and keep_freed_buffers() is True  # idempotent

    def work():
        for _ in range(64):
            a, b = np.ones(1 << 18), np.ones(1 << 19)
            del a
            c = np.ones(3 << 17)
            del b, c

    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(2):
        t = threading.Thread(target=work)
        t.start()
        t.join()
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    assert faults < 20000  # tuned: ~2,300 (first touch of each block only)


@pytest.mark.parametrize("chunk", [1 << 16, 5000])
def test_top_k_by_blocks_equals_sorted_over_block_edges_F32_PREC(chunk):
    """A chunk of several top-k blocks (summary.TOP_K_BLOCK): each block's k largest, then
    theirs, are the chunk's, ties by lowest index across the blocks' edges, with and
    without a kept floor from earlier chunks; NaN errors never enter."""
    from fpinspector.model.sweep.summary import TOP_K_BLOCK

    rng = np.random.default_rng(7)
    n = 3 * TOP_K_BLOCK + 123
    err = rng.choice([0.0, 0.5, -0.5, np.nan, 2.0], n)
    for edge in (TOP_K_BLOCK, 2 * TOP_K_BLOCK):  # big ties straddling the block edges
        err[edge - 20:edge + 20] = rng.choice([7.0, -7.0, np.inf, -np.inf], 40)
    assert _swept_worst(err, chunk, 50) == _worst_oracle(err, 50)
