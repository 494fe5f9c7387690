"""Benchmark: exhaustive unary sweeps.

1. Every f16 pattern for sqrt, rcp, rsq, log, exp, frc: model + exact + verdicts (+ GPU
   where the driver has half-float arithmetic). Target: < 50 ms each.
2. f32 unary ops (default sqrt and rcp) with model + GPU + exact + summaries, summaries
   only (streaming). Default: 2^24 patterns strided over the whole f32 pattern space, with
   the 2^32 time extrapolated; ``--full`` runs all 2^32 patterns (target < 60 s, peak RSS
   < 512 MiB). Prints elements/s per stage and the ratio to a bare numpy pass.

Run: ``.venv/bin/python benchmarks/bench_sweep_unary.py [--full] [--ops sqrt,rcp]``
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

import numpy as np
from _timing import best_of

from fpinspector.model.sweep import Axis, ModelStage, UnaryDomain, run_sweep
from fpinspector.model.sweep.stages import result_format_of

NUMPY_REF = {"sqrt": np.sqrt, "rcp": np.reciprocal, "rsq": lambda x: 1 / np.sqrt(x),
             "log": np.log2, "exp": np.exp2, "frc": lambda x: x - np.floor(x),
             "to_f16": lambda x: x.astype(np.float16), "to_f11": np.sqrt}


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def bench_f16(cap) -> None:
    print("== every f16 pattern (65,536), model + exact + verdicts ==")
    dom = UnaryDomain(Axis.every("f16"))
    for op in ("sqrt", "rcp", "rsq", "log", "exp", "frc"):
        gpu = cap if cap is not None and cap.supports(op, "f16") else None
        rf = result_format_of(op, "f16")
        best = float("inf")
        for _ in range(5):
            stage = ModelStage(op, "f16", "d3d11", gpu=gpu)
            t = time.perf_counter()
            res = run_sweep(dom, stage, result_format=rf, chunk_size=1 << 16, prefetch=False)
            best = min(best, time.perf_counter() - t)
        verdict = "PASS" if best < 0.05 else "FAIL"
        print(f"  {op:5s} {best * 1e3:6.1f} ms  ({65536 / best / 1e6:5.1f} M/s)  "
              f"gpu={'yes' if gpu else 'no (no half-float arithmetic)'}  "
              f"non-conformant={res.summary.nonconformant_count()}  target < 50 ms: {verdict}")


def bench_f32(op: str, log2n: int, cap, chunk: int, workers: int) -> None:
    n = 1 << log2n
    full = log2n == 32
    dom = UnaryDomain(Axis.every("f32") if full else Axis.bit_range("f32", 0, 0xFFFFFFFF, n))
    gpu = cap if cap is not None and cap.supports(op, "f32") else None
    stage = ModelStage(op, "f32", "d3d11", gpu=gpu)
    if gpu is not None:
        gpu.timings.clear()
    t0 = time.perf_counter()
    last = [t0]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] > 2 or done == total:
            last[0] = now
            print(f"\r  {op}: {done / total * 100:5.1f}%  {done / (now - t0) / 1e6:5.1f} M/s",
                  end="\n" if done == total else "", file=sys.stderr, flush=True)

    res = run_sweep(dom, stage, result_format="f32", chunk_size=chunk, keep_elements=False,
                    progress=progress, workers=max(workers, 1), prefetch=workers > 0)
    total = time.perf_counter() - t0
    fn = NUMPY_REF.get(op, np.sqrt)
    t = time.perf_counter()
    with np.errstate(all="ignore"):
        for k0 in range(0, n, chunk):
            fn(dom.operands(k0, min(n, k0 + chunk))[0].view(np.float32))
    bare = time.perf_counter() - t
    scale = (1 << 32) / n
    print(f"== {op} f32: {n} patterns ({'all' if full else 'strided sample'}), {workers} stage "
          f"thread(s), "
          f"model{' + GPU' if gpu else ''} + exact + summaries ==")
    print(f"  total {total:.2f} s = {n / total / 1e6:.2f} M/s; 2^32 extrapolated "
          f"{total * scale:.0f} s (target < 60 s: {'PASS' if total * scale < 60 else 'FAIL'})")
    report_stages(res.timings, n, total, bare, op, gpu, chunk)
    isolated_rates(dom, stage, chunk, gpu)
    print(f"  peak RSS {peak_rss_mib():.0f} MiB (target < 512 MiB)")
    s = res.summary
    print(f"  non-conformant: GPU {s.nonconformant_count()}; max |GPU vs exact| "
          f"{s.max_error('err_gpu'):g} ULP; max |model vs exact| {s.max_error('err_model'):g}")


def report_stages(tm: dict, n: int, total: float, bare: float, op: str, gpu, chunk: int) -> None:
    """Per-stage seconds and elements/s, so the slowest stage is visible.

    Stage threads overlap (the GPU thread captures chunk k while the CPU evaluates it, the
    next chunk is computed while the previous one is summarised), so the stage times can
    add up to more than the wall time.
    """
    rows = [("model (evaluate)", tm.get("stage.model", 0.0)),
            ("exact (float64 reference)", tm.get("stage.exact", 0.0)),
            ("model verdicts (ulp_error, allowed)", tm.get("stage.model_verdict", 0.0))]
    if gpu is not None:
        cap_s = gpu.timings.get("gpu", 0.0)
        rb = gpu.readback_seconds(chunk) * -(-n // chunk)
        rows += [("GPU dispatch (upload + run)", max(cap_s - rb, 0.0)),
                 ("GPU read-back", rb),
                 ("GPU wait (CPU blocked on GPU)", tm.get("stage.gpu_wait", 0.0)),
                 ("compare (GPU verdicts, distance)", tm.get("stage.compare", 0.0))]
    rows += [("domain (operand generation)", tm.get("domain", 0.0)),
             ("summary prepare (stage threads)", tm.get("summary_prepare", 0.0)),
             ("summary merge (in order)", tm.get("summary", 0.0))]
    for name, v in rows:
        rate = f"{n / v / 1e6:8.1f} M/s" if v > 0 else "       - M/s"
        print(f"  {name:38s} {v:7.2f} s  {rate}")
    print(f"  bare numpy {op} over the same patterns: {bare:.2f} s ({n / bare / 1e6:.0f} M/s); "
          f"sweep / bare = {total / bare:.1f}x")


def isolated_rates(dom, stage, chunk: int, gpu) -> None:
    """Non-engine stages timed alone on one real chunk (no thread contention): what each
    would cost at ~100 M elements/s (10 ms per million)."""
    from fpinspector.model.sweep import Summary
    from fpinspector.model.sweep.metrics import ulp_distance

    k0 = dom.size // 2 - chunk // 2  # straddles the sign change: negatives and positives
    ops = dom.operands(k0, k0 + chunk)
    out = stage(ops)
    summ = Summary("f32", "f32")
    summ.add(0, ops, out)  # warm: top-k and work buffers exist, as in a long sweep

    def best(fn, reps: int = 5) -> float:
        return best_of(fn, reps)

    rows = [("domain (operand generation)", best(lambda: dom.operands(k0, k0 + chunk))),
            ("summary add", best(lambda: summ.add(k0 + chunk, ops, out)))]
    if gpu is not None:
        g, m = out["gpu"], out["model"]
        rows += [("ulp_distance (whole chunk)", best(lambda: ulp_distance(g, m, "f32"))),
                 ("compare (GPU verdicts)", best(lambda: stage._gpu_verdicts(
                     _Ev(stage, ops), ops, m, g, out["err_model"], out["ok_model"]), 2)),
                 ("GPU capture (this chunk)", best(lambda: gpu(stage.op, *ops, format="f32"), 2))]
    print(f"  isolated, one chunk of {chunk} (ms per million elements / M elements/s):")
    for name, t in rows:
        print(f"    {name:34s} {t * 1e3 * (1 << 20) / chunk:7.2f} ms/M  {chunk / t / 1e6:8.1f} M/s")


class _Ev:
    """The chunk's evaluation, computed once (so compare is timed without the model)."""

    def __new__(cls, stage, ops):
        key = (stage.op, ops[0].ctypes.data)
        if key not in _EV_CACHE:
            _EV_CACHE.clear()
            _EV_CACHE[key] = stage._eval(ops)
        return _EV_CACHE[key]


