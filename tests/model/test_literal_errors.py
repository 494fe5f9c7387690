"""Number literals from outside: a malformed one is the documented error (ValueError /
ExprError, exit 2), never decimal.InvalidOperation; exponents of any length read the same
way everywhere (±INF above the range, ±0 below), as Python's own float() reads them."""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.cli import main
from fpinspector.model.expr import ExprError
from fpinspector.model.expr.errors import ExprError as _E
from fpinspector.model.formats import FORMATS, read_decimal
from fpinspector.model.parse import parse

HUGE = "1e99999999999999999999"


@pytest.mark.parametrize("text", ["abc", "1e", "1e+", ".", "", "1..2", "--1", "1__0", "0x1p3"])
def test_encode_of_a_non_number_is_a_value_error(text):
    with pytest.raises(ValueError, match="not a decimal number"):
        FORMATS["f32"].encode(text)


@pytest.mark.parametrize("text", [HUGE, "-" + HUGE, "1e-99999999999999999999",
                                  "-1.5e-99999999999999999999", "1e999999999", "2.5e-999999999",
                                  "1e400", "1e-400", "1e38", "3.5e38", "1.0e-46", "1_0e3"])
@pytest.mark.parametrize("fmt", ["f32", "f16", "f64"])
def test_exponents_of_any_length_round_like_python_float(text, fmt):
    """Oracle: Python's correctly rounded float(), then numpy's cast to the narrower format
    (double rounding is impossible at these magnitudes: every case is an overflow, an
    underflow to zero or a value exact in float64 far from a midpoint)."""
    f = FORMATS[fmt]
    with np.errstate(over="ignore"):
        want = np.array([float(text.replace("_", ""))], np.float64).astype(
            {"f32": np.float32, "f16": np.float16, "f64": np.float64}[fmt])
    want_bits = int(want.view({4: np.uint32, 2: np.uint16, 8: np.uint64}[want.itemsize])[0])
    assert int(f.encode(text)) == want_bits
    assert [v.bits for v in parse(text, fmt)] == [want_bits]


def test_read_decimal_clamps_only_beyond_any_rounding_decision():
    assert read_decimal("1e5") == 100000 and read_decimal("-0.5") == -0.5
    assert read_decimal(HUGE).adjusted() == 10**8
    assert read_decimal("1e-99999999999999999999").adjusted() == -10**8


@pytest.mark.parametrize("text, message", [
    ("1e", "exponent without digits"),
    ("a*1e", "exponent without digits"),
    ("1.5e+2*1e", "exponent without digits"),
    (HUGE, "overflows f32"),
    ("1" * 5000, "outside 32 bits"),
    ("0x" + "f" * 5000, "outside 32 bits"),
])
def test_expression_literals_give_expr_errors(text, message):
    with pytest.raises(ExprError, match=message):
        from fpinspector.model.expr import evaluate_expr

        evaluate_expr(text, {"a": 1.0})


def test_a_tiny_literal_reads_as_zero():
    from fpinspector.model.expr import evaluate_expr

    assert evaluate_expr("1e-99999999999999999999 + 0.0", {}).bits == 0


@pytest.mark.parametrize("argv", [["expr", "1e"], ["expr", HUGE],
                                  ["expr", "a*1e", "--set", "a=1"],
                                  ["sweep", "--expr", "a*1e", "-d", "bits:0:9", "-q"]])
def test_cli_literal_errors_exit_2_without_traceback(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "InvalidOperation" not in err and "error:" in err


def test_the_caret_line_shows_a_window_of_a_long_expression():
    text = "a+" * 3000 + "1e" + "+b" * 3000
    lines = _E("x", 6000, 6002).caret(text).splitlines()
    assert len(lines[0]) <= 90 and lines[0][lines[1].index("^"):].startswith("1e")
