"""Throughput of convert() and FloatFormat.decode/encode on 16M patterns vs numpy astype.

Run: ``.venv/bin/python benchmarks/bench_convert.py [--n 24] [--repeat 3]``.
Prints elements/s for each path and its ratio to ``np.astype`` on the same array
(target: ratio >= 0.25). The fired-rule masks are lazy; ``+fired`` rows include them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
from _timing import best_of  # noqa: E402

from fpinspector.model import F16, F32, convert  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=24, help="log2 of the element count")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    n = 1 << args.n
    rng = np.random.default_rng(0)
    arrays = {
        "finite values (normal * 100)": (rng.standard_normal(n) * 100).astype(np.float32),
        "random bit patterns (NaN-rich)": rng.integers(0, 2**32, size=n, dtype=np.uint64)
        .astype(np.uint32).view(np.float32),
    }
    for label, f in arrays.items():
        run(label, f, args.repeat)


def run(label: str, f: np.ndarray, repeat: int) -> None:
    n = f.size
    u = f.view(np.uint32)
    with np.errstate(all="ignore"):
        h = f.astype(np.float16).view(np.uint16)
        x64 = f.astype(np.float64)
        t_f16 = best_of(lambda: f.astype(np.float16), repeat)
        t_h32 = best_of(lambda: h.view(np.float16).astype(np.float32), repeat)
        t_f64 = best_of(lambda: f.astype(np.float64), repeat)
        t_d32 = best_of(lambda: x64.astype(np.float32), repeat)
        t_d16 = best_of(lambda: x64.astype(np.float16), repeat)
        rows = [
            ("convert f32->f16 d3d", lambda: convert(u, "f32", "f16"), t_f16),
            ("convert f32->f16 ieee", lambda: convert(u, "f32", "f16", "ieee"), t_f16),
            ("convert f32->f11 d3d", lambda: convert(u, "f32", "f11"), t_f16),
            ("convert f32->f10 d3d", lambda: convert(u, "f32", "f10"), t_f16),
            ("convert f32->f16 d3d +fired", lambda: convert(u, "f32", "f16").fired, t_f16),
            ("convert f16->f32", lambda: convert(h, "f16", "f32"), t_h32),
            ("F32.decode", lambda: F32.decode(u), t_f64),
            ("F16.decode", lambda: F16.decode(h), t_h32),
            ("F32.encode (float64 in)", lambda: F32.encode(x64), t_d32),
            ("F16.encode (float64 in)", lambda: F16.encode(x64), t_d16),
        ]
        print(f"\n{label}: {n:,} elements, best of {repeat}")
        print(f"{'path':32s} {'elements/s':>12s} {'astype el/s':>12s} {'ratio':>6s}")
        for name, fn, t_ref in rows:
            t = best_of(fn, repeat)
            print(f"{name:32s} {n / t:12.3e} {n / t_ref:12.3e} {t_ref / t:6.2f}")


if __name__ == "__main__":
    main()