_EV_CACHE: dict = {}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", default="sqrt,rcp")
    ap.add_argument("--log2n", type=int, default=24, help="f32 patterns = 2^N (32 = all)")
    ap.add_argument("--full", action="store_true", help="all 2^32 f32 patterns")
    ap.add_argument("--chunk", type=int, default=1 << 18)
    ap.add_argument("--workers", type=int, default=2, help="stage threads (chunks in flight); 0: no prefetch, one thread")
    ap.add_argument("--no-gpu", action="store_true")
    ap.add_argument("--skip-f16", action="store_true")
    ap.add_argument("--gpu-process", action="store_true",
                    help="GL context in a child process (moderngl holds the GIL per capture)")
    ap.add_argument("--no-malloc-tuning", action="store_true",
                    help="leave glibc malloc at its defaults (page faults every chunk)")
    args = ap.parse_args()
    if not args.no_malloc_tuning:
        from fpinspector.model.sweep.alloc import keep_freed_buffers

        print(f"malloc keeps freed chunk buffers: {keep_freed_buffers()}")
    cap = None
    if not args.no_gpu:
        from fpinspector.gpu import GpuUnavailable
        from fpinspector.gpu.sweep_capture import GpuCapture, ProcessGpuCapture

        try:
            cap = ProcessGpuCapture() if args.gpu_process else GpuCapture()
            print(f"GPU: {cap.info['renderer']}")
        except GpuUnavailable as exc:
            print(f"GPU: none ({exc.message})")
    if not args.skip_f16:
        bench_f16(cap)
    for op in args.ops.split(","):
        bench_f32(op.strip(), 32 if args.full else args.log2n, cap, args.chunk, args.workers)
    if cap is not None:
        cap.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
