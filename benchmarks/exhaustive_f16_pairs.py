"""Exhaustive check: every f16 x f16 pair (2^32) for add/mul/min/max against numpy float16.

Oracle: numpy float16(exact float64 result) (f16 sums and products are exact in float64,
numpy's double -> half cast rounds once to nearest even); min/max: numpy fmin/fmax
("one NaN -> the other"), with -0/+0 ties checked against F32-MINMAX-ZERO (either zero).
Too slow for CI (about 3 min per op for add/mul on one core, measured at ~19-21 / 18 M pairs/s
with --stride 128 and ~25 M pairs/s with --tune-alloc; min/max take the general path):
run by hand. --tune-alloc calls fpinspector.model.sweep.alloc.keep_freed_buffers() first (glibc keeps freed
memory instead of page-faulting each chunk's temporaries in again).

Usage: .venv/bin/python benchmarks/exhaustive_f16_pairs.py [--ops add,mul,min,max]
       [--stride S] [--tune-alloc] [--jobs J]
       (S > 1 checks every S-th A pattern against all B: a sample)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import print_header  # noqa: E402

from fpinspector.model import evaluate  # noqa: E402

ALL = np.arange(1 << 16, dtype=np.uint16)
F = ALL.view(np.float16)


def check_block(op: str, a0: int, rows: int) -> int:
    """Check A in [a0, a0 + rows) x every B; return the number of mismatches."""
    A = np.repeat(ALL[a0:a0 + rows], ALL.size)
    B = np.tile(ALL, rows)
    ev = evaluate(op, A, B, format="f16")
    fa, fb = A.view(np.float16), B.view(np.float16)
    with np.errstate(all="ignore"):
        if op in ("add", "mul"):
            x, y = fa.astype(np.float64), fb.astype(np.float64)
            want = (x + y if op == "add" else x * y).astype(np.float16)
        else:
            want = (np.fmin if op == "min" else np.fmax)(fa, fb)
    got = ev.bits
    nan_w = np.isnan(want)
    nan_g = np.isnan(got.view(np.float16))
    bad = nan_w != nan_g
    eq = got == want.view(np.uint16)
    if op in ("min", "max"):
        tie = (fa == 0) & (fb == 0) & (np.signbit(fa) != np.signbit(fb))
        eq |= tie & ev.allowed(want.view(np.uint16))
    bad |= ~nan_w & ~eq
    bad |= ~ev.allowed(np.where(nan_w, np.uint16(0x7E00), want.view(np.uint16)))
    return int(bad.sum())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", default="add,mul,min,max")
    ap.add_argument("--stride", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--tune-alloc", action="store_true",
                    help="glibc mallopt: keep freed memory (faster long runs)")
    args = ap.parse_args()
    print_header("exhaustive_f16_pairs: every f16 x f16 pair against numpy float16")
    if args.tune_alloc:
        from fpinspector.model.sweep.alloc import keep_freed_buffers

        keep_freed_buffers()
    rows = 64
    total_bad = 0
    for op in args.ops.split(","):
        t0 = time.perf_counter()
        starts = range(0, 1 << 16, rows * args.stride)
        work = [(op, a0, rows) for a0 in starts]
        if args.jobs > 1:
            from multiprocessing import Pool

            with Pool(args.jobs) as pool:
                bad = sum(pool.starmap(check_block, work, chunksize=4))
        else:
            bad = sum(check_block(*w) for w in work)
        n = len(starts) * rows * (1 << 16)
        dt = time.perf_counter() - t0
        print(f"{op}: {n} pairs, {bad} mismatches, {dt:.1f} s ({n / dt / 1e6:.1f} M pairs/s)")
        total_bad += bad
    return 1 if total_bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
