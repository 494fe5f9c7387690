"""Probes the UI tests share: a label holder shown in a panel, the All formats panel shown
alone, the texts Qt's font metrics are asked to measure, hovers, bit cells shown alone and
what the screen holds."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets


def shown_in_panel(qtbot, held: QtWidgets.QWidget) -> QtWidgets.QWidget:  # type: ignore[no-untyped-def]
    """A shown 300x300 panel: ``held`` on top, a list taking the rest."""
    panel = QtWidgets.QWidget()
    lay = QtWidgets.QVBoxLayout(panel)
    lay.addWidget(held)
    lay.addWidget(QtWidgets.QListWidget(), 1)
    return _shown(qtbot, panel, 300, 300)


def _shown(qtbot, widget: QtWidgets.QWidget, width: int, height: int):  # type: ignore[no-untyped-def]
    """``widget`` resized, shown, exposed and its first paint done."""
    widget.resize(width, height)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    QtWidgets.QApplication.processEvents()
    return widget


def shown_all_formats(qtbot):  # type: ignore[no-untyped-def]
    """An All formats panel of a fresh inspector state, shown alone at 1400x300, its first
    value painted."""
    from fpinspector.model.state import InspectorState
    from fpinspector.ui.inspector.all_formats import AllFormatsPanel

    return _shown(qtbot, AllFormatsPanel(InspectorState()), 1400, 300)


def measured_texts(monkeypatch) -> list[str]:  # type: ignore[no-untyped-def]
    """Every text measured through ``QFontMetrics.horizontalAdvance`` from Python from now
    on (each still measured)."""
    texts: list[str] = []
    real = QtGui.QFontMetrics.horizontalAdvance
    monkeypatch.setattr(QtGui.QFontMetrics, "horizontalAdvance",
                        lambda fm, text, *a: texts.append(text) or real(fm, text, *a))
    return texts


def send_tooltip_event(widget: QtWidgets.QWidget, pos: QtCore.QPoint | None = None) -> bool:
    """What the platform sends when the pointer rests on ``widget`` (at its centre unless
    ``pos``): a ToolTip help event. True where a filter or the widget took it."""
    at = widget.rect().center() if pos is None else pos
    return QtWidgets.QApplication.sendEvent(
        widget, QtGui.QHelpEvent(QtCore.QEvent.Type.ToolTip, at, widget.mapToGlobal(at)))


def hover_tip(widget: QtWidgets.QWidget) -> str:
    """A hover over ``widget``, then the tooltip it holds (the shown tip hidden again)."""
    send_tooltip_event(widget)
    QtWidgets.QToolTip.hideText()
    return widget.toolTip()


def hover_cell(table: QtWidgets.QTableWidget, row: int, col: int) -> str:
    """A hover over cell (row, col): the ToolTip event Qt sends the table's viewport, and
    the tooltip text then shown."""
    QtWidgets.QToolTip.hideText()
    send_tooltip_event(table.viewport(), table.visualItemRect(table.item(row, col)).center())
    return QtWidgets.QToolTip.text()


def on_screen(widget: QtWidgets.QWidget) -> QtGui.QImage:
    """What the window's backing store holds now, what the user sees (a grab() would paint
    the widget afresh)."""
    return widget.screen().grabWindow(widget.winId()).toImage()


def shown_bit_cells(qtbot, font: QtGui.QFont | None = None):  # type: ignore[no-untyped-def]
    """(window, cells): f32 bit cells alone in a shown 700x100 window (``font`` set on the
    window), without a focus mark, so its pictures compare pixel for pixel."""
    from fpinspector.model import FORMATS
    from fpinspector.ui.inspector.bit_cells import BitCells, format_segments

    win = QtWidgets.QWidget()
    if font is not None:
        win.setFont(font)
    cells = BitCells(32, format_segments(FORMATS["f32"]))
    cells.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
    QtWidgets.QVBoxLayout(win).addWidget(cells)
    win.resize(700, 100)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    QtWidgets.QApplication.processEvents()
    return win, cells
