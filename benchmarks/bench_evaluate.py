"""Benchmark: evaluate(op).bits + .allowed on 16M random f32 operands vs the plain numpy op,
and the full model stage of a sweep in elements/s.

Part 1 prints, per op (add, mul, div, sqrt, min, mad), the engine time, the numpy float32
time (allocating its output) and their ratio. Two inputs: "values" (random signs, mantissas
and exponents in 2^-30..2^30: the common case) and "patterns" (uniform random 32-bit
patterns: many INF/NaN/denormals and overflowing products, which take the general path).

Part 2 prints elements/s of the model stage a sweep runs (evaluate + .bits, .exact,
.allowed, .ulp_error, .fired) for f32 sqrt, rcp, rsq, log, exp, frc over uniformly random
bit patterns (what an exhaustive 2^32 sweep sees) and for f16 add/mul over random pairs
(what the exhaustive f16 x f16 sweep sees).

Part 3 (exhaustive order) prints the same model-stage rate on consecutive patterns, the
way an exhaustive 2^32 / 2^16 x 2^16 sweep hands out chunks: f32 sqrt and rcp on a
positive and a negative range of normals, f16 add/mul on 64 rows of A x every B. Rates
are CPU seconds (time.process_time), best of REPS: the machine is shared.

--tune-alloc first calls fpinspector.model.sweep.alloc.keep_freed_buffers() (glibc keeps freed
memory: no page faults on every chunk's temporaries).

Run: .venv/bin/python benchmarks/bench_evaluate.py [N] [--stage-only] [--tune-alloc]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
from _timing import best_of  # noqa: E402

from fpinspector.model import evaluate  # noqa: E402

_ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
N = int(_ARGS[0]) if _ARGS else 1 << 24
STAGE_N = min(N, 1 << 22)
REPS = 3
NP_OPS = {
    "add": lambda a, b, c: np.add(a, b),
    "mul": lambda a, b, c: np.multiply(a, b),
    "div": lambda a, b, c: np.divide(a, b),
    "sqrt": lambda a, b, c: np.sqrt(a),
    "min": lambda a, b, c: np.minimum(a, b),
    "mad": lambda a, b, c: np.add(np.multiply(a, b), c),
}
ARITY = {"add": 2, "mul": 2, "div": 2, "sqrt": 1, "min": 2, "mad": 3}


def _values(rng: np.random.Generator, n: int) -> np.ndarray:
    m = rng.uniform(1.0, 2.0, n) * rng.choice([-1.0, 1.0], n)
    e = rng.integers(-30, 31, n)
    return np.ldexp(m, e).astype(np.float32).view(np.uint32)


def _best(fn) -> float:
    return best_of(fn, REPS)


def main() -> None:
    rng = np.random.default_rng(2026)
    inputs = {
        "values": [_values(rng, N) for _ in range(3)],
        "patterns": [rng.integers(0, 1 << 32, N, dtype=np.uint64).astype(np.uint32)
                     for _ in range(3)],
    }
    print(f"bench_evaluate: N = {N} ({N / 2**20:.0f} Mi) elements, best of {REPS}")
    print(f"{'op':<6}{'input':<10}{'numpy f32 s':>12}{'engine s':>11}{'ratio':>8}")
    for kind, ops in inputs.items():
        f = [o.view(np.float32) for o in ops]
        for op, k in ARITY.items():
            with np.errstate(all="ignore"):
                t_np = _best(lambda: NP_OPS[op](*f))

            def run() -> None:
                ev = evaluate(op, *ops[:k])
                ev.allowed(ev.bits)

            t_ev = _best(run)
            print(f"{op:<6}{kind:<10}{t_np:>12.4f}{t_ev:>11.4f}{t_ev / t_np:>8.1f}x")


def stage() -> None:
    """Model stage of a sweep: everything the sweep reads from one evaluation."""
    rng = np.random.default_rng(7)
    n = STAGE_N
    print(f"model stage (bits, exact, allowed, ulp_error, fired): N = {n}, best of {REPS}")
    cases = [(op, "f32", 1) for op in ("sqrt", "rcp", "rsq", "log", "exp", "frc")]
    cases += [(op, "f16", 2) for op in ("add", "mul")]
    for op, fmt, k in cases:
        if fmt == "f32":
            ops = [rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)]
        else:
            ops = [rng.integers(0, 1 << 16, n, dtype=np.uint16) for _ in range(k)]

        def run() -> None:
            ev = evaluate(op, *ops, format=fmt)
            b = ev.bits
            ev.exact
            ev.allowed(b)
            ev.ulp_error(b)
            ev.fired

        t = _best(run)
        print(f"{op:<6}{fmt:<5}{t:>9.4f} s {n / t / 1e6:>8.1f} M elements/s")


def _cpu_best(fn) -> float:
    return best_of(fn, REPS, time.process_time)


def exhaustive_order() -> None:
    """Model stage on consecutive patterns (the chunks of an exhaustive sweep)."""
    n = STAGE_N
    print(f"model stage, exhaustive order: N = {n}, CPU s, best of {REPS}")
    cases = [("sqrt", 0x3E000000), ("sqrt", 0xBE000000), ("rcp", 0x3E000000),
             ("rcp", 0xBE000000)]
    runs = [(op, "f32", f"0x{s:08X}..", [np.arange(s, s + n, dtype=np.uint32)])
            for op, s in cases]
    i = np.arange(n, dtype=np.uint32)
    for op in ("add", "mul"):
        a = ((i >> np.uint32(16)) + np.uint32(0x3000)).astype(np.uint16)
        b = (i & np.uint32(0xFFFF)).astype(np.uint16)
        runs.append((op, "f16", "A 0x3000.. x all B", [a, b]))
    for op, fmt, what, ops in runs:
        def run() -> None:
            ev = evaluate(op, *ops, format=fmt)
            b = ev.bits
            ev.exact
            ev.allowed(b)
            ev.ulp_error(b)
            ev.fired

        t = _cpu_best(run)
        print(f"{op:<6}{fmt:<5}{what:<20}{t:>9.4f} s {n / t / 1e6:>8.1f} M elements/s")


if __name__ == "__main__":
    if "--tune-alloc" in sys.argv:
        from fpinspector.model.sweep.alloc import keep_freed_buffers

        print(f"keep_freed_buffers: {keep_freed_buffers()}")
    if "--stage-only" not in sys.argv:
        main()
    stage()
    exhaustive_order()
