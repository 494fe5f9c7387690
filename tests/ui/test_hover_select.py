"""Labels made selectable only while the pointer is on them (ui/hover_select.py): the text
can still be selected and copied, a selection waiting for Ctrl+C or a Copy menu keeps it,
the text looks the same either way, and an edit updates plain labels (no text document to
lay out for each new text)."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from fpinspector.ui.hover_select import SELECTABLE, HoverSelectLabel

PLAIN = QtCore.Qt.TextInteractionFlag.NoTextInteraction


@pytest.fixture
def panel(qtbot):
    """A shown widget with a hover-selectable label on top and a plain field below it."""
    w = QtWidgets.QWidget()
    lay = QtWidgets.QVBoxLayout(w)
    label = HoverSelectLabel("0x3F800001 = 1.0000001")
    other = QtWidgets.QLineEdit()
    lay.addWidget(label)
    lay.addWidget(other)
    qtbot.addWidget(w)
    w.resize(400, 120)
    w.show()
    qtbot.waitExposed(w)
    return w, label, other


def _hover(qtbot, widget: QtWidgets.QWidget) -> None:
    qtbot.mouseMove(widget, widget.rect().center())
    QtWidgets.QApplication.processEvents()


def test_label_is_selectable_only_while_the_pointer_is_on_it(panel, qtbot) -> None:
    w, label, other = panel
    assert label.textInteractionFlags() == PLAIN
    _hover(qtbot, label)
    assert label.textInteractionFlags() == SELECTABLE
    label.setSelection(0, 10)
    assert label.selectedText() == "0x3F800001"
    _hover(qtbot, other)
    assert label.textInteractionFlags() == PLAIN


def test_a_selection_waiting_for_copy_keeps_it_until_the_focus_goes(panel, qtbot) -> None:
    w, label, other = panel
    _hover(qtbot, label)
    qtbot.mouseClick(label, QtCore.Qt.MouseButton.LeftButton, pos=QtCore.QPoint(2, 2))
    assert label.hasFocus()  # (a click on selectable text takes the focus)
    label.setSelection(0, 10)
    _hover(qtbot, other)
    assert label.textInteractionFlags() == SELECTABLE  # Ctrl+C still copies it
    assert label.selectedText() == "0x3F800001"
    other.setFocus()
    QtWidgets.QApplication.processEvents()
    assert not label.hasFocus()
    assert label.textInteractionFlags() == PLAIN


def test_the_labels_copy_menu_copies_after_the_pointer_moved_onto_it(panel, qtbot) -> None:
    """The label's own context menu copies through its text document: the pointer leaving
    the label for the menu must not drop the document."""
    w, label, other = panel
    _hover(qtbot, label)
    label.setSelection(0, 10)
    QtGui.QGuiApplication.clipboard().clear()
    pos = QtCore.QPoint(2, 2)
    QtWidgets.QApplication.sendEvent(label, QtGui.QContextMenuEvent(
        QtGui.QContextMenuEvent.Reason.Mouse, pos, label.mapToGlobal(pos)))
    qtbot.waitUntil(lambda: isinstance(QtWidgets.QApplication.activePopupWidget(),
                                       QtWidgets.QMenu))
    menu = QtWidgets.QApplication.activePopupWidget()
    QtWidgets.QApplication.sendEvent(label, QtCore.QEvent(QtCore.QEvent.Type.Leave))
    assert label.textInteractionFlags() == SELECTABLE
    copy = next(a for a in menu.actions() if a.text().replace("&", "").startswith("Copy"))
    copy.trigger()
    menu.close()
    assert QtGui.QGuiApplication.clipboard().text() == "0x3F800001"


@pytest.mark.parametrize("width", [400, 90])  # one line; wrapped onto several
def test_plain_and_selectable_text_look_the_same(qtbot, width) -> None:
    label = HoverSelectLabel("0x7FEFFFFFFFFFFFFF = 1.7976931348623157e+308")
    label.setWordWrap(True)
    qtbot.addWidget(label)
    label.resize(width, 80)
    label.show()
    qtbot.waitExposed(label)
    plain = label.grab().toImage()
    label.setTextInteractionFlags(SELECTABLE)
    selectable = label.grab().toImage()
    assert plain.size() == selectable.size()
    assert plain == selectable


def test_an_edit_updates_plain_labels_that_hover_makes_selectable(make_window, qtbot) -> None:
    """Decode panel, All formats rule lists and the operations' plain result texts: new
    text on each edit, no text document laid out for it; the pointer on one makes its
    text selectable, as before."""
    win = make_window()
    win.resize(1800, 1000)
    win.show()
    qtbot.waitExposed(win)
    win.docks["decode"].raise_()
    win.state.update(fmt="f32", bits=0x3F800001)
    QtWidgets.QApplication.processEvents()
    labels = [lab for lab in win.value_panel.labels.values() if isinstance(lab, QtWidgets.QLabel)]
    labels += [row.rules for row in win.all_formats.rows.values()]
    ops = win.ops_view  # the result's note, exact value and allowed set of an operand edit
    win.state.set_operand(0, 0x40490FDB)
    QtWidgets.QApplication.processEvents()
    labels += [ops.model_box.value, ops.model_box.detail, ops.gpu_box.detail,
               ops.exact_label, ops.allowed_label]
    assert ops.model_box.value.text() == "0x40490FDB = 3.1415927"  # (plain text, bold font)
    assert ops.exact_label.text() and ops.allowed_label.text()
    assert len(labels) >= 14
    for lab in labels:
        assert lab.textInteractionFlags() == PLAIN, lab.text()
    shortest = win.value_panel.labels["shortest"]
    assert shortest.text() == "1.0000001"
    _hover(qtbot, shortest)
    assert shortest.textInteractionFlags() == SELECTABLE
    qtbot.mouseClick(shortest, QtCore.Qt.MouseButton.LeftButton, pos=QtCore.QPoint(1, 1))
    shortest.setSelection(0, len(shortest.text()))
    QtGui.QGuiApplication.clipboard().clear()
    qtbot.keyClick(shortest, QtCore.Qt.Key.Key_C, QtCore.Qt.KeyboardModifier.ControlModifier)
    assert QtGui.QGuiApplication.clipboard().text() == "1.0000001"
