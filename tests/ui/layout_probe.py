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
#: (op, paste): the headline example last, whose text has another reading (64 bits as four
#: f16 lanes) offered beside the message (its button widened the central area by ~110 px)
STATES = (("mad", "0x00800000 0.5 0"), ("to_f11", "0x7F7FFFFF"), ("dp4", None),
          ("mul", "0x00000001 3f800000"))


def settle(ms: int = 150) -> None:
    loop = QtCore.QEventLoop()
    QtCore.QTimer.singleShot(ms, loop.quit)
    loop.exec()


def rect_in(widget: QtWidgets.QWidget, ancestor: QtWidgets.QWidget) -> QtCore.QRect:
    """``widget``'s rectangle in ``ancestor``'s coordinates."""
    return QtCore.QRect(widget.mapTo(ancestor, QtCore.QPoint(0, 0)), widget.size())


#: Least width of the central area (inspector and operation) at any size.
CENTRAL_MIN = 420


def check_structure(win: QtWidgets.QMainWindow, where: str) -> list[str]:
    """What must hold at any window size: docks and the central area inside the window and
    apart, the central area at least CENTRAL_MIN px wide, every dock tab's whole title shown
    and no tab behind the tab bar's scroll arrows."""
    out: list[str] = []
    inner = win.rect()
    central = rect_in(win.centralWidget(), win)
    if central.width() < CENTRAL_MIN:
        out.append(f"{where}: the central area is {central.width()} px wide (< {CENTRAL_MIN})")
    shown = [(name, d) for name, d in win.docks.items()
             if d.isVisible() and not d.visibleRegion().isEmpty()]
    boxes = [("central", central)] + [(n, rect_in(d, win)) for n, d in shown]
    for i, (a, ra) in enumerate(boxes):
        if not inner.contains(ra):
            out.append(f"{where}: {a} {ra.getRect()} leaves the window {inner.getRect()}")
        for b, rb in boxes[i + 1:]:
            if ra.intersects(rb):
                out.append(f"{where}: {a} {ra.getRect()} overlaps {b} {rb.getRect()}")
    titles = {d.windowTitle() for d in win.docks.values()}
    for bar in win.findChildren(QtWidgets.QTabBar):
        if not bar.isVisible() or bar.count() == 0 or bar.tabText(0) not in titles:
            continue
        for i in range(bar.count()):
            text, r = bar.tabText(i), bar.tabRect(i)
            if bar.elideMode() != QtCore.Qt.TextElideMode.ElideNone and \
                    bar.fontMetrics().horizontalAdvance(text) + 8 > r.width():
                out.append(f"{where}: dock tab {text!r} is elided ({r.width()} px)")
            if r.right() > bar.width() or r.left() < 0:
                out.append(f"{where}: dock tab {text!r} is behind the tab bar's scroll "
                           f"arrows ({r.getRect()} in a bar {bar.width()} px wide)")
    return out


def check_no_side_scrolling(win: QtWidgets.QMainWindow, where: str) -> list[str]:
    """Every column of the tables that carry the key figures is inside its table's view
    (no horizontal scrolling): Conversions (f11, f10), Expression steps (GPU, allowed),
    GPUs (current operation, the rules report's reports)."""
    tables = {"Conversions": win.conversions_view.table}
    gpus = win.docks["gpus"].findChildren(QtWidgets.QTableWidget)
    tables.update({f"GPUs table {i}": t for i, t in enumerate(gpus)})
    if win.expression_panel is not None:
        tables["Expression steps"] = win.expression_panel.steps
    out = []
    for name, t in tables.items():
        if t.columnCount() == 0 or not t.isVisible() or t.visibleRegion().isEmpty():
            continue
        last = t.columnCount() - 1
        right = t.horizontalHeader().sectionViewportPosition(last) + t.columnWidth(last)
        if right > t.viewport().width() + 1 or t.horizontalScrollBar().maximum() > 0:
            out.append(f"{where}: {name}: column {t.horizontalHeaderItem(last).text()!r} "
                       f"ends at {right} px in a view {t.viewport().width()} px wide")
    return out


