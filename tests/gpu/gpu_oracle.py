"""Independent numpy / fractions oracles for GPU capture tests (never the code under test).

IEEE 754 results computed by numpy float32/float64 arithmetic (correctly rounded,
denormals kept), with an optional F32-FTZ flush of inputs and outputs, and exact
fused multiply-add through fractions.Fraction.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

F32_SPECIALS = np.array(
    [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000,
     0x80800000, 0x3F800000, 0xBF800000, 0x3FC00000, 0xC0000000, 0x3F000000, 0x40490FDB,
     0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
     0x4B000000, 0x4EFFFFFF, 0x4F000000, 0xCF000000, 0x4F800000, 0x3F7FFFFF, 0x33800000,
     0x5F000000, 0x00400000],
    dtype=np.uint32,
)


def structured_f32(n_random: int = 2048, seed: int = 4, arity: int = 2) -> list[np.ndarray]:
    """Specials crossed (all pairs for binary ops) plus random bit patterns."""
    rng = np.random.default_rng(seed)
    s = F32_SPECIALS
    if arity == 1:
        cols = [s]
    elif arity == 2:
        a, b = np.meshgrid(s, s, indexing="ij")
        cols = [a.ravel(), b.ravel()]
    else:
        cols = [rng.choice(s, s.size ** 2) for _ in range(arity)]
    rnd = [rng.integers(0, 2**32, n_random, dtype=np.uint32) for _ in range(arity)]
    return [np.concatenate([c, r]).astype(np.uint32) for c, r in zip(cols, rnd)]


def f32(bits: np.ndarray) -> np.ndarray:
    return np.asarray(bits, np.uint32).view(np.float32)


def bits32(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, np.float32).view(np.uint32)


def ftz32(bits: np.ndarray) -> np.ndarray:
    """F32-FTZ: denormal patterns -> zero of the same sign."""
    b = np.asarray(bits, np.uint32)
    den = ((b & 0x7F800000) == 0) & ((b & 0x007FFFFF) != 0)
    return np.where(den, b & np.uint32(0x80000000), b)


def ieee_f32(op: str, *bits: np.ndarray, flush: bool = False) -> np.ndarray:
    """IEEE result bits of a float32 op (numpy), optionally with F32-FTZ on both sides."""
    ins = [ftz32(b) if flush else np.asarray(b, np.uint32) for b in bits]
    x = [f32(b) for b in ins]
    with np.errstate(all="ignore"):
        fn = {
            "add": lambda a, b: a + b, "sub": lambda a, b: a - b,
            "mul": lambda a, b: a * b, "div": lambda a, b: a / b,
            "mad": lambda a, b, c: (a * b) + c, "sqrt": np.sqrt,
            "rcp": lambda a: np.float32(1) / a, "round_ne": np.rint, "round_ni": np.floor,
            "round_pi": np.ceil, "round_z": np.trunc,
            "frc": lambda a: a - np.floor(a),
        }[op]
        r = fn(*x)
    if op == "mad" and flush:  # unfused: the product is a math-op output too (F32-FTZ)
        r = f32(ftz32(bits32(x[0] * x[1]))) + x[2]
    out = bits32(r)
    return ftz32(out) if flush else out


def exact_fma_f32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Correctly rounded fma in float32 via Fraction (finite inputs), numpy elsewhere."""
    fa, fb, fc = f32(a), f32(b), f32(c)
    out = np.empty(fa.shape, np.float32)
    with np.errstate(all="ignore"):
        naive = (fa.astype(np.float64) * fb + fc).astype(np.float32)
    for i in range(fa.size):
        x, y, z = float(fa[i]), float(fb[i]), float(fc[i])
        if not all(np.isfinite(v) for v in (x, y, z)):
            out[i] = naive[i]
            continue
        exact = Fraction(x) * Fraction(y) + Fraction(z)
        out[i] = _round_fraction_f32(exact, np.signbit(fa[i] * fb[i]) and z == 0)
    return bits32(out)


def _round_fraction_f32(q: Fraction, neg_zero: bool) -> np.float32:
    """Round an exact rational to float32, nearest-even, via float64 + one correction."""
    if q == 0:
        return np.float32(-0.0) if neg_zero else np.float32(0.0)
    lo = np.float32(float(q))  # float(q) is correctly rounded to float64
    cands = [lo, np.nextafter(lo, np.float32(np.inf)), np.nextafter(lo, np.float32(-np.inf))]
    cands = [c for c in cands if np.isfinite(c)] or [lo]
    best = min(cands, key=lambda c: (abs(Fraction(float(c)) - q), int(bits32(c)) & 1))
    if abs(q) >= Fraction(2**128) - Fraction(2**103):
        return np.float32(np.inf if q > 0 else -np.inf)
    return best


