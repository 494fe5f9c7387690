"""The fast kernels against the reference path where rounding is most fragile: results
engineered to land within a few ULPs of the smallest normal (the flush boundary, F32-FTZ /
F16-DENORM), of the largest finite value (the overflow boundary) and of zero
(cancellation), on both sides and both signs, ties included.

Why: random operands almost never reach these points, and a kernel that rounds twice (as
the float64-then-float32 mad did below 2^-126) is only wrong there. Oracle: the reference
path (engine/compute.py), which rounds the exact value once; the differential test
(test_engine_paths.py) covers the rest of the input space.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from test_engine_paths import _assert_same

from fpinspector.model import evaluate, get_format

NP_DTYPE = {"f32": np.float32, "f16": np.float16}


def _targets(fname: str, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Results a few ULPs (of the denormal grid, or of the top binade) around the
    boundaries, grid points and midpoints, a few nudged off the grid, both signs; and the
    binade exponent of each (to scale the other operands to it)."""
    f = get_format(fname)
    tiny = 2.0 ** f.minexp
    den = 2.0 ** (f.minexp - f.frac_bits)
    top_ulp = 2.0 ** (f.maxexp - 1 - f.frac_bits)
    k = rng.integers(-8, 9, n) + rng.choice([0.0, 0.5], n)
    near = rng.choice(3, n)
    t = np.where(near == 0, tiny + k * den, np.where(near == 1, f.max + k * top_ulp, k * den))
    t *= 1.0 + rng.uniform(-2.0**-40, 2.0**-40, n) * rng.choice([0.0, 1.0], n)
    scale = np.where(near == 1, f.maxexp - 4, f.minexp + 3)
    return t * rng.choice([-1.0, 1.0], n), scale


def _operands(op: str, fname: str, n: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Operands (patterns) whose exact result lands on or next to a target: each derived
    operand is rounded once, so the result misses its target by an ULP or so at most."""
    dt = NP_DTYPE[fname]
    t, e = _targets(fname, n, rng)
    sign = rng.choice([-1.0, 1.0], n)
    unit = rng.uniform(1.0, 2.0, n) * sign
    with np.errstate(all="ignore"):
        if op in ("add", "sub"):  # b in the target's binades: a = t -/+ b is exact
            b = np.asarray(unit * 2.0 ** (e - rng.integers(0, 4, n)), dtype=dt).astype(float)
            ab = [t - b if op == "add" else t + b, b]
        elif op == "mul":
            b = unit * 2.0 ** rng.integers(-6, 7, n)
            ab = [t / b, b]
        elif op == "div":
            b = unit * 2.0 ** rng.integers(-6, 7, n)
            ab = [t * b, b]
        elif op == "mad":  # c a normal in the target's binades, a*b = t - c to ~2^-24
            c = np.asarray(unit * 2.0 ** (e + rng.integers(0, 3, n)), dtype=dt).astype(float)
            a = rng.uniform(1.0, 2.0, n) * 2.0 ** np.floor(e / 2)
            ab = [a, (t - c) / np.asarray(a, dtype=dt).astype(float), c]
        elif op == "rcp":
            ab = [1.0 / t]
        elif op == "exp":
            ab = [np.log2(np.abs(t))]
        else:
            raise ValueError(op)
        pats = [np.asarray(x).astype(dt) for x in ab]
    bits = {np.float32: np.uint32, np.float16: np.uint16}[dt]
    return [p.view(bits) for p in pats]


#: ops whose results can reach the boundaries (a root, 1/sqrt or log2 of any f32 or f16
#: value lies well inside the normal range, so they have no boundary to test)
CASES = [(op, "f32") for op in ("add", "sub", "mul", "div", "mad", "rcp", "exp")]
CASES += [(op, "f16") for op in ("add", "sub", "mul", "div")]


def test_the_operands_reach_the_boundaries() -> None:
    """The construction works: most model results of f32 mul and mad lie within 16
    denormal steps of 2^-126, of zero, or within 16 ULPs of the largest finite value."""
    rng = np.random.default_rng(5)
    f = get_format("f32")
    for op in ("mul", "mad", "add"):
        ex = evaluate(op, *_operands(op, "f32", 4096, rng), paths="reference").exact
        a = np.abs(ex)
        den, top = 2.0**-149, 2.0**104
        near = ((np.abs(a - 2.0**-126) <= 16 * den) | (a <= 16 * den)
                | (np.abs(a - f.max) <= 16 * top))
        assert near.mean() > 0.5, (op, near.mean())


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["d3d11", "d3d10", "ieee754"])
@pytest.mark.parametrize("op,fname", CASES)
def test_fast_path_equals_reference_at_the_boundaries_F32_FTZ_F16_DENORM(op, fname, rules):
    rng = np.random.default_rng(zlib.crc32(f"{op} {fname} {rules}".encode()))
    ops = _operands(op, fname, 1 << 14, rng)
    fmt = get_format(fname)
    fast = evaluate(op, *ops, format=fname, rules=rules, paths="fast")
    ref = evaluate(op, *ops, format=fname, rules=rules, paths="reference")
    _assert_same(fast, ref, fmt, rng)
