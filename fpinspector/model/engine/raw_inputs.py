"""The op on the raw inputs, and ULP errors that say what they are measured against.

Why: under d3d11/d3d10 a denormal f32 input is flushed (F32-FTZ) before the op, and the
engine's exact value is that of the flushed inputs. 1e-45 x 1.0 then has "exact 0", and a
GPU that returned the true product 1e-45 shows "ULP error 1" unless the reader is told the
error is measured against the exact value *after input flush*, and shown the exact value
of the raw inputs and the error against it too. The panel, the error map's hover and the
CLI (``fpinspector eval``) all label their figures with these words, so one case gives the
same numbers, said the same way, in all three.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..formats import FloatFormat, get_format, operand_format
from .evaluate import OPS, Evaluation, evaluate
from .explain import ulp_figure

__all__ = ["RAW_RULES", "VS_EXACT", "VS_FLUSHED", "VS_RAW", "RawExact", "exact_changed",
           "flushes_an_input", "raw_evaluation", "raw_exact", "ulp_error_words"]

#: The rule set whose exact value is that of the raw inputs (no input flush).
RAW_RULES = "ieee754"
#: What an error is measured against, in words.
VS_EXACT = "vs exact"
VS_FLUSHED = "vs exact after input flush"
VS_RAW = "vs exact of the raw inputs"


def flushes_an_input(op: str, operands: tuple[int, ...], fmt: str, rules: str) -> bool:
    """Whether ``rules`` may flush one of the operands: a rule set other than ``ieee754``
    and a denormal float operand (the cheap test, before anything is evaluated)."""
    spec = OPS.get(op)
    if spec is None or rules == RAW_RULES:
        return False
    try:
        t = operand_format(spec.operand_type(fmt).name)
    except ValueError:
        return False
    if not isinstance(t, FloatFormat):
        return False
    exp_mask = ((1 << t.exp_bits) - 1) << t.frac_bits
    frac_mask = (1 << t.frac_bits) - 1
    return any((int(b) & exp_mask) == 0 and (int(b) & frac_mask)
               for b in operands[: spec.arity])


def exact_changed(flushed: Any, raw: Any) -> bool:
    """Whether the flush changed the exact value: ``flushed`` and ``raw`` are the same op's
    evaluations under the rule set and under ``ieee754`` (comparisons: never)."""
    return raw.result_format != "bool" and not _same_exact(_exact(raw), _exact(flushed))


def _raw(op: str, operands: tuple[int, ...], fmt: str,
         rules: str) -> tuple[Any, str, list[int]] | None:
    """The op's evaluation on the raw inputs (``ieee754``), with the operand format and
    operands it was given, where ``rules`` flush one of its inputs; None where nothing is
    flushed (no second evaluation is worth making) or the op cannot be evaluated so."""
    if not flushes_an_input(op, operands, fmt, rules):
        return None
    name = operand_format(OPS[op].operand_type(fmt).name).name
    ops = [int(b) for b in operands[: OPS[op].arity]]
    try:
        return evaluate(op, *ops, format=name, rules=RAW_RULES), name, ops
    except ValueError:
        return None


def raw_evaluation(op: str, operands: tuple[int, ...], fmt: str, rules: str) -> Any:
    """The op on the raw inputs (the ``ieee754`` rules: no flush) where ``rules`` flush
    an input and that changed the exact value; None otherwise (no denormal input, a rule
    set that does not flush it, the same exact value, integer-code operands, an op that
    cannot be evaluated so)."""
    got = _raw(op, operands, fmt, rules)
    if got is None:
        return None
    raw, name, ops = got
    try:
        flushed = evaluate(op, *ops, format=name, rules=rules)
    except ValueError:
        return None
    return raw if exact_changed(flushed, raw) else None


@dataclass(frozen=True)
class RawExact:
    """The exact value of the op on the raw inputs (``exact + exact_lo``, a float64 pair)
    and the ULP error of an observed result against it: what the panel shows beside the
    exact value after input flush, without the raw evaluation's allowed set, rules or
    sentences (nobody shows them)."""

    result_format: str
    exact: float
    exact_lo: float

    def ulp_error(self, observed: int) -> float | None:
        """The signed ULP error of ``observed`` against this exact value, as a verdict on
        the raw inputs' evaluation gives it (``explain.ulp_figure``); None where a number
        would mislead (NaN, infinity); ValueError where ``observed`` is not a pattern of
        the result format."""
        return ulp_figure(get_format(self.result_format), self.exact, self.exact_lo,
                          observed)[0]


def raw_exact(op: str, operands: tuple[int, ...], fmt: str, rules: str,
              flushed: Callable[[], tuple[float, float]]) -> RawExact | None:
    """:func:`raw_evaluation`'s exact value, where it differs from ``flushed()`` (the exact
    value ``hi, lo`` under ``rules``, which the caller has or can look up); None where
    :func:`raw_evaluation` gives None. ``flushed`` is called only where ``rules`` flush an
    input (where nothing is flushed, nothing is evaluated at all), and only the raw
    evaluation's exact value is computed (``Evaluation.exact_of_one``: not its bits,
    allowed set, rules or sentences). A ValueError of ``flushed`` propagates."""
    got = _raw(op, operands, fmt, rules)
    if got is None or got[0].result_format == "bool":
        return None
    raw = got[0]
    try:  # (a conversion's evaluation is another type: it has its exact value at hand)
        hi, lo = raw.exact_of_one() if isinstance(raw, Evaluation) else _exact(raw)
    except ValueError:
        return None
    if _same_exact((hi, lo), flushed()):
        return None
    return RawExact(str(raw.result_format), hi, lo)


def _exact(ev: Any) -> tuple[float, float]:
    lo = getattr(ev, "exact_lo", None)
    hi = float(np.asarray(ev.exact).reshape(-1)[0])
    lo_v = float(np.asarray(lo).reshape(-1)[0]) if lo is not None else 0.0
    return hi, lo_v


def _same_exact(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """The same exact value: equal pairs, or NaN both (a NaN never equals itself, so a
    NaN operand beside a flushed denormal would otherwise show a second, equal NaN)."""
    if a[0] != a[0] or b[0] != b[0]:
        return a[0] != a[0] and b[0] != b[0]
    return a == b


def ulp_error_words(error: float | None, note: str, raw_error: float | None = None,
                    raw: bool = False) -> str:
    """"ULP error 1 vs exact after input flush, 0 vs exact of the raw inputs" (``raw``:
    the exact value of the raw inputs differs, so both are given), "ULP error 0.25 vs
    exact", or ``note`` (why a ULP figure would mislead) when there is none."""
    if error is None:
        return note or "no ULP error"
    if not raw:
        return f"ULP error {error:.6g} {VS_EXACT}"
    text = f"ULP error {error:.6g} {VS_FLUSHED}"
    if raw_error is not None:
        text += f", {raw_error:.6g} {VS_RAW}"
    return text
