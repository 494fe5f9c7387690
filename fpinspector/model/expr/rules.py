"""The expression layer's own rule IDs (documented in docs/expressions.md), as data."""

from __future__ import annotations

__all__ = ["EXPR_RULES", "expr_rule_text"]

#: rule ID -> (statement, source)
EXPR_RULES: dict[str, tuple[str, str]] = {
    "EXPR-SAT": ("_sat clamps an instruction's result with min(1, max(0, x)) and the min/max "
                 "rules: NaN -> +0, -0 -> +0 or -0, denormals may stay",
                 "docs/rules.md; D3D11.3 §22.19.1, §22.10.10, §22.10.11"),
    "EXPR-SRCMOD": ("source modifiers -x, |x|, -|x| set the operand's sign bit before the "
                    "instruction reads it (abs first, then negate); a NaN stays a NaN of "
                    "unspecified bits", "docs/rules.md; D3D11.3 §22.18.1, §22.18.2"),
    "EXPR-MOVC": ("c ? a : b is movc: the chosen operand's bits are copied unchanged "
                  "(no flush), the condition is 'any bit set'", "docs/rules.md; D3D11.3 §22.9.2"),
    "EXPR-CAST": ("asfloat/asuint reinterpret bits: no instruction, nothing rounds or flushes",
                  "docs/rules.md; D3D11.3 §22.9.1 (raw mov)"),
}


def expr_rule_text(rule_id: str) -> str:
    text, source = EXPR_RULES[rule_id]
    return f"{text} ({source})"
