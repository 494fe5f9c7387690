"""The Help menu and the window icon: what a bug report needs (About: fpinspector, Python,
Qt, numpy and the GL device in use, as copyable text), the keyboard shortcuts (read from the
window's own actions, so the list cannot drift from the menus) and a short guide to reading
the screen (exact, allowed, verdict, ULP error).
"""

from __future__ import annotations

import platform
import sys
from importlib import metadata, resources
from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets

from ... import __version__

__all__ = ["install", "about_text", "shortcut_rows", "window_icon", "READING_GUIDE",
           "ICON_SIZES"]

#: The PNG sizes of the window icon in fpinspector/resources (icon-NN.png)
ICON_SIZES = (16, 32, 48, 256)

#: Keys inside the bit editor (widget keys, not menu actions)
BIT_EDITOR_KEYS = (
    ("Left / Right", "move the bit cursor (bit editor)"),
    ("Home / End", "the top / the bottom bit (bit editor)"),
    ("Space", "flip the bit under the cursor (bit editor)"),
    ("0 / 1", "write the bit and move to the next lower one (bit editor)"),
)

READING_GUIDE = """\
<h3>Reading the screen</h3>
<p><b>exact</b>: the infinitely precise result of the operation on the operands as they
are, before any rounding; shown in full, never rounded for display.</p>
<p><b>model</b>: the result the rule engine gives under the chosen rule set (d3d11,
d3d10 or ieee754); the bit editor shows its pattern.</p>
<p><b>allowed</b>: every result a conforming GPU may return, exactly: single patterns
and intervals of patterns (-0 and +0 apart, "any NaN" where a NaN is allowed). One pattern
where the rules are exact; a window where they give a tolerance (rcp and sqrt: 1 ULP). The
rules that decided it are listed with their IDs (F32-FTZ, F32-SQRT-RCP, ...), as in the
rule book, docs/rules.md.</p>
<p><b>verdict</b>: whether the GPU's result (or one you typed) is in the allowed set:
CONFORMANT or NOT CONFORMANT, with one sentence why. A known driver behaviour that
explains a mismatch is named by its deviation ID (docs/gpu.md).</p>
<p><b>ULP error</b>: how far the observed result is from the exact value, in units in the
last place of the result format at the exact value. A correctly rounded result is within
0.5; most D3D tolerances are 1. No figure is given where one would mislead (a NaN, an
infinity, a saturated conversion); the verdict says why.</p>
<p><b>GPU</b>: the rows of the GPU in use, computed for the same inputs (the GPU menu
picks the device; the status bar names it).</p>
"""


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def about_text(gpu_info: dict[str, Any] | None) -> str:
    """The About box's text (plain, for a bug report): versions and the GL device in use."""
    lines = [
        f"fpinspector {__version__}",
        f"Python {platform.python_version()} ({platform.python_implementation()}, "
        f"{sys.platform})",
        f"OS {platform.platform()}",
        f"Qt {QtCore.qVersion()} (PySide6 {_version('PySide6-Essentials')})",
        f"numpy {_version('numpy')}",
        f"pyqtgraph {_version('pyqtgraph')}",
        f"moderngl {_version('moderngl')}",
        f"mpmath {_version('mpmath')}",
    ]
    info = gpu_info or {}
    if info.get("renderer"):
        lines.append(f"GL renderer {info['renderer']}")
        lines.append(f"GL version {info.get('version') or '?'} "
                     f"(GLSL {info.get('glsl_version') or '?'})")
        lines.append(f"GL vendor {info.get('vendor') or '?'}")
        where = [f"{k} {info[k]}" for k in ("backend", "device", "driver")
                 if info.get(k) not in (None, "")]
        if where:
            lines.append("GL device " + ", ".join(where))
    else:
        lines.append("GL none in use (no GPU, or it has not opened yet)")
    return "\n".join(lines)


