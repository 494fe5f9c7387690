"""A grid chunk with and without its layout: what the per-row steps save per chunk.

Run: ``.venv/bin/python benchmarks/bench_grid_layout.py [--repeat N] [--a 0x4A37]``.

A chunk of an A x B grid (the f16 x f16 mul sweep's: 2 A rows x all 2^16 B patterns)
reaches the stage and the summary with its layout (``GridOperands``, engine/
operand_rows.py): the f16 mul kernel then decodes B once a sweep and A once a row, and the
summary counts the operand classes per row. This script times the same chunk both ways in
one process, interleaved, best of N (wall and CPU figures only compare within one run:
the machine is shared), step by step and as the worker loop's stage + summary part, and
checks that both ways give the same columns and summary part.

The flat way is the same chunk given as a plain tuple (no layout), as a grid with rows
shorter than ``GridDomain.LAYOUT_MIN_ROW`` gives it.

``--loop N``: also the worker loop of ``bench_sweep_per_core.py`` (spans, summary parts
folded and merged) on its first N ranges of the f16 mul sweep, both ways interleaved in
this process (flat: ``GridDomain.LAYOUT_MIN_ROW`` set above any row), best of the rounds.

``--way flat|rows --loop N``: only that way's worker loop, once after a one-range warm-up,
nothing timed: for an instruction count that does not depend on the load, e.g.
``valgrind --tool=callgrind .venv/bin/python benchmarks/bench_grid_layout.py --way rows
--loop 2`` minus the same with ``--loop 0`` (the start-up and warm-up), per input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_interleaved, load_average, print_header  # noqa: E402
from bench_sweep_per_core import ranges, run_model  # noqa: E402

from fpinspector.model import evaluate  # noqa: E402
from fpinspector.model.formats import FORMATS  # noqa: E402
from fpinspector.model.sweep.alloc import keep_freed_buffers  # noqa: E402
from fpinspector.model.sweep.domain import Axis, GridDomain  # noqa: E402
from fpinspector.model.sweep.hist import class_counts, row_class_counts  # noqa: E402
from fpinspector.model.sweep.stages import ModelStage  # noqa: E402
from fpinspector.model.sweep.summary import Summary  # noqa: E402

CHUNK = 1 << 17


def _same(x: object, y: object) -> bool:
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(_same(x[k], y[k]) for k in x)
    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
        return len(x) == len(y) and all(_same(a, b) for a, b in zip(x, y))
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        a, b = np.asarray(x), np.asarray(y)
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    return x == y


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=60, help="rounds (best of)")
    ap.add_argument("--a", type=lambda s: int(s, 0), default=0x4A37,
                    help="first A pattern of the chunk (two rows: A, A+1)")
    ap.add_argument("--loop", type=int, default=0, metavar="N",
                    help="also the worker loop on N of the 16 ranges (rounds: --repeat // 10)")
    ap.add_argument("--way", choices=("flat", "rows"),
                    help="only this way's worker loop on --loop N ranges, untimed")
    args = ap.parse_args()
    if args.way:
        np.seterr(all="ignore")
        keep_freed_buffers()
        _one_way(args.way, args.loop)
        return 0
    print_header("grid chunk: the per-row steps against the flat ones (f16 mul)")
    np.seterr(all="ignore")
    print(f"malloc tuned as the sweep command's workers: {keep_freed_buffers()}")
    f16 = FORMATS["f16"]
    domain = GridDomain(Axis.bit_range("f16", args.a, args.a + 1), Axis.every("f16"))
    rows = domain.operands(0, CHUNK)
    layout = getattr(rows, "layout", None)
    assert layout is not None, "the chunk has no layout"
    flat = tuple(rows)
    stage = ModelStage("mul", "f16")
    summary = Summary("f16", "f16")
    out_r, out_f = stage(rows), stage(flat)
    same = _same(dict(out_r), dict(out_f)) and _same(summary.prepare(0, rows, out_r),
                                                     summary.prepare(0, flat, out_f))
    print(f"columns and summary part the same both ways: {same}")

    def kernel(ops: tuple) -> None:
        evaluate("mul", *ops, format="f16", layout=getattr(ops, "layout", None)).bits

    steps = {
        "operands (domain)": {"flat": None, "rows": lambda: domain.operands(0, CHUNK)},
        "model bits (f16 mul kernel)": {"flat": lambda: kernel(flat),
                                        "rows": lambda: kernel(rows)},
        "operand classes (summary)": {
            "flat": lambda: [class_counts(f16, o) for o in flat],
            "rows": lambda: row_class_counts(f16, layout)},
        "stage + summary part": {
            "flat": lambda: summary.prepare(0, flat, stage(flat)),
            "rows": lambda: summary.prepare(0, rows, stage(rows))},
    }
    print(f"\nA 0x{args.a:04X}..0x{args.a + 1:04X} x every B, {CHUNK} inputs, best of "
          f"{args.repeat} (CPU time, interleaved)")
    for name, fns in steps.items():
        live = {k: f for k, f in fns.items() if f is not None}
        best = best_interleaved(live, args.repeat)
        line = "  ".join(f"{k} {t * 1e6:7.0f} us ({t / CHUNK * 1e9:5.2f} ns/input)"
                         for k, t in best.items())
        gain = (f"  saves {(best['flat'] - best['rows']) * 1e6:.0f} us"
                if len(best) == 2 else "")
        print(f"  {name:<28} {line}{gain}")
    if args.loop:
        same = _loop(args.loop, max(2, args.repeat // 10)) and same
    print(f"load average after: {load_average()}")
    return 0 if same else 1


def _one_way(way: str, n: int) -> None:
    """The worker loop on the first ``n`` ranges one way, after a one-range warm-up."""
    if way == "flat":
        GridDomain.LAYOUT_MIN_ROW = 1 << 62
    rngs = ranges("mul16", 16)
    run_model("mul16", rngs[:1])
    run_model("mul16", rngs[:n])


def _loop(n: int, rounds: int) -> bool:
    """The worker loop on ``n`` ranges both ways, interleaved; True if the summaries agree."""
    rngs = ranges("mul16", 16)[:n]
    row = GridDomain.LAYOUT_MIN_ROW
    sums: dict[str, str] = {}

    def run(way: str) -> None:
        GridDomain.LAYOUT_MIN_ROW = row if way == "rows" else 1 << 62
        try:
            sums[way] = repr(run_model("mul16", rngs)[1].to_dict())
        finally:
            GridDomain.LAYOUT_MIN_ROW = row

    best = best_interleaved({"flat": lambda: run("flat"), "rows": lambda: run("rows")}, rounds)
    k = n << 20
    line = "  ".join(f"{w} {t:6.3f} CPU s ({t / k * 1e9:5.2f} ns/input)" for w, t in best.items())
    print(f"\nworker loop, {n} ranges of the f16 mul sweep ({k} inputs), best of {rounds} "
          f"interleaved:\n  {line}  rows/flat {best['rows'] / best['flat']:.3f}")
    print(f"summaries the same both ways: {sums['flat'] == sums['rows']}")
    return sums["flat"] == sums["rows"]


if __name__ == "__main__":
    sys.exit(main())
