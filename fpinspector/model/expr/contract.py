"""What a driver may do to an expression compiled without ``precise``: contract a ``mul``
feeding an ``add`` into one fused multiply-add. Used to say what the freely compiled GPU
result matches ("contracted a*b+c into an FMA") instead of only that it differs."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .evaluate import ExprEvaluation
from .instructions import instruction
from .program import Program

__all__ = ["contract_fma", "free_notes"]


def contract_fma(program: Program) -> Program | None:
    """The program with every ``add`` of a once-used plain ``mul`` result fused into a
    ``mad`` (the mul is left unused); None when there is nothing to contract."""
    uses = [0] * len(program.steps)
    for s in program.steps:
        for r in s.args:
            if r.src == "step":
                uses[r.index] += 1
    outs = {o for o, _ in program.outputs}
    steps = list(program.steps)
    changed = False
    for k, s in enumerate(steps):
        fused = instruction(s.op).fuses_product_to
        if fused is None:
            continue
        for side in (0, 1):
            r = s.args[side]
            if r.src != "step" or r.abs or r.cast or uses[r.index] != 1 or r.index in outs:
                continue
            m = steps[r.index]
            if not instruction(m.op).product or m.sat:
                continue
            a, b = m.args
            if r.neg:  # -(a * b) + c  ->  mad(-a, b, c)
                a = replace(a, neg=not a.neg) if a.src != "const" else a
                if a is m.args[0]:
                    continue  # a negated constant would need a new literal: leave it
            steps[k] = replace(s, op=fused, args=(a, b, s.args[1 - side]),
                               note="contracted: mul + add -> mad (FMA)")
            changed = True
            break
    if not changed:
        return None
    return Program(program.text, program.format, program.inputs, program.consts, steps,
                   program.outputs, program.type, program.variables)


def free_notes(ev: ExprEvaluation, free: list[np.ndarray]) -> list[np.ndarray]:
    """Per result component, per element: 0 = the free compile gave the step list's result,
    1 = it gave the FMA-contracted result (and the step list's differs), 2 = neither."""
    shape = np.broadcast_shapes(ev.shape, *(np.shape(f) for f in free))
    model = [np.broadcast_to(r, shape) for r in ev.result]
    notes = [np.where(np.broadcast_to(f, shape) == m, 0, 2).astype(np.int8)
             for f, m in zip(free, model)]
    fused = contract_fma(ev.program)
    if fused is not None and any((n == 2).any() for n in notes):
        alt = ExprEvaluation(fused, ev.slots, ev.rules, ev.options).result
        for n, f, a in zip(notes, free, alt):
            n[(n == 2) & (np.broadcast_to(f, shape) == np.broadcast_to(a, shape))] = 1
    return notes

