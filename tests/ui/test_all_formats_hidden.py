"""The All-formats dock does no work while hidden and catches up when shown.

Expected rows come from numpy's float16 (an independent encoder); the values (1.0, 2.5)
are exact in f16, so CONV-F2F-RTZ and round-to-nearest agree on them.
"""

from __future__ import annotations

import numpy as np


def test_all_formats_skips_updates_while_hidden_and_refreshes_on_show(make_window,
                                                                     wait_for) -> None:
    """CONV-F2F-RTZ: hidden dock keeps its old rows; on show it shows the current value's f16."""
    win = make_window()
    win.show()
    panel, dock = win.all_formats, win.docks["all_formats"]
    win.state.update(fmt="f32", bits=int(np.float32(1.0).view(np.uint32)))
    assert panel.rows["f16"].bits() == int(np.float16(1.0).view(np.uint16))
    dock.hide()
    assert wait_for(lambda: not panel.isVisible(), 2000)
    calls = []
    orig = panel._show_word
    panel._show_word = lambda *a: (calls.append(a), orig(*a))
    win.state.update(bits=int(np.float32(2.5).view(np.uint32)))
    assert calls == []  # no row work while hidden
    assert panel.is_stale()
    assert panel.rows["f16"].bits() == int(np.float16(1.0).view(np.uint16))
    dock.show()  # (back as a tab of its group: raised, as a click on its tab does)
    dock.raise_()
    assert wait_for(lambda: not panel.is_stale(), 2000)
    assert panel.rows["f16"].bits() == int(np.float16(2.5).view(np.uint16))
    assert len(calls) == 1
