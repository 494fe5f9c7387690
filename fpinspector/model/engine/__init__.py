"""The D3D rule engine: evaluate any op under d3d11 / d3d10 / ieee754 with exact reference,
allowed window, ULP error and the rules (RULES.md IDs) that decided each element."""

from .evaluate import OPS, Evaluation, OpSpec, evaluate
from .rules import RULE_SETS, RULES
from .tolerances import OPTIONS, TOLERANCES

__all__ = ["evaluate", "Evaluation", "OPS", "OpSpec", "RULE_SETS", "RULES", "OPTIONS", "TOLERANCES"]
