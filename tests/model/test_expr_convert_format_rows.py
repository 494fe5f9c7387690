"""The expression layer and the conversions read formats as data (issue 37): no code in
``fpinspector/model/expr`` or ``fpinspector/model/convert`` compares a format name. The
formats expressions compute in come from the op rows (expr/instructions.py
expression_formats), a conversion result's float format is its record (NumericResult.fmt).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from _name_literals import name_comparisons

from fpinspector.model.convert import dtof, itof
from fpinspector.model.engine.optable import OPS
from fpinspector.model.expr import lower
from fpinspector.model.expr.instructions import INSTRUCTIONS, expression_formats
from fpinspector.model.formats import F32, FORMATS

MODEL = Path(__file__).resolve().parents[2] / "fpinspector" / "model"
FOLDERS = ("expr", "convert")


def test_the_check_sees_a_comparison_written_back():
    """The source check can fail: the comparisons this issue removed, written back."""
    src = ('if "f32" not in spec.formats: pass\nif fmt.name not in ("f32", "f16"): pass\n'
           'if self.kind == "f32": pass\n')
    assert len(name_comparisons(src, FORMATS)) == 3


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_module_compares_a_format_name(folder):
    """ISSUE-37: capabilities come from the format record or a one-place table."""
    found = {}
    for path in sorted((MODEL / folder).rglob("*.py")):
        hits = name_comparisons(path.read_text(encoding="utf-8"), FORMATS)
        if hits:
            found[str(path.relative_to(MODEL))] = hits
    assert not found, f"format names compared (read the record instead): {found}"


def test_expressions_compute_in_the_formats_every_instruction_takes():
    """EXPR-TYPES: f32 and f16, read from the op rows (f64 has no rsq, exp, log, dp; the
    FP8 and bfloat16 formats no D3D arithmetic); lowering refuses the others by that list."""
    assert expression_formats() == ("f32", "f16")
    for f in FORMATS:
        own = [OPS[r.name] for r in INSTRUCTIONS.values() if r.engine and not r.operand_format]
        assert (f in expression_formats()) == all(f in s.formats for s in own), f
    assert lower("a * b", {"a": "float", "b": "float"}, "f16").format == "f16"
    with pytest.raises(ValueError, match="compute in f32 or f16, not f64"):
        lower("a * b", {"a": "float", "b": "float"}, "f64")


def test_numeric_results_compare_float_patterns_by_value_CONV_ITOF():
    """A float-pattern result (itof, dtof) carries its format record and compares observed
    patterns by value: -0 lies in a window [+0, +0]; integer codes compare as integers."""
    r = itof(np.array([0, 3], dtype=np.int32))
    assert r.fmt is F32
    neg_zero = np.array([0x80000000, 0x40400000], dtype=np.uint32)
    assert r.allowed(neg_zero).tolist() == [True, True]
    assert dtof(np.array([0x3FF0000000000000], dtype=np.uint64)).fmt is F32
