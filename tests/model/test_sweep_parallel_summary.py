"""Summary.prepare in stage threads + in-order Summary.add merge (runner) against the
one-thread sweep and against definitions: counts, histograms, worst inputs (ties to the
lowest index) and first non-conformant rows must not depend on threads or chunking."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fpinspector.model.sweep import Axis, Summary, UnaryDomain
from fpinspector.model.sweep.runner import run_sweep
from fpinspector.model.sweep.stages import ModelStage
from fpinspector.model.sweep.summary import ERROR_COLUMNS


class _FakeGpu:
    """Differs from the model: last-bit flips, NaNs, INFs, and most of one range."""

    def __call__(self, op, *ops, format="f32"):
        b = ops[0]
        with np.errstate(all="ignore"):
            x = b.view(np.float32)
            g = (np.sqrt(x) if op == "sqrt" else np.float32(1) / x).view(np.uint32).copy()
        g[b % 97 == 3] ^= np.uint32(1)
        g[b % 389 == 5] = np.uint32(0x7FC00001)
        g[b % 1009 == 7] = np.uint32(0x7F800000)
        g[(b >= 0x40100000) & (b < 0x40101000)] ^= np.uint32(2)
        return g


def _js(res, sort: bool = False) -> str:
    return json.dumps(res.summary.to_dict(), default=repr, sort_keys=sort)


@pytest.mark.parametrize("op", ["sqrt", "rcp"])
def test_threaded_summary_equals_single_thread_F32_SQRT_RCP(op):
    """F32-SQRT-RCP, F32-NANOUT, F32-FTZ: 1, 2 and 3 stage threads and different chunk
    sizes give the same summary as the one-thread sweep (many tied errors: sqrt's 0.5 ULP
    ties decide by index; top_k 3 and first_n 7 cross chunk borders)."""
    for start, stop in ((0x3F7FC000, 0x3F804000), (0x400FE000, 0x40102000),
                        (0x807FE000, 0x80802000)):
        dom = UnaryDomain(Axis.bit_range("f32", start, stop, stop - start + 1))
        ref = run_sweep(dom, ModelStage(op, "f32", "d3d11", gpu=_FakeGpu()), result_format="f32",
                        chunk_size=1 << 12, keep_elements=False, top_k=3, first_n=7,
                        prefetch=False)
        for workers, chunk in ((1, 1 << 12), (2, 1 << 12), (3, 3000), (2, 1 << 16)):
            res = run_sweep(dom, ModelStage(op, "f32", "d3d11", gpu=_FakeGpu()),
                            result_format="f32", chunk_size=chunk, keep_elements=False, top_k=3,
                            first_n=7, workers=workers)
            same = chunk == 1 << 12  # (rules are listed in the order chunks first fire them)
            assert _js(res, not same) == _js(ref, not same), (workers, chunk)
            assert res.timings["summary_prepare"] > 0


def test_prepare_then_add_equals_definition_top_k_and_first_rows_SWEEP_SUMMARY():
    """F32-PREC (errors in ULP): the kept worst inputs are the k largest |err| with ties to
    the lowest index and the first non-conformant rows are the first in order, computed
    here by sorted() over all elements, with every chunk prepared before any merge (the
    most stale snapshot a worker can see)."""
    rng = np.random.default_rng(5)
    n, chunk = 5000, 640
    err = rng.choice([0.0, 0.5, 1.0, 3.0, -3.0, np.nan, np.inf], n)
    ok = rng.random(n) > 0.01
    ops = (np.arange(n, dtype=np.uint32),)
    s = Summary("f32", "f32", top_k=6, first_n=9)
    preps = []
    for k0 in range(0, n, chunk):
        sl = slice(k0, k0 + chunk)
        out = {"err_model": err[sl], "ok_model": ok[sl]}
        preps.append((k0, (ops[0][sl],), out, s.prepare(k0, (ops[0][sl],), out)))
    for k0, o, out, p in preps:
        s.add(k0, o, out, prepared=p)
    finite = [i for i in range(n) if not np.isnan(err[i])]
    want = sorted(finite, key=lambda i: (-abs(err[i]), i))[:6]
    assert s.worst["err_model"]["index"].tolist() == want
    assert s.nonconformant["index"].tolist() == [i for i in range(n) if not ok[i]][:9]
    assert s.conformant["ok_model"] == int(ok.sum())


@pytest.mark.parametrize("op", ["sqrt", "rcp"])
def test_patched_gpu_summary_equals_full_passes_F32_SQRT_RCP(op):
    """F32-SQRT-RCP, F32-NANOUT: the summary's reuse of err_model / model classes for
    err_gpu / gpu (gpu_patched) equals full passes over the GPU columns, on chunks with
    flipped bits, NaNs, INFs, negatives, denormals and a mostly-different range."""
    stage = ModelStage(op, "f32", "d3d11", gpu=_FakeGpu())
    a, b = Summary("f32", "f32", top_k=4, first_n=5), Summary("f32", "f32", top_k=4, first_n=5)
    patched = 0
    for k0 in (0x00000000, 0x007FF800, 0x3F800000, 0x400FF800, 0x40100000, 0x7F7FFC00,
               0x807FFC00, 0xBF800000, 0xFF7FFC00, 0xFFFFFC00):
        ops = (np.arange(k0, k0 + 1024, dtype=np.uint32),)
        out = stage(ops)
        patched += bool(out.get("gpu_patched"))
        a.add(k0, ops, out)
        b.add(k0, ops, {k: v for k, v in out.items() if k != "gpu_patched"})
    assert 3 < patched < 10  # (0x40100000: the whole-chunk verdict path)
    assert json.dumps(a.to_dict(), default=repr) == json.dumps(b.to_dict(), default=repr)


def test_histogram_half_ulp_fast_path_against_python_binning_F32_PREC():
    """F32-PREC (errors binned in ULPs): arrays with every |err| <= 0.5 (the two-bin path)
    and arrays just beyond it bin exactly as Python's definition: 0 exactly, then
    (edge[i-1], edge[i]]."""
    import bisect
    import math

    from fpinspector.model.sweep import histogram_counts
    from fpinspector.model.sweep.summary import HIST_EDGES

    def py_bin(e: float) -> int:
        e = abs(e)
        if math.isnan(e):
            return len(HIST_EDGES)
        if e == 0:
            return 0
        if math.isinf(e):
            return len(HIST_EDGES) - 1
        return bisect.bisect_left(list(HIST_EDGES[:-1]), e)

    tiny = [0.0, -0.0, 5e-324, -5e-324, 2.0**-1022, 1e-300, 0.25, -0.5, 0.5,
            np.nextafter(0.5, 0), 0.3]
    for extra in ([], [np.nextafter(0.5, 1)], [-0.75], [np.inf], [np.nan], [1.0]):
        e = np.array(tiny * 7 + extra, dtype=np.float64)
        want = np.zeros(len(HIST_EDGES) + 1, np.int64)
        for v in e:
            want[py_bin(float(v))] += 1
        assert histogram_counts(e).tolist() == want.tolist(), extra


class _ModelGpu:
    """A GPU that returns the model's own patterns (gpu_diff empty in every chunk)."""

    def __call__(self, op, *ops, format="f32"):
        from fpinspector.model import evaluate

        return evaluate(op, *ops, format=format).bits


