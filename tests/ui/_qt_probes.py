"""Probes the UI tests share: a label holder shown in a panel, and the texts Qt's font
metrics are asked to measure from Python."""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets


def shown_in_panel(qtbot, held: QtWidgets.QWidget) -> QtWidgets.QWidget:  # type: ignore[no-untyped-def]
    """A shown 300x300 panel: ``held`` on top, a list taking the rest."""
    panel = QtWidgets.QWidget()
    lay = QtWidgets.QVBoxLayout(panel)
    lay.addWidget(held)
    lay.addWidget(QtWidgets.QListWidget(), 1)
    panel.resize(300, 300)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    QtWidgets.QApplication.processEvents()
    return panel


def measured_texts(monkeypatch) -> list[str]:  # type: ignore[no-untyped-def]
    """Every text measured through ``QFontMetrics.horizontalAdvance`` from Python from now
    on (each still measured)."""
    texts: list[str] = []
    real = QtGui.QFontMetrics.horizontalAdvance
    monkeypatch.setattr(QtGui.QFontMetrics, "horizontalAdvance",
                        lambda fm, text, *a: texts.append(text) or real(fm, text, *a))
    return texts
