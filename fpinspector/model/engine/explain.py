"""Words for the UI and CLI: which rules fired and why, the step-by-step walk, and the
one-sentence verdict on an observed result.

Everything here reads the finisher's facts and allowed sets (engine/finish/): the text
cannot disagree with the verdict because it is made from the same set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..formats import FloatFormat
from . import finish, grid
from .allowed import AllowedSet
from .rules import rule_text
from .ulp import ulp_at_one

__all__ = ["sentences", "steps", "fmt_pattern", "Verdict", "verdict", "ulp_figure"]


def _value(p: int, fmt: FloatFormat) -> float:
    with np.errstate(invalid="ignore"):
        return float(fmt.decode(np.array([p], dtype=fmt.dtype))[0])


def fmt_pattern(p: int, fmt: FloatFormat) -> str:
    """``0x3F800000 (1.0, normal)`` style text for one pattern (shortest round-trip
    decimal in the pattern's own format)."""
    from ..describe import shortest_decimal

    digits = (fmt.bits + 3) // 4
    cls = str(fmt.classify(np.array([p], dtype=fmt.dtype))[0])
    neg = fmt.signed and (int(p) >> (fmt.bits - 1)) & 1
    if cls == "zero":
        text = "-0" if neg else "+0"
    elif cls == "infinity":
        text = "-INF" if neg else "+INF"
    elif cls == "nan":
        text = "NaN"
    else:
        text = str(shortest_decimal(int(p), fmt))
    return f"0x{int(p):0{digits}X} ({text}, {cls})"


def _num(v: float) -> str:
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "+INF" if v > 0 else "-INF"
    if v == 0:
        return "-0" if np.signbit(v) else "+0"
    return f"{v!r} = {float.hex(v)}"


def _operand_names(ev: Any) -> list[str]:
    names = ev._ctx.spec.operand_names(len(ev._flat))  # a0..an, b0..bn of a dpN as they are
    return [x if x[0].islower() else f"input {x}" for x in names]


def sentences(ev: Any, f: finish.Facts, i: int) -> list[str]:
    """One plain sentence per rule that fired at element i (f: that element's facts)."""
    fmt = ev._ctx.fmt
    out: list[str] = []
    names = _operand_names(ev)
    fired = list(finish.fired_rules(f))
    traits = ev._ctx.traits
    ftz_in = [bool(m[0]) for m in f.ftz_in] if traits.flushes_inputs else []
    for k, flushed in enumerate(ftz_in):
        if flushed:
            raw = int(f.ops[k][0])
            zero = "-0" if raw & fmt.sign_mask else "+0"
            rule = traits.input_flush_rule
            tail = "; the result may be flushed or not" if traits.picks_operand else ""
            out.append(f"{names[k]} was a denormal ({_num(_value(raw, fmt))}):"
                       f" flushed to {zero} by {rule}{tail}")
    ftz_out = bool(f.ftz_out[0]) if ev.result_format != "bool" else False
    if ftz_out:
        u = int(f.unrounded[0])
        zero = "-0" if u & fmt.sign_mask else "+0"
        out.append(f"the rounded result {fmt_pattern(u, fmt)} was a denormal: flushed to "
                   f"{zero} by F32-FTZ on output")
    for r in fired:
        if r in ("F32-FTZ", "F32-MINMAX-FTZ") and any(ftz_in):
            continue
        if r == "F32-FTZ" and ftz_out:
            continue
        out.append(f"{r}: {rule_text(r)}")
    if traits.note:
        out.append(traits.note)
    for reading in ev.readings:  # a reading of a rule that fired goes on that rule's line:
        # one line per rule ("F32-PREC" was listed twice, once for the rule, once for it)
        rule, _, how = reading.partition(": ")
        line = f"{rule}: {rule_text(rule)}"
        if how and line in out:
            out[out.index(line)] = f"{line}; here: {how}"
        else:
            out.append(reading)
    return out


def steps(ev: Any, f: finish.Facts, i: int) -> list[str]:
    """The "why", in order: operands, input flush, exact op, rounding, output, allowed set."""
    ctx = ev._ctx
    fmt = ctx.fmt
    names = _operand_names(ev)
    out = [f"{ev.op} in {fmt.name} under {ev.rules}: {ev.spec.description}"]
    for k, b in enumerate(f.ops):
        out.append(f"{names[k]} = {fmt_pattern(int(b[0]), fmt)}")
    if ctx.traits.flushes_inputs:
        for k, m in enumerate(f.ftz_in):
            if m[0]:
                out.append(f"{names[k]} is a denormal: flushed to a signed zero first (F32-FTZ)")
    if ev.result_format == "bool":
        out.append(f"result: {bool(f.core.bits[0])} (exact comparison of the flushed values)")
        return out
    hi, lo = float(f.hi[0]), float(f.lo[0])
    ex = _num(hi) + (f" {'+' if lo > 0 else '-'} {abs(lo)!r}" if lo else "")
    out.append(f"exact result: {ex}")
    if ctx.traits.rounds:
        # an exact NaN has no sign: the sign bit float64 gives it depends on which path
        # computed the exact value (numpy's sqrt of a negative, or a NaN put in), so the
        # step names the quiet NaN the model gives
        u = fmt.quiet_nan if f.exact_nan[0] else int(f.unrounded[0])
        out.append(f"rounded to nearest even in {fmt.name}: {fmt_pattern(u, fmt)}")
    if f.ftz_out[0]:
        out.append(f"result is a denormal: flushed to {fmt_pattern(int(f.core.bits[0]), fmt)} "
                   "(F32-FTZ)")
    if np.isnan(f.hi[0]):
        out.append(f"result is NaN ({nan_rule(finish.fired_rules(f))}): the model gives the "
                   f"canonical quiet NaN 0x{fmt.quiet_nan:X}; any NaN is conformant")
    out.append(f"model result: {fmt_pattern(int(f.core.bits[0]), fmt)}")
    out.append(f"tolerance: {ev.tolerance.describe()}")
    out.append(f"allowed: {finish.allowed_sets(f).at(0).describe()}")
    out.extend(ev.readings)
    return out


@dataclass(frozen=True)
class Verdict:
    """The verdict on one observed result.

    ``conformant``: the observation is in the allowed set. ``reason``: one sentence that
    says why (naming the rule). ``ulp_error``: signed error in ULPs of the exact value, or
    None where a number would mislead (NaN or INF involved, saturation, clamps), and then
    ``ulp_note`` says why. ``allowed``: the exact allowed set.
    """

    conformant: bool
    reason: str
    ulp_error: float | None
    ulp_note: str
    allowed: AllowedSet


def _zero_text(p: int, fmt: FloatFormat) -> str:
    return "-0" if fmt.signed and (p >> (fmt.bits - 1)) & 1 else "+0"


#: The rules that make an exact result NaN without a NaN operand: an invalid operation.
INVALID_OPERATION_RULES = ("F32-SQRTNEG", "F32-INFINF", "F32-LOG0", "F32-DIV0")


def nan_rule(rules: Any) -> str:
    """The rule that made a result NaN: F32-NANOUT where a NaN went in, else the invalid
    operation's own rule (sqrt(-1) is F32-SQRTNEG, not "NaN in gives NaN out")."""
    rules = list(rules)
    if "F32-NANOUT" in rules:
        return "F32-NANOUT"
    return ", ".join(r for r in rules if r in INVALID_OPERATION_RULES) or "F32-NANOUT"


def verdict(ev: Any, f: finish.Facts, observed: Any, sets: Any = None) -> Verdict:
    """Verdict on one observed pattern of a one-element facts record (see Verdict);
    ``sets``: ``finish.allowed_sets(f)`` where the caller has it already."""
    if ev.result_format == "bool":
        want = bool(f.core.bits[0])
        ok = bool(observed) == want
        s = AllowedSet("bool", ((int(want), int(want)),), False)
        reason = ("the comparison's exact answer" if ok else
                  f"the comparison is {str(want).lower()} under {ev.rules} "
                  f"({', '.join(finish.fired_rules(f)) or 'exact comparison'})")
        return Verdict(ok, reason, None, "comparisons have no ULP error", s)
    ctx = ev._ctx
    fmt = ctx.fmt
    obs, o, o_val, o_nan = _observed(fmt, observed)
    if sets is None:
        sets = finish.allowed_sets(f)
    aset = sets.at(0)
    ok = bool(sets.contains(o)[0])
    hi, lo = float(f.hi[0]), float(f.lo[0])
    err, note = _figure(fmt, hi, lo, o_val, o_nan)
    rules = list(finish.fired_rules(f))
    model = int(f.core.bits[0])
    if ok:
        if obs == model:
            reason = f"the model's result: {_model_result_words(ctx)}" + (
                f" ({', '.join(r for r in rules if r != 'F32-NANOUT')})" if rules else "")
            if hi != hi:
                reason = f"NaN, and any NaN is allowed here ({nan_rule(rules)})"
        elif o_nan:
            reason = f"NaN, and any NaN is allowed here ({nan_rule(rules)})"
        elif ctx.traits.picks_operand and grid.is_den(o, fmt)[0]:
            reason = "the unflushed operand: min/max may or may not flush (F32-MINMAX-FTZ)"
        else:
            reason = f"within the allowed set: {ctx.tol.describe()}"
        return Verdict(True, reason, err, note, aset)
    reason = _why_not(ev, f, aset, obs, o_val, o_nan, hi, lo, rules)
    return Verdict(False, reason, err, note, aset)


def ulp_figure(fmt: FloatFormat, hi: float, lo: float, observed: int) -> tuple[float | None, str]:
    """(ULP error, note) of one observed pattern against the exact value ``hi + lo``: the
    signed error in ULPs of the exact value's binade, or None and why a number would
    mislead (a NaN exact value or observation, an infinity). A :class:`Verdict`'s figure,
    and the raw inputs' one beside it (``raw_inputs.RawExact``). ValueError where
    ``observed`` is not a pattern of ``fmt``."""
    _, _, o_val, o_nan = _observed(fmt, observed)
    return _figure(fmt, hi, lo, o_val, o_nan)


def _observed(fmt: FloatFormat, observed: Any) -> tuple[int, np.ndarray, float, bool]:
    """(pattern, as a one-element array, its value, whether it is a NaN) of an observed
    result; ValueError where it is not a pattern of ``fmt`` (one check for every figure
    and verdict, so they reject the same inputs with the same words)."""
    obs = int(observed)
    if obs < 0 or obs > fmt.mask:
        raise ValueError(f"observed result: 0x{obs:X} is not a {fmt.name} pattern")
    o = np.array([obs], dtype=fmt.dtype)
    return obs, o, _value(obs, fmt), bool(fmt.is_nan(o)[0])


def _figure(fmt: FloatFormat, hi: float, lo: float, o_val: float,
            o_nan: bool) -> tuple[float | None, str]:
    if hi != hi:
        return None, "no ULP error: the exact result is NaN"
    if o_nan:
        return None, "no ULP error: the observed result is NaN"
    if np.isinf(hi) or np.isinf(o_val):
        return None, "no ULP error: infinity is involved"
    u = ulp_at_one(hi, lo, fmt)
    return ((o_val - hi) - lo) / u, ""


def _model_result_words(ctx: Any) -> str:
    """What the model's result is, in words that fit the op: min/max select an operand and
    a raw move keeps one (nothing is rounded); the others round the exact value."""
    return str(ctx.traits.model_words)


def _why_not(ev: Any, f: finish.Facts, aset: AllowedSet, obs: int, o_val: float,
             o_nan: bool, hi: float, lo: float, rules: list[str]) -> str:
    """The one sentence that says why an observation is not allowed."""
    ctx = ev._ctx
    fmt = ctx.fmt
    short = aset.describe(limit=3)
    if o_nan:
        return f"NaN is not allowed here: the result must be {short}"
    if not aset.keys and aset.any_nan:
        why = [r for r in rules if r in ("F32-INFINF", "F32-NANPROP", "F32-SQRTNEG",
                                         "F32-LOG0", "F32-DIV0", "F32-DIV")]
        return (f"the result must be NaN ({', '.join(why) or 'F32-NANOUT'}), not "
                f"{fmt_pattern(obs, fmt)}")
    o = np.array([obs], dtype=fmt.dtype)
    if ctx.strict_out and bool(grid.is_den(o, fmt)[0]):
        zero = _zero_text(obs, fmt)
        head = "exact value, but a" if (o_val == hi and lo == 0) else "a"
        return f"{head} denormal result must be flushed to {zero}: F32-FTZ"
    if o_val == 0:
        other = [r for r in aset.ranges if r[0] == r[1] and _value(r[0], fmt) == 0]
        if other:
            return (f"wrong zero sign: only {_zero_text(other[0][0], fmt)} is allowed "
                    "(ALLOWED-ZERO)")
    if "F32-IDENT" in rules:
        return f"the identity is exact: only {short} is allowed (F32-IDENT)"
    if ctx.tol.exact_when_representable and not f.inexact[0]:
        return f"the exact result is representable and must be returned: {short} ({ctx.tol.rule})"
    if np.isinf(o_val):
        return f"{_num(o_val)} is not allowed here: the result must be {short}"
    return f"outside the allowed results {short} ({ctx.tol.describe()})"
