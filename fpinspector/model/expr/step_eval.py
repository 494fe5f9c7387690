"""One step on arrays of operand bits: the engine's evaluation plus the expression layer's
own semantics (source modifiers, ``_sat``, ``movc``), with verdicts and explanations."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine import AllowedSet, Evaluation, evaluate
from ..engine.conversions import ConvEvaluation
from ..engine.ulp import ulp_error
from ..formats import F16, FloatFormat
from .allowed_sets import element_allowed_set, sat_image
from .instructions import instruction
from .program import Ref, Step
from .rules import expr_rule_text
from .saturate import sat_allowed, sat_changed, sat_exact, sat_model

__all__ = ["StepEval", "eval_step", "apply_modifiers", "slot_format", "slot_dtype"]


def slot_format(kind: str, fmt: FloatFormat) -> FloatFormat | None:
    """The float format a slot's bits are read in (None for uint/bool slots)."""
    return {"float": fmt, "half": F16}.get(kind)


def slot_dtype(kind: str, fmt: FloatFormat) -> np.dtype:
    if kind == "bool":
        return np.dtype(bool)
    return fmt.dtype if kind == "float" else np.dtype(np.uint32)


def apply_modifiers(bits: np.ndarray, ref: Ref, fmt: FloatFormat) -> np.ndarray:
    """The operand as the instruction reads it: abs clears, negate flips the sign bit."""
    if ref.plain:
        return bits
    b = np.asarray(bits).astype(fmt.dtype)
    s = fmt.dtype.type(fmt.sign_mask)
    if ref.abs:
        b = b & fmt.dtype.type(fmt.mask & ~fmt.sign_mask)
    return b ^ s if ref.neg else b


