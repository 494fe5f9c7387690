"""The distance view lists the values in between A and B
(FMT-F16 and FMT-F32 ordering of patterns by value).

Oracle: numpy.nextafter on float16 / float32 walks the values independently of the model.
"""

from __future__ import annotations

import numpy as np

from fpinspector.ui.inspector.distance_view import DistanceView


def _walk(a, b, n: int) -> list:
    """n values after a towards b (numpy.nextafter)."""
    out = []
    for _ in range(n):
        a = np.nextafter(a, b)
        out.append(a)
    return out


def test_narrow_gap_lists_every_value(qtbot) -> None:
    """FMT-F16 ordering: 1.0 to 1.0 + 5 ulp in f16 shows the 4 values between, in order."""
    v = DistanceView()
    qtbot.addWidget(v)
    v.show_pair("f16", 0x3C00, 0x3C05)
    row = [v.table.item(r, 0).text() for r in range(v.table.rowCount())].index("f16")
    want = _walk(np.float16(1.0), np.float16(2.0), 4)
    got = v.table.item(row, 4).text().split(", ")
    assert [np.float16(g) for g in got] == want  # shortest text reads back to the pattern


def test_wide_gap_shows_both_ends_and_the_count(qtbot) -> None:
    """FMT-F32 ordering: a gap of 163839 f32 values shows the first 4, the count left,
    the last 4;
    across zero the walk passes -0 once (F32 ordering of signed zeros)."""
    v = DistanceView()
    qtbot.addWidget(v)
    a, b = np.float32(1.0), np.float32(1.01953125)
    v.show_pair("f32", int(a.view(np.uint32)), int(b.view(np.uint32)))
    row = [v.table.item(r, 0).text() for r in range(v.table.rowCount())].index("f32")
    text = v.table.item(row, 4).text()
    head, mid, tail = (part.strip(", ") for part in text.split("…"))
    n = int(b.view(np.int32) - a.view(np.int32)) - 1
    assert mid == f"{n - 8:,} more"
    assert [np.float32(x) for x in head.split(", ")] == _walk(a, b, 4)
    assert [np.float32(x) for x in tail.split(", ")] == _walk(b, a, 4)[::-1]
