"""Switching the inspected format among f32, f16, f11 and f10 moves nothing in the window:
the editors keep the room of an f32 (fewer bits are drawn wider), so no layout request
climbs to the window, whose central area and docks were all laid out and repainted again
(22 ms at 960x800) and moved sideways on every switch. f64 needs more room and gets it."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from fpinspector.gpu.conversion_route import route_text
from fpinspector.model import FORMATS
from fpinspector.ui.inspector.bit_editor import BitFieldEditor
from fpinspector.ui.inspector.conversions_view import ConversionsView

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
    assert win.editor.hex_box.width() >= win.editor.hex_box.minimumWidth()  # 16 digits


class _Repaints(QtCore.QObject):
    """Counts the paint passes of a window (UpdateRequest) and the paints of given widgets."""

    def __init__(self, window: QtWidgets.QWidget, widgets: list[QtWidgets.QWidget]) -> None:
        super().__init__()
        self.window, self.widgets = window, widgets
        self.passes = 0
        self.paints = [0] * len(widgets)
        QtWidgets.QApplication.instance().installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QtCore.QEvent.Type.UpdateRequest and obj is self.window:
            self.passes += 1
        elif event.type() == QtCore.QEvent.Type.Paint:
            for i, w in enumerate(self.widgets):
                if obj is w:
                    self.paints[i] += 1
        return False


def test_a_format_switch_repaints_the_conversions_view_once_and_moves_nothing(qtbot) -> None:
    """The table's column names change with the source format and the GPU row's route note
    with it: the headers are laid out with the edit (Qt's own zero-timers asked for a
    second repaint of the table and both headers), and the note keeps two lines (an f32
    value's route takes one, any other's two: the table moved on every switch)."""
    view = ConversionsView()
    qtbot.addWidget(view)
    view.resize(940, 282)
    view.show()
    qtbot.waitExposed(view)
    table = view.table
    watched = [table.viewport(), table.horizontalHeader().viewport(),
               table.verticalHeader().viewport()]
    view.show_value("f32", 0x3F800000)
    view.show_gpu({}, "", {}, route_text("f32"))
    qtbot.wait(20)
    geometry = (table.geometry(), view.note.geometry())
    # the second round is checked: in the first a column widens once for a longer text
    # (never narrows), and Qt repaints a resized column after a timer of its own
    for round_, (fmt, bits) in enumerate(SWITCHES * 2):
        spy = _Repaints(view, watched)
        view.show_value(fmt, bits)
        view.show_gpu({}, "", {}, route_text(fmt))
        qtbot.wait(20)  # (the zero-timers, had any been started, have fired)
        QtWidgets.QApplication.instance().removeEventFilter(spy)
        shown = [d for d in FORMATS if d != fmt and FORMATS[d].d3d_conversion]  # D3D's
        assert [h.text() for h in map(table.horizontalHeaderItem, range(len(shown)))] == shown
        if round_ < len(SWITCHES):  # a column widened for a longer text: the table with it
            # (side by side it takes the room its columns need: test_conversions_room.py),
            # never narrower, nothing else moves
            assert table.geometry().topLeft() == geometry[0].topLeft(), fmt
            assert table.width() >= geometry[0].width() and view.note.geometry().top() == \
                geometry[1].top(), fmt
            geometry = (table.geometry(), view.note.geometry())
            continue
        assert (table.geometry(), view.note.geometry()) == geometry, fmt
        if round_ >= len(SWITCHES):
            assert spy.passes == 1 and max(spy.paints) == 1, (fmt, spy.passes, spy.paints)
