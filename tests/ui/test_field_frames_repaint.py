"""A new pattern repaints the All formats and bit-field editor fields' text, not their
frames: a framed
QLineEdit repaints its whole rectangle (the parents under it, then the frame) whenever its
text changes, which cost about 0.3-0.6 ms of the UI thread a click. What is on screen stays
what a framed QLineEdit shows (tests/ui/test_framed_edit.py)."""

from __future__ import annotations

from _qt_probes import shown_all_formats
from PySide6 import QtCore, QtWidgets

from fpinspector.ui.inspector.bit_editor import BitFieldEditor


class _Painted(QtCore.QObject):
    """The area each paint event of the watched widgets covers, in ``field``'s pixels."""

    def __init__(self, field: QtWidgets.QWidget) -> None:
        super().__init__()
        self.field, self.rects = field, []
        for w in [field, *field.findChildren(QtWidgets.QWidget)]:
            w.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QtCore.QEvent.Type.Paint:
            r = event.region().boundingRect()
            self.rects.append(r.translated(obj.mapTo(self.field, QtCore.QPoint(0, 0))))
        return False


def test_new_values_repaint_no_field_frame(qtbot) -> None:
    p = shown_all_formats(qtbot)
    p.show_value("f32", 0x3F800000)
    QtCore.QCoreApplication.processEvents()
    spies = [_Painted(field) for r in p.rows.values() for field in r.widgets()[2:4]]
    for bits in (0x3F800001, 0xC0490FDB, 0x00000001):
        p.show_value("f32", bits)
        QtCore.QCoreApplication.processEvents()
    assert sum(len(s.rects) for s in spies) >= 6  # the values' new text was painted
    for s in spies:
        inside = s.field.rect().adjusted(1, 1, -1, -1)  # (Fusion's frame: 1 px)
        for r in s.rects:
            assert inside.contains(r), (type(s.field).__name__, r, s.field.rect())


def _assert_inside(spies: list[_Painted]) -> None:
    for s in spies:
        inside = s.field.rect().adjusted(1, 1, -1, -1)  # (Fusion's frame: 1 px)
        for r in s.rects:
            assert inside.contains(r), (type(s.field).__name__, r, s.field.rect())


def test_new_patterns_repaint_no_editor_field_frame(qtbot) -> None:
    ed = BitFieldEditor("f32", "A")
    qtbot.addWidget(ed)
    ed.show()
    qtbot.waitExposed(ed)
    ed.set_bits(0x3F800000)
    QtCore.QCoreApplication.processEvents()
    fields = [ed.hex_edit, ed.dec_edit, ed.frac_edit]
    fields = [f.parentWidget() if f.parentWidget() is not ed else f for f in fields]
    spies = [_Painted(f) for f in fields]
    for bits in (0x3F800001, 0xC0490FDB, 0x00000001):
        ed.set_bits(bits)
        QtCore.QCoreApplication.processEvents()
    assert sum(len(s.rects) for s in spies) >= 6  # the new text was painted
    _assert_inside(spies)
