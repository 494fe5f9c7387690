"""Help menu: About (versions and the GL device in use, copyable for a bug report), the
keyboard shortcuts (from the window's own actions), the reading guide, and the window icon."""

from __future__ import annotations

import platform

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from fpinspector import __version__
from fpinspector.ui.shell import help_menu


def _trigger(win, item: str) -> None:
    for act in win.help_menu.menu.actions():
        if act.text().replace("&", "") == item:
            act.trigger()
            return
    raise AssertionError(f"no Help > {item}")


def test_help_is_the_last_menu_with_its_three_entries(make_window):
    win = make_window()
    titles = [a.text().replace("&", "") for a in win.menuBar().actions()]
    assert titles[-1] == "Help"
    assert win.menuBar().actions()[-1].text() == win.help_menu.menu.title()
    items = [a.text().replace("&", "") for a in win.help_menu.menu.actions() if a.text()]
    assert items == ["Reading the screen", "Keyboard shortcuts", "About fpinspector"]


def test_about_names_every_version_and_copies_it(make_window, qtbot):
    win = make_window()
    _trigger(win, "About fpinspector")
    dlg = win.help_menu.dialog
    assert dlg is not None and dlg.isVisible()
    text = dlg.view.toPlainText()
    assert f"fpinspector {__version__}" in text
    assert f"Python {platform.python_version()}" in text
    assert f"Qt {QtCore.qVersion()}" in text
    assert f"numpy {np.__version__}" in text
    assert "GL none in use" in text  # the window runs with --no-gpu here
    dlg.copy()
    assert QtWidgets.QApplication.clipboard().text() == text


def test_about_names_the_gl_renderer_and_driver_in_use():
    """The GPU worker's info of a device (as GpuSession.info gives it) goes into the text."""
    info = {"renderer": "NVIDIA H200/PCIe/SSE2", "version": "4.6.0 NVIDIA 570.86.15",
            "glsl_version": "4.60 NVIDIA", "vendor": "NVIDIA Corporation",
            "backend": "egl", "device": 1, "driver": ""}
    text = help_menu.about_text(info)
    assert "GL renderer NVIDIA H200/PCIe/SSE2" in text
    assert "GL version 4.6.0 NVIDIA 570.86.15 (GLSL 4.60 NVIDIA)" in text
    assert "GL device backend egl, device 1" in text


def test_shortcuts_list_the_menu_actions_with_their_keys(make_window):
    win = make_window()
    _trigger(win, "Keyboard shortcuts")
    text = win.help_menu.dialog.view.toPlainText()
    undo = QtGui.QKeySequence(QtGui.QKeySequence.StandardKey.Undo).toString(
        QtGui.QKeySequence.SequenceFormat.NativeText)
    lines = text.splitlines()
    assert any(line.startswith(undo) and line.endswith("Edit \u25b8 Undo") for line in lines), text
    assert any("Alt+Right" in line and "Next up" in line for line in lines), text
    assert any(line.startswith("Space") for line in lines)  # the bit editor's own keys
    # every action of the window that has a shortcut is listed
    for act in win.findChildren(QtGui.QAction):
        if not act.shortcut().isEmpty() and act.text():
            keys = act.shortcut().toString(QtGui.QKeySequence.SequenceFormat.NativeText)
            assert keys in text, (act.text(), keys)


def test_reading_the_screen_explains_the_four_terms(make_window):
    win = make_window()
    _trigger(win, "Reading the screen")
    text = win.help_menu.dialog.view.toPlainText()
    for term in ("exact:", "allowed:", "verdict:", "ULP error:"):
        assert term in text


def test_the_window_has_fpinspectors_icon_in_every_size(make_window):
    win = make_window()
    icon = win.windowIcon()
    assert not icon.isNull()
    sizes = {(s.width(), s.height()) for s in icon.availableSizes()}
    assert {(n, n) for n in help_menu.ICON_SIZES} <= sizes