def _part_text(part) -> str:
    def plain(v):
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        if isinstance(v, np.ndarray):
            return [repr(x) for x in v.tolist()]
        return repr(v)

    return json.dumps(plain(part))


@pytest.mark.parametrize("start", [0x3F7FFC00, 0xBF800000, 0x00000000])
def test_chunk_where_the_gpu_agrees_everywhere_equals_full_passes_F32_SQRT_RCP(start):
    """F32-SQRT-RCP, F32-NANOUT: a chunk where the GPU returned the model's patterns takes
    err_model's histogram and rows for err_gpu and no pass for err_gpu_model (0 steps);
    its part equals the full passes over the GPU columns under every snapshot a worker can
    hold: no kept rows yet, a kept k-th key of 0 below and above the chunk's indices, one
    above 0, and err_gpu's kept rows other than err_model's. Chunks: sqrt's 0.5-ULP ties
    around 1.0, NaN results of negatives (errors 0 throughout), zeros and denormals."""
    from fpinspector.model.sweep.summary import SummarySnapshot

    stage = ModelStage("sqrt", "f32", "d3d11", gpu=_ModelGpu())
    ops = (np.arange(start, start + 1024, dtype=np.uint32),)
    out = stage(ops)
    assert out["gpu_patched"] and out["gpu_diff"].size == 0
    full = {k: v for k, v in out.items() if k not in ("gpu_patched", "gpu_diff")}
    k0 = 5000
    s = Summary("f32", "f32", top_k=4, first_n=5)
    worst = float(np.nanmax(np.abs(out["err_model"])))
    snapshots = [SummarySnapshot({}, 0)]
    for key in (0.0, 0.5, worst):
        for idx in (k0 - 1, k0 + 10):
            floor = (key, idx)
            snapshots += [SummarySnapshot({c: floor for c in ERROR_COLUMNS}, 0),
                          SummarySnapshot({"err_model": floor, "err_gpu": (key, idx + 1),
                                           "err_gpu_model": floor}, 2),
                          SummarySnapshot({"err_model": floor}, 0)]
    for snap in snapshots:
        fast = s.prepare(k0, ops, out, snapshot=snap)
        assert _part_text(fast) == _part_text(s.prepare(k0, ops, full, snapshot=snap)), snap


