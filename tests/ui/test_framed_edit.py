"""FramedEdit looks and sizes like a framed QLineEdit in every state the app uses (text
that fits the field), and the pointer on its frame gets the field's tooltip."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from fpinspector.ui.framed_edit import FramedEdit
from fpinspector.ui.qt_utils import ERROR_STYLE


@pytest.fixture
def pair(qtbot):
    """A framed QLineEdit and a FramedEdit, same text and width, and a button that takes
    the focus from them."""
    app = QtWidgets.QApplication.instance()
    flash = app.cursorFlashTime()
    app.setCursorFlashTime(0)  # a cursor that does not blink between the two grabs
    win = QtWidgets.QWidget()
    lay = QtWidgets.QVBoxLayout(win)
    other, plain, framed = QtWidgets.QPushButton("x"), QtWidgets.QLineEdit(), FramedEdit()
    for w in (other, plain, framed):
        lay.addWidget(w)
    for edit in (plain, framed.edit):
        edit.setText("-1.17549435e-38")
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield other, plain, framed
    app.setCursorFlashTime(flash)


def _shot(w: QtWidgets.QWidget) -> QtGui.QImage:
    QtWidgets.QApplication.processEvents()
    return w.grab().toImage()


def _focused(w: QtWidgets.QWidget) -> QtGui.QImage:
    w.setFocus()
    return _shot(w)


def test_sizes_as_a_framed_line_edit(pair) -> None:
    _other, plain, framed = pair
    assert framed.sizeHint() == plain.sizeHint()
    assert framed.minimumSizeHint() == plain.minimumSizeHint()
    assert framed.sizePolicy() == plain.sizePolicy()
    assert framed.size() == plain.size()


def test_pixels_as_a_framed_line_edit(pair) -> None:
    other, plain, framed = pair
    # text that fits (the app sizes its fields to their values); typed text wider than the
    # field differs: its glyphs stop 2 px short of the frame, where Fusion's focus glow is
    for text in ("-1.17549435e-38", "", "0x7f800000", "-3.40282347e+38 (inf)"):
        plain.setText(text)
        framed.edit.setText(text)
        other.setFocus()
        assert _shot(plain) == _shot(framed), text
        assert _focused(plain) == _focused(framed), text  # the frame's focus colour
    shots = []
    for w, edit in ((plain, plain), (framed, framed.edit)):
        edit.setSelection(2, 5)  # (one selection at a time: the X11 one is shared)
        shots.append(_focused(w))
        assert edit.hasSelectedText()
    assert shots[0] == shots[1]
    other.setFocus()
    assert _shot(plain) == _shot(framed)
    plain.setReadOnly(True)
    framed.edit.setReadOnly(True)
    assert _shot(plain) == _shot(framed)
    plain.setEnabled(False)
    framed.setEnabled(False)
    assert _shot(plain) == _shot(framed)


def test_error_red_as_the_style_sheet_showed_it(pair) -> None:
    other, plain, framed = pair
    plain.setStyleSheet(ERROR_STYLE)
    framed.set_error(True)
    other.setFocus()
    assert _shot(plain) == _shot(framed)
    assert _focused(plain) == _focused(framed)
    plain.setStyleSheet("")
    framed.set_error(False)
    other.setFocus()
    assert _shot(plain) == _shot(framed)
    assert not framed.error


def test_frame_shows_the_field_tooltip(pair) -> None:
    """The pointer on the 1 px frame gets the field's tooltip, and a field without one
    passes the question on to the parents, once (a frame that forwarded it again would
    recurse)."""
    _other, _plain, framed = pair
    at = QtCore.QPoint(0, 0)  # on the frame, outside the field
    assert not framed.edit.geometry().contains(at)

    def ask() -> None:
        ev = QtGui.QHelpEvent(QtCore.QEvent.Type.ToolTip, at, framed.mapToGlobal(at))
        QtWidgets.QApplication.sendEvent(framed, ev)

    framed.edit.setToolTip("the field's tip")
    ask()
    assert QtWidgets.QToolTip.text() == "the field's tip"
    QtWidgets.QToolTip.hideText()
    framed.edit.setToolTip("")
    ask()  # returns (no recursion)
