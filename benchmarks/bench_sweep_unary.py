"""Exhaustive unary sweeps: every f16 pattern, and every f32 pattern (2^32) of sqrt/rcp.

Run: ``.venv/bin/python benchmarks/bench_sweep_unary.py [--full] [--ops sqrt] [--check]``.

1. Every f16 pattern for sqrt, rcp, rsq, log, exp, frc: model + exact + verdicts (+ GPU
   where the driver has half-float arithmetic), best of N. Goal: < 50 ms each.
2. f32 unary ops with model + GPU + exact + summaries (summaries only, streaming), the way
   ``fpinspector sweep OP -d all --gpu --summary-only`` runs them (worker processes, one
   per core, the GPU in its own process; chunks of 2^16 and GPU requests of 2^19 elements,
   chunks of 2^17 without a GPU). Default: a sample in exhaustive order (256 runs of
   2^19 consecutive patterns, one GPU request each, one in each 256th of the 2^32 at a
   place of its own: 1/32 of them) and the 2^32 time extrapolated; ``--full`` sweeps all
   2^32. The sample is a quick indication only: on the 2-core machine it ran 20-40%
   slower per element than the whole sweep (2026-11-27: 36-42 s extrapolated against
   28-31 s measured), so the goal is judged on ``--full``. Prints the time, the peak
   memory of the whole process tree (proportional set size: shared pages counted once),
   the stage times summed over the workers, and the ratio to a bare numpy pass over the
   same patterns.
   Goals (sqrt): 2^32 in <= 30 s and <= 256 MiB.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _sweep_tools import ChunkSample, WorkerPool, default_workers, measured  # noqa: E402
from _timing import Goals, add_arguments, best_of, print_header  # noqa: E402

from fpinspector.model.sweep import Axis, ModelStage, UnaryDomain, run_sweep  # noqa: E402
from fpinspector.model.sweep.chunk import GPU_SPAN, default_chunk  # noqa: E402
from fpinspector.model.sweep.stages import result_format_of  # noqa: E402

NUMPY_REF = {"sqrt": np.sqrt, "rcp": np.reciprocal, "rsq": lambda x: 1 / np.sqrt(x),
             "log": np.log2, "exp": np.exp2, "frc": lambda x: x - np.floor(x)}
GOAL_F16_S = 0.05
GOAL_F32_S = 30.0
GOAL_MIB = 256.0


def bench_f16(cap, repeat: int, goals: Goals) -> None:
    print("every f16 pattern (65,536), model + exact + verdicts, best of", repeat)
    dom = UnaryDomain(Axis.every("f16"))
    for op in ("sqrt", "rcp", "rsq", "log", "exp", "frc"):
        gpu = cap if cap is not None and cap.supports(op, "f16") else None
        rf = result_format_of(op, "f16")

        def run(op=op, gpu=gpu, rf=rf):
            return run_sweep(dom, ModelStage(op, "f16", "d3d11", gpu=gpu), result_format=rf,
                             chunk_size=1 << 16, prefetch=False)

        best = best_of(run, repeat)
        with np.errstate(all="ignore"):
            bare = best_of(lambda op=op: NUMPY_REF[op](dom.axis.patterns().view(np.float16)),
                           repeat)
        print(f"  {op:5s} {best * 1e3:6.1f} ms  ({65536 / best / 1e6:5.1f} M/s, "
              f"{best / bare:5.0f}x bare numpy)  gpu={'yes' if gpu else 'no'}")
        goals.check(f"every f16 {op}", best, GOAL_F16_S, unit=" s")


def bench_f32(op: str, full: bool, cap, chunk: int, workers: int, goals: Goals) -> None:
    # the sample: 256 runs of one GPU request's span each (1/32 of every pattern), so the
    # workers' spans cost what they cost in the full sweep
    dom = UnaryDomain(Axis.every("f32")) if full else ChunkSample("f32", 256,
                                                                    max(chunk, GPU_SPAN))
    scale = 1.0 if full else 1.0 / dom.fraction
    gpu = cap if cap is not None and cap.supports(op, "f32") else None
    stage = ModelStage(op, "f32", "d3d11", gpu=gpu)
    t0 = time.perf_counter()
    last = [t0]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] > 2 or done == total:
            last[0] = now
            print(f"\r  {op}: {done / total * 100:5.1f}%  {done / (now - t0) / 1e6:5.1f} M/s",
                  end="\n" if done == total else "", file=sys.stderr, flush=True)

    pool = WorkerPool(workers) if workers > 1 and WorkerPool is not None else None
    try:
        if pool is not None:  # started (and the first chunk run) outside the timing
            run_sweep(ChunkSample("f32", 2, chunk), stage, result_format="f32",
                      chunk_size=chunk, keep_elements=False, pool=pool, processes=True)
        extra = {"pool": pool, "processes": True} if pool is not None else {}
        res, total, cpu, mem = measured(lambda: run_sweep(
            dom, stage, result_format="f32", chunk_size=chunk, keep_elements=False,
            progress=progress, workers=workers, **extra))
    finally:
        if pool is not None:
            pool.close()
    n = dom.size
    fn = NUMPY_REF.get(op, np.sqrt)
    t = time.perf_counter()
    with np.errstate(all="ignore"):
        for k0 in range(0, n, chunk):
            fn(dom.operands(k0, min(n, k0 + chunk))[0].view(np.float32))
    bare = time.perf_counter() - t
    what = "all 2^32" if full else f"sample: {n:,} patterns in exhaustive order, x{scale:g}"
    print(f"{op} f32, {what}; model{' + GPU' if gpu else ''} + exact + summaries; "
          f"{workers} worker(s)")
    print(f"  time {total:.2f} s = {n / total / 1e6:.1f} M/s; 2^32: {total * scale:.1f} s; "
          f"bare numpy {op}: {bare * scale:.1f} s for 2^32 (sweep / bare = {total / bare:.1f}x)")
    print(f"  CPU time of every process of the sweep: {cpu:.2f} s; 2^32: {cpu * scale:.0f} s "
          f"({cpu / total:.2f} cores busy on average)")
    print(f"  peak memory of the process tree (PSS) {mem.mib():.0f} MiB "
          f"({mem.peak_procs} processes)")
    tm = res.timings
    rows = [("operand generation", "domain"), ("stage (all of it)", "stage")]
    rows += [(f"  {k[6:]}", k) for k in sorted(tm) if k.startswith("stage.")]
    rows += [("summary prepare", "summary_prepare"), ("summary merge (parent)", "summary")]
    print("  stage seconds, summed over workers (wall time in each):")
    for name, key in rows:
        v = tm.get(key, 0.0)
        print(f"    {name:26s} {v:7.2f} s  {n / v / 1e6 if v else 0:8.1f} M/s")
    s = res.summary
    print(f"  non-conformant: {s.nonconformant_count()}; max |GPU vs exact| "
          f"{s.max_error('err_gpu'):g} ULP; max |model vs exact| {s.max_error('err_model'):g}")
    if op == "sqrt":
        goals.check("2^32 f32 sqrt" + ("" if full else " (extrapolated)"), total * scale,
                    GOAL_F32_S, unit=" s")
        goals.check("peak memory of the sweep's processes", mem.mib(), GOAL_MIB, unit=" MiB")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", default="sqrt")
    ap.add_argument("--full", action="store_true", help="all 2^32 f32 patterns")
    ap.add_argument("--chunk", type=int, default=None,
                    help="as the sweep command's (default 2^16 with a GPU and workers, "
                         "else 2^17)")
    ap.add_argument("--workers", type=int, default=default_workers(),
                    help="worker processes (default: one per core); 1: stage thread")
    ap.add_argument("--no-gpu", action="store_true")
    ap.add_argument("--skip-f16", action="store_true")
    add_arguments(ap, repeat=5)
    args = ap.parse_args()
    print_header("bench_sweep_unary: exhaustive unary sweeps")
    goals = Goals()
    from fpinspector.model.sweep.alloc import keep_freed_buffers

    keep_freed_buffers()  # as the sweep command does
    cap = None
    if not args.no_gpu:
        from fpinspector.gpu import GpuUnavailable
        from fpinspector.gpu.sweep_capture import ProcessGpuCapture

        try:
            cap = ProcessGpuCapture()
            print(f"GPU: {cap.info['renderer']} (its own process)")
        except GpuUnavailable as exc:
            print(f"GPU: none ({exc.message})")
    try:
        if not args.skip_f16:
            bench_f16(cap, args.repeat, goals)
        chunk = args.chunk or default_chunk(cap is not None and args.workers > 1)
        for op in args.ops.split(","):
            bench_f32(op.strip(), args.full, cap, chunk, args.workers, goals)
    finally:
        if cap is not None:
            cap.close()
    return goals.exit_code(args.check)


if __name__ == "__main__":
    raise SystemExit(main())
