"""Qt-free state of an interactive sweep (the app's sweep panel binds to it): the op, operand
type, rules, domain texts, C, GPU and compare choices, and the rules that keep them
consistent when the op changes (code ops sweep their own code type)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

from ..engine import OPS
from ..formats import CodeFormat
from .plan import SweepPlan, default_domain
from .stages import COMPARES

__all__ = ["SweepSettings", "SweepState", "FLOAT_FORMATS"]

#: Float operand formats a sweep offers (f11/f10 take no arithmetic op).
FLOAT_FORMATS = ("f32", "f16", "f64")

Listener = Callable[[frozenset], None]


@dataclass(frozen=True)
class SweepSettings:
    """What a sweep panel shows and edits (text as typed; :meth:`SweepState.plan` reads it)."""

    op: str = "mul"
    fmt: str = "f32"
    rules: str = "d3d11"
    domain_a: str = "log:1e-40:1e3:512"
    domain_b: str = "log:1e-3:1e3:512"
    c: str = "1.0"
    gpu: bool = True
    compare: str = "gpu_vs_model"


class SweepState:
    """Observable :class:`SweepSettings` with the panel's consistency rules.

    Events
    ------
    Listeners registered with :meth:`connect` are called as ``listener(changed)``, the
    frozenset of field names that really changed, once per :meth:`update`.

    Notes
    -----
    Picking an op that takes an integer code type (itof: i32, from_unorm8: unorm8) switches
    ``fmt`` to that type and ``domain_a`` to a code domain; going back to a float op
    restores the float format and A domain last used with one.

    Examples
    --------
    >>> s = SweepState()
    >>> s.update(op="from_unorm8") == {"op", "fmt", "domain_a"}
    True
    >>> s.settings.fmt, s.settings.domain_a, s.fmt_fixed
    ('unorm8', 'all', True)
    """

    def __init__(self, settings: SweepSettings | None = None) -> None:
        self._s = settings or SweepSettings()
        self._listeners: list[Listener] = []
        self._float_fmt = self._s.fmt if self._s.fmt in FLOAT_FORMATS else "f32"
        self._float_a = self._s.domain_a

    @property
    def settings(self) -> SweepSettings:
        return self._s

    def connect(self, listener: Listener) -> None:
        """Call ``listener(changed_field_names)`` after every effective change."""
        self._listeners.append(listener)

    def disconnect(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    # -- derived -------------------------------------------------------------------
    @property
    def arity(self) -> int:
        """Operands of the op (2 while the typed op is not one: B stays editable)."""
        spec = OPS.get(self._s.op)
        return spec.arity if spec is not None else 2

    @property
    def code_type(self) -> str | None:
        """The integer code type the op takes (itof: i32), None for float ops."""
        return _code_type_of(self._s.op)

    @property
    def fmt_fixed(self) -> bool:
        """The op decides the operand type (a code op): the format is not a choice."""
        return self.code_type is not None

    @property
    def b_used(self) -> bool:
        return self.arity >= 2

    @property
    def c_used(self) -> bool:
        return self.arity == 3

    # -- writing -------------------------------------------------------------------
    def update(self, **changes: Any) -> frozenset:
        """Change fields (and what an op change implies); returns the names that changed."""
        unknown = set(changes) - {f.name for f in fields(SweepSettings)}
        if unknown:
            raise ValueError(f"unknown sweep field(s): {', '.join(sorted(unknown))}")
        if "compare" in changes and changes["compare"] not in COMPARES:
            raise ValueError(f"unknown compare {changes['compare']!r}; "
                             f"choose one of {', '.join(COMPARES)}")
        new = replace(self._s, **changes)
        if "fmt" in changes and new.fmt in FLOAT_FORMATS:
            self._float_fmt = new.fmt
        if "domain_a" in changes and new.fmt in FLOAT_FORMATS:
            self._float_a = new.domain_a
        if "op" in changes:
            new = self._follow_op(new)
        changed = frozenset(f.name for f in fields(SweepSettings)
                            if getattr(new, f.name) != getattr(self._s, f.name))
        if changed:
            self._s = new
            for listener in list(self._listeners):
                listener(changed)
        return changed

    def _follow_op(self, new: SweepSettings) -> SweepSettings:
        code = _code_type_of(new.op)
        if code is not None and new.fmt != code:
            if self._s.fmt in FLOAT_FORMATS:
                self._float_a = new.domain_a
            return replace(new, fmt=code, domain_a=default_domain(code))
        if code is None and new.fmt not in FLOAT_FORMATS:
            return replace(new, fmt=self._float_fmt, domain_a=self._float_a)
        return new

    # -- reading for a run -------------------------------------------------------------
    def plan(self) -> SweepPlan:
        """The sweep these settings describe (ValueError naming the first bad input)."""
        s = self._s
        return SweepPlan.build(s.op, s.fmt, s.rules, s.domain_a, s.domain_b if self.b_used
                               else None, s.c if self.c_used else None)


def _code_type_of(op: str) -> str | None:
    spec = OPS.get(op)
    types = spec.operand_types if spec is not None else ()
    return types[0].name if len(types) == 1 and isinstance(types[0], CodeFormat) else None
