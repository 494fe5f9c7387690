"""What one evaluation is about: op, operand format, rule set, options, tolerance, path."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..formats import FloatFormat
from .oprow import OpSpec
from .tolerances import Tolerance

__all__ = ["Ctx"]


@dataclass(frozen=True)
class Ctx:
    """The fixed facts of one evaluation, shared by every chunk.

    ``spec``: the op's row (engine/optable.py): what the code needs to know of the op.

    ``flush``: F32-FTZ applies (f32 math op under d3d10/d3d11; never for mov).
    ``reference``: the caller asked for ``paths="reference"``: every element takes the
    general code (no fast kernel, no plain-element shortcut in the finisher).
    """

    spec: OpSpec
    fmt: FloatFormat
    rules: str
    opts: dict
    flush: bool
    tol: Tolerance
    readings: tuple[str, ...] = field(default=())
    reference: bool = False

    @property
    def op(self) -> str:
        return self.spec.name

    @property
    def family(self) -> str:
        return self.spec.family

    @property
    def strict_out(self) -> bool:
        """A denormal result must be flushed (F32-FTZ; option ftz_output=strict)."""
        return self.flush and self.opts["ftz_output"] == "strict"
