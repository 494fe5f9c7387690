"""Drag and drop onto the window: text is a paste, a file is an open.

A file is read by what it holds, not by its name: a GPU report (its ``schema``) goes to the
GPUs view, a saved sweep (.npz) to the Sweep panel, anything else is tried as a workspace;
each failure is one clear message in the window's message line, nothing else changes."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["accepts", "drop", "open_path"]

#: The most of a file read to tell a GPU report (its schema name, anywhere in the file: the
#: keys are sorted) from a workspace; a bigger file is tried as a workspace (which refuses
#: it clearly).
_PEEK = 16 << 20


def accepts(mime: QtCore.QMimeData) -> bool:
    """Local files or text."""
    if mime.hasUrls():
        return bool(mime.urls()) and all(u.isLocalFile() for u in mime.urls())
    return mime.hasText()


def drop(win: QtWidgets.QMainWindow, mime: QtCore.QMimeData) -> bool:
    """Open the dropped files one by one, or paste the dropped text; False when nothing
    was taken."""
    if mime.hasUrls():
        paths = [u.toLocalFile() for u in mime.urls() if u.isLocalFile()]
        return bool(paths) and all([open_path(win, p) for p in paths])
    if mime.hasText():
        text = mime.text()
        win.paste_box.show_pasted(text)
        return bool(win.ctl.paste(text))
    return False


def open_path(win: QtWidgets.QMainWindow, path: str) -> bool:
    """Open ``path`` as what it holds (see the module's docstring)."""
    from . import actions

    p = Path(path)
    if p.suffix.lower() == ".npz":
        return _open_sweep(win, path)
    try:
        with open(p, "rb") as fh:
            head = fh.read(_PEEK)
    except OSError as exc:
        win.paste_box.show_error(f"Cannot open {path}: {exc.strerror or exc}", prefix="")
        return False
    if b'"fpinspector.gpu-report"' in head:
        return bool(win.gpu_menu.open_report(path))
    return actions.open_workspace(win, path)


def _open_sweep(win: QtWidgets.QMainWindow, path: str) -> bool:
    from ...model.sweep import load_npz
    from ..background import wait_in_event_loop
    from .window_layout import raise_dock

    try:  # read and checked on a thread: a big file never freezes the window
        res = wait_in_event_loop(lambda: load_npz(path, require_complete=False))
    except (OSError, ValueError) as exc:
        win.paste_box.show_error(f"Cannot open sweep {path}: {exc}", prefix="")
        return False
    raise_dock(win, win.docks["sweep"])
    panel = win._load_sweep_panel()
    panel.show_result(res)
    win.statusBar().showMessage(f"opened sweep {path}", 6000)
    return True


def drag_enter(event: QtGui.QDragEnterEvent) -> None:
    if accepts(event.mimeData()):
        event.acceptProposedAction()
