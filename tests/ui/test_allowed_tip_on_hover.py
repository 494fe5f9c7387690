"""The allowed set's tooltip writes each range's ends out exactly when it is hovered, not
on every edit of the operation (about 0.13 ms an edit); before a hover it explains the
field and never shows an earlier operation's ends.

Oracle: each end's exact value is the f32 pattern's value as a Fraction (numpy's float32
decode, exact in a double), and the ends are those of the engine's allowed set shown."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
from _qt_probes import hover_tip

from fpinspector.ui.operation import op_results

F32_ONE = 0x3F800000


def _f32(x: float) -> int:
    return int(np.float32(x).view(np.uint32))


def _ends_shown(tip: str) -> list[tuple[int, Fraction]]:
    return [(int(p, 16), Fraction(v)) for p, v in re.findall(r"0x([0-9A-F]+) = (\S+)", tip)]


def test_the_allowed_ends_are_written_out_on_hover_only(make_window, monkeypatch) -> None:
    win = make_window()
    panel = win.ops_view.verdict
    label = win.ops_view.allowed_label
    calls: list[object] = []
    real = op_results._allowed_tip
    monkeypatch.setattr(op_results, "_allowed_tip", lambda a: calls.append(a) or real(a))
    for op, a, b in (("mul", 1.5, 3.0), ("div", 1.0, 3.0), ("add", 0.1, 0.2)):
        win.state.update(op=op, op_format="f32", operands=[_f32(a), _f32(b), 0, 0])
        assert calls == []  # an edit works out no expansion
        assert label.toolTip() == op_results.ALLOWED_TIP  # (not the last set's ends)
        tip = hover_tip(label)
        allowed = win.ctl.outcome.allowed
        ends = sorted({p for r in allowed.ranges for p in r})
        shown = _ends_shown(tip)
        assert [p for p, _ in shown] == [p for r in allowed.ranges[:8]
                                         for p in ((r[0],) if r[0] == r[1] else r)]
        assert {p for p, _ in shown} <= set(ends)
        for p, value in shown:
            assert value == Fraction(float(np.uint32(p).view(np.float32))), hex(p)
        calls.clear()
    assert panel._allowed is win.ctl.outcome.allowed


def test_no_operation_result_no_allowed_tip(make_window) -> None:
    win = make_window()
    win.ops_view.show_outcome(None, "no result")
    assert win.ops_view.allowed_label.toolTip() == ""
    assert hover_tip(win.ops_view.allowed_label) == ""
