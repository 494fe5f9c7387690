"""The UI's doorway to the rule engine: op tables, options, evaluate one op for display.

The values half (parse, describe, convert) is :mod:`.bridge`; this module builds on it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model.formats import get_format
from .bridge import model_call, optional, value_text

__all__ = ["OpInfo", "OpOutcome", "OptionInfo", "evaluate", "op_infos", "operand_arrays",
           "option_infos",
           "options_dict", "result_text", "rule_sets"]


# -- the rule engine -------------------------------------------------------------------

@dataclass(frozen=True)
class OpInfo:
    """What the pickers need to know about one op."""

    name: str
    arity: int
    formats: tuple[str, ...]
    description: str


def op_infos() -> dict[str, OpInfo]:
    """The engine's ops (``OPS``), or an empty dict when the engine is not available."""
    table = optional("fpinspector.model", "OPS") or optional("fpinspector.model.engine", "OPS")
    if not table:
        return {}
    out = {}
    for name, spec in table.items():
        out[name] = OpInfo(name, int(spec.arity), tuple(getattr(spec, "formats", ("f32",))),
                           str(getattr(spec, "description", "")))
    return out


def rule_sets() -> tuple[str, ...]:
    return tuple(optional("fpinspector.model", "RULE_SETS")
                 or optional("fpinspector.model.engine", "RULE_SETS") or ("d3d11", "d3d10", "ieee754"))


@dataclass(frozen=True)
class OptionInfo:
    """One AMBIGUOUS switch of the engine: its choices (as text), default and explanation."""

    name: str
    choices: tuple[str, ...]
    default: str
    text: str


def option_infos() -> dict[str, OptionInfo]:
    """The engine's ``OPTIONS`` (empty when the engine has none)."""
    opts = optional("fpinspector.model", "OPTIONS") or optional("fpinspector.model.engine", "OPTIONS")
    out = {}
    for name, o in (opts or {}).items():
        choices = tuple(str(c) for c in getattr(o, "choices", (False, True)))
        out[str(name)] = OptionInfo(str(name), choices, str(getattr(o, "default", choices[0])),
                                    f"{getattr(o, 'rule', '')}: {getattr(o, 'text', '')}")
    return out


def options_dict(options: tuple[str, ...]) -> dict[str, Any] | None:
    """State option strings ("name=value") as the engine's options mapping."""
    out: dict[str, Any] = {}
    opts = optional("fpinspector.model", "OPTIONS") or optional("fpinspector.model.engine", "OPTIONS") or {}
    for item in options:
        name, _, text = item.partition("=")
        value: Any = text or True
        o = opts.get(name)
        if o is not None and text:
            for c in getattr(o, "choices", ()):
                if str(c) == text:
                    value = c
        out[name] = value
    return out or None


@dataclass
class OpOutcome:
    """One evaluated op, unpacked for display (all values come from ``evaluate``)."""

    evaluation: Any
    result_format: str
    bits: int
    exact: float
    lo: int | None
    hi: int | None
    nan_ok: bool
    rules: list[str]
    explain: list[str]
    steps: list[str]

    def judge(self, observed: int) -> tuple[bool, float]:
        """(conformant, ULP error) of an observed result pattern, from the model."""
        ev = self.evaluation
        obs = np.asarray([observed]).astype(np.asarray(ev.bits).dtype)
        try:
            ok = bool(np.asarray(ev.allowed(obs)).reshape(-1)[0])
        except Exception as exc:  # noqa: BLE001 - the UI boundary
            raise ValueError(f"judging the GPU result failed: {exc}") from exc
        try:
            err = float(np.asarray(ev.ulp_error(obs)).reshape(-1)[0])
        except Exception:  # noqa: BLE001 - no ULP figure, the verdict stands
            err = float("nan")
        return ok, err


@model_call("the rule engine")
def evaluate(op: str, operands: tuple[int, ...], fmt: str, rules: str,
             options: tuple[str, ...] = ()) -> OpOutcome:
    """Evaluate one op on scalar operand patterns; ValueError when it cannot be evaluated."""
    fn = optional("fpinspector.model", "evaluate") or optional("fpinspector.model.engine", "evaluate")
    if fn is None:
        raise ValueError("the rule engine is not available in this build")
    info = op_infos().get(op)
    if info is None:
        raise ValueError(f"unknown op {op!r}")
    args, fname = operand_arrays(operands[: info.arity], fmt)
    opts = options_dict(options)
    ev = fn(op, *args, format=fname, rules=rules, options=opts)
    first = lambda a: np.asarray(a).reshape(-1)[0]  # noqa: E731
    nan_ok = getattr(ev, "nan_ok", None)
    lo, hi = getattr(ev, "lo", None), getattr(ev, "hi", None)
    return OpOutcome(
        evaluation=ev,
        result_format=str(ev.result_format),
        bits=int(first(ev.bits)),
        exact=float(first(ev.exact)) if getattr(ev, "exact", None) is not None else float("nan"),
        lo=None if lo is None else int(first(lo)),
        hi=None if hi is None else int(first(hi)),
        nan_ok=bool(first(nan_ok)) if nan_ok is not None else False,
        rules=list(ev.rules_at(0)),
        explain=list(ev.explain_at(0)),
        steps=list(ev.steps_at(0)) if hasattr(ev, "steps_at") else [],
    )


def operand_arrays(operands: tuple[int, ...], fmt: str) -> tuple[list[np.ndarray], str]:
    """One-element arrays of the state's operand patterns as the engine and GPU take them,
    and the ``format=`` to pass.

    Why: integer code types (i32, unorm8, snorm8, ...) are stored as width-bit patterns but
    itof/from_snorm8 take the code values themselves (negative for signed types), and their
    ``format`` stays the float default f32 (``fpinspector eval itof -1`` does the same).
    """
    from ..model.formats import (
        CODE_FORMATS,  # noqa: PLC0415
        FORMATS,  # noqa: PLC0415
    )

    if fmt in FORMATS or fmt not in CODE_FORMATS:
        f = get_format(fmt)
        return [np.asarray([v], dtype=f.dtype) for v in operands], f.name
    c = CODE_FORMATS[fmt]
    vals = [v & c.mask for v in operands]
    if c.signed:
        vals = [v - (1 << c.bits) if v >> (c.bits - 1) else v for v in vals]
    return [np.asarray([v], dtype=c.dtype) for v in vals], "f32"


def result_text(fmt: str, bits: int) -> str:
    """How a result pattern of ``fmt`` (a float format, bool, i32 or u32) reads."""
    if fmt == "bool":
        return "true" if bits else "false"
    if fmt.startswith(("unorm", "srgb")):
        return f"code {bits}"
    if fmt.startswith("snorm"):
        width = int("".join(c for c in fmt if c.isdigit()) or 8)
        v = bits & ((1 << width) - 1)
        return f"code {v - (1 << width) if v >> (width - 1) else v}"
    if fmt in ("i32", "u32", "u8", "u16", "i8", "i16"):
        width = int(fmt[1:])
        v = bits & ((1 << width) - 1)
        if fmt.startswith("i") and v >> (width - 1):
            v -= 1 << width
        return str(v)
    try:
        return value_text(fmt, bits)
    except ValueError:
        return f"0x{bits:X}"
