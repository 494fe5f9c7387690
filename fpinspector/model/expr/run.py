"""Run a Program on bound input bits: one engine evaluation per step, chained.

``feed`` replaces the bits that later steps read from earlier ones, which is how the GPU's
own intermediate results are judged: step k is evaluated on exactly the inputs the GPU's
step k saw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..formats import FloatFormat, get_format
from .program import Program, Ref
from .step_eval import StepEval, apply_modifiers, slot_dtype

__all__ = ["run_program", "operand_bits"]


def operand_bits(program: Program, ref: Ref, slots: Sequence[np.ndarray],
                 results: Sequence[np.ndarray], fmt: FloatFormat) -> np.ndarray:
    """The bits an instruction reads through ``ref`` (source modifiers applied)."""
    if ref.src == "input":
        b = slots[ref.index]
    elif ref.src == "const":
        c = program.consts[ref.index]
        b = np.asarray(c.bits, dtype=slot_dtype(c.kind, fmt))
    else:
        b = results[ref.index]
    if ref.kind == "float" and b.dtype != fmt.dtype:
        b = b.astype(fmt.dtype)  # a uint read as float (asfloat): same bits
    return apply_modifiers(b, ref, fmt)


def run_program(program: Program, slots: Sequence[np.ndarray], rules: str = "d3d11",
                options: Any = None, feed: Sequence[np.ndarray] | None = None
                ) -> list[StepEval]:
    """Evaluate every step of ``program``.

    Parameters
    ----------
    program : Program
    slots : sequence of ndarray
        Bits of every input slot (``program.inputs`` order), broadcasting together.
    rules, options
        As for :func:`fpinspector.model.evaluate`.
    feed : sequence of ndarray, optional
        Results to read instead of the model's when a step reads an earlier step (the
        GPU's per-step bits); the model's own results are used otherwise.

    Returns
    -------
    list of StepEval
    """
    fmt = get_format(program.format)
    arrs = [np.asarray(s) for s in slots]
    shape = np.broadcast_shapes(*(a.shape for a in arrs)) if arrs else ()
    if feed is not None:
        shape = np.broadcast_shapes(shape, *(np.shape(f) for f in feed))
    out: list[StepEval] = []
    results: list[np.ndarray] = []
    for k, step in enumerate(program.steps):
        src = results if feed is None else [np.asarray(f) for f in feed]
        ins = [operand_bits(program, r, arrs, src, fmt) for r in step.args]
        se = StepEval(k, step, ins, fmt, rules, options, shape)
        out.append(se)
        results.append(se.bits)
    return out
