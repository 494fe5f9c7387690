"""The rule book as data: one row per RULES.md / CONVERSIONS.md rule ID, plus the rule sets."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Rule", "RULES", "RULE_SETS", "rule_text", "check_rules"]

#: The rule sets understood by :func:`fpinspector.model.evaluate` (d3d11 is the default).
RULE_SETS: tuple[str, ...] = ("d3d11", "d3d10", "ieee754")


@dataclass(frozen=True)
class Rule:
    """One rule: its stable ID, the one-line statement, and where it comes from."""

    id: str
    text: str
    source: str = "RULES.md"


_ROWS = [
    ("F32-DIV0", "x/0 is +/-INF for finite nonzero x (sign = xor of signs); 0/0 is NaN"),
    ("F32-LOG0", "log(+0) and log(-0) are -INF; log of a negative value is NaN"),
    ("F32-SQRTNEG", "sqrt/rsq of a negative value are NaN; sqrt(-0) = -0, rsq(-0) = -INF"),
    ("F32-INFINF", "INF - INF, INF / INF and INF * 0 are NaN"),
    ("F32-NANPROP", "a NaN operand to an arithmetic op gives NaN"),
    ("F32-CMPNAN", "eq/gt/ge/lt/le with a NaN operand are false; ne is true"),
    ("F32-CMPZERO", "comparisons ignore the sign of zero (+0 == -0)"),
    ("F32-CMPINF", "comparisons with +/-INF give the mathematically correct answer"),
    ("F32-PREC", "add/sub/mul: d3d11 correctly rounded (0.5 ULP); d3d10 1 ULP"),
    ("F32-DIV", "div: d3d11 at least as accurate as x * rcp(y); d3d10 1 ULP"),
    ("F32-SQRT-RCP", "sqrt and rcp: 1 ULP (rcp/rsq also 2^-21 relative)"),
    ("F32-NOEXC", "no floating-point exceptions, status bits or traps"),
    ("F32-FTZ", "denormals flush to sign-preserved zero on input and output of math ops"),
    ("F32-STATE", "state values given as denormals may or may not be flushed"),
    ("F32-MINMAX-FTZ", "min/max flush denormals for the comparison; result flushed or not"),
    ("F32-NANOUT", "NaN in gives NaN out, any NaN bits (raw move keeps them)"),
    ("F32-MINMAX-NAN", "min/max with exactly one NaN return the other operand"),
    ("F32-MINMAX-ZERO", "min(-0,+0) = -0, max(-0,+0) = +0 recommended; either zero conformant"),
    ("F32-IDENT", "x*1 = x, x/1 = x, x+0 = x, x-0 = x; but -0 + 0 = +0"),
    ("F32-FUSED", "mad/dp no less accurate than the worst serial order of the unfused steps"),
    ("F32-INSTR", "per-instruction tolerances for div, rcp, rsq, exp, log, frc, round_*"),
    ("F64-IEEE", "double-precision instructions follow IEEE 754R"),
    ("F64-DENORM", "f64 denormals are produced and read as denormals"),
    ("F64-OPTIONAL", "f64 support is optional in hardware"),
    ("F16-PREC", "f16 unfused ops correctly rounded; fused ops within 0.6 ULP"),
    ("F16-DENORM", "f16 denormals are kept"),
    ("F11-PREC", "f11/f10 ops 0.5 ULP"),
    ("F11-DENORM", "f11/f10 denormals are kept"),
    ("F11-CLAMP", "an op that would give a value below zero gives zero in f11/f10"),
    ("IEEE-RNE", "ieee754 rule set: round to nearest even, denormals kept"),
    ("IEEE-MINMAX", "ieee754 minNum/maxNum: a signaling NaN operand gives NaN"),
]
_CONV_ROWS = [
    ("CONV-F2F-RTZ", "float to smaller float rounds toward zero (§3.2.2)"),
    ("CONV-F2F-SAT", "too large finite values become the largest finite value (§3.2.2)"),
    ("CONV-NAN", "NaN becomes NaN where the target has NaN, else 0 (§3.2.2)"),
    ("CONV-INF", "INF stays INF where the target has it (§3.2.2)"),
    ("CONV-DENORM", "target denormals kept where possible, else 0 (§3.2.2)"),
    ("CONV-WIDEN", "widening conversions are exact (§3.2.2)"),
    ("CONV-UNSIGNED", "negatives into f11/f10 become 0 (§3.1.6)"),
    ("CONV-DTOF", "dtof rounds to nearest even (§22)"),
    ("CONV-F16-INSTR", "f32tof16 / f16tof32 follow the conversion rules (§22)"),
    ("CONV-FTOI", "ftoi/ftou round toward zero, clamp, NaN -> 0 (§3.2.2, §22)"),
    ("CONV-ITOF", "itof/utof: nearest even recommended, either neighbour conformant (§22)"),
    ("CONV-UNORM", "UNORM conversions (§3.2.3)"),
    ("CONV-SNORM", "SNORM conversions (§3.2.3)"),
    ("CONV-SRGB", "sRGB conversions (§3.2.3)"),
    ("CONV-RGB9E5", "RGB9E5 shared-exponent format (§19.3.2)"),
]

#: rule ID -> Rule; the IEEE-* rows name the baseline behaviours of the ieee754 rule set.
RULES: dict[str, Rule] = {
    **{i: Rule(i, t) for i, t in _ROWS},
    **{i: Rule(i, t, "CONVERSIONS.md") for i, t in _CONV_ROWS},
}


def rule_text(rule_id: str) -> str:
    """One-line statement of a rule, for sentences and the UI."""
    r = RULES.get(rule_id)
    return r.text if r else "rule of the conversions module (see CONVERSIONS.md)"


def check_rules(ids: object) -> None:
    """Raise ValueError if any ID is not in the table (guards typos in the engine)."""
    bad = [i for i in ids if i not in RULES]  # type: ignore[attr-defined]
    if bad:
        raise ValueError(f"unknown rule IDs: {', '.join(bad)}")
