"""Open the app in a real window on the current X display and print, as JSON, every layout
problem found: docks or widgets that overlap, key widgets outside the window or hidden
behind the central area's scrolling, cut rule IDs, bit numbers that run together, a window
that grows when a tab opens. Run by ``test_layout_screens.py`` under Xvfb at several sizes.

Usage: ``python tests/ui/layout_probe.py`` (DISPLAY set, QT_QPA_PLATFORM=xcb).
"""

from __future__ import annotations

import json
import sys
import tempfile

from PySide6 import QtCore, QtGui, QtWidgets

#: Operand sets the probe walks through: a three-operand op (tallest), a conversion.
STATES = (("mad", "0x00800000 0.5 0"), ("to_f11", "0x7F7FFFFF"), ("dp4", None))


def settle(ms: int = 150) -> None:
    loop = QtCore.QEventLoop()
    QtCore.QTimer.singleShot(ms, loop.quit)
    loop.exec()


def rect_in(widget: QtWidgets.QWidget, ancestor: QtWidgets.QWidget) -> QtCore.QRect:
    """``widget``'s rectangle in ``ancestor``'s coordinates."""
    return QtCore.QRect(widget.mapTo(ancestor, QtCore.QPoint(0, 0)), widget.size())


def check_window(win: QtWidgets.QMainWindow, where: str) -> list[str]:
    """Problems of the window as it is now."""
    out: list[str] = []
    screen = win.screen().availableGeometry()
    frame = win.frameGeometry()
    if not screen.contains(frame):
        out.append(f"{where}: window {frame.getRect()} is not inside the screen {screen.getRect()}")
    inner = win.rect()
    central = rect_in(win.centralWidget(), win)
    shown = [(name, d) for name, d in win.docks.items()
             if d.isVisible() and not d.visibleRegion().isEmpty()]
    boxes = [("central", central)] + [(n, rect_in(d, win)) for n, d in shown]
    for i, (a, ra) in enumerate(boxes):
        if not inner.contains(ra):
            out.append(f"{where}: {a} {ra.getRect()} leaves the window {inner.getRect()}")
        for b, rb in boxes[i + 1:]:
            if ra.intersects(rb):
                out.append(f"{where}: {a} {ra.getRect()} overlaps {b} {rb.getRect()}")
    # what must be seen without scrolling: inside the central area's viewport
    view = win.centralWidget().viewport()
    ops = win.ops_view
    keys = {"inspector bits": win.editor.cells, "inspector fields": win.editor.hex_edit,
            "model result": ops.model_box, "GPU result": ops.gpu_box,
            "verdict": ops.verdict_label, "verdict detail": ops.verdict.verdict_detail,
            "allowed set": ops.allowed_label}
    for name, w in keys.items():
        if not w.isVisible():
            out.append(f"{where}: {name} is hidden")
            continue
        r = rect_in(w, view)
        if not view.rect().contains(r):
            out.append(f"{where}: {name} {r.getRect()} is not fully visible in the central "
                       f"area {view.rect().getRect()} without scrolling")
    for i, ed in enumerate(ops.editors):  # every operand's bits and fields, side by side
        if ed.isVisible():
            for w in (ed.cells, ed.hex_edit, ed.frac_edit, ed.up_btn):
                r = rect_in(w, view)
                if r.right() > view.width():
                    out.append(f"{where}: operand {i} {type(w).__name__} is cut at the right")
    return out


#: The least height of a map a raised map dock must show without scrolling (wide layout)
MAP_HEIGHT = 120


def check_map(win: QtWidgets.QMainWindow, name: str, where: str) -> list[str]:
    """A raised Sweep or Expression dock shows its error map's plot, at least
    MAP_HEIGHT px of it inside the dock's scroll area, and nothing of it cut at the right."""
    from fpinspector.ui.error_map import ErrorMapWidget

    maps = win.docks[name].findChildren(ErrorMapWidget)
    if not maps:
        return [f"{where}: no error map in the {name} dock"]
    if name == "expression":  # its map is the second tab
        win.expression_panel.tabs.setCurrentWidget(win.expression_panel.map_panel)
        settle(200)
    view = win.docks[name].widget().viewport()
    r = rect_in(maps[0].graphics, view).intersected(view.rect())
    out = []
    if r.height() < MAP_HEIGHT:
        out.append(f"{where}: the {name} map shows {r.height()} px of its height")
    if rect_in(maps[0].graphics, view).right() > view.rect().right():
        out.append(f"{where}: the {name} map is cut at the right")
    return out


