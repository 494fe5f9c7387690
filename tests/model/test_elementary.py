"""Deterministic 2^x, log2 and x^p (fpinspector.model.numerics.elementary), the exact values
behind the engine's ``exp`` and ``log`` rows (F32-EXP, F32-LOG tolerances are measured from
them) and the sRGB curve (CONV-SRGB).

Oracle: mpmath at 200 bits, rounded to the nearest float64 by mpmath itself; never the
engine. Why it matters: numpy's own exp2/log2/power differ in the last bit between CPUs (AVX2
and AVX-512 machines disagree), so the reference values and the stored engine digests
depended on the user's machine.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import mpmath
import numpy as np
import pytest

from fpinspector.model.numerics.elementary import exp2, log2, power

MP = mpmath.MPContext()
MP.prec = 200


def _f32_values(rng: np.random.Generator, n: int) -> np.ndarray:
    v = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    with np.errstate(invalid="ignore"):  # signalling NaN patterns
        return v.astype(np.float64)[np.isfinite(v)]


def _nearest(v) -> float:  # mpmath's float() rounds to nearest
    return float(v)


@pytest.fixture(scope="module")
def rng() -> np.random.Generator:
    return np.random.default_rng(20261127)


def test_exp2_is_correctly_rounded(rng):
    """2^x to the nearest float64 for float32 arguments over the whole range, f64 arguments
    down to the denormal results, and the region near 0 where 2^x is close to 1."""
    x = np.concatenate([
        _f32_values(rng, 3000), rng.uniform(-150.0, 128.0, 3000), rng.uniform(-1.0, 1.0, 2000),
        rng.uniform(-1074.0, 1024.0, 2000), np.arange(-64, 65) / 64.0,
    ])
    x = x[x < 1024]
    got = exp2(x)
    want = np.array([_nearest(MP.power(2, MP.mpf(float(v)))) for v in x])
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [(float(x[i]), float(got[i]), float(want[i])) for i in bad[:5]]


def test_log2_is_correctly_rounded(rng):
    """log2(x) to the nearest float64: float32 patterns, values near 1 (cancellation), the
    whole float64 range including denormals."""
    x = np.concatenate([
        np.abs(_f32_values(rng, 3000)), rng.uniform(0.99, 1.01, 2000), rng.uniform(0.0, 4.0, 2000),
        np.exp(rng.uniform(-740.0, 709.0, 2000)), 1.0 + np.arange(-40, 41) / 128.0,
    ])
    x = x[x > 0]
    got = log2(x)
    want = np.array([_nearest(MP.log(MP.mpf(float(v)), 2)) for v in x])
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [(float(x[i]), float(got[i]), float(want[i])) for i in bad[:5]]


@pytest.mark.parametrize("p", [2.4, 1 / 2.4])
def test_power_is_correctly_rounded_on_the_srgb_curve(rng, p):
    """CONV-SRGB's x^2.4 and x^(1/2.4) on [0, 1] (the float64 exponent, as np.power had it)."""
    x = np.concatenate([rng.uniform(0.0, 1.0, 3000), np.arange(256) / 255.0])
    got = power(x, p)
    want = np.array([_nearest(MP.power(MP.mpf(float(v)), MP.mpf(p))) if v else 0.0 for v in x])
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [(float(x[i]), float(got[i]), float(want[i])) for i in bad[:5]]


def test_special_values_follow_ieee():
    e = exp2(np.array([np.nan, np.inf, -np.inf, 1024.0, -1076.0, -1074.0, 0.0, -0.0, 10.0]))
    assert np.isnan(e[0]) and list(e[1:]) == [np.inf, 0.0, np.inf, 0.0, 5e-324, 1.0, 1.0, 1024.0]
    lg = log2(np.array([np.nan, -1.0, 0.0, -0.0, np.inf, 1.0, 0.25, 5e-324]))
    assert np.isnan(lg[0]) and np.isnan(lg[1])
    assert list(lg[2:]) == [-np.inf, -np.inf, np.inf, 0.0, -2.0, -1074.0]


_DIGEST_SCRIPT = """
import hashlib, numpy as np
from fpinspector.model.numerics.elementary import exp2, log2, power
x = np.random.default_rng(3).integers(0, 2**32, 200000, dtype=np.uint64)
v = x.astype(np.uint32).view(np.float32).astype(np.float64)
h = hashlib.sha256()
for a in (exp2(v), log2(np.abs(v)), power(np.abs(v) % 1.0, 2.4)):
    h.update(np.where(np.isnan(a), np.nan, a).tobytes())
print(h.hexdigest())
"""


def test_same_bits_whatever_simd_numpy_dispatches():
    """The bits do not change when numpy is told to use none of its AVX/AVX-512 kernels
    (NPY_DISABLE_CPU_FEATURES): a stand-in for "another CPU" on one machine."""
    def run(env_extra: dict[str, str]) -> str:
        env = dict(os.environ, **env_extra)
        out = subprocess.run([sys.executable, "-c", _DIGEST_SCRIPT], env=env, check=True,
                             capture_output=True, text=True, timeout=120)
        return out.stdout.strip()

    features = "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR AVX2 FMA3"
    plain = run({})
    baseline = run({"NPY_DISABLE_CPU_FEATURES": features})
    assert plain == baseline and len(plain) == 64
    assert hashlib.sha256(b"").hexdigest() != plain
