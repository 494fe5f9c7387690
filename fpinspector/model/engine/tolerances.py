"""Tolerance table (one group of rows per kind of op; rows per format x rule set) and the
AMBIGUOUS switches.

Each op row (engine/optable.py) points at its group; the shared rows follow. Each row
cites the rule ID and the docs/rules.md / D3D11.3 section it comes from, so adding a rule
set is adding rows. ``tolerance_for`` applies the options (OPTIONS) on
top of the table and reports which reading it used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from .rules import rule_set

__all__ = ["Tolerance", "TolRow", "Option", "OPTIONS", "TOLERANCES", "tolerance_for",
           "resolve_options"]


@dataclass(frozen=True)
class Tolerance:
    """How far a conformant result may be from the exact one.

    kind: ``cr`` (correctly rounded only), ``ulp`` (|error| <= ``ulp`` ULPs of the exact
    value's binade), ``rel`` (|error| <= ``rel`` * |exact|), ``rel_or_ulp`` (the looser
    of the two), ``log`` (absolute ``rel`` for x in [0.5, 2], relative elsewhere), ``div``
    (as accurate as x * rcp(y), mul step ``ulp``), ``fused`` (worst serial order, each
    step ``ulp``; ``cr`` steps when ulp is 0.5), ``exact``, ``frc``, ``select`` (min/max),
    ``bool`` (comparisons), ``raw`` (bit-exact move).
    """

    kind: str
    ulp: float = 0.5
    rel: float = 0.0
    rule: str = ""
    source: str = ""
    #: the result must be exact where the exact result is a value of the format (F64-RCP)
    exact_when_representable: bool = False

    def describe(self) -> str:
        """Human text for the CLI and UI."""
        k = self.kind
        if k == "cr":
            s = "correctly rounded (0.5 ULP)"
        elif k == "ulp":
            s = f"within {self.ulp:g} ULP"
        elif k == "rel":
            s = f"relative error {self.rel:.3g} (2^-21)"
        elif k == "rel_or_ulp":
            s = f"the looser of {self.ulp:g} ULP and relative {self.rel:.3g}"
        elif k == "log":
            s = "absolute 2^-21 for x in [0.5, 2], relative 2^-21 elsewhere"
        elif k == "div":
            s = f"at least as accurate as x * rcp(y) (mul {self.ulp:g} ULP, rcp 1 ULP)"
        elif k == "fused":
            s = f"no worse than the worst serial order, {self.ulp:g} ULP a step"
        else:
            s = {"exact": "exact", "frc": "x - round_ni(x) in [+0, 1)",
                 "select": "one of the operands (min/max rules)", "bool": "exact boolean",
                 "raw": "bit-exact"}.get(k, k)
        if self.exact_when_representable:
            s += ", exact when the result is representable"
        return f"{s} [{self.rule}; {self.source}]"


@dataclass(frozen=True)
class Option:
    """An AMBIGUOUS point of docs/rules.md made into a named switch."""

    name: str
    default: Any
    choices: tuple
    rule: str
    text: str


OPTIONS: dict[str, Option] = {o.name: o for o in (
    Option("lenient_d3d11", False, (False, True), "F32-PREC",
           "read d3d11 add/sub/mul as 1 ULP (the docs page's truncation remark) instead of "
           "0.5 ULP (D3D11.3 §3.1.3)"),
    Option("fused_step_ulp", 0.5, (0.5, 1.0), "F32-FUSED",
           "ULPs allowed per serial step of mad/dp under d3d11: 0.5 (functional spec) or 1 "
           "(docs page)"),
    Option("ftz_output", "strict", ("strict", "either"), "F32-FTZ",
           "a denormal f32 result must be flushed (strict, docs/rules.md wording) or may be kept"),
    Option("rcp_tolerance", "looser", ("looser", "ulp", "rel"), "F32-SQRT-RCP",
           "d3d11 rcp: the looser of 1 ULP (§3.1.3) and 2^-21 relative (§22.10), or only one"),
    Option("inf_div_huge_nan", True, (True, False), "F32-DIV",
           "allow NaN for INF / y with |y| > 2^126 (1/y flushes; §22 note)"),
    Option("d3d10_div_route", False, (False, True), "F32-DIV-D3D10",
           "d3d10 div: 1 ULP with IEEE special values only (default), or also every result "
           "of the two-step route x * rcp(y) (flushed reciprocal, INF * 0 = NaN)"),
    Option("f64_minmax_snan", False, (False, True), "F64-MINMAX-NAN",
           "f64 min/max under d3d rule sets: a signaling NaN behaves like a quiet one (the "
           "other operand is returned, D3D11.3 §22.14) or, as in IEEE 754R, gives NaN"),
    Option("frc_allow_one", False, (False, True), "F32-INSTR",
           "frc of a tiny negative x: only the value below 1 (the instruction table's "
           "[+0, 1)) or also 1.0 (the operation line x - round_ni(x))"),
    Option("dtof_overflow", "either", ("either", "inf", "max"), "CONV-DTOF",
           "dtof of a value beyond the f32 range: +/-INF (round to nearest) or +/-FLT_MAX "
           "(§3.2.2 saturation); both allowed by default"),
    Option("neg_inf_to_f11", "zero", ("zero", "inf"), "CONV-UNSIGNED",
           "-INF into f11/f10: 0 (§3.1.6, GL, DirectXMath, Mesa) or INF (§3.2.2)"),
)}


def resolve_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults merged with the caller's options; unknown names or values are ValueErrors."""
    out = {k: o.default for k, o in OPTIONS.items()}
    for k, v in (options or {}).items():
        if k not in OPTIONS:
            raise ValueError(f"unknown option {k!r}; choose from {', '.join(OPTIONS)}")
        o = OPTIONS[k]
        if isinstance(v, str) and not isinstance(o.default, str):
            v = _parse_value(k, v)
        if v not in o.choices:
            raise ValueError(f"option {k}={v!r}: choose one of {o.choices}")
        out[k] = v
    return out


