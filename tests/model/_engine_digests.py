"""Digests of the engine's answers on a fixed sample per (op, format, rule set, options): what
``test_engine_digests.py`` compares against the stored file, so that no optimisation (of the
engine, the conversions or the formats) changes a single bit of any result.

Per case the digest covers the model bits, the exact value, the fired-rule masks, the hull
(lo, hi, nan_ok) and ``allowed`` / ``ulp_error`` of several observations (the model's own
result, its two neighbours, a random pattern and special patterns).

The sample is generated from a splitmix64 counter (integer arithmetic only, no numpy
random stream or float encoder whose output could change between versions): special
patterns crossed with each other, random patterns, and random ordinary values (exponents
near 1.0).

Every array is hashed bit for bit, the float64 ``exact`` and ``ulp_error`` of ``log``, ``exp``
and the sRGB conversions included: their exact values come from
``fpinspector.model.numerics.elementary``, which gives the same bits on every CPU (numpy's
``exp2`` / ``log2`` / ``power`` do not: they differ in the last bit between AVX2 and AVX-512
machines).

Write the stored file (only from a commit whose results are the reference):
``.venv/bin/python tests/model/_engine_digests.py --write``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from fpinspector.model import evaluate
from fpinspector.model.engine import OPS, OPTIONS, RULE_SETS
from fpinspector.model.engine.rules import arithmetic_gap
from fpinspector.model.formats import FloatFormat, float_format_of, operand_format

DIGEST_FILE = Path(__file__).with_name("engine_digests.json")
#: Random patterns and random ordinary values per case (besides the crossed specials).
N_RANDOM = 2048
_M64 = (1 << 64) - 1


def splitmix64(counter: np.ndarray) -> np.ndarray:
    """splitmix64 of each uint64 counter value (a fixed, version-proof pseudo-random map)."""
    with np.errstate(over="ignore"):
        z = counter.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


class _Stream:
    """Consecutive blocks of splitmix64 output, seeded by the case's name."""

    def __init__(self, name: str) -> None:
        self.next = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little")

    def take(self, n: int) -> np.ndarray:
        c = (np.arange(n, dtype=np.uint64) + np.uint64(self.next)) & np.uint64(_M64)
        self.next = (self.next + n) & _M64
        return splitmix64(c)


def _float_specials(f: FloatFormat) -> list[int]:
    one = (f.bias << f.frac_bits)
    base = [0, 1, 2, f.frac_mask - 1, f.frac_mask, f.frac_mask + 1, one, one + 1, one - 1,
            one | (1 << (f.frac_bits - 1)), one + (1 << f.frac_bits), one - (1 << f.frac_bits),
            f.max_finite_bits, f.max_finite_bits - 1, f.pos_inf, f.pos_inf + 1, f.quiet_nan,
            f.quiet_nan + 5, (f.bias + f.frac_bits) << f.frac_bits,
            (f.frac_bits + 1) << f.frac_bits]
    return sorted(set(base + ([p | f.sign_mask for p in base] if f.signed else [])))


def _column(fmt: Any, stream: _Stream, specials: np.ndarray) -> np.ndarray:
    """Random patterns (or codes) and, for float formats, random ordinary values."""
    r = stream.take(N_RANDOM)
    if isinstance(fmt, FloatFormat):
        half = N_RANDOM // 2
        pats = r[:half] & np.uint64(fmt.mask)
        s = r[half:]
        frac = s & np.uint64(fmt.frac_mask)
        lo = max(1, fmt.bias - 8)  # (E4M3's bias is 7: its window starts at 1 and is 14 wide)
        exp = np.uint64(lo) + ((s >> np.uint64(40)) % np.uint64(min(17, fmt.exp_max - lo)))
        sign = (s >> np.uint64(63)) if fmt.signed else np.zeros_like(s)
        ordinary = (sign << np.uint64(fmt.bits - 1)) | (exp << np.uint64(fmt.frac_bits)) | frac
        return np.concatenate([pats, ordinary]).astype(fmt.dtype)
    span = np.uint64(fmt.hi - fmt.lo + 1)
    codes = (r % span).astype(np.int64) + fmt.lo
    return np.concatenate([specials.astype(np.int64), codes]).astype(fmt.dtype)


