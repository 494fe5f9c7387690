"""What one evaluation is about: op, operand format, rule set, options, tolerance, path."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..formats import FloatFormat
from .families import OpFamily
from .operand_rows import OperandRows
from .oprow import OpSpec
from .rules import RuleSet, rule_set
from .tolerances import Tolerance

__all__ = ["Ctx"]


@dataclass(frozen=True)
class Ctx:
    """The fixed facts of one evaluation, shared by every chunk.

    ``spec``: the op's row (engine/optable.py): what the code needs to know of the op.

    ``flush``: F32-FTZ applies (a math op in a format the rule set flushes,
    ``FloatFormat.flushes``; never for a raw move: ``OpFamily.flushes_inputs``).
    ``reference``: the caller asked for ``paths="reference"``: every element takes the
    general code (no fast kernel, no plain-element shortcut in the finisher).
    ``layout``: how the two operands were made from an A x B grid's rows (engine/
    operand_rows.py), for kernels that do per-row or per-axis what they would do per
    element; None: nothing is known of them.
    """

    spec: OpSpec
    fmt: FloatFormat
    rules: str
    opts: dict
    flush: bool
    tol: Tolerance
    readings: tuple[str, ...] = field(default=())
    reference: bool = False
    layout: OperandRows | None = None

    @property
    def op(self) -> str:
        return self.spec.name

    @property
    def family(self) -> str:
        """The name of the op's family (a key: the code reads :attr:`traits`)."""
        return self.spec.family

    @property
    def traits(self) -> OpFamily:
        """The record of the op's family: what it computes and how (engine/families.py)."""
        return self.spec.traits

    @property
    def rule_set(self) -> RuleSet:
        """The record of the evaluation's rule set."""
        return rule_set(self.rules)

    @property
    def div_route(self) -> bool:
        """The two-step route x * rcp(y) is part of a divide's set: the format allows it
        (F32-DIV) and the rule set takes it under these options (d3d11; d3d10 with option
        d3d10_div_route, F32-DIV-D3D10)."""
        return (self.spec.rcp_route and self.fmt.d3d_div_route
                and self.rule_set.takes_div_route(self.opts))

    @property
    def minmax_snan(self) -> bool:
        """A signalling NaN operand makes min/max give NaN (IEEE-MINMAX): the rule set's
        minNum/maxNum, or the format's option (f64: f64_minmax_snan, F64-MINMAX-NAN)."""
        opt = self.fmt.minmax_snan_option
        return self.rule_set.minmax_snan or bool(opt and self.opts[opt])

    @property
    def strict_out(self) -> bool:
        """A denormal result must be flushed (F32-FTZ; option ftz_output=strict)."""
        return self.flush and self.opts["ftz_output"] == "strict"
