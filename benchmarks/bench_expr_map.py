"""Benchmark: a 1024 x 1024 error map of a 5-step expression, end to end (target <= 2 s).

``saturate(a * b + c) * rsqrt(a) - b`` (mul, add_sat, rsq, mul, add) over A x B with c
fixed: every step on the model (rule engine), every step on the GPU (precise, compute
path; llvmpipe here), each GPU step judged on its own inputs, the exact value of the whole
expression (double-double with the exact fallback, 2^-20 ULP bound), ULP errors, summary
and the map image, offscreen. Prints the best of N and the per-stage times.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_expr_map.py [--check]``
(the machine, date and load average printed; ``--check`` exits 1 when the goal is missed).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import Goals, add_arguments, print_header  # noqa: E402

from fpinspector.gpu.expr_capture import ExprGpu  # noqa: E402
from fpinspector.model.expr.sweep import ExprStage, expr_sweep_setup  # noqa: E402
from fpinspector.model.sweep import GridDomain, parse_axis, run_sweep  # noqa: E402

TEXT = "saturate(a * b + c) * rsqrt(a) - b"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--expr", default=TEXT)
    ap.add_argument("--a", default="log:1e-3:1e3:1024", help="A axis spec")
    ap.add_argument("--b", default="lin:-2:2:1024", help="B axis spec")
    ap.add_argument("--set", default="c=0.25", help="the fixed variable(s): NAME=VALUE[,...]")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-gpu", action="store_true")
    add_arguments(ap, repeat=3)
    args = ap.parse_args()
    print_header("bench_expr_map: a 1024 x 1024 expression error map, end to end")
    goals = Goals()
    from fpinspector.model.sweep.alloc import keep_freed_buffers

    keep_freed_buffers()
    from PySide6.QtWidgets import QApplication

    from fpinspector.ui.expression.expr_map import ExprErrorMap

    app = QApplication.instance() or QApplication([])
    fixed = dict(kv.split("=", 1) for kv in args.set.split(",") if kv)
    program, axes, slots = expr_sweep_setup(args.expr, ["a", "b"], fixed)
    domain = GridDomain(parse_axis(args.a, "f32"), parse_axis(args.b, "f32"))
    gpu = None if args.no_gpu else ExprGpu()
    view = ExprErrorMap()
    view.resize(1000, 800)
    view.show()
    app.processEvents()
    print(f"{args.expr}: {len(program.steps)} steps ({'; '.join(program.listing())})")
    print(f"domain {domain.describe()} = {domain.size} points; GPU: "
          f"{gpu.info['renderer'] if gpu else 'off'}")
    best, best_res, best_stage = None, None, None
    for _ in range(args.repeat):
        stage = ExprStage(program, axes, slots, gpu=gpu)
        t0 = time.perf_counter()
        res = run_sweep(domain, stage, result_format=stage.result_format, chunk_size=1 << 18,
                        meta={"op": "expr", "expression": args.expr, "variables": ["a", "b"],
                              "rules": "d3d11"}, workers=args.workers)
        view.set_result(res, "gpu_vs_model" if gpu else "model_vs_exact")
        app.processEvents()
        dt = time.perf_counter() - t0
        if best is None or dt < best:
            best, best_res, best_stage = dt, res, stage
    if gpu is not None:
        gpu.close()
    t = best_res.timings
    print(f"end to end (best of {args.repeat}): {best:.3f} s  "
          f"({domain.size / best / 1e6:.2f} M points/s)")
    goals.check("expression map end to end", best, 2.0, unit=" s")
    print("stage seconds summed over chunk threads: "
          + ", ".join(f"{k} {v:.3f}" for k, v in best_stage.timings.items()))
    print(f"runner: stage {t['stage']:.3f} s (over {args.workers} threads), summary "
          f"{t.get('summary', 0) + t.get('summary_prepare', 0):.3f} s")
    if "first_bad" in best_res.columns:
        bad = int((best_res.columns["first_bad"] >= 0).sum())
        print(f"GPU cells leaving the allowed set: {bad}")
    return goals.exit_code(args.check)


if __name__ == "__main__":
    raise SystemExit(main())
