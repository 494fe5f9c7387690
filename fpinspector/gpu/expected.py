"""What a saved report's GPU gives for an operation it may not have measured.

A report holds fixed probes, not every operation a user inspects. For the app's GPUs view
the answer for the current operation is, in this order: the report's own measurement (a
probe of the same op on the same operands), else what the report's listed deviations say
that driver does instead (each deviation's ``behaviour`` recomputed, see
:mod:`.behaviours`), else the model's result because no listed deviation changes it. The
kind of answer is always given with it: an expectation is not a measurement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model.formats import get_format
from .behaviours import behaviour_bits, same_result
from .capture_formats import REPORT_ARITH, SHADER_FLOAT
from .deviations import DEVIATIONS
from .report import PROBES
from .report_data import GpuReport

__all__ = ["Expected", "expected_result"]

_PROBE_OPS = {pid: (op, operands) for pid, _, _, op, operands in PROBES}


@dataclass(frozen=True)
class Expected:
    """One report's answer for an operation: result bits (None when it cannot say), where
    the answer comes from ("measured", "deviation", "model") and the words to show."""

    bits: int | None
    kind: str
    text: str
    deviation: str | None = None


def _measured(report: GpuReport, op: str, operands: list[int]) -> Expected | None:
    want = [f"0x{int(v):08X}" for v in operands]
    for p in report.probes:
        probe_op, _ = _PROBE_OPS.get(p.id, (None, None))
        if probe_op == op and p.inputs == want and p.observed.startswith("0x"):
            return Expected(int(p.observed, 16), "measured",
                            f"measured by the report ({p.path} path, probe {p.id})",
                            p.deviation)
    return None


def expected_result(report: GpuReport, op: str, fmt: str, operands: list[int],
                    model_bits: int) -> Expected:
    """The answer ``report``'s GPU gives for ``op`` on ``operands`` (bit patterns of ``fmt``).

    Only f32 / f64 arithmetic is predicted; other formats and conversions say so.
    """
    if fmt == SHADER_FLOAT:  # the report's probes are f32 operations
        hit = _measured(report, op, operands)
        if hit is not None:
            return hit
    if fmt not in REPORT_ARITH:
        return Expected(None, "none",
                        f"the report measures {' / '.join(REPORT_ARITH)} arithmetic only")
    renderer = str(report.info.get("renderer", ""))
    path = str(report.info.get("path", ""))
    dtype = get_format(fmt).dtype
    arrays = [np.array([v], dtype) for v in operands]
    model = np.array([model_bits])
    rows = [d for d in DEVIATIONS if d.api != "any" and d.matches(renderer, path, op, fmt)]
    for dev in rows:
        try:
            alt = behaviour_bits(dev, arrays, model.astype(dtype), _reference(op, fmt, arrays))
        except (ValueError, KeyError, TypeError, OverflowError):
            continue
        if alt is None:
            continue
        value = int(np.asarray(alt).reshape(-1)[0])
        if dev.behaviour in ("ieee754", "f64_ftz") and not _denormal_involved(
                [*operands, value], fmt):
            continue  # those rows are about denormals; elsewhere IEEE and D3D may differ in
            # ways the row does not claim (minNum's signaling NaN rule, say)
        if not bool(same_result(np.array([value]), model, fmt)[0]):
            return Expected(value, "deviation",
                            f"expected from its listed deviation {dev.id} ({path} path), "
                            "not measured", dev.id)
    names = ", ".join(d.id for d in rows)
    why = (f"its listed deviations for {op} ({names}) do not change this result"
           if rows else f"no listed deviation of {renderer or 'this driver'} covers {op}")
    return Expected(int(model_bits), "model", f"expected the model's result: {why}")


def _denormal_involved(patterns: list[int], fmt: str) -> bool:
    rec = get_format(fmt)
    return any(bool(rec.is_denormal(int(p))) for p in patterns)


def _reference(op: str, fmt: str, arrays: list[np.ndarray]) -> Any:
    """``reference(kind)`` for behaviour_bits: the op evaluated under the ieee754 rules
    (denormals kept), and on f64-flushed inputs for the f64 FTZ behaviour."""
    from fpinspector.model.engine import evaluate

    def ref(kind: str) -> np.ndarray:
        if kind == "ieee754":
            return np.asarray(evaluate(op, *arrays, format=fmt, rules="ieee754").bits)
        if kind == "f64_ftz_ieee":
            from .behaviours import _f64_ftz

            flushed = [_f64_ftz(a) for a in arrays]
            return np.asarray(evaluate(op, *flushed, format=fmt, rules="ieee754").bits)
        raise KeyError(kind)

    return ref
