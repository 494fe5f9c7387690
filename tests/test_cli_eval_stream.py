"""`fpinspector eval --batch` streams: blocks of whole lines give the same JSON lines (row and
line numbers of the whole input) as one block, and memory does not grow with the row count.
Oracle: the same input read as a single block, and Python int() for the patterns."""

from __future__ import annotations

import io
import json
import sys
import tracemalloc

import numpy as np
import pytest
from _cli_run import run_cli

from fpinspector.cli import main
from fpinspector.commands._eval import batch as _eval_batch
from fpinspector.commands._eval.batch import blocks


def _run(argv, capsys, stdin=""):
    return run_cli(argv, capsys, stdin)


def test_blocks_are_whole_lines_with_their_line_offsets():
    text = "".join(f"line {i}\n" for i in range(100)) + "tail"
    got = list(blocks(io.StringIO(text), size=37))
    assert "".join(t for t, _ in got) == text
    for t, line0 in got:
        assert t.endswith("\n") or t == "tail"
        assert t.split("\n")[0] == f"line {line0}" or t == "tail"


def test_an_endless_line_is_an_error_not_a_memory_blow_up(monkeypatch):
    monkeypatch.setattr(_eval_batch, "MAX_LINE_CHARS", 1000)
    with pytest.raises(ValueError, match="line 3 is longer than 1000"):
        list(blocks(io.StringIO("a\nb\n" + "x" * 5000), size=64))


def test_small_blocks_give_the_same_output_as_one_block_F32_PREC(capsys, monkeypatch):
    rng = np.random.default_rng(7)
    a = rng.integers(0, 2**32, size=(3000, 2), dtype=np.uint64)
    lines = [f"0x{x:08X} {y:x}" for x, y in a.tolist()]
    lines[5] = "0x3f800000 nonsense"
    lines[2500] = "1.5, 2.5"  # decimals: the per-line reader
    lines[2999] = "0x1FFFFFFFF 0"  # wider than f32
    lines.insert(1000, "# a comment")
    text = "\n".join(lines) + "\n"
    rc1, whole, err1 = _run(["eval", "add", "--batch", "-"], capsys, text)
    monkeypatch.setattr(_eval_batch, "BLOCK_CHARS", 500)
    rc2, streamed, err2 = _run(["eval", "add", "--batch", "-"], capsys, text)
    assert rc1 == rc2 == 1 and whole == streamed and err1 == err2
    rows = [json.loads(x) for x in streamed.splitlines()]
    assert [r["row"] for r in rows] == list(range(3000))
    assert rows[5]["line"] == 6 and "error" in rows[5]
    assert rows[2999]["line"] == 3001 and "wider than f32" in rows[2999]["error"]
    assert rows[2500]["operands"] == ["0x3FC00000", "0x40200000"]
    assert int(rows[17]["operands"][0], 16) == int(a[17, 0])
    assert "2 of 3000 rows could not be read (first: line 6" in err2


def test_memory_does_not_grow_with_the_row_count(tmp_path, monkeypatch):
    """8x the rows, about the same peak: rows are read, evaluated and written per block."""
    monkeypatch.setattr(_eval_batch, "BLOCK_CHARS", 1 << 12)
    peaks = []
    for n in (1000, 8000):
        p = tmp_path / f"{n}.txt"
        p.write_text("".join(f"0x{i:08X} 0x3F800000\n" for i in range(n)))
        out = tmp_path / f"{n}.jsonl"
        with open(out, "w") as fh:
            monkeypatch.setattr(sys, "stdout", fh)
            tracemalloc.start()
            try:
                assert main(["eval", "mul", "--batch", str(p)]) == 0
                peaks.append(tracemalloc.get_traced_memory()[1])
            finally:
                tracemalloc.stop()
        assert len(out.read_text().splitlines()) == n
    assert peaks[1] < 1.5 * peaks[0], peaks
