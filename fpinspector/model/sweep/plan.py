"""One sweep, resolved and checked before it runs: what ``fpinspector sweep`` and the app's
sweep panel both build from their inputs (op, operand type, rules, domain text, C)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine import OPS, RULE_SETS
from ..formats import CODE_FORMATS, CodeFormat, get_format, operand_format
from ..parse import parse
from .domain import Domain
from .runner import SweepResult, run_sweep
from .specs import parse_domain
from .stages import ModelStage, op_arity, operand_format_of, result_format_of

__all__ = ["SweepPlan", "sweepable_ops", "default_domain", "PANEL_LABELS", "CLI_LABELS"]

#: How the inputs are called in error messages: the app's fields, the CLI's flags.
PANEL_LABELS = {"c": "the C field", "domain_b": "the B domain"}
CLI_LABELS = {"c": "--c", "domain_b": "--domain-b"}


def sweepable_ops() -> list[str]:
    """Ops a sweep covers: one or two swept operands, and mad (A x B with C fixed)."""
    return sorted(name for name, spec in OPS.items() if spec.arity in (1, 2, 3))


def default_domain(fmt: str) -> str:
    """A first domain for an operand type: every code of 8/16-bit codes, a window of
    32-bit integers (2^32 codes would be a long sweep), a log range of floats."""
    t = operand_format(fmt)
    if not isinstance(t, CodeFormat):
        return "log:1e-40:1e3:512"
    if t.bits <= 16:
        return "all"
    return f"bits:{max(t.lo, -32768)}:{min(t.hi, 32767 if t.signed else 65535)}"


def _fixed_operand(op: str, text: str | None, fmt: str, label: str) -> np.ndarray:
    """C of mad: one value or pattern (``1.5``, ``0x3F800000``) as a 0-d ``fmt`` pattern."""
    if text is None or not str(text).strip():
        raise ValueError(f"{op} takes 3 operands: sweep A x B and give C ({label}): one "
                         "value or pattern, e.g. 1.5 or 0x3F800000")
    vals = parse(str(text), fmt)
    if len(vals) != 1:
        raise ValueError(f"{label} takes one value, got {len(vals)} in {text!r}")
    return np.asarray(vals[0].bits, dtype=operand_format(fmt).dtype)


def _format_name(fmt: str) -> str:
    """``F32`` / `` float16 `` -> the format's own name; integer codes as they are."""
    name = str(fmt).strip().lower()
    return name if name in CODE_FORMATS else get_format(name).name


@dataclass(frozen=True)
class SweepPlan:
    """A sweep ready to run: every input read and checked, nothing computed yet.

    Attributes
    ----------
    op, rules : the operation and rule set (``fpinspector.model.evaluate``'s names).
    fmt : the operand type swept: the asked format, or the op's own integer code type
        (itof sweeps i32 codes whatever is asked; ``OpSpec.operand_type``).
    domain : the swept inputs (one axis, or A x B).
    result_format : what the op gives on ``fmt`` operands.
    fixed : constant trailing operands (C of mad, a 0-d pattern), else empty.
    options : the rule engine's AMBIGUOUS switches, by name.

    Examples
    --------
    >>> plan = SweepPlan.build("mad", "f32", domain="lin:-4:4:9", c="0.5")
    >>> plan.domain.shape, plan.meta()["fixed"]
    ((9, 9), {'c': '0x3F000000'})
    """

    op: str
    fmt: str
    rules: str
    domain: Domain
    result_format: str
    fixed: tuple[np.ndarray, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def build(cls, op: str, fmt: str = "f32", rules: str = "d3d11", domain: str = "all",
              domain_b: str | None = None, c: str | None = None,
              options: Mapping[str, Any] | None = None,
              labels: Mapping[str, str] = PANEL_LABELS) -> SweepPlan:
        """Read a sweep from its text inputs; ValueError naming the first bad one.

        ``domain`` is the A axis (``all``, ``bits:LO:HI[:N]``, ``lin:A:B[:N]``,
        ``log:A:B[:N]``); ``domain_b`` the B axis of a binary op (default: ``domain``),
        refused for one swept operand; ``c`` the fixed third operand of mad (a value or a
        pattern), refused elsewhere. ``labels`` names the inputs in messages
        (:data:`PANEL_LABELS`, :data:`CLI_LABELS`).
        """
        if rules not in RULE_SETS:
            raise ValueError(f"unknown rule set {rules!r}; choose one of {', '.join(RULE_SETS)}")
        arity = op_arity(op)
        fmt = operand_format_of(op, _format_name(fmt))
        opts = dict(options or {})
        fixed: tuple[np.ndarray, ...] = ()
        if arity > 3:
            raise ValueError(f"{op} takes {arity} operands; sweeps cover 1, 2 or mad's 3 "
                             "(A x B with C fixed)")
        if arity == 3:
            fixed = (_fixed_operand(op, c, fmt, labels["c"]),)
        elif c is not None:
            raise ValueError(f"{labels['c']} is for 3-operand ops (mad); {op} takes {arity}")
        swept = arity - len(fixed)
        if swept == 1 and domain_b is not None:
            raise ValueError(f"{labels['domain_b']} is for two-operand sweeps; {op} sweeps one")
        spec = domain if swept == 1 else f"{domain} x {domain_b or domain}"
        return cls(op, fmt, rules, parse_domain(spec, fmt, swept),
                   result_format_of(op, fmt, rules, opts or None), fixed, opts)

    @property
    def c_text(self) -> str:
        """C as a pattern (``0x3F000000``), or "" without one."""
        if not self.fixed:
            return ""
        c = self.fixed[0]
        return f"0x{int(c):0{2 * c.dtype.itemsize}X}"

    def stage(self, gpu: Any = None) -> ModelStage:
        """The standard stage: model, exact value and verdicts, with ``gpu`` captures."""
        return ModelStage(self.op, self.fmt, self.rules, options=self.options or None, gpu=gpu,
                          fixed=self.fixed)

    def meta(self, **extra: Any) -> dict[str, Any]:
        """What a saved sweep records about how it was made (plus ``extra``: gpu, renderer)."""
        out: dict[str, Any] = {"op": self.op, "format": self.fmt, "rules": self.rules,
                               "options": {k: str(v) for k, v in self.options.items()},
                               "result_format": self.result_format}
        if self.fixed:
            out["fixed"] = {"c": self.c_text}
        out.update(extra)
        return out

    def describe(self) -> str:
        """One line: ``mad f32 d3d11 over lin:... x lin:... with C = 0x3F000000``."""
        text = f"{self.op} {self.fmt} {self.rules} over {self.domain.describe()}"
        return text + (f" with C = {self.c_text}" if self.fixed else "")

    def run(self, stage: Callable[..., Mapping[str, Any]] | None = None, *,
            meta: Mapping[str, Any] | None = None, **kwargs: Any) -> SweepResult:
        """Run it (:func:`~fpinspector.model.sweep.run_sweep`; ``kwargs`` are its chunking,
        progress and cancel arguments) with :meth:`stage` unless another is given."""
        return run_sweep(self.domain, stage or self.stage(), result_format=self.result_format,
                         meta=self.meta(**(meta or {})), **kwargs)
