"""A saved report judged again by the deviation rows of the fpinspector that opens it.

A report stores what the GPU returned for each probe and which deviation row explained it
when it was measured. Rows are added as more devices are measured: a behaviour first seen
on one GPU as a *finding* can later turn out to be its API's (GLSL's ``fract``, WGSL's
``i32`` clamp) and get a row. The observed bits are the measurement and stay as saved; the
explanation is this program's judgement, so it is made again on load. Verdicts per rule
set stay as measured (the rule sets are the report's, see its digest).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..model import evaluate
from .capture_formats import SHADER_FLOAT
from .judge import _conv_model, classify_with_engine
from .report import (
    CONV_PROBES,
    PROBES,
    applicable_rows,
    conv_probe_masks,
    deviation_at,
    f32_word,
)
from .report_data import GpuReport, Probe

__all__ = ["rejudge"]

_ARITH = {pid: (op, operands) for pid, _q, _r, op, operands in PROBES}
_CONV = {pid: (src, dst, path, value) for pid, _q, _r, src, dst, path, value in CONV_PROBES}


def _word(text: str, dtype: np.dtype) -> np.ndarray | None:
    """The saved ``observed`` text back as a one-element array of ``dtype`` (as
    ``report._hex`` wrote it: True/False, a signed decimal, or hex), or None."""
    try:
        if dtype == np.bool_:
            if text not in ("True", "False"):
                return None
            return np.array([text == "True"])
        value = int(text, 0) if dtype.kind != "i" else int(text)
        return np.array([value], dtype)
    except (ValueError, OverflowError):
        return None


def _arith(renderer: str, probe: Probe) -> Any:
    op, operands = _ARITH[probe.id]
    ops = [np.array([v], np.uint32) for v in operands]
    got = _word(probe.observed, np.asarray(evaluate(op, *ops).bits).dtype)
    if got is None:
        return probe.deviation
    return deviation_at(classify_with_engine(renderer, probe.path, op, SHADER_FLOAT, ops, got))


def _conv(renderer: str, shader_path: str, probe: Probe) -> Any:
    src, dst, path, value = _CONV[probe.id]
    x = np.array([f32_word(value)], np.uint32)
    got = _word(probe.observed, np.asarray(_conv_model(src, dst, x).bits).dtype)
    if got is None:
        return probe.deviation
    return deviation_at(conv_probe_masks(renderer, shader_path, src, dst, path, x, got))


def rejudge(report: GpuReport) -> GpuReport:
    """``report`` with each probe's deviation and the list of applicable rows made again by
    this program's rows. Probes it does not know (another version's) keep theirs."""
    renderer = str(report.info.get("renderer", ""))
    shader_path = str(report.info.get("path", "compute"))
    probes = []
    for p in report.probes:
        if p.id in _ARITH and p.path not in ("render", "pack", "sample"):
            dev = _arith(renderer, p)
        elif p.id in _CONV:
            dev = _conv(renderer, shader_path, p)
        else:
            dev = p.deviation
        probes.append(dataclasses.replace(p, deviation=dev))
    return dataclasses.replace(report, probes=probes, deviations=applicable_rows(renderer))
