"""The D3D rule engine: evaluate any op under d3d11 / d3d10 / ieee754 with the exact
reference, the exact allowed set, ULP errors, verdicts and the rules that decided each
element (rule IDs: docs/rules.md).

Layout: optable (the ops, one row each: oprow says what a row holds), tolerances (the
accuracy table and AMBIGUOUS options), exact (exact values: each op row points at its
function), compute (reference bits and exact values), fastbits + paths (fast kernels,
picked by the op row), finish/ (the one place that decides allowed sets and fired rules), allowed
(the set types), explain (words), evaluate (the public entry point).
"""

from .allowed import AllowedSet
from .evaluate import OPS, Evaluation, OpSpec, evaluate
from .explain import Verdict
from .paths import PATHS
from .rules import RULE_SETS, RULES
from .tolerances import OPTIONS, TOLERANCES

__all__ = ["evaluate", "Evaluation", "OPS", "OpSpec", "RULE_SETS", "RULES", "OPTIONS",
           "TOLERANCES", "AllowedSet", "Verdict", "PATHS"]