class StepEval:
    """A step evaluated on whole arrays.

    Attributes
    ----------
    step : Step
    inputs : list of ndarray
        Operand bits as the instruction reads them (after source modifiers).
    bits : ndarray
        The model's result (after ``_sat``), in the slot's dtype (uint32 for f32, uint and
        half slots; uint16 for f16 floats; bool for comparisons).
    ev : Evaluation, ConvEvaluation or None
        The engine's evaluation of the instruction (a ConvEvaluation for f32tof16 and
        f16tof32; None for ``movc``).
    """

    def __init__(self, index: int, step: Step, inputs: list[np.ndarray], fmt: FloatFormat,
                 rules: str, options: Any, shape: tuple[int, ...]) -> None:
        self.index, self.step, self.fmt, self.rules = index, step, fmt, rules
        self.options = options
        self.shape = shape
        self.inputs = inputs
        self.result_format = slot_format(step.kind, fmt)
        self.modified_nan = np.zeros(shape, bool)  # a modified NaN operand reached a move
        self.ev: Evaluation | ConvEvaluation | None = None
        if instruction(step.op).selects:
            c, a, b = (np.broadcast_to(x, shape) for x in inputs)
            raw = np.where(c.astype(bool) if c.dtype == bool else c != 0, a, b)
            self._moved_mods(c, [step.args[1], step.args[2]], [a, b])
        else:
            self.ev = evaluate(step.op, *self._engine_operands(), format=self._op_format(),
                               rules=rules, options=options)
            raw = np.broadcast_to(np.asarray(self.ev.bits), shape)
            if instruction(step.op).moves:
                self._moved_mods(None, [step.args[0]], [np.broadcast_to(inputs[0], shape)])
        dt = slot_dtype(step.kind, fmt)
        self.raw = np.array(raw, dtype=dt)  # a copy: contiguous, writable, 0-d kept
        self.bits = sat_model(self.raw, fmt) if step.sat else self.raw

    # -- engine plumbing -----------------------------------------------------------------
    def _op_format(self) -> str:
        return instruction(self.step.op).operand_format or self.fmt.name

    def _engine_operands(self) -> list[np.ndarray]:
        if instruction(self.step.op).reads_half:  # the low 16 bits of its uint operand
            return [(np.asarray(self.inputs[0]).astype(np.uint32) & 0xFFFF).astype(np.uint16)]
        return self.inputs

    def _moved_mods(self, cond: np.ndarray | None, refs: list[Ref],
                    vals: list[np.ndarray]) -> None:
        """Where a move copies a NaN read through a modifier, any NaN is conformant
        (EXPR-SRCMOD: the NaN's bits after a modifier are not defined)."""
        f = self.result_format
        if f is None:
            return
        for k, (r, v) in enumerate(zip(refs, vals)):
            if r.plain:
                continue
            hit = f.is_nan(np.asarray(v).astype(f.dtype))
            if cond is not None:
                chosen = cond.astype(bool) if cond.dtype == bool else cond != 0
                hit = hit & (chosen if k == 0 else ~chosen)
            self.modified_nan = self.modified_nan | hit

    # -- verdicts --------------------------------------------------------------------------
    def inner_allowed(self, obs: np.ndarray) -> np.ndarray:
        """Verdict on the instruction's result before ``_sat``."""
        f = self.result_format
        o = np.asarray(obs)
        shape = np.broadcast_shapes(self.shape, o.shape)  # candidates may broadcast
        if self.step.kind == "bool":
            ok = o.astype(bool) == self.raw
        elif self.ev is None:  # movc: the chosen bits, nothing else
            ok = o.astype(self.raw.dtype) == self.raw
        elif self.step.kind == "half":
            o32 = o.astype(np.uint32)
            ok = np.asarray(self.ev.allowed((o32 & 0xFFFF).astype(np.uint16))) & (o32 >> 16 == 0)
        else:
            ok = np.asarray(self.ev.allowed(o.astype(self.raw.dtype)))
        if f is not None and self.modified_nan.any():
            ok = ok | (self.modified_nan & f.is_nan(o.astype(f.dtype) if self.step.kind != "half"
                                                    else (o.astype(np.uint32) & 0xFFFF).astype(np.uint16)))
        return np.broadcast_to(ok, shape)

    def hull(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Lowest and highest allowed patterns (value order) and where a NaN is allowed
        (the model's own NaN result always is: a raw move of a NaN keeps it); float and
        half slots only (a uint or bool result has no value order)."""
        f = self.result_format
        assert f is not None, f"{self.step.kind} slots have no hull"
        raw = self.raw.astype(np.uint16) if self.step.kind == "half" else self.raw
        nan = f.is_nan(raw) | self.modified_nan
        if self.ev is None:
            return self.raw, self.raw, nan
        return np.asarray(self.ev.lo), np.asarray(self.ev.hi), np.asarray(self.ev.nan_ok) | nan

    def allowed(self, observed: Any) -> np.ndarray:
        """Is each observed result conformant (bool array of the step's shape)?"""
        if not self.step.sat:
            return self.inner_allowed(observed)
        lo, hi, nan_ok = self.hull()
        obs = np.asarray(observed)
        obs = np.broadcast_to(obs, np.broadcast_shapes(self.shape, obs.shape))
        return sat_allowed(self.inner_allowed, lo, hi, nan_ok, obs, self.fmt)

    @property
    def exact(self) -> np.ndarray:
        """The instruction's exact result on these inputs (float64; ``_sat`` clamps it)."""
        if self.ev is None:
            f = self.result_format
            e = self.raw.astype(np.float64) if f is None else f.decode(self.raw)
        else:
            e = np.broadcast_to(np.asarray(self.ev.exact, dtype=np.float64), self.shape)
        return sat_exact(e) if self.step.sat else e

    @property
    def exact_lo(self) -> np.ndarray | None:
        if self.step.sat or self.ev is None:
            return None
        lo = getattr(self.ev, "exact_lo", None)
        return None if lo is None else np.broadcast_to(np.asarray(lo, np.float64), self.shape)

    def ulp_error(self, observed: Any) -> np.ndarray:
        """Signed error of ``observed`` vs the step's exact result, in ULPs of its format."""
        f = self.result_format
        o = np.broadcast_to(np.asarray(observed), self.shape)
        if f is None:
            return np.where(o == self.bits, 0.0, np.inf)
        if self.step.kind == "half":
            o = (o.astype(np.uint32) & 0xFFFF).astype(np.uint16)
        return ulp_error(o, self.exact, self.exact_lo, f)

    @property
    def fired(self) -> dict[str, np.ndarray]:
        """rule ID -> where it decided the result (engine rules plus EXPR-*)."""
        out: dict[str, np.ndarray] = {}
        if self.ev is not None:
            out.update({k: np.broadcast_to(np.asarray(v), self.shape)
                        for k, v in self.ev.fired.items()})
        if instruction(self.step.op).selects:
            out["EXPR-MOVC"] = np.ones(self.shape, bool)
        mods = [r for r in self.step.args if not r.plain]
        if mods:
            out["EXPR-SRCMOD"] = np.ones(self.shape, bool)
        if self.step.sat:
            changed = sat_changed(self.raw, self.fmt)
            if changed.any():
                out["EXPR-SAT"] = changed
        return out

    def rules_at(self, i: int) -> list[str]:
        return sorted(k for k, v in self.fired.items() if np.asarray(v).reshape(-1)[i])

    def explain_at(self, i: int) -> list[str]:
        """Sentences for element ``i``: the engine's, then the expression layer's."""
        lines = list(self.ev.explain_at(i)) if self.ev is not None else []
        for r in self.rules_at(i):
            if r.startswith("EXPR-"):
                lines.append(f"{r}: {expr_rule_text(r)}")
        return lines

    def steps_at(self, i: int) -> list[str]:
        """The engine's step-by-step walk for element ``i``, then ``_sat`` if present."""
        lines = list(self.ev.steps_at(i)) if self.ev is not None else [
            "movc: copies the chosen operand's bits unchanged (EXPR-MOVC)"]
        if self.step.sat:
            raw, out = (int(np.asarray(x).reshape(-1)[i]) for x in (self.raw, self.bits))
            w = (self.fmt.bits + 3) // 4
            lines.append(f"_sat: 0x{raw:0{w}X} -> 0x{out:0{w}X} (EXPR-SAT: min(1, max(0, x)))")
        return lines

    def allowed_set(self, i: int) -> AllowedSet | None:
        """The exact set of conformant results of element ``i`` (None for uint/bool slots)."""
        f = self.result_format
        if f is None:
            return None
        flat = [np.asarray(np.broadcast_to(x, self.shape)).reshape(-1)[i] for x in self.inputs]
        one = StepEval(self.index, self.step, flat, self.fmt, self.rules, self.options, ())
        inner = element_allowed_set(one, f)
        return sat_image(inner, f) if self.step.sat else inner


def eval_step(index: int, step: Step, inputs: list[np.ndarray], fmt: FloatFormat, rules: str,
              options: Any, shape: tuple[int, ...]) -> StepEval:
    """Evaluate one step on operand bits (already modified) broadcast to ``shape``."""
    return StepEval(index, step, inputs, fmt, rules, options, shape)