def check_all_formats(win: QtWidgets.QMainWindow, where: str) -> list[str]:
    out = []
    panel = win.all_formats
    for key, row in panel.rows.items():
        lab = row.rules
        need = lab.heightForWidth(lab.width()) if lab.wordWrap() else lab.sizeHint().height()
        if lab.isVisible() and need > lab.height() + 1:
            out.append(f"{where}: All formats {key} rules {lab.text()!r} cut "
                       f"({lab.height()} px of {need})")
        if lab.isVisible() and not lab.wordWrap() and \
                lab.fontMetrics().horizontalAdvance(lab.text()) > lab.width():
            out.append(f"{where}: All formats {key} rules {lab.text()!r} cut at the right")
        cells = row.cells
        fm = QtGui.QFontMetrics(cells.number_font())
        spans = cells.number_spans(fm)
        for (b1, _l1, r1), (b2, l2, _r2) in zip(spans, spans[1:]):
            if l2 - r1 < 3:
                out.append(f"{where}: All formats {key}: bit numbers {b1} and {b2} run together")
        for w in (row.hex_edit, row.value_edit):
            if w.isVisible() and w.fontMetrics().horizontalAdvance(w.text()) + 8 > w.width():
                out.append(f"{where}: All formats {key}: {w.text()!r} cut in its field")
    # no two widgets of the rows overlap (a field wider than its column runs into the next)
    parts = [(f"{key}.{name}", w) for key, row in panel.rows.items()
             for name, w in zip(("name", "cells", "hex", "value", "rules"), row.widgets())
             if w.isVisible()]
    for i, (a, wa) in enumerate(parts):
        ra = rect_in(wa, panel)
        for b, wb in parts[i + 1:]:
            rb = rect_in(wb, panel)
            if ra.intersects(rb):
                out.append(f"{where}: All formats {a} {ra.getRect()} overlaps {b} "
                           f"{rb.getRect()}")
    return out


def main() -> int:  # noqa: C901 - one walk through the app
    sys.path.insert(0, ".")
    from fpinspector.ui import palette
    from fpinspector.ui.app import MainWindow
    from fpinspector.ui.window_layout import raise_dock

    app = QtWidgets.QApplication(sys.argv[:1])
    palette.apply_system_palette(app)
    tmp = tempfile.mkdtemp()
    settings = QtCore.QSettings(f"{tmp}/s.ini", QtCore.QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, restore=False, gpu="off")
    win.show()
    settle(600)
    problems: list[str] = []
    size = win.screen().size()
    tag = f"{size.width()}x{size.height()}"
    mins = win.minimumSizeHint().expandedTo(win.minimumSize())
    if mins.width() > 1024 or mins.height() > 640:
        problems.append(f"{tag}: minimum window size {mins.width()}x{mins.height()} > 1024x640")
    for op, text in STATES:
        win.ops_view.op_combo.setCurrentText(op)
        if text:
            win.ctl.paste(text)
        settle()
        problems += check_window(win, f"{tag} {op}")
    before = win.size()
    for name, dock in win.docks.items():  # every tab in turn, the sweep panel built on show
        raise_dock(win, dock)
        settle(300 if name in ("sweep", "expression") else 100)
        problems += check_window(win, f"{tag} {name} tab")
        if name == "all_formats":
            problems += check_all_formats(win, tag)
        if name in ("sweep", "expression"):
            problems += check_map(win, name, f"{tag} {name} tab")
        if win.size() != before:
            problems.append(f"{tag}: opening {name} resized the window "
                            f"{before.toTuple()} -> {win.size().toTuple()}")
    print(json.dumps({"screen": tag, "window": win.size().toTuple(),
                      "layout": win.layout_mode, "problems": problems}))
    win.shutdown()
    win.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
