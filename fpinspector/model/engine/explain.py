"""Sentences for the UI and CLI: which rules fired and why, and the step-by-step walk."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..formats import FloatFormat
from . import grid
from .rules import rule_text

__all__ = ["sentences", "steps", "fmt_pattern"]

_NAMES = "ABCDEFGH"


def fmt_pattern(p: int, fmt: FloatFormat) -> str:
    """``0x3F800000 (1.0)`` style text for one pattern."""
    digits = (fmt.bits + 3) // 4
    with np.errstate(invalid="ignore"):
        v = float(fmt.decode(np.array([p], dtype=fmt.dtype))[0])
    cls = str(fmt.classify(np.array([p], dtype=fmt.dtype))[0])
    return f"0x{int(p):0{digits}X} ({_num(v)}, {cls})"


def _num(v: float) -> str:
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "+INF" if v > 0 else "-INF"
    if v == 0:
        return "-0" if np.signbit(v) else "+0"
    return f"{v!r} = {float.hex(v)}"


def _operand_names(ev: Any) -> list[str]:
    n = len(ev._flat)
    if ev.op.startswith("dp"):
        h = n // 2
        return [f"a{i}" for i in range(h)] + [f"b{i}" for i in range(h)]
    return [f"input {_NAMES[i]}" for i in range(n)]


def sentences(ev: Any, p: Any, i: int) -> list[str]:
    """One plain sentence per rule that fired at element i, naming the rule ID."""
    fmt = ev._ctx.fmt
    out: list[str] = []
    names = _operand_names(ev)
    fired = sorted(k for k, v in p.fired.items() if v[i])
    for k, m in enumerate(p.ftz_in):
        if m[i]:
            raw = int(ev._flat[k][i])
            zero = "-0" if raw & fmt.sign_mask else "+0"
            rule = "F32-MINMAX-FTZ" if ev.op in ("min", "max") else "F32-FTZ"
            tail = "; the result may be flushed or not" if rule == "F32-MINMAX-FTZ" else ""
            val = _num(float(fmt.decode(np.array([raw], fmt.dtype))[0]))
            out.append(f"{names[k]} was a denormal ({val}):"
                       f" flushed to {zero} by {rule}{tail}")
    if p.ftz_out is not None and p.ftz_out[i]:
        u = int(p.unrounded[i])
        zero = "-0" if u & fmt.sign_mask else "+0"
        out.append(f"the rounded result {fmt_pattern(u, fmt)} was a denormal: flushed to {zero} "
                   "by F32-FTZ on output")
    for r in fired:
        if r in ("F32-FTZ", "F32-MINMAX-FTZ") and any(m[i] for m in p.ftz_in):
            continue
        if r == "F32-FTZ" and p.ftz_out is not None and p.ftz_out[i]:
            continue
        out.append(f"{r}: {rule_text(r)}")
    if ev.op == "mov":
        out.append("mov is a raw move: exempt from F32-FTZ, every bit (NaN payload too) is kept")
    out.extend(ev.readings)
    return out


def steps(ev: Any, p: Any, i: int) -> list[str]:
    """The "why", in order: operands, input flush, exact op, rounding, output, window."""
    fmt = ev._ctx.fmt
    names = _operand_names(ev)
    out = [f"{ev.op} in {fmt.name} under {ev.rules}: {ev.spec.description}"]
    for k, b in enumerate(ev._flat):
        out.append(f"{names[k]} = {fmt_pattern(int(b[i]), fmt)}")
    for k, m in enumerate(p.ftz_in):
        if m[i]:
            out.append(f"{names[k]} is a denormal: flushed to a signed zero first (F32-FTZ)")
    if p.fmt is None:
        out.append(f"result: {bool(p.bits[i])} (exact comparison of the flushed values)")
        return out
    hi, lo = float(p.hi[i]), float(p.lo[i])
    ex = _num(hi) + (f" {'+' if lo > 0 else '-'} {abs(lo)!r}" if lo else "")
    out.append(f"exact result: {ex}")
    if ev.op not in ("min", "max", "mov"):
        out.append(f"rounded to nearest even in {fmt.name}: {fmt_pattern(int(p.unrounded[i]), fmt)}")
    if p.ftz_out is not None and p.ftz_out[i]:
        out.append(f"result is a denormal: flushed to {fmt_pattern(int(p.bits[i]), fmt)} (F32-FTZ)")
    if np.isnan(p.hi[i]):
        out.append(f"result is NaN: the model gives the canonical quiet NaN "
                   f"0x{fmt.quiet_nan:X}; any NaN is conformant (F32-NANOUT)")
    out.append(f"model result: {fmt_pattern(int(p.bits[i]), fmt)}")
    out.append(f"tolerance: {p.tol_text}")
    if p.klo[i] <= p.khi[i]:
        a = int(grid.from_key(p.klo[i : i + 1], fmt)[0])
        b = int(grid.from_key(p.khi[i : i + 1], fmt)[0])
        out.append(f"allowed window: {fmt_pattern(a, fmt)} .. {fmt_pattern(b, fmt)}")
    if p.nan_ok[i]:
        out.append("allowed: any NaN")
    if p.deny_denorm:
        out.append("denormal results are not allowed (F32-FTZ flushes the output; "
                   "option ftz_output=strict)")
    for kind, x, y in p.extras:
        if kind == "pat" and y[i]:
            out.append(f"also allowed: the unflushed operand {fmt_pattern(int(x[i]), fmt)}")
        elif kind == "window" and x[i] <= y[i]:
            out.append("also allowed: the unflushed denormal results (option ftz_output=either)")
    out.extend(ev.readings)
    return out
