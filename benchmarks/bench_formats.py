"""Throughput of FloatFormat decode / encode / classify on 16M patterns, next to numpy's own
casts (``astype``) as the yardstick, plus the paste parser. Prints one line per figure.

Run: ``.venv/bin/python benchmarks/bench_formats.py [N]`` (N patterns, default 2^24).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from fpinspector.model import F11, F16, F32, parse


def _time(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _row(label: str, n: int, seconds: float, ref: float | None = None) -> None:
    rate = n / seconds / 1e6
    extra = f"   ({seconds / ref:5.1f}x numpy)" if ref else ""
    print(f"{label:<44} {rate:9.1f} M/s  {seconds * 1e3:8.1f} ms{extra}")


def main(n: int = 1 << 24) -> None:
    rng = np.random.default_rng(0)
    p32 = rng.integers(0, 1 << 32, n, dtype=np.uint32)
    p16 = rng.integers(0, 1 << 16, n, dtype=np.uint16)
    p11 = rng.integers(0, 1 << 11, n, dtype=np.uint16)
    x = p32.view(np.float32).astype(np.float64)
    x = x[np.isfinite(x)]
    print(f"fpinspector format throughput, {n} patterns (numpy {np.__version__})")

    ref = _time(lambda: p32.view(np.float32).astype(np.float64))
    _row("numpy f32 -> f64 astype", n, ref)
    _row("F32.decode", n, _time(lambda: F32.decode(p32)), ref)
    _row("F32.class_codes", n, _time(lambda: F32.class_codes(p32)), ref)

    ref16 = _time(lambda: p16.view(np.float16).astype(np.float64))
    _row("numpy f16 -> f64 astype", n, ref16)
    _row("F16.decode (table)", n, _time(lambda: F16.decode(p16)), ref16)
    _row("F16.class_codes", n, _time(lambda: F16.class_codes(p16)), ref16)
    _row("F11.decode (table)", n, _time(lambda: F11.decode(p11)), ref16)

    m = x.size
    ref_e32 = _time(lambda: x.astype(np.float32))
    _row("numpy f64 -> f32 astype (RNE)", m, ref_e32)
    _row("F32.encode rne", m, _time(lambda: F32.encode(x)), ref_e32)
    _row("F32.encode rtz (integer path)", m, _time(lambda: F32.encode(x, rounding="rtz")), ref_e32)
    with np.errstate(over="ignore"):
        ref_e16 = _time(lambda: x.astype(np.float16))
    _row("numpy f64 -> f16 astype (RNE)", m, ref_e16)
    _row("F16.encode rne", m, _time(lambda: F16.encode(x)), ref_e16)
    _row("F11.encode rne (integer path)", m, _time(lambda: F11.encode(x)), ref_e16)

    text = "1.5, " * 90_000 + "0x3f800000 " * 45_000
    t = _time(lambda: parse(text), repeat=1)
    _row(f"parse: {len(text) / 1e6:.2f} MB paste, 135k values", 135_000, t)
    big = "0" * (10 << 20)
    t = _time(lambda: _refuse(big), repeat=1)
    print(f"{'parse: 10 MB paste refused in':<44} {t * 1e3:9.3f} ms")


def _refuse(text: str) -> None:
    try:
        parse(text)
    except ValueError:
        return
    raise AssertionError("a 10 MB paste must be refused")


if __name__ == "__main__":
    np.seterr(all="ignore")  # random patterns include signaling NaNs; casts warn about them
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 24)
