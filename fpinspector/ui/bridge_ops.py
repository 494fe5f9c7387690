"""The UI's doorway to the rule engine: op tables, options, evaluate one op for display.

The values half (parse, describe, convert) is :mod:`.bridge`; this module builds on it."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model.engine import OPS, OPTIONS, RULE_SETS, AllowedSet, Verdict
from ..model.engine import evaluate as evaluate_op
from ..model.engine.raw_inputs import RAW_RULES as RAW_INPUT_RULES
from ..model.engine.raw_inputs import RawExact, raw_exact
from ..model.formats import FORMATS, CodeFormat, float_format_of, operand_format
from . import bridge
from .bridge import exact_value, model_call, value_text

__all__ = ["OpInfo", "OpOutcome", "OptionInfo", "RawExact", "evaluate", "raw_outcome", "op_infos",
           "operand_arrays", "steps_from",
           "option_infos", "options_dict", "result_text", "exact_text", "rule_sets",
           "clear_caches"]


# -- the rule engine -------------------------------------------------------------------

@dataclass(frozen=True)
class OpInfo:
    """What the pickers need to know about one op."""

    name: str
    arity: int
    formats: tuple[str, ...]
    description: str


@functools.cache
def op_infos() -> dict[str, OpInfo]:
    """The engine's ops (``OPS``) as the pickers show them."""
    return {name: OpInfo(name, spec.arity, tuple(spec.formats), spec.description)
            for name, spec in OPS.items()}


def rule_sets() -> tuple[str, ...]:
    return RULE_SETS


def no_arithmetic_note() -> str:
    """Which formats have no ops, and why (the op format picker's tooltip): the formats
    whose record says D3D defines no arithmetic in them (bf16, FP8)."""
    gaps = [f"{f.name} ({f.rule_id})" for f in FORMATS.values() if not f.d3d_arith
            and f.d3d_conversion == ""]
    if not gaps:
        return ""
    return (f" D3D defines no arithmetic for {', '.join(gaps)}: they are inspected and "
            "converted, and have no ops here.")


@dataclass(frozen=True)
class OptionInfo:
    """One AMBIGUOUS switch of the engine: its choices (as text), default and explanation."""

    name: str
    choices: tuple[str, ...]
    default: str
    text: str


def option_infos() -> dict[str, OptionInfo]:
    """The engine's ``OPTIONS``."""
    return {name: OptionInfo(name, tuple(str(c) for c in o.choices), str(o.default),
                             f"{o.rule}: {o.text}")
            for name, o in OPTIONS.items()}


def options_dict(options: tuple[str, ...]) -> dict[str, Any] | None:
    """State option strings ("name=value") as the engine's options mapping."""
    out: dict[str, Any] = {}
    for item in options:
        name, _, text = item.partition("=")
        value: Any = text or True
        o = OPTIONS.get(name)
        if o is not None and text:
            for c in o.choices:
                if str(c) == text:
                    value = c
        out[name] = value
    return out or None


@dataclass
class OpOutcome:
    """One evaluated op, unpacked for display (all values come from ``evaluate``).

    ``allowed`` is the engine's exact allowed set (points and intervals, zeros distinct,
    "denormals excluded" where they are flushed); the lo/hi hull is never shown."""

    evaluation: Any
    result_format: str
    bits: int
    exact: float
    exact_lo: float
    allowed: AllowedSet
    explain: list[str]

    @functools.cached_property
    def rules(self) -> list[str]:
        """The fired rule IDs. Read when first shown (the Why view, an op without an
        explanation): about 0.5 ms of the engine's per edit, which each edit of an operand
        paid while the Why tab was behind another."""
        return self._listed("its rules", self.evaluation.rules_at)

    @functools.cached_property
    def steps(self) -> list[str]:
        """How the engine reached the result, one step a line (the Why view), read when
        first shown, as :attr:`rules`."""
        return self._listed("its steps", self.evaluation.steps_at)

    @staticmethod
    def _listed(what: str, read: Any) -> list[str]:
        try:
            return list(read(0))
        except Exception as exc:  # noqa: BLE001 - the UI boundary: say it, don't raise
            return [f"(the rule engine could not list {what}: {type(exc).__name__}: {exc})"]

    def verdict(self, observed: int) -> Verdict:
        """The engine's verdict on an observed result pattern: conformant or not, the one
        sentence that says why, and the ULP error only where a number means something."""
        try:
            return self.evaluation.verdict(0, observed)
        except Exception as exc:  # noqa: BLE001 - the UI boundary
            raise ValueError(f"judging the result 0x{int(observed):X} failed: {exc}") from exc

    def judge(self, observed: int) -> tuple[bool, float]:
        """(conformant, ULP error) of an observed result; NaN where the engine says a ULP
        figure would mislead (saturation, NaN, infinity, clamps)."""
        v = self.verdict(observed)
        return v.conformant, float("nan") if v.ulp_error is None else float(v.ulp_error)


