"""Exhaustive f16 x f16 sweeps (2^32 pairs) of add and mul: model + exact + verdicts +
summaries, streamed, the way ``fpinspector sweep mul -f f16 -d all --summary-only`` runs
them (worker processes, one per core; llvmpipe has no half-float arithmetic, so no GPU).

Run: ``.venv/bin/python benchmarks/bench_sweep_f16_grid.py [--full] [--ops add,mul] [--check]``.

Default: ``--rows`` (256) A patterns spread over all 65,536, each against every B pattern
(rows are in exhaustive order), the 2^32 time extrapolated; ``--full`` runs them all.
Prints the time (best of ``--repeat`` runs, each listed), the CPU time and peak memory
(PSS) of every process of the sweep in the best run, and the ratio to a bare numpy pass over
the same pairs (best of as many). Goal: 2^32 f16 mul in <= 60 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _sweep_tools import WorkerPool, default_workers, measured  # noqa: E402
from _timing import Goals, add_arguments, print_header  # noqa: E402

from fpinspector.model.sweep import Axis, GridDomain, ModelStage, run_sweep  # noqa: E402

GOAL_S = {"mul": 60.0}


def sweep(op: str, rows: int, chunk: int, workers: int, repeat: int, goals: Goals) -> None:
    a_axis = Axis.every("f16") if rows == 65536 else Axis.bit_range("f16", 0, 0xFFFF, rows)
    dom = GridDomain(a_axis, Axis.every("f16"))
    scale = (1 << 32) / dom.size
    pool = WorkerPool(workers) if workers > 1 and WorkerPool is not None else None
    runs = []
    try:
        extra = {"pool": pool, "processes": True} if pool is not None else {}
        if pool is not None:  # started outside the timing
            run_sweep(GridDomain(Axis.bit_range("f16", 0, 1), Axis.every("f16")),
                      ModelStage(op, "f16"), result_format="f16", chunk_size=chunk,
                      keep_elements=False, **extra)
        for _ in range(max(1, repeat)):  # (this host's neighbours move one run by 15%)
            runs.append(measured(lambda: run_sweep(
                dom, ModelStage(op, "f16", "d3d11"), result_format="f16", chunk_size=chunk,
                keep_elements=False, workers=workers, **extra)))
    finally:
        if pool is not None:
            pool.close()
    res, total, cpu, mem = min(runs, key=lambda r: r[1])
    n = dom.size
    bare = float("inf")
    fn = np.add if op == "add" else np.multiply
    for _ in range(max(1, repeat)):
        t = time.perf_counter()
        for k0 in range(0, n, chunk):
            a, b = dom.operands(k0, min(n, k0 + chunk))
            with np.errstate(all="ignore"):
                fn(a.view(np.float16), b.view(np.float16))
        bare = min(bare, time.perf_counter() - t)
    what = "all" if rows == 65536 else f"{rows} rows, x{scale:g}"
    print(f"f16 {op}: {rows} x 65536 = {n:,} pairs ({what}), {workers} worker(s), "
          f"chunk {chunk}, best of {len(runs)}")
    if len(runs) > 1:
        print("  runs (2^32): " + ", ".join(f"{r[1] * scale:.1f} s" for r in runs))
    print(f"  time {total:.2f} s = {n / total / 1e6:.1f} M/s; 2^32: {total * scale:.1f} s; "
          f"CPU of every process {cpu:.2f} s ({cpu / total:.2f} cores busy); "
          f"bare numpy {op}: {bare * scale:.1f} s for 2^32 (sweep / bare = {total / bare:.1f}x)")
    print(f"  peak memory (PSS) {mem.mib():.0f} MiB ({mem.peak_procs} processes); "
          f"non-conformant {res.summary.nonconformant_count()}; max |model vs exact| "
          f"{res.summary.max_error('err_model'):g} ULP")
    for k in ("domain", "stage", "stage.model", "stage.exact", "stage.model_verdict",
              "summary_prepare", "summary"):
        v = res.timings.get(k, 0.0)
        if v > 1e-3:
            print(f"    {k:22s} {v:7.2f} s  {n / v / 1e6:8.1f} M/s (summed over workers)")
    if op in GOAL_S:
        goals.check(f"2^32 f16 {op}" + ("" if rows == 65536 else " (extrapolated)"),
                    total * scale, GOAL_S[op], unit=" s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", default="add,mul")
    ap.add_argument("--rows", type=int, default=256, help="A patterns (65536 = all)")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--chunk", type=int, default=1 << 17, help="as the sweep command's")
    ap.add_argument("--workers", type=int, default=default_workers(),
                    help="worker processes (default: one per core); 1: stage thread")
    add_arguments(ap, repeat=1)
    args = ap.parse_args()
    print_header("bench_sweep_f16_grid: exhaustive f16 x f16 sweeps")
    from fpinspector.model.sweep.alloc import keep_freed_buffers

    keep_freed_buffers()  # as the sweep command does
    goals = Goals()
    for op in args.ops.split(","):
        sweep(op.strip(), 65536 if args.full else args.rows, args.chunk, args.workers,
              args.repeat, goals)
    return goals.exit_code(args.check)


if __name__ == "__main__":
    raise SystemExit(main())
