"""The main window: inspector, operations, docks; every view binds the one InspectorState."""

from __future__ import annotations

import os
import sys

from PySide6 import QtCore, QtGui, QtWidgets

from ...model.formats import FORMATS
from ...model.state import InspectorState
from ..gpu import controller
from ..gpu.gpu_worker import GpuRunner
from ..inspector.all_formats import AllFormatsPanel
from ..inspector.conversions_view import ConversionsView
from ..inspector.distance_view import DistanceView
from ..inspector.inspector_view import InspectorView
from ..inspector.prefetch import NeighbourPrefetch
from ..inspector.value_panel import ValuePanel
from ..inspector.word_view import WordView
from ..operation.inspected import InspectedPicker, LinkedState
from ..operation.operations_view import OperationsView
from ..operation.why_view import WhyView
from . import actions, drops, first_run, gpu_menu, help_menu, window_layout
from .history import HistoryList
from .message_bar import MessageStatusBar
from .paste_box import PasteBox
from .paste_routing import PasteRouter

__all__ = ["MainWindow", "main"]

APP_NAME = "fpinspector"
#: The most a dock's content may ask of the window (it scrolls when the dock is smaller).
DOCK_MIN = QtCore.QSize(280, 140)


class MainWindow(QtWidgets.QMainWindow):
    """fpinspector's window. Every widget reads from and writes to ``self.state``.

    Parameters
    ----------
    state : InspectorState, optional
        Shared state (a fresh one by default).
    gpu : {"auto", "compute", "fragment", "off"}
        Capture path for the GPU worker; "off" runs without any GL (the status bar says so).
    settings : QSettings, optional
        Where window layout and last values persist (the user's settings by default).
    restore : bool
        Restore layout and last values from ``settings`` at start.
    """

    def __init__(self, state: InspectorState | None = None, gpu: str = "auto",
                 settings: QtCore.QSettings | None = None, restore: bool = True) -> None:
        super().__init__()
        self.setWindowTitle("fpinspector — GPU floating-point bit patterns under the D3D rules")
        self.setObjectName("fpinspector-main")
        # no dock animations: a relayout of the docks (e.g. one opened) is instant
        self.setAnimated(False)
        # one value under inspection: an operand, a result or its own (ui/inspected.py)
        self.state = state or LinkedState()
        self._gpu_mode = gpu
        self.settings = settings or QtCore.QSettings(APP_NAME, APP_NAME)
        self.status = QtWidgets.QLabel("GPU: off" if gpu == "off" else "GPU: starting…")
        self.gpu: GpuRunner | None = None
        # the GPU adapter listens first: the GPU works on an edit while the views redraw
        self.ctl = controller.Controller(self)
        self._build_central()
        # one place for messages (under the paste line); the status bar keeps the GPU state
        self.messages = self.paste_box.message
        self.setStatusBar(MessageStatusBar(self.messages, self))
        self.statusBar().addPermanentWidget(self.status)
        self._build_docks()
        for w in (self.word_view, *self.ops_view.editors, *self.ops_view.code_editors):
            w.error.connect(self._show_error)  # a field that cannot read its text says so
        for w in (self.editor, self.all_formats):
            w.error.connect(self._show_error)
            # a drag over the bits is one history entry (its last value), not one per bit
            w.edit_started.connect(self.history.hold)
            w.edit_finished.connect(self.history.release)
        # what a format switch did to the operands: in the one place for messages
        self.ops_view.noted.connect(
            lambda text, ok: self.messages.show_message(text, self.ops_view.NOTE_MS, not ok))
        self.paste_router = PasteRouter(self)
        if gpu == "off":
            self.status.setText("No GPU: disabled for this session (--no-gpu). "
                                "The model works fully without one.")
        else:
            self.gpu = GpuRunner(gpu, self)
            self.ctl.attach_gpu(self.gpu)
        actions.build_menus(self)
        self.ctl.start()  # after the views: GPU rows, Undo/Redo enabled, update stamps
        gpu_menu.install(self)  # GPU menu (device switch, reports) and the GPUs dock
        self.docks["gpus"].setWindowTitle("GPUs")  # a short tab title (gpu_menu names it)
        help_menu.install(self)  # Help menu (About, shortcuts, reading guide), window icon
        self.setMinimumSize(window_layout.MIN_SIZE)
        self.setAcceptDrops(True)  # text dropped is a paste, a file an open
        self.layout_mode = window_layout.arrange_docks(self, window_layout.fit_to_screen(self))
        # the layout's rules hold through every resize and a restored state (Reflow)
        self.reflow = window_layout.Reflow(self)
        if restore:
            first = first_run.is_first_run(self.settings)
            self._restore_settings()
            if first:  # what the screen shows, and three examples (ui/first_run.py)
                first_run.offer_examples(self)

    # -- layout ---------------------------------------------------------------------
    def _build_central(self) -> None:
        self.paste_box = PasteBox(self.state)
        insp = self.inspector = InspectorView(self.state)
        self.fmt_combo, self.editor = insp.fmt_combo, insp.editor
        self.inspected_picker: InspectedPicker | None = None
        if isinstance(self.state, LinkedState):  # (a plain state shared by two windows: none)
            self.inspected_picker = InspectedPicker(self.state)
            insp.set_picker(self.inspected_picker)
        self.ops_view = OperationsView(self.state)
        ops_box = QtWidgets.QGroupBox("Operation: model vs GPU")
        olay = QtWidgets.QVBoxLayout(ops_box)
        olay.setContentsMargins(2, 2, 2, 2)
        olay.addWidget(self.ops_view)
        inner = QtWidgets.QWidget()
        lay = QtWidgets.QVBoxLayout(inner)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.setSpacing(2)
        lay.addWidget(self.paste_box)
        lay.addWidget(insp)
        lay.addWidget(ops_box, 1)
        scroll = QtWidgets.QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        self.setCentralWidget(scroll)

    def _dock(self, title: str, widget: QtWidgets.QWidget, area, name: str,
              contain: bool = True) -> QtWidgets.QDockWidget:
        dock = QtWidgets.QDockWidget(title, self)
        dock.setObjectName(name)
        if contain:
            # a frameless scroll area absorbs the content's size-hint changes: without it
            # every edit re-laid out (and repainted) all docks of the window (latency)
            box = QtWidgets.QScrollArea()
            box.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
            box.setWidgetResizable(True)
            box.setWidget(widget)
            # a small minimum: the content scrolls in a small window instead of forcing
            # the window past the screen
            hint = widget.minimumSizeHint()
            box.setMinimumSize(min(hint.width(), DOCK_MIN.width()),
                               min(hint.height(), DOCK_MIN.height()))
            widget = box
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        A = QtCore.Qt.DockWidgetArea
        st = self.state  # every view binds the state itself (STYLE.md 4-5)
        self.value_panel = ValuePanel(st)
        self.why_view = WhyView(st)
        self.conversions_view = ConversionsView(st)
        self.word_view = WordView(st)
        self.distance_view = DistanceView(st)
        self.history = HistoryList(st)
        self.all_formats = AllFormatsPanel(st)
        # the next bit click's conversions, computed while the app waits for it
        self.prefetch = NeighbourPrefetch(st, list(self.conversions_view.variants),
                                          self.conversions_view, self,
                                          gpu_rows=self.ctl.prefetch_gpu_rows,
                                          wait=self.ctl.answers_pending)
        self.docks = {
            "all_formats": self._dock("All formats",
                                      self.all_formats, A.TopDockWidgetArea, "dock-all-formats"),
            "decode": self._dock("Decode", self.value_panel, A.RightDockWidgetArea, "dock-decode"),
            "why": self._dock("Why", self.why_view, A.RightDockWidgetArea, "dock-why"),
            "conversions": self._dock("Conversions", self.conversions_view,
                                      A.BottomDockWidgetArea, "dock-conversions"),
            "word": self._dock("Word", self.word_view, A.BottomDockWidgetArea, "dock-word"),
            "distance": self._dock("Distance", self.distance_view, A.BottomDockWidgetArea,
                                   "dock-distance"),
            "history": self._dock("History", self.history, A.BottomDockWidgetArea, "dock-history"),
        }
        self.sweep_panel: QtWidgets.QWidget | None = None  # built when its tab is first shown
        self._map_room = window_layout.MapRoom(self)  # map docks: their column's height
        self.docks["sweep"] = self._dock("Sweep", QtWidgets.QLabel("loading…"),
                                         A.BottomDockWidgetArea, "dock-sweep", contain=False)
        self.docks["sweep"].visibilityChanged.connect(self._load_sweep_panel)
        self.docks["sweep"].visibilityChanged.connect(
            lambda shown: self._map_room.shown(self.docks["sweep"], shown))
        self.expression_panel: QtWidgets.QWidget | None = None  # built when first shown
        self.docks["expression"] = self._dock("Expression",
                                              QtWidgets.QLabel("loading…"),
                                              A.BottomDockWidgetArea, "dock-expression",
                                              contain=False)
        self.docks["expression"].visibilityChanged.connect(self._load_expression_panel)
        self.docks["expression"].visibilityChanged.connect(
            lambda shown: self._map_room.shown(self.docks["expression"], shown))
        for name, view in (("all_formats", self.all_formats), ("decode", self.value_panel),
                           ("why", self.why_view), ("conversions", self.conversions_view),
                           ("word", self.word_view), ("distance", self.distance_view),
                           ("history", self.history)):
            # a view behind another tab does no work; it catches up when its tab is raised
            self.docks[name].visibilityChanged.connect(
                lambda shown, v=view: shown and QtCore.QTimer.singleShot(0, v.catch_up))
        self.tabifyDockWidget(self.docks["decode"], self.docks["why"])
        for name in ("word", "distance", "history", "sweep", "expression"):
            if name not in self.docks:
                continue
            self.tabifyDockWidget(self.docks["conversions"], self.docks[name])
        self.docks["conversions"].raise_()
        self.docks["decode"].raise_()

    def _load_sweep_panel(self, visible: bool = True) -> QtWidgets.QWidget | None:
        """Create the sweep/error-map panel on first view: it imports pyqtgraph, which
        would add to every start-up."""
        if self.sweep_panel is None and visible:
            from ..maps.sweep_panel import SweepPanel  # noqa: PLC0415 - lazy: start-up time

            panel = SweepPanel()
            panel.bind_state(self.state)  # a clicked map cell loads op + operands
            self.sweep_panel = panel
            self.docks["sweep"].setWidget(_contained(panel))
        return self.sweep_panel

    def _load_expression_panel(self, visible: bool = True) -> QtWidgets.QWidget | None:
        """Create the Expression panel on first view (its own module, ui/expression_panel)."""
        if self.expression_panel is None and visible:
            from ..expression.expression_panel import ExpressionPanel

            self.expression_panel = ExpressionPanel(self.state, gpu=self._gpu_mode != "off")
            if self.expression_panel.bridge is not None and self.gpu is not None:
                self.expression_panel.bridge.follow(self.gpu)  # GPU ▸ Device: its device
            self.docks["expression"].setWidget(_contained(self.expression_panel))
        return self.expression_panel

    def _show_error(self, message: str) -> None:
        if message:
            self.messages.show_message(message, 6000, error=True)

    # -- settings -------------------------------------------------------------------
    def _restore_settings(self) -> None:
        s = self.settings
        geo = s.value("geometry")
        if geo is not None:
            self.restoreGeometry(geo)
        win = s.value("windowState")
        mode = s.value("layoutMode")
        if win is not None and mode in ("wide", "compact", "narrow") and self.restoreState(win):
            self.layout_mode = mode  # the arrangement restored was laid out for this mode
            self.reflow.laid_out()
            try:  # the docks' share of the width, as saved (Qt restores their pixels)
                self.reflow.share = min(0.9, max(0.0, float(s.value("sideShare"))))
            except (TypeError, ValueError):
                pass
        text = s.value("state")
        if isinstance(text, str) and text:
            try:
                self.state.restore(InspectorState.snapshot_from_string(text))
            except ValueError as exc:
                self.statusBar().showMessage(f"last values not restored: {exc}", 8000)
        hist = s.value("history")
        if isinstance(hist, str) and hist:
            entries = []
            for part in hist.split(";"):
                fmt, _, bits = part.partition(":")
                if fmt in FORMATS and bits:
                    try:
                        entries.append((fmt, int(bits, 16)))
                    except ValueError:
                        continue
            self.history.set_entries(entries)

    def save_settings(self) -> None:
        """Persist window layout, the current values and the history (QSettings)."""
        s = self.settings
        s.setValue("geometry", self.saveGeometry())
        s.setValue("windowState", self.saveState())
        s.setValue("layoutMode", self.layout_mode)
        if self.reflow.share is not None:
            s.setValue("sideShare", self.reflow.share)
        s.setValue("state", self.state.to_string())
        s.setValue("history", ";".join(f"{f}:{b:X}" for f, b in self.history.entries()[:50]))
        s.sync()

    # -- drag and drop: text is a paste, a file an open (ui/drops.py) -----------------
    def dragEnterEvent(self, event: QtGui.QDragEnterEvent) -> None:  # noqa: N802
        drops.drag_enter(event)

    def dragMoveEvent(self, event: QtGui.QDragMoveEvent) -> None:  # noqa: N802
        drops.drag_enter(event)

    def dropEvent(self, event: QtGui.QDropEvent) -> None:  # noqa: N802
        if drops.accepts(event.mimeData()):
            event.acceptProposedAction()
            drops.drop(self, event.mimeData())

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:  # noqa: N802
        self.save_settings()
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Stop the GPU thread (idempotent)."""
        if getattr(self, "gpu_menu", None) is not None:
            self.gpu_menu.shutdown()  # a device listing still running
        if self.gpu is not None:
            self.gpu.shutdown()
            self.gpu = None
        if self.sweep_panel is not None:
            self.sweep_panel.shutdown()
        if getattr(self, "expression_panel", None) is not None:
            self.expression_panel.shutdown()


def _report(win: MainWindow, kind: type, exc: BaseException) -> None:
    """A failure nobody caught reaches the user as a message in the window, never as a
    traceback on stderr (and the app keeps running)."""
    if issubclass(kind, KeyboardInterrupt):
        QtWidgets.QApplication.quit()
        return
    win.statusBar().showMessage(f"internal error ({kind.__name__}): {exc} — the app keeps "
                                "running; please report it", 20000)


def _contained(widget: QtWidgets.QWidget) -> QtWidgets.QScrollArea:
    """``widget`` in a frameless scroll area with a small minimum: a panel built when its
    tab is first shown never grows the window (it scrolls where the dock is smaller)."""
    box = QtWidgets.QScrollArea()
    box.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
    box.setWidgetResizable(True)
    box.setWidget(widget)
    box.setMinimumSize(DOCK_MIN)
    return box


def main(argv: list[str] | None = None, gpu: str = "auto", values: tuple[str, ...] = ()) -> int:
    """Start the application (``values``: text to paste at start); returns the exit code."""
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(
        list(argv if argv is not None else sys.argv[:1]))
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    from ..palette import apply_system_palette

    apply_system_palette(app)
    win = MainWindow(gpu=gpu)
    from .value_channel import open_for  # values from debuggers and `fpinspector send`

    if open_for(win, values) is None:  # another app of this user listens: it took them
        win.shutdown()
        return 0
    sys.excepthook = lambda kind, exc, tb: _report(win, kind, exc)
    win.show()
    if os.environ.get("FPINSPECTOR_QUIT_AFTER_SHOW"):
        QtCore.QTimer.singleShot(0, win.close)
    return app.exec()