@functools.lru_cache(maxsize=32)
@model_call("the rule engine")
def evaluate(op: str, operands: tuple[int, ...], fmt: str, rules: str,
             options: tuple[str, ...] = ()) -> OpOutcome:
    """Evaluate one op on scalar operand patterns; ValueError when it cannot be evaluated.

    Cached: the operations view, the why view and the GPU adapter all show the outcome of
    one state change, and the first to ask computes it (an outcome is never modified)."""
    spec = OPS.get(op)
    if spec is None:
        raise ValueError(f"unknown op {op!r}")
    args, fname = operand_arrays(operands[: spec.arity], fmt)
    ev = evaluate_op(op, *args, format=fname, rules=rules, options=options_dict(options))

    def first(a: Any) -> Any:
        return np.asarray(a).reshape(-1)[0]

    lo = getattr(ev, "exact_lo", None)
    return OpOutcome(
        evaluation=ev,
        result_format=str(ev.result_format),
        bits=int(first(ev.bits)),
        exact=float(first(ev.exact)),
        exact_lo=float(first(lo)) if lo is not None else 0.0,
        allowed=ev.allowed_set(0),
        explain=list(ev.explain_at(0)),
    )


def clear_caches() -> None:
    """Forget every answer the UI cached per value: the op outcomes here and the values'
    (:func:`.bridge.clear_caches`), as in a fresh process (the latency benchmark times
    edits to values never seen before)."""
    evaluate.cache_clear()
    bridge.clear_caches()


def operand_arrays(operands: tuple[int, ...], fmt: str) -> tuple[list[np.ndarray], str]:
    """One-element arrays of the state's operand patterns as the engine and GPU take them,
    and the ``format=`` to pass.

    Why: integer code types (i32, unorm8, snorm8, ...) are stored as width-bit patterns but
    itof/from_snorm8 take the code values themselves (negative for signed types), and their
    ``format`` is the float format they compute in, f32 (``fpinspector eval itof -1`` does
    the same).
    """
    t = operand_format(fmt)
    if isinstance(t, CodeFormat):
        return [t.values([v]) for v in operands], float_format_of(t).name
    return [np.asarray([v], dtype=t.dtype) for v in operands], t.name


def exact_text(fmt: str, bits: int) -> str:
    """The exact value of a pattern (floats written in full, codes as their integer): two
    patterns hold the same number exactly when these texts are equal."""
    t = operand_format(fmt)
    if isinstance(t, CodeFormat):
        return str(int(t.values(bits)))
    return exact_value(t.name, bits)


def result_text(fmt: str, bits: int) -> str:
    """How a result pattern of ``fmt`` (a float format, bool or an integer code type) reads:
    integers as such, UNORM/SNORM/sRGB codes as ``code N``, floats as the shortest decimal."""
    if fmt == "bool":
        return "true" if bits else "false"
    try:
        t = operand_format(fmt)
    except ValueError:
        return f"0x{bits:X}"
    if isinstance(t, CodeFormat):
        v = int(t.values(bits))
        return f"code {v}" if t.name.startswith(("unorm", "snorm", "srgb")) else str(v)
    return value_text(t.name, bits)


#: The rule set whose exact value is that of the raw inputs (no input flush).
RAW_RULES = RAW_INPUT_RULES


def raw_outcome(op: str, operands: tuple[int, ...], fmt: str, rules: str) -> RawExact | None:
    """The op's exact value on the raw inputs (no input flush: the ``ieee754`` rules), where
    ``rules`` flush a denormal input and that changed the exact value
    (:mod:`fpinspector.model.engine.raw_inputs`, which the CLI and the error map's hover
    use too); None otherwise.

    Why: the exact value under d3d11 is that of the flushed inputs; measured against it,
    1e-45 x 1.0 would say "exact 0" and "ULP error 1" for a GPU that returns the true
    product. Only the raw inputs' exact value is computed, not a second displayed outcome
    (its allowed set, rules and sentences are never shown): where no input is a denormal
    the rule set flushes, nothing is evaluated at all."""
    operands = tuple(operands)

    def flushed() -> tuple[float, float]:
        # (cached where the view evaluated it under the default options: the key is the
        # arguments as passed, so ``()`` is passed as the view passes it)
        ev = evaluate(op, operands, fmt, rules, ())
        return ev.exact, ev.exact_lo

    try:
        return raw_exact(op, operands, fmt, rules, flushed)
    except ValueError:
        return None


def steps_from(observed: int, reference: int, fmt: str) -> float | None:
    """Signed steps (representable values) from ``reference`` to ``observed`` in ``fmt``:
    the "GPU vs model" figure of the error maps (model.sweep.metrics.ulp_distance), None
    for a format without one (codes, bool)."""
    from ..model.sweep.metrics import ulp_distance

    if fmt == "bool" or isinstance(operand_format(fmt), CodeFormat):
        return None
    f = operand_format(fmt)
    d = ulp_distance(np.asarray([observed], dtype=f.dtype), np.asarray([reference], dtype=f.dtype),
                     f.name)
    return float(np.asarray(d).reshape(-1)[0])
