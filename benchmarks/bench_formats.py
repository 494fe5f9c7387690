"""Throughput of FloatFormat decode / encode / classify against numpy's own casts, plus the
paste parser.

Run: ``.venv/bin/python benchmarks/bench_formats.py [--n 24] [--repeat 5] [--check]``.

Every figure is CPU time (``time.process_time``, best of N: the machine is shared) of one
call on 2^n elements, next to its numpy baseline in the same run: ``astype`` between the
same widths (numpy has no f11/f10, so their yardstick is the f64 -> f16 cast). Two inputs
for the encoders: "normal" (standard normal x 100: every value in f16's range, where
numpy's casts are fastest) and "patterns" (the finite values of random f32 patterns: huge
and tiny values, where numpy's double -> half cast raises FP flags and slows down ~20x).
Goal (on both inputs): ``FORMATS["f11"].encode`` >= 0.5 x numpy's f64 -> f16 ``astype``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import Goals, add_arguments, best_cpu, print_header  # noqa: E402

from fpinspector.model import F11, F16, F32, parse  # noqa: E402
from fpinspector.model.parse import MAX_VALUES  # noqa: E402

GOAL_F11 = 0.5


def _row(label: str, n: int, seconds: float, ref: float | None = None) -> float:
    """One line; returns the speed ratio to the baseline (baseline time / our time)."""
    rate = n / seconds / 1e6
    ratio = ref / seconds if ref else 1.0
    extra = f"   {ratio:5.2f}x numpy's speed" if ref else "   (baseline)"
    print(f"  {label:<42} {rate:9.1f} M/s  {seconds * 1e3:8.1f} ms{extra}")
    return ratio


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=24, help="log2 of the element count")
    add_arguments(ap, repeat=5)
    args = ap.parse_args()
    n, rep = 1 << args.n, args.repeat
    print_header(f"bench_formats: decode/encode vs numpy astype, {n:,} elements, "
                 f"CPU time, best of {rep}")
    goals = Goals()
    np.seterr(all="ignore")  # random patterns include signaling NaNs; casts warn about them
    rng = np.random.default_rng(0)
    p32 = rng.integers(0, 1 << 32, n, dtype=np.uint32)
    p16 = rng.integers(0, 1 << 16, n, dtype=np.uint16)
    p11 = rng.integers(0, 1 << 11, n, dtype=np.uint16)

    def t(fn) -> float:
        return best_cpu(fn, rep)

    print("decode (patterns -> float64)")
    ref = t(lambda: p32.view(np.float32).astype(np.float64))
    _row("numpy f32 -> f64 astype", n, ref)
    _row("F32.decode", n, t(lambda: F32.decode(p32)), ref)
    _row("F32.class_codes", n, t(lambda: F32.class_codes(p32)), ref)
    ref16 = t(lambda: p16.view(np.float16).astype(np.float64))
    _row("numpy f16 -> f64 astype", n, ref16)
    _row("F16.decode (table)", n, t(lambda: F16.decode(p16)), ref16)
    _row("F16.class_codes", n, t(lambda: F16.class_codes(p16)), ref16)
    _row("F11.decode (table)", n, t(lambda: F11.decode(p11)), ref16)

    inputs = {"normal": rng.standard_normal(n) * 100,
              "patterns": p32.view(np.float32).astype(np.float64)}
    inputs["patterns"] = inputs["patterns"][np.isfinite(inputs["patterns"])]
    for label, x in inputs.items():
        m = x.size
        print(f"encode (float64 -> patterns), {label} input ({m:,} values)")
        ref32 = t(lambda: x.astype(np.float32))
        _row("numpy f64 -> f32 astype (RNE)", m, ref32)
        _row("F32.encode rne", m, t(lambda: F32.encode(x)), ref32)
        _row("F32.encode rtz", m, t(lambda: F32.encode(x, rounding="rtz")), ref32)
        ref16 = t(lambda: x.astype(np.float16))
        _row("numpy f64 -> f16 astype (RNE)", m, ref16)
        _row("F16.encode rne", m, t(lambda: F16.encode(x)), ref16)
        ratio = _row("F11.encode rne", m, t(lambda: F11.encode(x)), ref16)
        _row("F11.encode rtz_sat (the D3D conversion)", m,
             t(lambda: F11.encode(x, "rtz_sat")), ref16)
        goals.check(f"F11.encode / f64->f16 astype speed ({label})", ratio, GOAL_F11, most=False)

    print("parse")
    # the largest paste the reader takes (MAX_VALUES), in two spellings
    half = MAX_VALUES // 2
    text = "1.5, " * half + "0x3f800000 " * (MAX_VALUES - half)
    t0 = time.process_time()
    parse(text)
    _row(f"parse: {len(text) / 1e6:.2f} MB paste, {MAX_VALUES:,} values", MAX_VALUES,
         time.process_time() - t0)
    big = "0" * (10 << 20)
    t0 = time.process_time()
    _refuse(big)
    print(f"  {'parse: 10 MB paste refused in':<42} {(time.process_time() - t0) * 1e3:9.3f} ms")
    return goals.exit_code(args.check)


def _refuse(text: str) -> None:
    try:
        parse(text)
    except ValueError:
        return
    raise AssertionError("a 10 MB paste must be refused")


if __name__ == "__main__":
    raise SystemExit(main())
