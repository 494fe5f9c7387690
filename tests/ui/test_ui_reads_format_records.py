"""The UI reads formats as data (issue 37, issue 36's leftovers): no module in
``fpinspector/ui`` compares a format name; what a view needs of a format (its width, the
word's fields) comes from the format record or a one-place table (WORD_FIELDS).

And what the old comparisons got wrong: the Expression dock bound an operand of another
format than f32 by its hex, which the parser read as a pattern of the expression's format
(f16 1.0 = 0x3C00 became the f32 denormal 2.15e-41), and an f32 operand could not be bound
to an f16 expression at all (its pattern is wider than 16 bits).
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
from _name_literals import name_comparisons

from fpinspector.model.formats import FORMATS
from fpinspector.ui.inspector.all_formats import WORD_ROW, AllFormatsPanel

UI = Path(__file__).resolve().parents[2] / "fpinspector" / "ui"


def test_the_counter_finds_name_comparisons():
    """The check below can fail: it sees each spelling of a name comparison."""
    src = ('if fmt == "f32": pass\nif "f16" != f: pass\nif f in ("f11", "f10"): pass\n'
           'x = 4 if c.currentText() == "f16" else 8\nx = {"f32": 1}\n')
    assert len(name_comparisons(src, FORMATS)) == 4


def test_no_ui_module_compares_a_format_name():
    """ISSUE-37 in fpinspector/ui: a view reads widths, signedness, the word's fields from
    the format record or WORD_FIELDS, never from a name written in the code."""
    found = {}
    for path in sorted(UI.rglob("*.py")):
        hits = name_comparisons(path.read_text(encoding="utf-8"), FORMATS)
        if hits:
            found[str(path.relative_to(UI))] = hits
    assert not found, f"format names compared in fpinspector/ui (read the record): {found}"


@pytest.fixture
def panel(expression_panel):
    return expression_panel


def _f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def test_an_f16_operand_is_bound_by_its_value_in_an_f32_expression(panel, wait_for):
    """f16 operands A=1.0 (0x3C00), B=0.333 (0x3555) in ``a * b`` (f32): the product of the
    two f16 values, rounded once to f32 (numpy's float16 -> float32 is exact)."""
    a16, b16 = np.uint16(0x3C00), np.uint16(0x3555)
    panel.state.update(op_format="f16", operands=[int(a16), int(b16), 0])
    panel.edit.setText("a * b")
    panel.evaluate()
    want = np.float32(a16.view(np.float16)) * np.float32(b16.view(np.float16))
    assert wait_for(lambda: panel.evaluation is not None
                    and int(panel.evaluation.bits) == _f32_bits(float(want)))


def test_an_f32_operand_binds_to_an_f16_expression_rounded_once(panel, wait_for):
    """f32 operand 0.1f (0x3DCCCCCD) in an f16 expression: its value rounded once to f16
    (numpy's float32 -> float16 rounds to nearest even); before, the 32-bit pattern was
    refused by an f16 expression."""
    panel.state.update(op_format="f32", operands=[0x3DCCCCCD, 0x3F800000, 0])
    panel.edit.setText("a * b")
    panel.format.setCurrentText("f16")
    want = int(np.float16(np.float32(0.1)).view(np.uint16))
    assert wait_for(lambda: panel.evaluation is not None and int(panel.evaluation.bits) == want)
    assert not panel.error.isVisibleTo(panel)


def test_a_map_cell_loads_in_the_expression_formats_width(panel):
    """A map cell's pattern is typed with the expression format's hex digits (the parser
    reads a pattern's format from them): 4 for f16, 8 for f32."""
    panel.edit.setText("a * b")
    panel.evaluate()
    panel.format.setCurrentText("f16")
    panel.load_cell({"a": 0x3C00, "b": 0x4000})
    assert panel.bindings.bindings()["a"] == "0x3C00"
    assert int(panel.evaluation.bits) == int(np.float16(2.0).view(np.uint16))
    panel.format.setCurrentText("f32")
    panel.load_cell({"a": 0x3F800000, "b": 0x40400000})
    assert panel.bindings.bindings()["a"] == "0x3F800000"
    assert int(panel.evaluation.bits) == _f32_bits(3.0)


@pytest.mark.parametrize("src, rules", [("f11", "inspected value"), ("f10", "CONV-WIDEN")])
def test_the_word_of_a_field_format_says_the_inspected_value_is_in_it(qtbot, src, rules):
    """FMT-R11G11B10: an f11 pattern goes into R and G unchanged, so the word row names
    the inspected value; an f10 one goes into B unchanged and widens into R and G."""
    panel = AllFormatsPanel()
    qtbot.addWidget(panel)
    one = {"f11": 0x3C0, "f10": 0x1E0}[src]  # 1.0: exponent 15 (bias 15), fraction 0
    panel.show_value(src, one)
    assert panel.rows[WORD_ROW].rules.text() == rules
    r = g = 0x3C0
    b = 0x1E0
    assert panel.rows[WORD_ROW].bits() == r | (g << 11) | (b << 22)
