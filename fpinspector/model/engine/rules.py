"""The rule book as data: one row per docs/rules.md rule ID, plus the rule sets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..formats import FORMATS, FloatFormat

__all__ = ["Rule", "RULES", "RULE_SETS", "RuleSet", "RULE_SET_RECORDS", "rule_text",
           "check_rules", "arithmetic_gap", "rule_set", "ALWAYS"]


@dataclass(frozen=True)
class RuleSet:
    """One rule set: what the engine needs to know of it (nothing asks for it by name).

    ``d3d``: it is D3D's: ops exist only in formats whose record says D3D defines
    arithmetic in them (``FloatFormat.d3d_arith``), float conversions take D3D's policy
    (the ``d3d`` encoder variant, CONV-DTOF for f64 to f32), and the formats' own D3D
    rules (``FloatFormat.denorm_rule``) fire; else the IEEE 754 baseline (IEEE-RNE, the
    ``ieee`` encoder variant). Which formats it flushes is each format's ``flush_under``.
    ``minmax_snan``: min/max with a signalling NaN operand give NaN (IEEE-MINMAX, IEEE
    754-2008 minNum/maxNum); D3D's make no difference between NaNs (F32-MINMAX-NAN).
    ``div_route``: a divide in a format that D3D lets take the two-step route x * rcp(y)
    (``FloatFormat.d3d_div_route``) may take it: ``ALWAYS`` (F32-DIV), the name of the
    option that allows it (F32-DIV-D3D10), or ``""`` (never).
    ``readings``: the options that pick a reading of its ambiguous text (docs/rules.md
    "Options"); the tolerance of a rule that the option reads follows it.
    """

    name: str
    d3d: bool
    text: str
    minmax_snan: bool = False
    div_route: str = ""
    readings: tuple[str, ...] = ()

    def takes_div_route(self, opts: Mapping[str, Any]) -> bool:
        """A divide's set holds the two-step route under these options (in a format whose
        record allows it)."""
        return self.div_route == ALWAYS or bool(self.div_route and opts[self.div_route])


#: ``RuleSet.div_route``: the route is always part of the divide's set.
ALWAYS = "always"

#: name -> rule set understood by :func:`fpinspector.model.evaluate` (d3d11 is the default).
RULE_SET_RECORDS: dict[str, RuleSet] = {r.name: r for r in (
    RuleSet("d3d11", True, "Direct3D 11.3 functional spec", div_route=ALWAYS,
            readings=("lenient_d3d11", "fused_step_ulp", "rcp_tolerance")),
    RuleSet("d3d10", True, "Direct3D 10 rules (looser div and add/sub/mul)",
            div_route="d3d10_div_route", readings=("d3d10_div_route",)),
    RuleSet("ieee754", False, "IEEE 754-2008 baseline: nearest even, denormals kept",
            minmax_snan=True),
)}
#: The rule set names, in the order the pickers list them.
RULE_SETS: tuple[str, ...] = tuple(RULE_SET_RECORDS)


def rule_set(name: str) -> RuleSet:
    """The record of a rule set, with a clear error for an unknown name."""
    try:
        return RULE_SET_RECORDS[name]
    except KeyError:
        raise ValueError(f"unknown rule set {name!r}; choose one of {', '.join(RULE_SETS)}"
                         ) from None


def arithmetic_gap(fmt: str | FloatFormat, rules: str) -> str | None:
    """Why there is no op in ``fmt`` under ``rules`` (a sentence), or None where there is."""
    f = FORMATS[fmt] if isinstance(fmt, str) else fmt
    rs = RULE_SET_RECORDS.get(rules)
    if rs is None or not rs.d3d or f.d3d_arith:
        return None
    return (f"D3D defines no arithmetic for {f.name} ({f.rule_id}): its values convert to "
            f"and from every format, but ops on it are not D3D's: under {rules} none exist; "
            f"under ieee754 they are IEEE 754 ops in {f.name}'s own range")


@dataclass(frozen=True)
class Rule:
    """One rule: its stable ID, the one-line statement, and where it comes from."""

    id: str
    text: str
    source: str = "docs/rules.md"


_ROWS = [
    ("FMT-F64", "float64: sign, 11 exponent bits (bias 1023), 52 fraction bits; denormals kept",
     "docs/rules.md; D3D11.3 §3.1.4"),
    ("FMT-F32", "float32: sign, 8 exponent bits (bias 127), 23 fraction bits; math flushes them",
     "docs/rules.md; D3D11.3 §3.1.3"),
    ("FMT-F16", "float16: sign, 5 exponent bits (bias 15), 10 fraction bits; denormals kept",
     "docs/rules.md; D3D11.3 §3.1.5"),
    ("FMT-F11", "float11: no sign, 5 exponent bits (bias 15), 6 fraction bits (R, G of R11G11B10)",
     "docs/rules.md; D3D11.3 §3.1.6, §19.3.3"),
    ("FMT-F10", "float10: no sign, 5 exponent bits (bias 15), 5 fraction bits (B of R11G11B10)",
     "docs/rules.md; D3D11.3 §3.1.6, §19.3.3"),
    ("FMT-R11G11B10", "packed word: R in bits 0-10, G in bits 11-21, B in bits 22-31",
     "docs/rules.md; D3D11.3 §19.3.3"),
    ("DEC-NAN", "exponent all ones, fraction non-zero: NaN (f16: whatever the sign)",
     "docs/rules.md; D3D11.3 §3.1.5, §3.1.6"),
    ("DEC-INF", "exponent all ones, fraction zero: infinity (f11/f10: +INF only)",
     "docs/rules.md; D3D11.3 §3.1.5, §3.1.6"),
    ("DEC-NORMAL", "exponent neither 0 nor all ones: (-1)^s * 2^(e-bias) * (1 + f/2^F)",
     "docs/rules.md; D3D11.3 §3.1.5, §3.1.6"),
    ("DEC-DENORM", "exponent 0, fraction non-zero: (-1)^s * 2^(1-bias) * (f/2^F)",
     "docs/rules.md; D3D11.3 §3.1.5, §3.1.6"),
    ("DEC-ZERO", "exponent 0, fraction zero: signed zero (f11/f10: zero)",
     "docs/rules.md; D3D11.3 §3.1.5, §3.1.6"),
    ("F32-DIV0", "x/0 is +/-INF for finite nonzero x (sign = xor of signs); 0/0 is NaN",
     "docs/rules.md; D3D11.3 §3.1.3.1, §22.10.2, §22.10.18"),
    ("F32-LOG0", "log(+0) and log(-0) are -INF; log of a negative value is NaN",
     "docs/rules.md; D3D11.3 §3.1.3.1, §22.10.8"),
    ("F32-SQRTNEG", "sqrt/rsq of a negative value are NaN; sqrt(-0) = -0, rsq(-0) = -INF",
     "docs/rules.md; D3D11.3 §3.1.3.1, §22.10.19, §22.10.21"),
    ("F32-INFINF", "INF - INF, INF / INF and INF * 0 are NaN",
     "docs/rules.md; D3D11.3 §3.1.3.1, §22.10.7"),
    ("F32-NANPROP", "a NaN operand to an arithmetic op gives NaN",
     "docs/rules.md; D3D11.3 §3.1.3.1"),
    ("F32-CMPNAN", "eq/gt/ge/lt/le with a NaN operand are false; ne is true",
     "docs/rules.md; D3D11.3 §3.1.3.1, §22.6.1, §22.6.8"),
    ("F32-CMPZERO", "comparisons ignore the sign of zero (+0 == -0)",
     "docs/rules.md; D3D11.3 §3.1.3.1, §22.6.1"),
    ("F32-CMPINF", "comparisons with +/-INF give the mathematically correct answer",
     "docs/rules.md; D3D11.3 §3.1.3.1"),
    ("F32-PREC", "add/sub/mul: d3d11 correctly rounded (0.5 ULP); d3d10 1 ULP",
     "docs/rules.md; D3D11.3 §3.1.3.1, §3.1.2"),
    ("F32-DIV", "div: d3d11 at least as accurate as x * rcp(y); d3d10 1 ULP",
     "docs/rules.md; D3D11.3 §3.1.3.2, §22.10.2"),
    ("F32-DIV-D3D10", "d3d10 div: within 1 ULP with IEEE special values; the route is an option",
     "docs/rules.md; D3D11.3 §22.10.2"),
    ("F32-WINDOW-TOP", "a 1-ULP window reaches INF only from an exact value beyond FLT_MAX",
     "docs/rules.md; D3D11.3 §3.1.2, §3.1.3.2"),
    ("F32-SQRT-RCP", "sqrt and rcp: 1 ULP (rcp/rsq also 2^-21 relative)",
     "docs/rules.md; D3D11.3 §3.1.3.2, §22.10.18, §22.10.21"),
    ("F32-NOEXC", "no floating-point exceptions, status bits or traps",
     "docs/rules.md; D3D11.3 §3.1.3.2"),
    ("F32-FTZ", "denormals flush to sign-preserved zero on input and output of math ops",
     "docs/rules.md; D3D11.3 §3.1.3.2, §22.9.1"),
    ("F32-STATE", "state values given as denormals may or may not be flushed",
     "docs/rules.md; D3D11.3 §3.1.3.2"),
    ("F32-MINMAX-FTZ", "min/max flush denormals for the comparison; result flushed or not",
     "docs/rules.md; D3D11.3 §3.1.3.2, §22.10.10, §22.10.11"),
    ("F32-NANOUT", "NaN in gives NaN out, any NaN bits (raw move keeps them)",
     "docs/rules.md; D3D11.3 §3.1.3.2"),
    ("F32-MINMAX-NAN", "min/max with exactly one NaN return the other operand",
     "docs/rules.md; D3D11.3 §3.1.3.1, §3.1.3.2, §22.10.10, §22.10.11"),
    ("F32-MINMAX-ZERO", "min(-0,+0) = -0, max(-0,+0) = +0 recommended; either zero conformant",
     "docs/rules.md; D3D11.3 §3.1.3.2"),
    ("F32-IDENT", "x*1 = x, x/1 = x, x+0 = x, x-0 = x; but -0 + 0 = +0",
     "docs/rules.md; D3D11.3 §3.1.3.2, §22.10.2, §22.10.12"),
    ("F32-FUSED", "mad/dp no less accurate than the worst serial order of the unfused steps",
     "docs/rules.md; D3D11.3 §3.1.3.2, §22.10.9"),
    ("F32-INSTR", "per-instruction tolerances for div, rcp, rsq, exp, log, frc, round_*",
     "docs/rules.md; D3D11.3 §22.10.6, §22.10.7, §22.10.8, §22.10.14 to §22.10.19"),
    ("ALLOWED-ZERO", "+0 and -0 differ; a window holds only the zeros a permitted evaluation gives",
     "docs/rules.md; D3D11.3 §3.1.3.1, §3.1.3.2, §22.10.6, §22.10.18"),
    ("F64-IEEE", "double-precision instructions follow IEEE 754R",
     "docs/rules.md; D3D11.3 §3.1.4"),
    ("F64-MINMAX-NAN", "dmin/dmax with exactly one NaN return the other operand; every NaN alike",
     "docs/rules.md; D3D11.3 §22.14.2, §22.14.3"),
    ("F64-RCP", "drcp within 1 ULP, exact whenever 1/x is representable",
     "docs/rules.md; D3D11.3 §3.1.4, §22.14.5"),
    ("F64-DENORM", "f64 denormals are produced and read as denormals",
     "docs/rules.md; D3D11.3 §3.1.4"),
    ("F64-OPTIONAL", "f64 support is optional in hardware",
     "docs/rules.md; D3D11.3 §3.1.4"),
    ("F16-PREC", "f16 unfused ops correctly rounded; fused ops within 0.6 ULP",
     "docs/rules.md; D3D11.3 §3.1.5, §26"),
    ("F16-DENORM", "f16 denormals are kept",
     "docs/rules.md; D3D11.3 §3.1.5"),
    ("F11-PREC", "f11/f10 ops 0.5 ULP",
     "docs/rules.md; D3D11.3 §3.1.6"),
    ("F11-DENORM", "f11/f10 denormals are kept",
     "docs/rules.md; D3D11.3 §3.1.6"),
    ("F11-CLAMP", "an op that would give a value below zero gives zero in f11/f10",
     "docs/rules.md; D3D11.3 §3.1.6"),
    ("IEEE-RNE", "ieee754 rule set: round to nearest even, denormals kept",
     "docs/rules.md; IEEE 754-2008 clause 4.3.1"),
    ("IEEE-MINMAX", "ieee754 minNum/maxNum: a signaling NaN operand gives NaN",
     "docs/rules.md; IEEE 754-2008 clauses 5.3.1, 6.2; D3D11.3 §3.1.3.2"),
]
_CONV_ROWS = [
    ("CONV-F2F-RTZ", "float to smaller float rounds toward zero (§3.2.2)",
     "docs/rules.md; D3D11.3 §3.2.2"),
    ("CONV-F2F-SAT", "too large finite values become the largest finite value (§3.2.2)",
     "docs/rules.md; D3D11.3 §3.2.2"),
    ("CONV-NAN", "NaN becomes NaN where the target has NaN, else 0 (§3.2.2)",
     "docs/rules.md; D3D11.3 §3.2.2"),
    ("CONV-INF", "INF stays INF where the target has it (§3.2.2)",
     "docs/rules.md; D3D11.3 §3.2.2"),
    ("CONV-DENORM", "target denormals kept where possible, else 0 (§3.2.2)",
     "docs/rules.md; D3D11.3 §3.2.2"),
    ("CONV-WIDEN", "widening conversions are exact (§3.2.2)",
     "docs/rules.md; D3D11.3 §3.2.2"),
    ("CONV-UNSIGNED", "negatives into f11/f10 become 0 (§3.1.6)",
     "docs/rules.md; D3D11.3 §3.1.6, §3.2.2"),
    ("CONV-DTOF", "dtof rounds to nearest even (§22)",
     "docs/rules.md; D3D11.3 §22.17.1"),
    ("CONV-F16-INSTR", "f32tof16 / f16tof32 follow the conversion rules (§22)",
     "docs/rules.md; D3D11.3 §22.13.1, §22.13.2"),
    ("CONV-FTOI", "ftoi/ftou round toward zero, clamp, NaN -> 0 (§3.2.2, §22)",
     "docs/rules.md; D3D11.3 §22.13.3, §22.13.4"),
    ("CONV-ITOF", "itof/utof: nearest even recommended, either neighbour conformant (§22)",
     "docs/rules.md; D3D11.3 §22.13.5, §22.13.6"),
    ("CONV-UNORM", "UNORM conversions (§3.2.3)",
     "docs/rules.md; D3D11.3 §3.2.3.5, §3.2.3.6"),
    ("CONV-SNORM", "SNORM conversions (§3.2.3)",
     "docs/rules.md; D3D11.3 §3.2.3.3, §3.2.3.4"),
    ("CONV-SRGB", "sRGB conversions (§3.2.3)",
     "docs/rules.md; D3D11.3 §3.2.3.7, §3.2.3.8"),
    ("CONV-RGB9E5", "RGB9E5 shared-exponent format (§19.3.2)",
     "docs/rules.md; D3D11.3 §19.3.2"),
    ("ROUND-NEAREST", "this encoder variant rounds to nearest even (not the D3D rule)",
     "docs/rules.md; IEEE 754-2008 clause 4.3.1; D3D11.3 §3.2.2"),
    ("VARIANT-QUIRK", "the vendor encoder differs from its own nominal rounding policy",
     "docs/rules.md; the variant's cited source"),
]

#: rule ID -> Rule; the IEEE-* rows name the baseline behaviours of the ieee754 rule set;
#: a format with no row above brings its own (its record's description and source).
RULES: dict[str, Rule] = {
    **{i: Rule(i, t, s) for i, t, s in _ROWS},
    **{i: Rule(i, t, s) for i, t, s in _CONV_ROWS},
}
RULES.update((f.rule_id, Rule(f.rule_id, f"{f.name}: {f.description}", f.rule_source))
             for f in FORMATS.values() if f.rule_id not in RULES)


def rule_text(rule_id: str) -> str:
    """One-line statement of a rule, for sentences and the UI."""
    r = RULES.get(rule_id)
    return r.text if r else "rule of the conversions module (see docs/rules.md)"


def check_rules(ids: object) -> None:
    """Raise ValueError if any ID is not in the table (guards typos in the engine)."""
    bad = [i for i in ids if i not in RULES]  # type: ignore[attr-defined]
    if bad:
        raise ValueError(f"unknown rule IDs: {', '.join(bad)}")
