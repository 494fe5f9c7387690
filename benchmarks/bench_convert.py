"""Throughput of convert() (D3D and other variants) against numpy's ``astype`` on 2^n values.

Run: ``.venv/bin/python benchmarks/bench_convert.py [--n 24] [--repeat 5] [--check]``.

CPU time (``time.process_time``), best of N, of each path and its speed as a fraction of
numpy's cast between the same widths in the same run (f11/f10 have no numpy type: their
yardstick is the f32 -> f16 cast). The fired-rule masks are lazy: ``+fired`` rows include
them. Two inputs: "normal" (standard normal x 100, in f16's range: numpy's fastest case)
and "patterns" (random 32-bit patterns: NaN, INF, huge and tiny values, where numpy's
float -> half cast is ~20x slower). Goals (both inputs): ``convert(x, "f32", "f16")`` with
``.fired`` >= 0.25 x astype, the bits alone >= 0.5 x astype.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import Goals, add_arguments, best_cpu, print_header  # noqa: E402

from fpinspector.model import F16, F32, convert  # noqa: E402

GOAL_FIRED = 0.25
GOAL_BITS = 0.5


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=24, help="log2 of the element count")
    add_arguments(ap, repeat=5)
    args = ap.parse_args()
    n = 1 << args.n
    print_header(f"bench_convert: convert() vs numpy astype, {n:,} elements, CPU time, "
                 f"best of {args.repeat}")
    goals = Goals()
    rng = np.random.default_rng(0)
    arrays = {
        "normal": (rng.standard_normal(n) * 100).astype(np.float32),
        "patterns": rng.integers(0, 2**32, size=n, dtype=np.uint64)
        .astype(np.uint32).view(np.float32),
    }
    for label, f in arrays.items():
        run(label, f, args.repeat, goals)
    return goals.exit_code(args.check)


def run(label: str, f: np.ndarray, repeat: int, goals: Goals) -> None:
    n = f.size
    u = f.view(np.uint32)

    def t(fn) -> float:
        return best_cpu(fn, repeat)

    with np.errstate(all="ignore"):
        h = f.astype(np.float16).view(np.uint16)
        x64 = f.astype(np.float64)
        t_f16 = t(lambda: f.astype(np.float16))
        t_h32 = t(lambda: h.view(np.float16).astype(np.float32))
        t_f64 = t(lambda: f.astype(np.float64))
        t_d32 = t(lambda: x64.astype(np.float32))
        t_d16 = t(lambda: x64.astype(np.float16))
        rows = [
            ("convert f32->f16 d3d", lambda: convert(u, "f32", "f16"), t_f16, "bits"),
            ("convert f32->f16 d3d +fired", lambda: convert(u, "f32", "f16").fired, t_f16,
             "fired"),
            ("convert f32->f16 ieee", lambda: convert(u, "f32", "f16", "ieee"), t_f16, None),
            ("convert f32->f11 d3d", lambda: convert(u, "f32", "f11"), t_f16, None),
            ("convert f32->f11 d3d +fired", lambda: convert(u, "f32", "f11").fired, t_f16,
             None),
            ("convert f32->f10 d3d", lambda: convert(u, "f32", "f10"), t_f16, None),
            ("convert f16->f32", lambda: convert(h, "f16", "f32"), t_h32, None),
            ("convert f64->f16 d3d", lambda: convert(x64.view(np.uint64), "f64", "f16"),
             t_d16, None),
            ("F32.decode", lambda: F32.decode(u), t_f64, None),
            ("F16.decode", lambda: F16.decode(h), t_h32, None),
            ("F32.encode (float64 in)", lambda: F32.encode(x64), t_d32, None),
            ("F16.encode (float64 in)", lambda: F16.encode(x64), t_d16, None),
        ]
        print(f"{label} input: {n:,} elements")
        print(f"  {'path':32s} {'ms':>8s} {'M el/s':>8s} {'numpy ms':>9s} {'speed vs numpy':>15s}")
        for name, fn, t_ref, goal in rows:
            secs = t(fn)
            ratio = t_ref / secs
            print(f"  {name:32s} {secs * 1e3:8.1f} {n / secs / 1e6:8.1f} {t_ref * 1e3:9.1f} "
                  f"{ratio:14.2f}x")
            if goal == "bits":
                goals.check(f"convert f32->f16 bits / astype ({label})", ratio, GOAL_BITS,
                            most=False)
            elif goal == "fired":
                goals.check(f"convert f32->f16 +fired / astype ({label})", ratio, GOAL_FIRED,
                            most=False)


if __name__ == "__main__":
    raise SystemExit(main())
