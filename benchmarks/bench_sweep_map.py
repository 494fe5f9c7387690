"""Benchmark: 1024 x 1024 f32 binary-op error map end to end (target: < 0.5 s).

model (rule engine) + GPU capture (llvmpipe here) + exact + ULP errors + verdicts +
summary + image update of the map widget, offscreen. Prints per-stage elements/s and the
ratio to a bare numpy pass over the same operands. ``--screenshot DIR`` also saves the
panel as DIR/error_map_<op>.png (the README screenshots).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_sweep_map.py [--check]``
(best of N wall times, the machine, date and load average printed; ``--check`` exits 1 when
the goal is missed).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import Goals, add_arguments, print_header  # noqa: E402

from fpinspector.gpu.sweep_capture import GpuCapture, make_stage  # noqa: E402
from fpinspector.model.sweep import parse_domain, run_sweep  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--op", default="mul")
    ap.add_argument("--a", default="log:1e-40:1e4:1024", help="A axis spec")
    ap.add_argument("--b", default="log:1e-4:1e4:1024", help="B axis spec")
    ap.add_argument("--screenshot", help="folder for error_map_<op>.png")
    add_arguments(ap, repeat=3)
    ap.add_argument("--no-malloc-tuning", action="store_true",
                    help="leave glibc malloc at its defaults (page faults every chunk)")
    args = ap.parse_args()
    print_header("bench_sweep_map: a 1024 x 1024 f32 error map, end to end")
    goals = Goals()
    if not args.no_malloc_tuning:
        from fpinspector.model.sweep.alloc import keep_freed_buffers

        keep_freed_buffers()

    from PySide6.QtWidgets import QApplication

    from fpinspector.ui.maps.sweep_panel import SweepPanel

    app = QApplication.instance() or QApplication([])
    cap = GpuCapture()
    from fpinspector.model.sweep.stages import op_arity

    arity = op_arity(args.op)
    domain = parse_domain(args.a if arity == 1 else f"{args.a} x {args.b}", "f32", arity)
    panel = SweepPanel()
    panel.resize(1400, 900)
    panel.show()
    app.processEvents()
    best = None
    for _ in range(args.repeat):
        cap.timings.clear()
        stage = make_stage(args.op, "f32", "d3d11", gpu=cap)
        t0 = time.perf_counter()
        res = run_sweep(domain, stage, result_format="f32", chunk_size=1 << 18,
                        meta={"op": args.op, "format": "f32", "rules": "d3d11",
                              "renderer": cap.info["renderer"]})
        t1 = time.perf_counter()
        panel.show_result(res)
        app.processEvents()
        t2 = time.perf_counter()
        if best is None or t2 - t0 < best[0]:
            best = (t2 - t0, t1 - t0, t2 - t1, dict(res.timings), dict(cap.timings))
    total, sweep_s, image_s, timings, gpu_t = best
    n = domain.size
    ops = [o.view(np.float32) for o in domain.operands(0, n)]
    t = time.perf_counter()
    with np.errstate(all="ignore"):
        np.multiply(ops[0], ops[-1])
    bare = time.perf_counter() - t
    shape = "x".join(map(str, domain.shape))
    print(f"{args.op} f32 {shape} on {cap.info['renderer']}")
    print(f"end to end (best of {args.repeat}): {total:.3f} s  (sweep {sweep_s:.3f} s + image "
          f"update {image_s:.3f} s)")
    goals.check("1024 x 1024 map end to end", total, 0.5, unit=" s")
    rate = lambda s: f"{n / s / 1e6:8.1f} M/s" if s > 0 else "      n/a"  # noqa: E731
    for k in ("stage.model", "stage.exact", "stage.model_verdict", "stage.gpu_wait",
              "stage.compare", "summary", "domain"):
        if k in timings:
            print(f"  {k:22s} {timings[k]:.3f} s {rate(timings[k])}")
    print(f"  {'gpu (dispatch+readback)':22s} {gpu_t.get('gpu', 0):.3f} s {rate(gpu_t.get('gpu', 0))}"
          "  (overlapped with the model)")
    print(f"  {'image update':22s} {image_s:.3f} s {rate(image_s)}")
    print(f"  bare numpy multiply    {bare:.4f} s; whole sweep / bare = {total / bare:.0f}x")
    s = res.summary
    print(f"non-conformant GPU results: {s.nonconformant_count()} of {n}; "
          f"max |GPU vs model| {s.max_error('err_gpu_model'):g} steps")
    import tempfile

    from fpinspector.model.sweep import write_csv_elements

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        write_csv_elements(os.path.join(tmp, "elements.csv"), res)
        csv_s = time.perf_counter() - t
        size = os.path.getsize(os.path.join(tmp, "elements.csv"))
    print(f"per-element CSV export: {csv_s:.2f} s for {n} rows ({size / 2**20:.0f} MiB, "
          f"{n / csv_s / 1e6:.2f} M rows/s)")
    if args.screenshot:
        os.makedirs(args.screenshot, exist_ok=True)
        path = os.path.join(args.screenshot, f"error_map_{args.op}.png")
        panel.domain_a.setText(args.a)
        panel.domain_b.setText(args.b)
        panel.op.setCurrentText(args.op)
        app.processEvents()
        panel.grab().save(path)
        print(f"saved {path}")
    panel.close()
    cap.close()
    return goals.exit_code(args.check)


if __name__ == "__main__":
    raise SystemExit(main())
