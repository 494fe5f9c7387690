"""What the Expression dock pays for running its expression in a GPU process.

Run: ``.venv/bin/python benchmarks/bench_expr_gpu_process.py [--repeat 40]``.

One dock evaluation is what :class:`~fpinspector.ui.expression.expr_gpu_bridge.ExprGpuBridge`
asks of its runner: ``unsupported_reason``, the precise run (every step) and the free run,
on scalar operands. Timed (wall clock, median of ``--repeat``) in this process (ExprGpu)
and through a GPU child process (ExprChild) on this process's driver, and through a child
on the other Mesa software driver (the case the child exists for); plus the time to open
each. Why it matters: the dock uses a child only where this process cannot open the
driver, because in-process is faster to open and to run.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from fpinspector.gpu.devices import SOFTWARE_DRIVERS, DeviceChoice, renderer_family
from fpinspector.gpu.expr_capture import ExprGpu
from fpinspector.gpu.expr_child import ExprChild
from fpinspector.model.expr import evaluate_expr

TEXT = "saturate(a * b + c)"


def _evaluation(gpu, program, slots) -> None:
    def job(runner):
        runner.unsupported_reason(program)
        runner.run(program, slots)
        runner.run(program, slots, variant="free")

    gpu.submit_job(job).result()


def _time(label: str, make, program, slots, repeat: int) -> None:
    t = time.perf_counter()
    gpu = make()
    opened = time.perf_counter() - t
    try:
        _evaluation(gpu, program, slots)  # (the shaders compiled)
        runs = []
        for _ in range(repeat):
            t = time.perf_counter()
            _evaluation(gpu, program, slots)
            runs.append(time.perf_counter() - t)
        print(f"{label:<44} {gpu.info['renderer'][:24]:<25} open {opened * 1e3:7.1f} ms   "
              f"evaluation {statistics.median(runs) * 1e3:6.2f} ms (median of {repeat})")
    finally:
        gpu.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=40)
    args = ap.parse_args()
    ev = evaluate_expr(TEXT, {"a": "1.5", "b": "0.75", "c": "-0.25"})
    slots = [np.asarray(s) for s in ev.slots]
    here = ExprGpu()
    family = renderer_family(here.info["renderer"])
    here.close()
    print(f"{TEXT}, scalar operands; this process's driver: {family}")
    _time("in this process (ExprGpu)", ExprGpu, ev.program, slots, args.repeat)
    driver = family if family in SOFTWARE_DRIVERS else None
    _time("GPU process, same driver (ExprChild)",
          lambda: ExprChild(choice=DeviceChoice(driver=driver)), ev.program, slots, args.repeat)
    if family in SOFTWARE_DRIVERS:
        other = next(d for d in SOFTWARE_DRIVERS if d != family)
        _time(f"GPU process, {other} (ExprChild)",
              lambda: ExprChild(choice=DeviceChoice(driver=other)), ev.program, slots,
              args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
