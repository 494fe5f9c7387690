"""Exhaustive check of the f16 mul sweep's two shortcuts against the longer way, bit for bit.

1. ``--check rest``: the f16 mul kernel completes its INF and NaN operands itself
   (``engine.fastbits.COMPLETES_REST``). Every pair with an INF or NaN operand (2048 x
   65536, both orders: 268M pairs) against ``paths="reference"``: bits, the exact value
   and its residual (float64 bits, NaN payloads and signs included), the model's ULP
   errors, fired rules and the verdict on the model's bits.
2. ``--check ulp32``: the model's ULP errors in float32 from the kernel's float32 product
   (``engine.ulp._errors32``) against the float64 passes, on every f16 x f16 pair (2^32),
   NaN errors included.

Too slow for CI (2026-11-28, 2 busy cores: rest 43 s, ulp32 238 s): run by hand after a
change to ``fastbits._f16_mul``, ``grid.round_f16_f32`` or ``ulp._errors32``. The tests
check slices of both (tests/model/test_engine_f16.py).

Usage: .venv/bin/python benchmarks/exhaustive_f16_mul_paths.py [--check rest|ulp32|all]
       [--stride S]  (S > 1: every S-th block of A patterns, a sample)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import print_header  # noqa: E402

from fpinspector.model import evaluate  # noqa: E402
from fpinspector.model.engine import grid  # noqa: E402
from fpinspector.model.engine.residual import zero_residual  # noqa: E402
from fpinspector.model.engine.ulp import ulp_errors_into  # noqa: E402
from fpinspector.model.formats import FORMATS  # noqa: E402

ALL = np.arange(1 << 16, dtype=np.uint16)


def _same(x: np.ndarray, y: np.ndarray) -> bool:
    """The same float64 bits (NaNs too)."""
    return np.array_equal(np.ascontiguousarray(x).view(np.uint64),
                          np.ascontiguousarray(y).view(np.uint64))


def check_rest(stride: int = 1) -> tuple[int, int]:
    """(pairs, mismatching blocks) of every INF/NaN operand pair: kernel vs reference."""
    special = ALL[(ALL & 0x7C00) == 0x7C00]
    bad = n = 0
    for i in range(0, special.size, 16 * stride):
        a = np.repeat(special[i:i + 16], ALL.size)
        b = np.tile(ALL, a.size // ALL.size)
        for A, B in ((a, b), (b, a)):
            f = evaluate("mul", A, B, format="f16")
            r = evaluate("mul", A, B, format="f16", paths="reference")
            fc, rc = f.model_columns(), r.model_columns()
            ok = (np.array_equal(f.bits, r.bits) and _same(f.exact, r.exact)
                  and _same(f.exact_lo, r.exact_lo)
                  and _same(fc["err_model"], rc["err_model"])
                  and fc["fired"].keys() == rc["fired"].keys()
                  and all(np.array_equal(fc["fired"][k], rc["fired"][k]) for k in fc["fired"])
                  and np.array_equal(f.allowed(f.bits), r.allowed(r.bits)))
            bad += not ok
            n += A.size
    return n, bad


def check_ulp32(stride: int = 1) -> tuple[int, int]:
    """(pairs, mismatching blocks) of every f16 x f16 pair: float32 vs float64 errors."""
    fmt = FORMATS["f16"]
    table = grid.values32(fmt)
    assert table is not None
    rows = 4
    B = np.tile(ALL, rows)
    want, got = np.empty(B.size), np.empty(B.size)
    bad = n = 0
    with np.errstate(all="ignore"):
        for a0 in range(0, ALL.size, rows * stride):
            A = np.repeat(ALL[a0:a0 + rows], ALL.size)
            p = table.take(A) * table.take(B)
            bits = grid.round_f16_f32(p)
            v = table.take(bits)
            hi = p.astype(np.float64)
            ulp_errors_into(fmt, bits, hi, zero_residual(hi), want, values=v)
            ulp_errors_into(fmt, bits, hi, zero_residual(hi), got, values=v, hi32=p)
            if not _same(want, got):
                bad += 1
                i = np.flatnonzero(want.view(np.uint64) != got.view(np.uint64))[:3]
                print(f"  mismatch: A {A[i]} B {B[i]}: {want[i]} vs {got[i]}")
            n += A.size
    return n, bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", choices=["rest", "ulp32", "all"], default="all")
    ap.add_argument("--stride", type=int, default=1,
                    help="check every S-th block of A patterns only (a sample)")
    args = ap.parse_args()
    print_header("f16 mul: the sweep's shortcuts against the longer way, every pair")
    status = 0
    for name, check in (("rest", check_rest), ("ulp32", check_ulp32)):
        if args.check not in (name, "all"):
            continue
        t0 = time.perf_counter()
        n, bad = check(max(1, args.stride))
        print(f"{name}: {n} pairs, {bad} mismatching blocks, "
              f"{time.perf_counter() - t0:.0f} s")
        status |= bool(bad)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