def _parse_value(name: str, text: str) -> Any:
    t = text.strip().lower()
    if t in ("true", "yes", "on", "1"):
        return True
    if t in ("false", "no", "off", "0"):
        return False
    try:
        return float(t)
    except ValueError:
        raise ValueError(f"option {name}: cannot read value {text!r}") from None


_S313 = "D3D11.3 §3.1.3"
_S22 = "D3D11.3 §22.10 (docs/rules.md per-instruction tolerances)"
_D3D = ("d3d11", "d3d10")
_ALL = ("d3d11", "d3d10", "ieee754")
_F = ("f32", "f16", "f64")
#: formats D3D defines no arithmetic for (FMT-BF16, FMT-E5M2, FMT-E4M3): their ops are
#: IEEE-style in the format's own range, under ieee754 only (engine/rules.py arithmetic_gap)
_OWN = ("bf16", "e5m2", "e4m3")



class TolRow(NamedTuple):
    """One tolerance row: in these formats under these rule sets (the first matching row
    of an op's group wins, then the shared rows)."""

    formats: tuple[str, ...]
    rule_sets: tuple[str, ...]
    tolerance: Tolerance


#: The tolerance groups; each op row (engine/optable.py) points at its group.
F32_PREC = (  # add, sub, mul
    TolRow(("f32",), ("d3d11",), Tolerance("cr", 0.5, 0, "F32-PREC", _S313)),
    TolRow(("f32",), ("d3d10",), Tolerance("ulp", 1.0, 0, "F32-PREC", _S313)),
)
DIV = (
    TolRow(("f32",), ("d3d11",), Tolerance("div", 0.5, 0, "F32-DIV", _S22)),
    TolRow(("f32",), ("d3d10",), Tolerance("ulp", 1.0, 0, "F32-DIV-D3D10", _S22)),
)
FUSED = (  # mad, dp2, dp3, dp4
    TolRow(("f32",), ("d3d11",), Tolerance("fused", 0.5, 0, "F32-FUSED", _S22)),
    TolRow(("f32",), ("d3d10",), Tolerance("fused", 1.0, 0, "F32-FUSED", _S22)),
    TolRow(("f16",), _D3D,
           Tolerance("ulp", 0.6, 0, "F16-PREC", "D3D11_FLOAT16_FUSED_TOLERANCE_IN_ULP")),
)
SQRT = (TolRow(("f32",), _D3D, Tolerance("ulp", 1.0, 0, "F32-SQRT-RCP", _S313)),)
RCP = (
    TolRow(("f32",), ("d3d11",),
           Tolerance("rel_or_ulp", 1.0, 2.0**-21, "F32-SQRT-RCP", _S22 + "; " + _S313)),
    TolRow(("f32",), ("d3d10",), Tolerance("ulp", 1.0, 0, "F32-SQRT-RCP", _S313)),
    TolRow(("f64",), _D3D, Tolerance("ulp", 1.0, 0, "F64-RCP", "D3D11.3 §22.14.5 (drcp)", True)),
)
REL_2_21 = (TolRow(("f32",), _D3D, Tolerance("rel", 0.5, 2.0**-21, "F32-INSTR", _S22)),)  # rsq, exp
LOG = (TolRow(("f32",), _D3D, Tolerance("log", 0.5, 2.0**-21, "F32-INSTR", _S22)),)
FRC = (TolRow(_F, _ALL, Tolerance("frc", 0.5, 0, "F32-INSTR", _S22)),)
EXACT = (TolRow(_F, _ALL, Tolerance("exact", 0.5, 0, "F32-INSTR", _S22)),)  # round_*
SELECT = (TolRow(_F + _OWN, _ALL, Tolerance("select", 0.5, 0, "F32-MINMAX-NAN", "docs/rules.md")),)
BOOL = (TolRow(_F + _OWN, _ALL, Tolerance("bool", 0.5, 0, "F32-CMPNAN", "docs/rules.md")),)
RAW = (TolRow(_F + _OWN, _ALL, Tolerance("raw", 0.5, 0, "F32-FTZ", "docs/rules.md (raw move exempt)")),)
#: every op without a row of its own for (format, rule set): correctly rounded (ieee754 in
#: every format, f16 and f64 under d3d)
SHARED = (
    TolRow(_F + _OWN, ("ieee754",), Tolerance("cr", 0.5, 0, "IEEE-RNE", "IEEE 754-2008 §5.4")),
    TolRow(("f16",), _D3D, Tolerance("cr", 0.5, 0, "F16-PREC", "docs/rules.md F16-PREC")),
    TolRow(("f64",), _D3D, Tolerance("cr", 0.5, 0, "F64-IEEE", "IEEE 754-2008 §5.4")),
)
#: Every row of every group (the rule book's test reads their rule IDs).
TOLERANCES: list[TolRow] = [r for g in (F32_PREC, DIV, FUSED, SQRT, RCP, REL_2_21, LOG, FRC,
                                        EXACT, SELECT, BOOL, RAW, SHARED) for r in g]


