"""A sweep chunk's fixed cost and its calls: what a worker pays per chunk whatever its size.

Run: ``.venv/bin/python benchmarks/profile_sweep_chunk.py [--sweep mul16|sqrt] [--top N]``.

Issue 41 compares the worker loop's CPU seconds with the C peer's; part of the loop's cost
is fixed per chunk (Python calls and small numpy calls of the stage and the summary's
part), the rest grows with the chunk. Two figures, both with malloc tuned as the sweep
command's workers are (``alloc.keep_freed_buffers``: otherwise a chunk's temporaries are
faulted in again and every change that allocates less looks faster than it is):

* **fixed cost**: the stage and the summary's part of one chunk (the worker loop's
  steps, ``ModelStage`` then ``Summary.prepare``) timed best of N at sizes 2^12..2^17; a
  least-squares line through them gives the cost per chunk (intercept) and per input
  (slope). Timings: compare them only within one run (the machine is shared).
* **calls per chunk**: cProfile's function calls over a worker loop of spans (as
  ``bench_sweep_per_core.py`` runs it: later ranges, against a summary that already
  holds the earlier ones, so the top-k passes are those past a sweep's first spans),
  divided by the chunks. Independent of the load: the figure to compare before and after
  a change that cuts calls. The top functions by own time come with it.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import load_average, print_header  # noqa: E402
from bench_sweep_per_core import CHUNK, model_setup, ranges  # noqa: E402

from fpinspector.model.sweep.alloc import keep_freed_buffers  # noqa: E402
from fpinspector.model.sweep.chunk import MODEL_SPAN, compute_chunk  # noqa: E402
from fpinspector.model.sweep.summary import Summary  # noqa: E402

SIZES = (1 << 12, 1 << 14, 1 << 15, 1 << 16, 1 << 17)


def fixed_cost(kind: str, repeat: int) -> tuple[float, float, dict[int, float]]:
    """(seconds per chunk, seconds per input, best seconds per size) of one chunk's stage
    and summary part, fitted over :data:`SIZES`."""
    fmt = "f32" if kind == "sqrt" else "f16"
    lo, hi = ranges(kind, 16)[5]
    domain, stage, _ = model_setup(kind, lo, hi)
    summary = Summary(fmt, fmt)
    best: dict[int, float] = {}
    for n in SIZES:
        ops = domain.operands(0, n)
        t = float("inf")
        for _ in range(max(repeat, repeat * (1 << 17) // n // 4)):
            t0 = time.perf_counter()
            summary.prepare(0, ops, stage(ops))
            t = min(t, time.perf_counter() - t0)
        best[n] = t
    slope, intercept = np.polyfit(list(best), list(best.values()), 1)
    return float(intercept), float(slope), best


def calls_per_chunk(kind: str) -> tuple[float, pstats.Stats]:
    """cProfile's calls per chunk of the worker loop on the second half of 16 ranges
    (after the first half: a summary with its top k kept), and the stats."""
    fmt = "f32" if kind == "sqrt" else "f16"
    summary = Summary(fmt, fmt)
    chunks = 0

    def loop(rngs: list[tuple[int, int]]) -> None:
        nonlocal chunks
        for lo, hi in rngs:
            domain, stage, base = model_setup(kind, lo, hi)
            for k0 in range(0, domain.size, MODEL_SPAN):
                k1 = min(domain.size, k0 + MODEL_SPAN)
                snap = summary.snapshot()
                _, _, parts, _, _ = compute_chunk(
                    domain, stage, k0, k1,
                    lambda k, ops, out, sn=snap, b=base: summary.prepare(b + k, ops, out,
                                                                         snapshot=sn),
                    None, step=CHUNK)
                summary.add(base + k0, (), {}, prepared=summary.fold_parts(parts))
                chunks += -(-(k1 - k0) // CHUNK)

    rngs = ranges(kind, 16)
    loop(rngs[:8])
    chunks = 0
    prof = cProfile.Profile()
    prof.enable()
    loop(rngs[8:])
    prof.disable()
    stats = pstats.Stats(prof)
    return stats.total_calls / chunks, stats  # type: ignore[attr-defined]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sweep", choices=("mul16", "sqrt"), default="mul16")
    ap.add_argument("--repeat", type=int, default=30, help="timings per size (best of)")
    ap.add_argument("--top", type=int, default=15, help="functions listed by own time")
    args = ap.parse_args()
    print_header(f"sweep chunk: fixed cost and calls per chunk ({args.sweep})")
    np.seterr(all="ignore")
    print(f"malloc tuned as the sweep command's workers: {keep_freed_buffers()}")
    intercept, slope, best = fixed_cost(args.sweep, args.repeat)
    for n, t in best.items():
        print(f"  chunk of {n:>6}: {t * 1e6:7.0f} us  {t / n * 1e9:6.1f} ns/input")
    print(f"fit: {intercept * 1e6:.0f} us per chunk + {slope * 1e9:.1f} ns per input "
          f"(the command's chunk of {CHUNK}: fixed {intercept / CHUNK * 1e9:.1f} ns/input)")
    per_chunk, stats = calls_per_chunk(args.sweep)
    print(f"\ncalls per chunk of {CHUNK} (cProfile, load-independent): {per_chunk:.0f}")
    stats.sort_stats("tottime").print_stats(args.top)
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