def test_folded_parts_of_consecutive_chunks_add_as_the_chunks_do_SWEEP_SUMMARY():
    """F32-PREC, F32-NANOUT: a worker's span sends one part folded from its chunks' parts;
    adding it equals adding each chunk's part in turn (top k crossing chunks with ties,
    first non-conformant rows crossing first_n, rules in the order they first fired, NaN
    and INF errors), after earlier chunks already filled the summary, with parts prepared
    against a stale snapshot."""
    rng = np.random.default_rng(9)
    n, chunk = 6000, 500
    grow = 1.0 + np.arange(n) // 2000  # later spans hold the worst errors, tied in steps
    cols = {c: np.round(rng.uniform(-4, 4, n) * 2) / 2 * grow for c in ERROR_COLUMNS}
    for v in cols.values():
        v[rng.random(n) < 0.01] = np.nan
    cols["err_gpu"][[5700, 5900]] = np.inf
    ok = rng.random(n) > 0.02
    rules = ["R-A", "R-B", "R-C"]
    fired = {r: rng.random(n) < p for r, p in zip(rules, (0.0, 0.3, 0.9))}
    fired["R-A"][2600:2610] = True  # R-A first fires in the third span (order of first firing)
    ops = np.arange(0x3F800000, 0x3F800000 + n, dtype=np.uint32)
    model = ops ^ np.uint32(1)

    def out_of(sl):
        out = {c: v[sl] for c, v in cols.items()}
        out.update(ok_gpu=ok[sl], ok_model=ok[sl], model=model[sl], gpu=ops[sl],
                   exact=ops[sl].astype(np.float64),
                   fired={r: m[sl] for r, m in fired.items() if m[sl].any()})  # (as the engine)
        return out

    one, folded = (Summary("f32", "f32", top_k=5, first_n=30) for _ in range(2))
    for s in (one, folded):  # the first chunks, merged one by one in both
        for k0 in range(0, 1000, chunk):
            sl = slice(k0, k0 + chunk)
            s.add(k0, (ops[sl],), out_of(sl))
    snap = one.snapshot()
    for span in range(1000, n, 4 * chunk):  # spans of 4 chunks (the last one of 2)
        parts = []
        for k0 in range(span, min(n, span + 4 * chunk), chunk):
            sl = slice(k0, k0 + chunk)
            p = one.prepare(k0, (ops[sl],), out_of(sl), snapshot=snap)
            parts.append(p)
            one.add(k0, (ops[sl],), out_of(sl), prepared=p)
        folded.add(span, (), {}, prepared=folded.fold_parts(parts))
    assert json.dumps(folded.to_dict(), default=repr) == json.dumps(one.to_dict(), default=repr)
    assert list(one.fired) == ["R-B", "R-C", "R-A"]
    assert len(one.nonconformant["index"]) == 30 and len(one.worst["err_gpu"]["index"]) == 5