def _plain(text: str) -> str:
    """A menu text without its mnemonic marks and trailing ellipsis ("&Open…" -> "Open")."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").rstrip(".")


def _menu_path(act: QtGui.QAction, win: QtWidgets.QMainWindow) -> str:
    """"Edit ▸ Copy as ▸ hex": the menus an action sits in, from the menu bar down."""
    menu = next((m for m in win.menuBar().findChildren(QtWidgets.QMenu)
                 if act in m.actions()), None)
    parts = [_plain(act.text())]
    while isinstance(menu, QtWidgets.QMenu):
        parts.insert(0, _plain(menu.title()))
        menu = menu.parent()
    return " \u25b8 ".join(p for p in parts if p)


def shortcut_rows(win: QtWidgets.QMainWindow) -> list[tuple[str, str]]:
    """(keys, what) of every window action with a shortcut, then the bit editor's keys."""
    rows = []
    seen = set()
    for act in win.findChildren(QtGui.QAction):
        keys = [k.toString(QtGui.QKeySequence.SequenceFormat.NativeText)
                for k in act.shortcuts() if not k.isEmpty()]
        if not keys or not act.text():
            continue
        row = (", ".join(keys), _menu_path(act, win))
        if row not in seen:
            seen.add(row)
            rows.append(row)
    rows.sort(key=lambda r: r[1].lower())
    return rows + list(BIT_EDITOR_KEYS)


def window_icon() -> QtGui.QIcon:
    """fpinspector's icon, from the package's resources (every size that ships)."""
    icon = QtGui.QIcon()
    folder = resources.files("fpinspector") / "resources"
    for size in ICON_SIZES:
        with resources.as_file(folder / f"icon-{size}.png") as path:
            if path.exists():
                icon.addFile(str(path), QtCore.QSize(size, size))
    return icon


class _TextDialog(QtWidgets.QDialog):
    """A read-only, selectable text with Copy and Close (About, shortcuts, the guide)."""

    def __init__(self, parent: QtWidgets.QWidget, title: str, text: str, rich: bool,
                 copy_text: str | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName(f"help-{title.lower().replace(' ', '-')}")
        self.view = QtWidgets.QTextBrowser(self)
        self.view.setOpenExternalLinks(True)
        if rich:
            self.view.setHtml(text)
        else:
            self.view.setPlainText(text)
            self.view.setLineWrapMode(QtWidgets.QTextEdit.LineWrapMode.NoWrap)
            self.view.setFont(QtGui.QFontDatabase.systemFont(
                QtGui.QFontDatabase.SystemFont.FixedFont))  # the columns line up
        buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.copy_text = copy_text
        if copy_text is not None:
            copy = buttons.addButton("&Copy", QtWidgets.QDialogButtonBox.ButtonRole.ActionRole)
            copy.clicked.connect(self.copy)
        lay = QtWidgets.QVBoxLayout(self)
        lay.addWidget(self.view)
        lay.addWidget(buttons)
        self.resize(560, 420)

    def copy(self) -> None:
        QtWidgets.QApplication.clipboard().setText(self.copy_text or "")


class HelpMenu(QtCore.QObject):
    """The Help menu of one main window (last in the menu bar)."""

    def __init__(self, win: QtWidgets.QMainWindow) -> None:
        super().__init__(win)
        self.win = win
        self.dialog: _TextDialog | None = None
        self.menu = win.menuBar().addMenu("&Help")
        self.menu.addAction("&Reading the screen", self.show_guide)
        self.menu.addAction("&Keyboard shortcuts", self.show_shortcuts)
        self.menu.addSeparator()
        about = self.menu.addAction("&About fpinspector", self.show_about)
        about.setMenuRole(QtGui.QAction.MenuRole.AboutRole)

    def _show(self, title: str, text: str, rich: bool, copy_text: str | None) -> _TextDialog:
        if self.dialog is not None:
            self.dialog.close()
            self.dialog.deleteLater()
        self.dialog = _TextDialog(self.win, title, text, rich, copy_text)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def show_about(self) -> _TextDialog:
        gpu = getattr(self.win, "gpu", None)
        text = about_text(getattr(gpu, "info", None))
        return self._show("About fpinspector", text, rich=False, copy_text=text)

    def show_shortcuts(self) -> _TextDialog:
        rows = shortcut_rows(self.win)
        width = max(len(k) for k, _ in rows)
        text = "\n".join(f"{k.ljust(width)}  {what}" for k, what in rows)
        return self._show("Keyboard shortcuts", text, rich=False, copy_text=text)

    def show_guide(self) -> _TextDialog:
        return self._show("Reading the screen", READING_GUIDE, rich=True, copy_text=None)


def install(win: QtWidgets.QMainWindow) -> HelpMenu:
    """Add the Help menu to ``win`` and give the window (and the app) fpinspector's icon."""
    icon = window_icon()
    if not icon.isNull():
        win.setWindowIcon(icon)
        app = QtWidgets.QApplication.instance()
        if isinstance(app, QtWidgets.QApplication):
            app.setWindowIcon(icon)
    win.help_menu = HelpMenu(win)  # type: ignore[attr-defined]
    return win.help_menu  # type: ignore[attr-defined]