def tolerance_for(op: str, rows: tuple[TolRow, ...], fmt: str, rules: str,
                  opts: Mapping[str, Any]) -> tuple[Tolerance, list[str]]:
    """The op's row for (format, rule set) (its own ``rows``, then the shared ones) with
    the options applied, and the readings used: the rule set's record says which options
    it reads (``RuleSet.readings``); each reads one rule's tolerance (F32-* rows)."""
    for fmts, sets, tol in rows + SHARED:
        if fmt in fmts and rules in sets:
            break
    else:
        raise ValueError(f"no tolerance row for {op} in {fmt} under {rules}")
    readings: list[str] = []
    reads = rule_set(rules).readings
    if "lenient_d3d11" in reads and tol.rule == "F32-PREC":
        if opts["lenient_d3d11"]:
            tol = replace(tol, kind="ulp", ulp=1.0)
            readings.append("F32-PREC: lenient d3d11 reading (1 ULP, option lenient_d3d11)")
        else:
            readings.append("F32-PREC: strict d3d11 reading (0.5 ULP, D3D11.3 §3.1.3)")
    if "d3d10_div_route" in reads and tol.rule == "F32-DIV-D3D10":
        if opts["d3d10_div_route"]:
            readings.append("F32-DIV-D3D10: 1 ULP, and the two-step route x * rcp(y) "
                            "(option d3d10_div_route)")
        else:
            readings.append("F32-DIV-D3D10: 1 ULP with IEEE special values (the two-step "
                            "route is off; option d3d10_div_route)")
    if "fused_step_ulp" in reads and tol.rule == "F32-FUSED" and tol.kind == "fused":
        tol = replace(tol, ulp=float(opts["fused_step_ulp"]))
        readings.append(f"F32-FUSED: {tol.ulp:g} ULP per serial step (option fused_step_ulp)")
    if "rcp_tolerance" in reads and tol.kind == "rel_or_ulp" and tol.rule == "F32-SQRT-RCP":
        if opts["rcp_tolerance"] != "looser":
            kind = "ulp" if opts["rcp_tolerance"] == "ulp" else "rel"
            tol = replace(tol, kind=kind)
            readings.append(f"F32-SQRT-RCP: rcp checked by {kind} only (option rcp_tolerance)")
        else:
            readings.append("F32-SQRT-RCP: rcp takes the looser of 1 ULP and 2^-21 relative")
    return tol, readings