def test_top_k_chunks_at_the_kept_floor_equal_definition_SWEEP_SUMMARY():
    """F32-PREC: a chunk whose largest |err| equals the kept k-th key (many 0.5 ULP ties, as
    in a sqrt sweep) adds no candidate when it comes after the kept rows (ties lose to
    older indices) and adds its tied rows when it comes before them (they win), as
    sorted() over all elements says; prepared against the freshest snapshot, where a
    chunk whose largest |err| cannot enter is skipped with one reduction."""
    rng = np.random.default_rng(11)
    n, chunk, k = 4000, 400, 6
    err = rng.choice([0.0, 0.25, 0.5, -0.5], n)
    err[rng.random(n) < 0.002] = np.nan
    ops = np.arange(n, dtype=np.uint32)

    def part(s, k0):
        sl = slice(k0, k0 + chunk)
        out = {"err_model": err[sl]}
        return (ops[sl],), out, s.prepare(k0, (ops[sl],), out, snapshot=s.snapshot())

    def top(idx):
        finite = [i for i in idx if not np.isnan(err[i])]
        return sorted(finite, key=lambda i: (-abs(err[i]), i))[:k]

    s = Summary("f32", "f32", top_k=k)
    skipped = 0
    for k0 in range(0, n, chunk):  # in order, each against the summary so far
        o, out, p = part(s, k0)
        skipped += p["errors"]["err_model"][1] is None
        s.add(k0, o, out, prepared=p)
    assert s.worst["err_model"]["index"].tolist() == top(range(n))
    assert skipped >= 5  # (the floor reached 0.5 in the first chunk: later ones tie at best)

    later = Summary("f32", "f32", top_k=k)  # the kept rows come after the chunk prepared
    for k0 in range(2000, n, chunk):
        later.add(k0, *part(later, k0))
    _, _, p = part(later, 0)
    cand, kept = p["errors"]["err_model"][1], later.worst["err_model"]
    assert cand is not None
    both = {f: np.concatenate([kept[f], cand[f]]) for f in kept}
    merged = both["index"][np.lexsort((both["index"], -both["key"]))][:k]
    assert merged.tolist() == top([*range(0, chunk), *range(2000, n)])


def test_snapshot_follows_every_add_and_packed_parts_merge_the_same_F32_PREC():
    """The parent's snapshot is remembered between adds that keep no new rows, and made
    again after each add that does: after every chunk it equals the definition (the k-th
    kept |error| and the largest kept index per column, the count of kept non-conformant
    rows), read off the kept rows here. A part packed for the pipe (pickled, unpacked)
    merges to the same summary as the part itself."""
    import pickle

    stage = ModelStage("sqrt", "f32", gpu=_FakeGpu())
    dom = UnaryDomain(Axis.bit_range("f32", 0x3FFF0000, 0x3FFF0000 + 24 * 2048 - 1))
    plain, packed = Summary("f32", "f32", top_k=5, first_n=7), Summary("f32", "f32", top_k=5,
                                                                       first_n=7)
    for k0 in range(0, dom.size, 2048):
        ops = dom.operands(k0, k0 + 2048)
        out = stage(ops)
        part = plain.prepare(k0, ops, out, snapshot=plain.snapshot())
        plain.add(k0, ops, out, prepared=part)
        wire = pickle.loads(pickle.dumps(Summary.packed(part)))
        packed.add(k0, ops, out, prepared=Summary.unpacked(wire))
        snap = plain.snapshot()
        want = {col: (float(w["key"][-1]), int(w["index"].max()))
                for col, w in plain.worst.items() if len(w["key"]) == 5}
        have = 0 if plain.nonconformant is None else len(plain.nonconformant["index"])
        assert (snap.floors, snap.have) == (want, have)
        assert snap is plain.snapshot()  # (nothing added since: the same one)
    assert json.dumps(packed.to_dict(), default=repr) == json.dumps(plain.to_dict(),
                                                                    default=repr)
