"""Name the known driver deviation (gpu.deviations) behind a GPU step that leaves the
allowed set, when one explains the step's result exactly on the GPU's own inputs."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model import evaluate
from ..model.expr import ExprEvaluation, GpuJudgement
from ..model.expr.instructions import instruction
from ..model.expr.judge import fed_step
from ..model.formats import get_format
from .capture_formats import EXPR_FORMAT, SHADER_HALF
from .deviations import explain_mismatches

__all__ = ["step_deviations"]


def step_deviations(ev: ExprEvaluation, judge: GpuJudgement, renderer: str, path: str,
                    i: int = 0) -> dict[int, str]:
    """{step index: deviation ID} for element ``i``'s refused GPU steps that a known
    deviation explains (steps with ``_sat``, ``movc`` or f16 floats are not covered)."""
    out: dict[int, str] = {}
    if ev.format != EXPR_FORMAT:
        return out
    idx = np.array([i])
    for k, step in enumerate(ev.program.steps):
        ok = np.asarray(judge.ok[k]).reshape(-1)[i]
        row = instruction(step.op)
        if ok or step.sat or row.selects or row.moves:
            continue
        sub = fed_step(ev, judge.gpu, k, idx)
        ins = [np.asarray(x).reshape(-1) for x in sub.inputs]
        got = np.asarray(judge.gpu[k]).reshape(-1)[i:i + 1]
        rf = {"bool": "bool", "half": SHADER_HALF}.get(step.kind, EXPR_FORMAT)
        if rf == "bool":
            got = got.astype(bool)
        elif rf != EXPR_FORMAT:  # a half result: its 16-bit patterns
            got = got.astype(get_format(rf).dtype)

        def reference(kind: str, op: str = step.op, ins: list = ins) -> Any:
            return np.asarray(evaluate(op, *ins, rules="ieee754").bits)

        explained, _ = explain_mismatches(renderer, path, step.op, EXPR_FORMAT, rf, ins, got,
                                          np.asarray(sub.bits).reshape(-1), reference)
        for dev_id, hit in explained.items():
            if hit.any():
                out[k] = dev_id
                break
    return out
