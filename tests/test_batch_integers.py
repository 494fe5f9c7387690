"""One integer reader for eval operands: the vectorized batch reader, the per-line batch
reader and the single-value reader read every integer token alike (before, ``010`` was 10
in the fast reader and "not an integer" in the others). Oracle: Python's int() with the
base written out (10, or 16 after 0x)."""

from __future__ import annotations

import pytest

from fpinspector.commands._eval.batch_read import read_rows
from fpinspector.commands._eval.operand import read_integer, read_operand


def _oracle(tok: str) -> int:
    sign = -1 if tok.startswith("-") else 1
    body = tok.lstrip("+-")
    return sign * (int(body[2:], 16) if body[:2].lower() == "0x" else int(body, 10))


TOKENS = ["0", "010", "-010", "007", "0x10", "-0x10", "0X7f", "2147483647", "-2147483648",
          "0000000000012", "+5"]


@pytest.mark.parametrize("tok", TOKENS)
def test_fast_slow_and_single_readers_agree(tok):
    want = _oracle(tok)
    kinds = ["i32", "f32"]
    fast = read_rows(f"{tok}\n", 1, kinds, read_operand)
    slow = read_rows(f"{tok}  # forces the per-line reader\n", 1, kinds, read_operand)
    assert not fast.error and not slow.error, (fast.error, slow.error)
    got = [int(r.ops.view("int64")[0, 0])
           for r in (fast, slow)]
    assert got == [want, want] and read_operand(tok, "i32") == want


@pytest.mark.parametrize("tok", ["1.5", "0x", "x10", "--1", "1e3", "0b101", "abc", "9" * 5000])
def test_non_integers_are_refused_with_a_bounded_message(tok):
    with pytest.raises(ValueError, match="is not an integer") as info:
        read_integer(tok)
    assert len(str(info.value)) < 80
    rows = read_rows(f"{tok}\n", 1, ["i32", "f32"], read_operand)
    assert list(rows.error) == [0] and len(rows.error[0]) < 200