def check_window(win: QtWidgets.QMainWindow, where: str) -> list[str]:
    """Problems of the window as it is now."""
    out: list[str] = check_structure(win, where)
    screen = win.screen().availableGeometry()
    frame = win.frameGeometry()
    if not screen.contains(frame):
        out.append(f"{where}: window {frame.getRect()} is not inside the screen {screen.getRect()}")
    # what must be seen without scrolling: inside the central area's viewport
    view = win.centralWidget().viewport()
    ops = win.ops_view
    keys = {"inspector bits": win.editor.cells, "inspector fields": win.editor.hex_box,
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
    if win.centralWidget().horizontalScrollBar().maximum() > 0:
        out.append(f"{where}: the central area scrolls sideways by "
                   f"{win.centralWidget().horizontalScrollBar().maximum()} px")
    for i, ed in enumerate(ops.editors):  # every operand's bits and fields, side by side
        if ed.isVisible():
            for w in (ed.cells, ed.hex_box, ed.frac_box, ed.up_btn):
                r = rect_in(w, view)
                if r.right() > view.width():
                    out.append(f"{where}: operand {i} {type(w).__name__} is cut at the right")
    return out


#: The least height of a map a raised map dock must show without scrolling (wide layout)
MAP_HEIGHT = 120


#: The least plot (data area) of a raised map at 1920x1080 (the window 1800x1000).
PLOT_AT_1080 = (300, 200)


def check_map(win: QtWidgets.QMainWindow, name: str, where: str) -> list[str]:
    """:func:`map_problems`, again after a while where there were any (a loaded machine
    lays a raised dock out late)."""
    out = map_problems(win, name, where)
    if out:
        settle(800)
        out = map_problems(win, name, where)
    return out


def map_problems(win: QtWidgets.QMainWindow, name: str, where: str) -> list[str]:
    """A raised Sweep or Expression dock shows its error map's plot, at least
    MAP_HEIGHT px of it inside the dock's scroll area, and nothing of it cut at the right;
    the legend is outside the data; on a 1920x1080 screen the data area is at least
    PLOT_AT_1080."""
    from fpinspector.ui.maps.error_map import ErrorMapWidget

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
        out.append(f"{where}: the {name} map is cut at the right "
                   f"({rect_in(maps[0].graphics, view).getRect()} in {view.rect().getRect()})")
    m = maps[0]
    data = m.plot.vb.sceneBoundingRect()
    if m.legend.isVisible() and m.legend.sceneBoundingRect().intersects(data):
        out.append(f"{where}: the {name} map's legend covers its data")
    if win.screen().size() == QtCore.QSize(1920, 1080) and (
            data.width() < PLOT_AT_1080[0] or data.height() < PLOT_AT_1080[1]):
        out.append(f"{where}: the {name} map's plot is {data.width():.0f}x{data.height():.0f} "
                   f"px (< {PLOT_AT_1080[0]}x{PLOT_AT_1080[1]})")
    return out


def check_all_formats(win: QtWidgets.QMainWindow, where: str) -> list[str]:
    out = []
    panel = win.all_formats
    area = win.docks["all_formats"].widget()
    # issue 36's "nothing behind horizontal scrolling", at every size (the 470 px dock of a
    # 960 px screen too: the f64 row's 64 cells wrap onto two lines of 32 there)
    if isinstance(area, QtWidgets.QScrollArea) and area.horizontalScrollBar().maximum() > 0:
        out.append(f"{where}: All formats scrolls sideways by "
                   f"{area.horizontalScrollBar().maximum()} px")
    for key, row in panel.rows.items():
        lab = row.rules
        need = lab.heightForWidth(lab.width()) if lab.wordWrap() else lab.sizeHint().height()
        if lab.isVisible() and need > lab.height() + 1:
            out.append(f"{where}: All formats {key} rules {lab.text()!r} cut "
                       f"({lab.height()} px of {need})")
        if lab.isVisible() and not lab.wordWrap() and \
                lab.fontMetrics().horizontalAdvance(lab.text()) > lab.width():
            out.append(f"{where}: All formats {key} rules {lab.text()!r} cut at the right")
        for cells in getattr(row.cells, "parts", lambda c=row.cells: [c])():  # (f64: halves)
            fm = QtGui.QFontMetrics(cells.number_font())
            spans = cells.number_spans(fm)
            for (b1, _l1, r1), (b2, l2, _r2) in zip(spans, spans[1:]):
                if l2 - r1 < 3:
                    out.append(f"{where}: All formats {key}: bit numbers {b1} and {b2} run "
                               "together")
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
    from fpinspector.ui.shell.app import MainWindow
    from fpinspector.ui.shell.window_layout import raise_dock

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
        if name in ("sweep", "expression") and win.layout_mode == "narrow":
            # under the central area a raised map takes its height (the central area
            # scrolls meanwhile)
            problems += check_structure(win, f"{tag} {name} tab")
        else:
            problems += check_window(win, f"{tag} {name} tab")
        if name == "all_formats":
            problems += check_all_formats(win, tag)
        if name in ("sweep", "expression"):
            problems += check_map(win, name, f"{tag} {name} tab")
        if win.size() != before:
            problems.append(f"{tag}: opening {name} resized the window "
                            f"{before.toTuple()} -> {win.size().toTuple()}")
    if tag in ("1280x720", "1366x768"):
        raise_dock(win, win.docks["conversions"])
        raise_dock(win, win.docks["gpus"])
        for name in sorted(win.gpu_menu.examples)[:2]:  # two reports side by side
            win.gpus_view.example_requested.emit(name)
        settle(400)
        problems += check_no_side_scrolling(win, f"{tag} gpus")
        raise_dock(win, win.docks["conversions"])
        settle(200)
        problems += check_no_side_scrolling(win, f"{tag} conversions")
    problems += walk_sizes(win, tag)
    layout = win.layout_mode
    # a restart: the layout saved on close, restored by a new window
    raise_dock(win, win.docks["sweep"])
    settle(300)
    win.close()
    settle(200)
    again = MainWindow(settings=settings, restore=True, gpu="off")
    again.show()
    settle(800)
    problems += check_structure(again, f"{tag} after a restart")
    if (again.size() - win.size()).toTuple() < (-40, -40) or again.size().width() > win.size().width():
        problems.append(f"{tag}: the restart opened at {again.size().toTuple()}, "
                        f"closed at {win.size().toTuple()}")
    problems += walk_sizes(again, f"{tag} after a restart")
    print(json.dumps({"screen": tag, "window": win.size().toTuple(),
                      "layout": layout, "problems": problems}))
    win.shutdown()
    again.shutdown()
    again.close()
    return 0


def walk_sizes(win: QtWidgets.QMainWindow, tag: str) -> list[str]:
    """Resize the window through a sequence (smaller, larger, the smallest, maximised and
    back) and check the layout's structure after each step, the raised map docks too."""
    from fpinspector.ui.shell.window_layout import MIN_SIZE, raise_dock

    avail = win.screen().availableGeometry().size()
    start = win.size()
    steps = [QtCore.QSize(960, 1050), MIN_SIZE, QtCore.QSize(1280, 720), avail,
             QtCore.QSize(1366, 768), start]
    out = []
    for size in steps:
        size = size.boundedTo(avail)
        win.resize(size)
        settle(250)
        where = f"{tag} resized to {size.width()}x{size.height()}"
        out += check_structure(win, where)
    win.showMaximized()
    settle(300)
    out += check_structure(win, f"{tag} maximised")
    win.showNormal()
    win.resize(start)
    settle(300)
    out += check_structure(win, f"{tag} restored")
    for name in ("sweep", "expression"):
        raise_dock(win, win.docks[name])
        settle(300)
        out += check_map(win, name, f"{tag} {name} after the resizes")
    if win.size() != start:
        out.append(f"{tag}: back at {start.toTuple()} the window is {win.size().toTuple()}")
    return out


if __name__ == "__main__":
    raise SystemExit(main())