def is_nan32(bits: np.ndarray) -> np.ndarray:
    b = np.asarray(bits, np.uint32)
    return ((b & 0x7F800000) == 0x7F800000) & ((b & 0x007FFFFF) != 0)


def same32(gpu: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Bit-identical, except that any NaN matches any NaN (F32-NANOUT)."""
    return (np.asarray(gpu, np.uint32) == ref) | (is_nan32(gpu) & is_nan32(ref))


# --- D3D / IEEE references for the ops the model rounds exactly ----------------------------
_CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
        "gt": np.greater, "ge": np.greater_equal}
EXACT_F32_OPS = ("add", "sub", "mul", "div", "mad", "sqrt", "rcp", "round_ne", "round_ni",
                 "round_pi", "round_z", "frc", "min", "max", "eq", "ne", "lt", "le", "gt", "ge",
                 "mov", "itof", "utof", "ftoi", "ftou", "to_f16", "f32tof16", "f16tof32")
ARITY = {"add": 2, "sub": 2, "mul": 2, "div": 2, "mad": 3, "mad_fma": 3, "min": 2, "max": 2,
         **{k: 2 for k in _CMP}, "dp2": 4, "dp3": 6, "dp4": 8}
RESULT_FMT = {**{k: "bool" for k in _CMP}, "ftoi": "i32", "ftou": "u32", "to_f16": "f16",
              "f32tof16": "f16"}


def reference_f32(op: str, operands: list[np.ndarray], rules: str = "d3d11") -> np.ndarray:
    """Expected bits: "d3d11" applies F32-FTZ (in and out), "ieee754" keeps denormals.

    Oracles: numpy float32/float64/float16 arithmetic and the lead's F16 RTZ encoder for
    CONV-F2F-RTZ/SAT (f32 -> f16), never fpinspector.gpu.
    """
    flush = rules != "ieee754"
    x = [np.asarray(o, np.uint32) for o in operands]
    with np.errstate(all="ignore"):
        if op in ("add", "sub", "mul", "div", "mad", "sqrt", "rcp", "round_ne", "round_ni",
                  "round_pi", "round_z", "frc"):
            return ieee_f32(op, *x, flush=flush)
        xf = [f32(ftz32(b) if flush else b) for b in x]
        if op in ("min", "max"):
            r = (np.fmin if op == "min" else np.fmax)(*xf)
            if not flush:  # IEEE 754-2008 minNum/maxNum (IEEE-MINMAX): a signaling NaN
                snan = is_nan32(x[0]) & ((x[0] & 0x00400000) == 0)  # operand gives NaN
                snan |= is_nan32(x[1]) & ((x[1] & 0x00400000) == 0)
                r = np.where(snan, np.float32(np.nan), r)
            return ftz32(bits32(r)) if flush else bits32(r)
        if op in _CMP:
            return _CMP[op](*xf)
        if op == "mov":
            return x[0]
        if op == "itof":
            return bits32(x[0].view(np.int32).astype(np.float32))
        if op == "utof":
            return bits32(x[0].astype(np.float32))
        if op in ("ftoi", "ftou"):
            t = np.nan_to_num(np.trunc(xf[0].astype(np.float64)), nan=0.0)
            lo, hi, dt = ((-(2**31), 2**31 - 1, np.int32) if op == "ftoi"
                          else (0, 2**32 - 1, np.uint32))
            return np.clip(t, lo, hi).astype(np.int64).astype(dt)
        if op in ("to_f16", "f32tof16"):
            from fpinspector.model import F16

            h = np.asarray(F16.encode(xf[0].astype(np.float64), "rtz_sat"), np.uint16)
            h = np.where(np.isnan(xf[0]), np.uint16(0x7E00), h)
            return h
        if op == "f16tof32":
            return bits32((x[0] & 0xFFFF).astype(np.uint16).view(np.float16).astype(np.float32))
    raise KeyError(op)


def rgb9e5_every_mantissa_and_exponent() -> tuple[np.ndarray, np.ndarray]:
    """R9G9B9E5_SHAREDEXP words with every 9-bit mantissa in each channel at every shared
    exponent (R = m, G = 511 - m, B = 5m mod 512; 32 x 512 words), and their R, G, B as f32
    patterns from D3D11.3 §19.3.2.1 written with fractions: (0.frac) * 2^(E - 15), exact in
    f32 (every such value is an f16 value). Returns (words uint32 (n,), f32 bits (n, 3))."""
    words, want = [], []
    for e in range(32):
        for m in range(512):
            chans = (m, 511 - m, (5 * m) % 512)
            words.append(chans[0] | (chans[1] << 9) | (chans[2] << 18) | (e << 27))
            want.append([float(Fraction(c, 512) * Fraction(2) ** (e - 15)) for c in chans])
    return (np.array(words, np.uint32),
            np.array(want, np.float64).astype(np.float32).view(np.uint32))
