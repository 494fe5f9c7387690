"""Streaming sweep runner, summaries and metrics, with numpy stages as oracles.

The stages here are plain numpy float16 arithmetic checked against exact float64
results (every f16 sum and product is exact in float64): F16-PREC says they are
correctly rounded, so the sweep must report 0.5 ULP at most and everything conformant.
"""

import threading
import time

import numpy as np
import pytest

from fpinspector.model.formats import F16, F32
from fpinspector.model.sweep import (
    Axis,
    GridDomain,
    UnaryDomain,
    hist_labels,
    histogram_counts,
    run_sweep,
    ulp_distance,
)


def f16_stage(op):
    """model = numpy float16 arithmetic; exact = float64 (exact for f16 add/mul)."""
    fn = {"add": np.add, "mul": np.multiply}[op]

    def stage(ops):
        a, b = (o.view(np.float16) for o in ops)
        with np.errstate(all="ignore"):
            model = fn(a, b).view(np.uint16)
            exact = fn(a.astype(np.float64), b.astype(np.float64))
            mv = model.view(np.float16).astype(np.float64)
            err = (mv - exact) / F16.ulp(model)
        err = np.where(np.isnan(mv) & np.isnan(exact), 0.0, err)
        err = np.where(np.isinf(exact) & (mv == exact), 0.0, err)
        return {"model": model, "exact": exact, "err_model": err,
                "ok_model": ~(np.abs(err) > 0.5),
                "fired": {"F16-DENORM": F16.is_denormal(model)}}

    return stage


def small_grid():
    return GridDomain(Axis.bit_range("f16", 0x0000, 0x00FF), Axis.linear("f16", -70000, 70000, 97))


@pytest.mark.parametrize("chunk", [1000, 4097, 1 << 20])
def test_chunk_boundaries_lose_or_repeat_nothing_F16_PREC(chunk):
    """Every element is computed once whatever the chunk size; results equal one pass."""
    g = small_grid()
    stage = f16_stage("add")
    ref = stage(g.operands(0, g.size))
    calls = []

    def spy(ops):
        calls.append(ops)
        return stage(ops)

    res = run_sweep(g, spy, result_format="f16", chunk_size=chunk)
    assert res.complete and res.n_done == g.size
    # the chunks' operands, in order, are exactly the domain's operands: nothing lost/repeated
    a, b = g.operands(0, g.size)
    assert np.array_equal(np.concatenate([c[0] for c in calls]), a)
    assert np.array_equal(np.concatenate([c[1] for c in calls]), b)
    assert np.array_equal(res.columns["model"], ref["model"])
    assert np.array_equal(res.fired["F16-DENORM"], ref["fired"]["F16-DENORM"])
    # F16-PREC: numpy's half add is correctly rounded
    assert res.summary.nonconformant_count() == 0
    assert res.summary.max_error("err_model") <= 0.5


def test_summary_only_mode_keeps_no_columns_but_same_summary():
    g = small_grid()
    full = run_sweep(g, f16_stage("mul"), result_format="f16", chunk_size=5000)
    lean = run_sweep(g, f16_stage("mul"), result_format="f16", chunk_size=777,
                     keep_elements=False, prefetch=False)
    assert not lean.columns and not lean.fired
    assert full.summary.to_dict() == lean.summary.to_dict()


def test_histogram_matches_python_binning():
    rng = np.random.default_rng(1)
    err = np.concatenate([rng.standard_normal(5000) * 10.0 ** rng.integers(-3, 12, 5000),
                          [0.0, -0.0, 0.5, 1.0, 2.0, np.inf, -np.inf, np.nan, 3e9]])
    labels = hist_labels()

    def python_bin(e):
        e = abs(e)
        if e != e:
            return len(labels) - 1
        if e == 0:
            return 0
        if e == float("inf"):
            return len(labels) - 2
        edges = [0.5, 1.0] + [2.0**k for k in range(1, 32)]
        for i, hi in enumerate(edges):
            if e <= hi:
                return i + 1
        return len(labels) - 3

    oracle = np.bincount([python_bin(float(e)) for e in err], minlength=len(labels))
    assert np.array_equal(histogram_counts(err), oracle)


def test_worst_inputs_and_first_nonconformant_match_sorting_oracle():
    dom = UnaryDomain(Axis.bit_range("f32", 0x3F800000, 0x3F800000 + 9999))
    rng = np.random.default_rng(7)
    errs = np.round(rng.standard_normal(dom.size) * 3, 1)
    errs[[17, 4000, 9999]] = [np.nan, np.inf, -50.0]

    def stage(ops):
        k = (ops[0].astype(np.int64) - 0x3F800000)
        e = errs[k]
        return {"model": ops[0], "err_model": e, "ok_model": ~(np.abs(e) > 2.0)}

    res = run_sweep(dom, stage, result_format="f32", chunk_size=1234, top_k=5, first_n=7)
    w = res.summary.worst["err_model"]
    key = np.where(np.isnan(errs), -1, np.abs(errs))
    order = sorted(range(dom.size), key=lambda i: (-key[i], i))[:5]
    assert w["index"].tolist() == order
    assert w["op0"].tolist() == [0x3F800000 + i for i in order]
    bad = [i for i in range(dom.size) if abs(errs[i]) > 2.0][:7]
    assert res.summary.nonconformant["index"].tolist() == bad
    assert res.summary.nonconformant_count() == int(np.sum(np.abs(errs) > 2.0))


