"""Benchmark: exhaustive f16 x f16 sweeps (2^32 pairs) for add and mul.

Model + exact + verdicts + summaries, streamed (GPU too where the driver has half-float
arithmetic; llvmpipe has none). Target: < 2 minutes for the whole 2^32. Default: the first
``--rows`` (256) A patterns x all 65,536 B patterns, extrapolated; ``--full`` runs it all.

Run: ``.venv/bin/python benchmarks/bench_sweep_f16_grid.py [--full] [--ops add,mul]``
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from fpinspector.model.sweep import Axis, GridDomain, ModelStage, run_sweep


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", default="add,mul")
    ap.add_argument("--rows", type=int, default=256, help="A patterns (65536 = all)")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--chunk", type=int, default=1 << 18)
    ap.add_argument("--workers", type=int, default=2, help="stage threads (chunks in flight)")
    ap.add_argument("--no-malloc-tuning", action="store_true",
                    help="leave glibc malloc at its defaults (page faults every chunk)")
    args = ap.parse_args()
    if not args.no_malloc_tuning:
        from fpinspector.model.sweep.alloc import keep_freed_buffers

        print(f"malloc keeps freed chunk buffers: {keep_freed_buffers()}")
    rows = 65536 if args.full else args.rows
    # strided A rows so the sample covers every class of A, all of B
    a_axis = Axis.every("f16") if rows == 65536 else Axis.bit_range("f16", 0, 0xFFFF, rows)
    dom = GridDomain(a_axis, Axis.every("f16"))
    for op in args.ops.split(","):
        stage = ModelStage(op, "f16", "d3d11")
        t0 = time.perf_counter()
        res = run_sweep(dom, stage, result_format="f16", chunk_size=args.chunk,
                        keep_elements=False, workers=args.workers)
        total = time.perf_counter() - t0
        n = dom.size
        t = time.perf_counter()
        fn = np.add if op == "add" else np.multiply
        for k0 in range(0, n, args.chunk):
            a, b = dom.operands(k0, min(n, k0 + args.chunk))
            with np.errstate(all="ignore"):
                fn(a.view(np.float16), b.view(np.float16))
        bare = time.perf_counter() - t
        est = total * (1 << 32) / n
        print(f"== f16 {op}: {rows} x 65536 = {n} pairs, model + exact + verdicts + summaries, "
              f"{args.workers} stage thread(s), chunk {args.chunk} ==")
        print(f"  total {total:.2f} s = {n / total / 1e6:.2f} M/s; 2^32 "
              f"{'measured' if rows == 65536 else 'extrapolated'} {est:.0f} s "
              f"(target < 120 s: {'PASS' if est < 120 else 'FAIL'})")
        for k, v in res.timings.items():
            if k not in ("total", "stage") and v > 1e-3:
                print(f"  {k:22s} {v:7.2f} s  {n / v / 1e6:8.1f} M/s")
        print(f"  bare numpy f16 {op} (operand generation included): {bare:.2f} s; "
              f"sweep / bare = {total / bare:.1f}x")
        print(f"  peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB; "
              f"non-conformant {res.summary.nonconformant_count()}; max |model vs exact| "
              f"{res.summary.max_error('err_model'):g} ULP")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
