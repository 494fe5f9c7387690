"""Switching the inspected format among f32, f16, f11 and f10 moves nothing in the window:
the editors keep the room of an f32 (fewer bits are drawn wider), so no layout request
climbs to the window, whose central area and docks were all laid out and repainted again
(22 ms at 960x800) and moved sideways on every switch. f64 needs more room and gets it."""

from __future__ import annotations

from PySide6 import QtWidgets

from fpinspector.ui.bit_editor import BitFieldEditor

SWITCHES = [("f16", 0x3C01), ("f32", 0x3F800001), ("f11", 0x3C1), ("f10", 0x1E1),
            ("f32", 0x40490FDB)]


def test_an_editor_keeps_the_room_of_an_f32(qtbot) -> None:
    ed = BitFieldEditor("f32")
    qtbot.addWidget(ed)
    hints = (ed.sizeHint(), ed.minimumSizeHint())
    for fmt in ("f16", "f11", "f10", "f32"):
        ed.set_format(fmt)
        assert (ed.sizeHint(), ed.minimumSizeHint()) == hints, fmt
    ed.set_format("f64")  # 64 cells and 16 hex digits need more
    assert ed.sizeHint().width() > hints[0].width()
    assert ed.exp_spin.width() >= ed.exp_spin.sizeHint().width()  # "2047" shows


def test_a_format_switch_asks_no_layout_of_the_window(make_window, qtbot,
                                                      layout_requests) -> None:
    win = make_window()
    win.resize(960, 800)  # the central area at its narrowest: it follows the editor's hints
    win.show()
    qtbot.waitExposed(win)
    for _ in range(10):
        QtWidgets.QApplication.processEvents()
    central = win.centralWidget()
    inspector = win.editor.parentWidget()
    spies = [layout_requests(w) for w in (inspector, central.widget())]
    before = (central.geometry(), inspector.geometry(), win.editor.cells.geometry())
    for fmt, bits in SWITCHES:
        win.state.update(fmt=fmt, bits=bits)
        for _ in range(10):
            QtWidgets.QApplication.processEvents()
        assert win.editor.fmt.name == fmt
        assert [s.count for s in spies] == [0, 0], fmt
        assert (central.geometry(), inspector.geometry(),
                win.editor.cells.geometry()) == before, fmt
    win.state.update(fmt="f64", bits=0x3FF0000000000001)
    for _ in range(10):
        QtWidgets.QApplication.processEvents()
    assert win.editor.cells.width() >= win.editor.cells.minimumSizeHint().width()
    assert win.editor.hex_edit.width() >= win.editor.hex_edit.minimumWidth()  # 16 digits