def test_class_and_rule_counts_match_direct_counts_F16_DENORM():
    g = small_grid()
    res = run_sweep(g, f16_stage("mul"), result_format="f16", chunk_size=3000)
    d = res.summary.to_dict()
    a, b = g.operands(0, g.size)
    fa = a.view(np.float16)
    assert d["operand_classes"][0]["denormal"] == int(np.sum((fa != 0) & (np.abs(fa) < 2.0**-14)))
    assert d["operand_classes"][0]["zero"] == int(np.sum(fa == 0))
    mv = res.columns["model"].view(np.float16)
    assert d["fired"]["F16-DENORM"] == int(np.sum((mv != 0) & (np.abs(mv) < 2.0**-14)))
    assert d["result_classes"]["model"]["infinity"] == int(np.sum(np.isinf(mv)))


def test_cancel_stops_promptly_between_chunks():
    """Cancel (an Event) set after the first chunk: at most one more chunk is computed."""
    dom = UnaryDomain(Axis.every("f16"))
    ev = threading.Event()
    calls = []

    def slow(ops):
        calls.append(1)
        time.sleep(0.02)
        return {"model": ops[0]}

    t = time.perf_counter()
    res = run_sweep(dom, slow, result_format="f16", chunk_size=1024,
                    progress=lambda done, total: ev.set(), cancel=ev)
    assert time.perf_counter() - t < 0.5
    assert not res.complete and len(calls) <= 3 and res.n_done == 1024 * len(calls)
    # a callable works too
    res2 = run_sweep(dom, slow, result_format="f16", chunk_size=1024, cancel=lambda: True)
    assert not res2.complete and res2.n_done == 0


def test_progress_reports_monotonic_counts_to_total():
    dom = UnaryDomain(Axis.every("f16"))
    seen = []
    run_sweep(dom, lambda ops: {"model": ops[0]}, result_format="f16", chunk_size=10000,
              progress=lambda d, t: seen.append((d, t)))
    assert [d for d, _ in seen] == [10000 * i for i in range(1, 7)] + [65536]
    assert all(t == 65536 for _, t in seen)


def test_ulp_distance_counts_representable_f16_values_between():
    """Oracle: the sorted list of all non-NaN f16 values (+0/-0 merged), by index."""
    vals = np.arange(65536, dtype=np.uint16).view(np.float16).astype(np.float64)
    finite = np.unique(vals[~np.isnan(vals)])  # -0 and +0 collapse to one entry
    rng = np.random.default_rng(3)
    a = rng.integers(0, 65536, 20000).astype(np.uint16)
    b = rng.integers(0, 65536, 20000).astype(np.uint16)
    d = ulp_distance(a, b, "f16")
    va, vb = a.view(np.float16).astype(np.float64), b.view(np.float16).astype(np.float64)
    oracle = np.searchsorted(finite, va).astype(float) - np.searchsorted(finite, vb)
    nan_a, nan_b = np.isnan(va), np.isnan(vb)
    oracle[nan_a ^ nan_b] = np.nan
    oracle[nan_a & nan_b] = 0
    assert np.array_equal(d, oracle, equal_nan=True)


def test_ulp_distance_f32_adjacent_and_across_zero_F32_CMPZERO():
    one = np.array([0x3F800000], np.uint32)
    up = np.nextafter(np.float32(1), np.float32(2)).view(np.uint32)
    assert ulp_distance(np.array([up]), one, "f32")[0] == 1
    assert ulp_distance(np.array([0x80000000], np.uint32), np.array([0], np.uint32), F32)[0] == 0
    # -min denormal to +min denormal: two steps (through the single zero)
    assert ulp_distance(np.array([1], np.uint32), np.array([0x80000001], np.uint32), "f32")[0] == 2
    assert ulp_distance(np.array([True]), np.array([False]), "bool")[0] == 1


@pytest.mark.parametrize("fmt", ["f16", "f11", "f10"])
def test_class_counts_exhaustive_small_formats_DEC_rules(fmt):
    """DEC-ZERO/DEC-DENORM/DEC-NORMAL/DEC-INF/DEC-NAN counts over every pattern equal the
    counts from the decoded values (float64 isnan/isinf and magnitude tests)."""
    from fpinspector.model.formats import get_format
    from fpinspector.model.sweep.summary import class_counts

    f = get_format(fmt)
    pats = np.arange(1 << f.bits, dtype=f.dtype)
    v = f.decode(pats)
    fin = np.isfinite(v)
    oracle = [np.sum(v == 0), np.sum(fin & (v != 0) & (np.abs(v) < f.smallest_normal)),
              np.sum(fin & (np.abs(v) >= f.smallest_normal)), np.sum(np.isinf(v)),
              np.sum(np.isnan(v))]
    assert class_counts(f, pats).tolist() == [int(x) for x in oracle]


def test_ulp_distance_f64_matches_nextafter_steps_FMT_F64():
    """Oracle: counting np.nextafter steps in float64, including across zero."""
    starts = np.array([1.0, -1.0, 5e-324, -5e-324, 1.7976931348623157e308, 0.0])
    for x in starts:
        y = x
        for n in range(1, 6):
            with np.errstate(over="ignore"):
                y = np.nextafter(y, np.inf)
            d = ulp_distance(np.array([y]).view(np.uint64), np.array([x]).view(np.uint64), "f64")
            assert d[0] == n
            if np.isinf(y):  # max finite -> +INF is one step; INF has no successor
                break
    big = np.array([1e308, -1e308]).view(np.uint64)
    d = ulp_distance(big[:1], big[1:], "f64")[0]
    assert d == 2.0 * float(np.array([1e308]).view(np.int64)[0])
