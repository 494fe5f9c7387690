"""Expressions: an HLSL-like language lowered to D3D instruction steps, evaluated step by
step under the rule engine, with the whole expression's exact value.

``evaluate_expr("n * rsqrt(dot(n, n))", {"n": "float3(1e-20, 0, 0)"})`` gives, per step, the
instruction, its inputs, the model's bits, the allowed set and the rules that fired; and
for the whole expression its exact value and the ULP error of the result. See
docs/expressions.md for the language and the lowering of every construct.
"""

from .bindings import BindingError, bind
from .errors import ExprError
from .evaluate import ExprEvaluation, evaluate_expr
from .intrinsics import CONSTRUCTORS, INTRINSICS, parse_type
from .judge import GpuJudgement, judge_gpu
from .lower import lower
from .parser import parse_expr, variables_in
from .program import Const, ExprType, Input, Program, Ref, Step
from .rules import EXPR_RULES
from .step_eval import StepEval

__all__ = [
    "evaluate_expr", "ExprEvaluation", "ExprError", "BindingError", "bind", "lower",
    "parse_expr", "INTRINSICS", "CONSTRUCTORS", "parse_type", "Program", "Step", "Ref",
    "Input", "Const", "ExprType", "StepEval", "GpuJudgement", "judge_gpu",
    "EXPR_RULES", "variables_in",
]
