"""One element of an expression evaluation as plain data (JSON-ready), and as text.

The CLI prints it (``fpinspector expr``); scripts read the JSON (schema in
docs/expressions.md). GPU columns are filled from a :class:`GpuJudgement` when given.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..formats import F16, get_format
from .contract import free_notes
from .evaluate import ExprEvaluation
from .instructions import instruction
from .judge import GpuJudgement, fed_step
from .program import ref_text

__all__ = ["SCHEMA", "VERSION", "element_report", "attach_deviations", "value_of", "show"]

SCHEMA, VERSION = "fpinspector.expr", 1
#: what the freely compiled (no precise) GPU result matches
FREE_NOTES = ("same as the step list",
              "the step list with mul + add contracted into an FMA (fused multiply-add)",
              "neither the step list nor its FMA contraction (the driver reordered or "
              "approximated it)")


def _num(v: float) -> float | str:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def value_of(bits: Any, kind: str, fmt_name: str) -> dict[str, Any]:
    """{"bits", "hex", "value", "text"} of one slot value."""
    b = int(np.asarray(bits).reshape(-1)[0]) if np.ndim(bits) else int(bits)
    if kind == "bool":
        return {"bits": b, "hex": "true" if b else "false", "value": bool(b),
                "text": "true" if b else "false"}
    if kind == "uint":
        return {"bits": b, "hex": f"0x{b:08X}", "value": b, "text": str(b)}
    f = get_format(fmt_name) if kind == "float" else F16
    p = b & f.mask
    with np.errstate(invalid="ignore"):
        v = float(f.decode(np.asarray(p, f.dtype)))
    digits = (f.bits + 3) // 4
    return {"bits": p, "hex": f"0x{p:0{digits}X}", "value": _num(v), "text": show(v, f.bits)}


def show(v: float, bits: int = 32) -> str:
    """Short readable value: shortest repr in the format, ``+0``/``-0``, ``+INF``, ``NaN``."""
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "+INF" if v > 0 else "-INF"
    if v == 0:
        return "-0" if math.copysign(1.0, v) < 0 else "+0"
    t = np.float32 if bits == 32 else np.float16
    x = t(v)
    if float(x) != v:  # not a value of the format (an exact value): float64's repr
        return repr(v)
    if 1e-4 <= abs(v) < 1e7:
        return np.format_float_positional(x, unique=True, trim="-")
    return np.format_float_scientific(x, unique=True, trim="-")


def _at(a: Any, i: int) -> Any:
    return np.asarray(a).reshape(-1)[i] if np.ndim(a) else a


def element_report(ev: ExprEvaluation, i: int = 0, judge: GpuJudgement | None = None,
                   free: list[np.ndarray] | None = None,
                   gpu_info: dict[str, Any] | None = None) -> dict[str, Any]:
    """Element ``i`` of ``ev`` (and of the GPU run) as a JSON-ready dict."""
    p, fmt = ev.program, ev.format
    shape = ev.shape
    flat = lambda a: np.broadcast_to(np.asarray(a), shape).reshape(-1)  # noqa: E731
    binds: dict[str, Any] = {}
    for k, inp in enumerate(p.inputs):
        b = binds.setdefault(inp.name, {"type": str(p.variables[inp.name]), "components": []})
        b["components"].append(value_of(flat(ev.slots[k])[i], inp.kind, fmt))
    steps = []
    for k, (s, se) in enumerate(zip(p.steps, ev.steps)):
        ins = [value_of(flat(x)[i], "bool" if np.asarray(x).dtype == bool else
                        ("float" if r.kind == "float" else "uint"), fmt)
               for x, r in zip(se.inputs, s.args)]
        aset = se.allowed_set(i)
        row = {
            "index": k, "instruction": s.instruction, "op": s.op, "sat": s.sat,
            "operands": [ref_text(p, r) for r in s.args], "label": s.label, "note": s.note,
            "inputs": ins, "model": value_of(flat(se.bits)[i], s.kind, fmt),
            "exact": _num(float(flat(se.exact)[i])),
            "allowed": None if aset is None else {
                "text": aset.hex_text(), "exact": aset.exact, "any_nan": aset.any_nan,
                "ranges": [[int(a), int(b)] for a, b in aset.ranges]},
            "rules": se.rules_at(i), "explain": se.explain_at(i),
        }
        if judge is not None:
            row["gpu"] = value_of(flat(judge.gpu[k])[i], s.kind, fmt)
            row["gpu_fed_model"] = value_of(flat(judge.fed[k])[i], s.kind, fmt)
            row["gpu_allowed"] = bool(flat(judge.ok[k])[i])
            why = _verdict_sentence(ev, judge, k, i)
            if why:
                row["gpu_why"] = why
        steps.append(row)
    comps = []
    errs = ev.ulp_error()
    for c, (o, kind) in enumerate(p.outputs):
        comp = {"step": o, "kind": kind, "format": ev.result_format(c),
                "model": value_of(flat(ev.steps[o].bits)[i], kind, fmt),
                "exact": _num(float(flat(ev.exact[c])[i])),
                "exact_lo": _num(float(flat(ev.exact_lo[c])[i])),
                "ulp_error": _num(float(flat(errs[c])[i]))}
        comps.append(comp)
    if judge is not None:
        gerr = ev.ulp_error([np.broadcast_to(judge.gpu[o], shape) for o, _ in p.outputs])
        for c, (comp, (o, kind)) in enumerate(zip(comps, p.outputs)):
            comp["gpu"] = value_of(flat(judge.gpu[o])[i], kind, fmt)
            comp["gpu_ulp_error"] = _num(float(flat(gerr[c])[i]))
    if free is not None:
        notes = free_notes(ev, free)
        ferr = ev.ulp_error([np.broadcast_to(f, shape) for f in free])
        for c, (comp, (_, kind)) in enumerate(zip(comps, p.outputs)):
            comp["free"] = value_of(flat(free[c])[i], kind, fmt)
            comp["free_note"] = FREE_NOTES[int(flat(notes[c])[i])]
            comp["free_ulp_error"] = _num(float(flat(ferr[c])[i]))
    out: dict[str, Any] = {
        "schema": SCHEMA, "version": VERSION, "expression": p.text, "format": fmt,
        "rules": ev.rules, "listing": p.listing(), "bindings": binds, "steps": steps,
        "result": {"type": str(p.type), "components": comps},
    }
    if judge is not None:
        fb = int(flat(judge.first_bad)[i])
        out["gpu"] = dict(gpu_info or {})
        out["gpu"]["first_divergence"] = None if fb < 0 else fb
        out["gpu"]["conformant"] = fb < 0
    return out


def _verdict_sentence(ev: ExprEvaluation, judge: GpuJudgement, k: int, i: int) -> str | None:
    """The engine's one-sentence reason for the GPU step's verdict (its ``Verdict.reason``,
    on the GPU's own inputs); None for steps the engine alone does not judge (``_sat``,
    ``movc``)."""
    step = ev.program.steps[k]
    if step.sat or not instruction(step.op).engine:
        return None
    obs = int(np.asarray(judge.gpu[k]).reshape(-1)[i])
    if step.kind == "half" and obs >> 16:  # the engine judges halves: this is no half
        return (f"0x{obs:08X} has bits set above the half: f32tof16 writes the half in "
                "bits 0-15 and zeroes bits 16-31 (CONV-F16-INSTR)")
    sub = fed_step(ev, judge.gpu, k, np.array([i]))
    assert sub.ev is not None  # every step but movc is one engine evaluation
    return sub.ev.verdict(0, np.asarray(obs).astype(sub.raw.dtype)).reason


def attach_deviations(rep: dict[str, Any], deviations: dict[int, str]) -> dict[str, Any]:
    """Record which known driver deviation explains each refused GPU step
    (``steps[k]["gpu_deviation"]``, ``gpu["deviations"]``); the IDs come from
    :func:`fpinspector.gpu.expr_deviations.step_deviations`."""
    if "gpu" not in rep:
        return rep
    for k, dev in deviations.items():
        rep["steps"][k]["gpu_deviation"] = dev
    rep["gpu"]["deviations"] = {str(k): v for k, v in sorted(deviations.items())}
    return rep
