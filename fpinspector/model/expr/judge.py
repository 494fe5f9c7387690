"""Judge a GPU's per-step results: each step against the model fed with the GPU's own
inputs to that step, and the first step where the GPU leaves the allowed set.

Why fed with the GPU's inputs: once a GPU's step 1 differs (conformantly) from the model,
step 2 sees other inputs; judging step 2 against the model's chain would blame it for step
1's (allowed) choice. Where the GPU's inputs and result equal the model's, the verdict is
the model's own (its result is always allowed); only the other elements are re-evaluated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..formats import FloatFormat, get_format
from .evaluate import ExprEvaluation
from .run import operand_bits
from .step_eval import StepEval, slot_dtype

__all__ = ["GpuJudgement", "judge_gpu", "as_slot_bits"]


def as_slot_bits(words: np.ndarray, kind: str, fmt: FloatFormat) -> np.ndarray:
    """GPU result words (uint32; 0/1 for comparisons) in the model's slot dtype."""
    w = np.asarray(words)
    if kind == "bool":
        return w.astype(bool)
    return w.astype(slot_dtype(kind, fmt))


@dataclass
class GpuJudgement:
    """Per-step verdicts on a GPU run of an expression.

    Attributes
    ----------
    gpu : list of ndarray
        The GPU's result of every step (slot dtypes).
    ok : list of ndarray of bool
        Per step: the GPU's result is allowed for the GPU's own inputs to the step.
    fed : list of ndarray
        Per step: the model's result on the GPU's inputs.
    first_bad : ndarray of int
        Per element: the first step whose GPU result is not allowed, -1 where none.
    """

    gpu: list[np.ndarray]
    ok: list[np.ndarray]
    fed: list[np.ndarray]
    first_bad: np.ndarray

    @property
    def conformant(self) -> np.ndarray:
        return self.first_bad < 0


def fed_step(ev: ExprEvaluation, gpu: Sequence[np.ndarray], k: int,
             idx: np.ndarray | None = None) -> StepEval:
    """Step ``k`` evaluated on the GPU's inputs (all elements, or the flat ``idx`` ones)."""
    p, fmt, shape = ev.program, get_format(ev.format), ev.shape
    take = (lambda a: np.broadcast_to(np.asarray(a), shape).reshape(-1)[idx]) if idx is not None \
        else (lambda a: np.broadcast_to(np.asarray(a), shape))
    slots = [take(s) for s in ev.slots]
    feed = [take(g) for g in gpu]
    ins = [operand_bits(p, r, slots, feed, fmt) for r in p.steps[k].args]
    sub_shape = (len(idx),) if idx is not None else shape
    return StepEval(k, p.steps[k], ins, fmt, ev.rules, ev.options, sub_shape)


def judge_gpu(ev: ExprEvaluation, gpu_words: Sequence[np.ndarray]) -> GpuJudgement:
    """Verdicts on the GPU's per-step words (one array per step, ``ev.shape``)."""
    p, fmt, shape = ev.program, get_format(ev.format), ev.shape
    if len(gpu_words) != len(p.steps):
        raise ValueError(f"{len(p.steps)} steps, got GPU results for {len(gpu_words)}")
    gpu = [np.broadcast_to(as_slot_bits(w, s.kind, fmt).reshape(np.shape(w)), shape)
           for w, s in zip(gpu_words, p.steps)]
    n = int(np.prod(shape, dtype=np.int64))
    differs = [np.asarray(g != m.bits).reshape(-1) if n else np.zeros(0, bool)
               for g, m in zip(gpu, ev.steps)]
    oks, feds = [], []
    first_bad = np.full(n, -1, np.int64)
    for k, (step, model) in enumerate(zip(p.steps, ev.steps)):
        check = differs[k].copy()
        for r in step.args:
            if r.src == "step":
                check |= differs[r.index]
        ok = np.ones(n, bool)
        fed = np.array(np.broadcast_to(model.bits, shape)).reshape(-1)
        idx = np.flatnonzero(check)
        if idx.size:
            sub = fed_step(ev, gpu, k, idx)
            ok[idx] = sub.allowed(gpu[k].reshape(-1)[idx])
            fed[idx] = sub.bits
        first_bad[(first_bad < 0) & ~ok] = k
        oks.append(ok.reshape(shape))
        feds.append(fed.reshape(shape))
    return GpuJudgement(list(gpu), oks, feds, first_bad.reshape(shape))
