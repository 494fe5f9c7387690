"""pytest-qt fixtures for the desktop app tests (offscreen; GPU off unless a test asks for it)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6 import QtCore  # noqa: E402


def _wait_for(predicate: Callable[[], bool], timeout_ms: int = 5000) -> bool:
    """Run the event loop until ``predicate()`` holds.

    Uses QEventLoop.exec (which releases the GIL, so the GPU worker thread can run);
    QTest.qWait holds the GIL, and a tight processEvents() loop crashes PySide6 6.12.
    """
    deadline = time.monotonic() + timeout_ms / 1000
    while not predicate():
        if time.monotonic() > deadline:
            return False
        loop = QtCore.QEventLoop()
        QtCore.QTimer.singleShot(10, loop.quit)
        loop.exec()
    return True


class _EventCounter(QtCore.QObject):
    """Counts the events of one type the object it is installed on receives (``count``);
    installed on the application, it counts every object's."""

    def __init__(self, kind: QtCore.QEvent.Type) -> None:
        super().__init__()
        self.kind = kind
        self.count = 0

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == self.kind:
            self.count += 1
        return False


def _counters(kind: QtCore.QEvent.Type) -> Callable[[QtCore.QObject], _EventCounter]:
    kept = []  # (alive as long as the test: an event filter is not owned by its object)

    def watch(obj: QtCore.QObject) -> _EventCounter:
        spy = _EventCounter(kind)
        obj.installEventFilter(spy)
        kept.append(spy)
        return spy

    return watch


@pytest.fixture
def paints():
    """``paints(widget)``: a counter of the paint events ``widget`` gets from now on
    (``.count``)."""
    return _counters(QtCore.QEvent.Type.Paint)


@pytest.fixture
def layout_requests():
    """``layout_requests(widget)``: a counter of the layout requests ``widget`` gets from now
    on (``.count``; each one lays it out again)."""
    return _counters(QtCore.QEvent.Type.LayoutRequest)


@pytest.fixture
def wait_for():
    """``wait_for(predicate, timeout_ms)``: spin the Qt event loop until the predicate holds."""
    return _wait_for


@pytest.fixture
def settings(tmp_path) -> QtCore.QSettings:
    """QSettings in a temp ini file, so tests never touch the user's settings."""
    return QtCore.QSettings(str(tmp_path / "fpinspector.ini"), QtCore.QSettings.Format.IniFormat)


@pytest.fixture
def make_window(qtbot, settings):
    """Factory: MainWindow(gpu=...) registered with qtbot and shut down after the test."""
    from fpinspector.ui.shell.app import MainWindow

    made = []

    def make(gpu: str = "off", restore: bool = False, **kw):
        win = MainWindow(gpu=gpu, settings=kw.pop("settings", settings), restore=restore, **kw)
        qtbot.addWidget(win)
        made.append(win)
        return win

    yield make
    for win in made:
        win.shutdown()


@pytest.fixture
def make_compact_window(make_window, qtbot):
    """Factory: a main window at 1280x720 with the docks laid out as on a small screen
    (All formats beside the inspector, the others as tabs), shown and settled."""
    from PySide6 import QtWidgets

    from fpinspector.ui.shell import window_layout

    def make(**kw):
        win = make_window(**kw)
        size = QtCore.QSize(1280, 720)
        win.resize(size)
        win.layout_mode = window_layout.arrange_docks(win, size)
        win.show()
        qtbot.waitExposed(win)
        for _ in range(10):
            QtWidgets.QApplication.processEvents()
        return win

    return make


@pytest.fixture
def expression_panel(qtbot):
    """An Expression panel on a fresh inspector state, without a GPU, shut down after."""
    from fpinspector.model.state import InspectorState
    from fpinspector.ui.expression.expression_panel import ExpressionPanel

    p = ExpressionPanel(InspectorState(), gpu=False)
    qtbot.addWidget(p)
    yield p
    p.shutdown()