def _specials(fmt: Any) -> np.ndarray:
    if isinstance(fmt, FloatFormat):
        return np.array(_float_specials(fmt), dtype=fmt.dtype)
    vals = {fmt.lo, fmt.lo + 1, -1, 0, 1, 2, fmt.hi - 1, fmt.hi, fmt.hi // 2, fmt.hi // 3}
    return np.array(sorted(v for v in vals if fmt.lo <= v <= fmt.hi), dtype=fmt.dtype)


def operands(op: str, fname: str, stream: _Stream) -> list[np.ndarray]:
    """The case's operand columns: specials crossed (first two operands), then random ones."""
    fmt = operand_format(fname)
    arity = OPS[op].arity
    sp = _specials(fmt)
    if not isinstance(fmt, FloatFormat):
        return [_column(fmt, stream, sp)]
    crossed = [c.reshape(-1) for c in np.meshgrid(*[sp] * min(arity, 2), indexing="ij")]
    m = crossed[0].size
    cols = []
    for k in range(arity):
        if k < len(crossed):
            head = crossed[k]
        else:
            head = sp[(stream.take(m) % np.uint64(sp.size)).astype(np.intp)]
        cols.append(np.concatenate([head, _column(fmt, stream, sp)]))
    return cols


def cases() -> list[tuple[str, str, str, tuple[tuple[str, Any], ...]]]:
    """(op, format, rule set, options): every op x format x rule set with the default
    options (but a format the rule set defines no arithmetic for: refused, see
    test_engine_contract), then every non-default option value on every math op in f32
    under d3d11."""
    out: list[tuple[str, str, str, tuple[tuple[str, Any], ...]]] = []
    for op, spec in OPS.items():
        for fname in spec.formats:
            for rules in RULE_SETS:
                if spec.family == "conversion" or not arithmetic_gap(fname, rules):
                    out.append((op, fname, rules, ()))
    math_ops = [op for op, s in OPS.items() if s.family != "conversion" and "f32" in s.formats]
    for name, opt in OPTIONS.items():
        for choice in opt.choices:
            if choice == opt.default:
                continue
            for op in math_ops + ["dtof", "to_f11", "to_f10"]:
                fname = "f64" if op == "dtof" else "f32"
                out.append((op, fname, "d3d11", ((name, choice),)))
    return out


def case_key(case: tuple[str, str, str, tuple[tuple[str, Any], ...]]) -> str:
    op, fname, rules, opts = case
    extra = "".join(f" {k}={v}" for k, v in opts)
    return f"{op} {fname} {rules}{extra}"


def _observations(ev: Any) -> list[np.ndarray]:
    bits = np.asarray(ev.bits)
    rf = ev.result_format
    if rf == "bool":
        return []
    fmt = operand_format(rf)
    lo, hi = (0, fmt.mask) if isinstance(fmt, FloatFormat) else (fmt.lo, fmt.hi)
    b = bits.astype(np.int64)
    obs = [bits] + [np.clip(b + d, lo, hi).astype(bits.dtype) for d in (-1, 1)]
    stream = _Stream(f"observations {ev.op} {rf}")
    r = stream.take(b.size)
    if isinstance(fmt, FloatFormat):
        obs.append((r & np.uint64(fmt.mask)).astype(bits.dtype).reshape(bits.shape))
        for p in (0, fmt.sign_mask, fmt.quiet_nan, fmt.pos_inf):
            obs.append(np.full(bits.shape, p, dtype=bits.dtype))
    else:
        codes = (r % np.uint64(hi - lo + 1)).astype(np.int64) + lo
        obs.append(codes.astype(bits.dtype).reshape(bits.shape))
    return obs


def _floats(a: Any) -> bytes:
    """The array's bytes, every NaN made the same NaN (a NaN's sign and payload in the exact
    value or an error carry no meaning: NaN says "no number")."""
    x = np.asarray(a, dtype=np.float64)
    return np.ascontiguousarray(np.where(np.isnan(x), np.nan, x)).tobytes()


def _bools(a: Any) -> bytes:
    return np.packbits(np.asarray(a, dtype=bool).reshape(-1)).tobytes()


def digest(case: tuple[str, str, str, tuple[tuple[str, Any], ...]]) -> str:
    """sha256 (first 24 hex digits) of everything the case's evaluation answers."""
    op, fname, rules, opts = case
    stream = _Stream(case_key(case))
    ops = operands(op, fname, stream)
    ev = evaluate(op, *ops, format=float_format_of(fname).name, rules=rules,
                  options=dict(opts) or None)
    h = hashlib.sha256()
    bits = np.ascontiguousarray(np.asarray(ev.bits))
    h.update(f"{bits.dtype.str} {bits.shape} {ev.result_format}".encode())
    h.update(bits.tobytes())
    h.update(_floats(ev.exact))
    fired = ev.fired
    for rule in sorted(fired):
        h.update(rule.encode())
        h.update(_bools(fired[rule]))
    if ev.result_format != "bool":
        for name in ("lo", "hi"):
            h.update(np.ascontiguousarray(np.asarray(getattr(ev, name))).tobytes())
        h.update(_bools(ev.nan_ok))
    for o in _observations(ev):
        h.update(_bools(ev.allowed(o)))
        h.update(_floats(ev.ulp_error(o)))
    return h.hexdigest()[:24]


def compute_all() -> dict[str, str]:
    return {case_key(c): digest(c) for c in cases()}


def main(argv: list[str]) -> int:
    if argv != ["--write"]:
        print(__doc__)
        return 2
    digests = compute_all()
    DIGEST_FILE.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(digests)} digests to {DIGEST_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
