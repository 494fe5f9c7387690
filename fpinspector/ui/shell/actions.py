"""Menus, shortcuts, copy-as, undo/redo and workspace open/save for the main window."""

from __future__ import annotations

import os

from PySide6 import QtGui, QtWidgets

from ...model.describe import byte_dump, to_c_literal
from ...model.formats import get_format
from ...model.state.workspace import load_workspace, save_workspace
from .. import bridge, recent
from ..background import wait_in_event_loop

__all__ = ["build_menus", "copy_texts", "open_workspace", "save_workspace_to"]

COPY_KINDS = ("hex", "literal", "decimal", "hex float", "bytes (little-endian)",
              "bytes (big-endian)", "state string")


def copy_texts(win: QtWidgets.QMainWindow) -> dict[str, str]:
    """Every copy-as text of the inspected value (the model formats the literals and bytes)."""
    s = win.state.snapshot
    f = get_format(s.fmt)
    info = bridge.describe(f.name, s.bits)
    out = {"hex": f"0x{s.bits:0{(f.bits + 3) // 4}X}"}
    out["literal"] = to_c_literal(s.bits, f)
    out["decimal"] = info.exact
    out["hex float"] = info.hex_float
    for endian, key in (("little", "bytes (little-endian)"), ("big", "bytes (big-endian)")):
        out[key] = byte_dump(s.bits, f, endian)
    out["state string"] = win.state.to_string()
    return out


def _copy(win: QtWidgets.QMainWindow, kind: str) -> None:
    text = copy_texts(win)[kind]
    QtWidgets.QApplication.clipboard().setText(text)
    win.statusBar().showMessage(f"copied {kind}: {text}", 4000)


def _paste_clipboard(win: QtWidgets.QMainWindow) -> None:
    text = QtWidgets.QApplication.clipboard().text()
    win.paste_box.show_pasted(text)
    win.ctl.paste(text)


def open_workspace(win: QtWidgets.QMainWindow, path: str) -> bool:
    """Load a workspace file into the window; a bad file shows a clear message, returns False."""
    try:  # read and checked on a thread: a big file never freezes the window
        snap, history = wait_in_event_loop(lambda: load_workspace(path))
    except ValueError as exc:  # only ValueError("Cannot open workspace ...")
        win.paste_box.show_error(str(exc), prefix="")  # (the one place for messages)
        return False
    win.state.restore(snap)
    if history:
        win.history.set_entries(history)
    recent.add_recent(win.settings, path)
    win.statusBar().showMessage(f"opened workspace {path}", 4000)
    return True


def save_workspace_to(win: QtWidgets.QMainWindow, path: str) -> bool:
    try:
        save_workspace(path, win.state, win.history.entries())
    except OSError as exc:
        win.statusBar().showMessage(f"cannot save {path}: {exc.strerror}", 10000)
        return False
    recent.add_recent(win.settings, path)
    win.statusBar().showMessage(f"saved workspace {path}", 4000)
    return True


def _ask_open(win: QtWidgets.QMainWindow) -> None:
    path, _ = QtWidgets.QFileDialog.getOpenFileName(
        win, "Open workspace", recent.folder_for(win.settings, "workspace"),
        "fpinspector workspace (*.json)")
    if path:
        recent.remember_folder(win.settings, "workspace", path)
        open_workspace(win, path)


def _ask_save(win: QtWidgets.QMainWindow) -> None:
    start = os.path.join(recent.folder_for(win.settings, "workspace"), "workspace.json")
    path, _ = QtWidgets.QFileDialog.getSaveFileName(win, "Save workspace", start,
                                                    "fpinspector workspace (*.json)")
    if path:
        recent.remember_folder(win.settings, "workspace", path)
        save_workspace_to(win, path)


def _fill_recent(win: QtWidgets.QMainWindow, menu: QtWidgets.QMenu) -> None:
    """File ▸ Open recent: the recent workspaces, newest first."""
    menu.clear()
    paths = recent.recent_workspaces(win.settings)
    for p in paths:
        menu.addAction(os.path.basename(p), lambda p=p: open_workspace(win, p)).setToolTip(p)
    if not paths:
        menu.addAction("(none yet)").setEnabled(False)


def _action(win, menu, text: str, slot, shortcut=None, tip: str = "") -> QtGui.QAction:
    act = QtGui.QAction(text, win)
    if shortcut is not None:
        act.setShortcut(QtGui.QKeySequence(shortcut))
    if tip:
        act.setStatusTip(tip)
        act.setToolTip(tip)
    act.triggered.connect(lambda checked=False: slot())
    menu.addAction(act)
    return act


def build_menus(win: QtWidgets.QMainWindow) -> None:
    """File / Edit / View menus with the standard shortcuts."""
    S = QtGui.QKeySequence.StandardKey
    bar = win.menuBar()
    file_menu = bar.addMenu("&File")
    _action(win, file_menu, "&Open workspace…", lambda: _ask_open(win), S.Open)
    win.recent_menu = file_menu.addMenu("Open &recent")
    win.recent_menu.aboutToShow.connect(lambda: _fill_recent(win, win.recent_menu))
    _action(win, file_menu, "&Save workspace…", lambda: _ask_save(win), S.Save)
    file_menu.addSeparator()
    _action(win, file_menu, "&Quit", win.close, S.Quit)
    edit = bar.addMenu("&Edit")
    win.undo_action = _action(win, edit, "&Undo", win.state.undo, S.Undo, "Undo the last edit")
    win.redo_action = _action(win, edit, "&Redo", win.state.redo, S.Redo, "Redo")
    edit.addSeparator()
    win.paste_action = _action(win, edit, "&Paste values", lambda: _paste_clipboard(win), S.Paste,
                               "Paste values from the clipboard into the inspector / operands")
    win.reading_action = _action(win, edit, "Paste as the &other reading",
                                 lambda: win.paste_box.next_reading(), "Ctrl+Shift+V",
                                 "Paste the same text again, read the other way (decimals vs "
                                 "bytes, byte order, f16 vs f32 width)")
    copy_menu = edit.addMenu("&Copy as")
    win.copy_actions = {}
    for i, kind in enumerate(COPY_KINDS):
        sc = "Ctrl+Shift+C" if kind == "hex" else ("Ctrl+Alt+C" if kind == "state string" else None)
        win.copy_actions[kind] = _action(win, copy_menu, kind, lambda k=kind: _copy(win, k), sc)
    edit.addSeparator()
    _action(win, edit, "Next &up", lambda: win.editor.up_btn.click(), "Alt+Right",
            "Step the inspected value to the next pattern toward +∞")
    _action(win, edit, "Next &down", lambda: win.editor.down_btn.click(), "Alt+Left",
            "Step the inspected value to the next pattern toward −∞")
    view = bar.addMenu("&View")
    for dock in win.docks.values():
        view.addAction(dock.toggleViewAction())
