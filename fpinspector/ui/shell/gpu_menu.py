"""The GPU menu and the GPUs dock: pick the device at run time, open saved GPU reports,
measure the live device's rules report, and keep the GPUs view in step with the state.

A device switch restarts the GPU worker's session on the new device; when the new one does
not open, the app says why and keeps running on the previous one.
"""

from __future__ import annotations

from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets

from ..gpu.gpus_view import GpusView, current_rows
from .window_layout import raise_dock

__all__ = ["GpuMenu", "install", "LIVE_REPORT_SAMPLES"]

#: Random inputs per op for the live report measured in the app (a second or two).
LIVE_REPORT_SAMPLES = 1 << 14


class _DeviceLister(QtCore.QThread):
    """Lists the devices (each probed in a child process) off the UI thread."""

    found = QtCore.Signal(object)

    def run(self) -> None:  # noqa: D102 - QThread
        try:
            from ...gpu.device_list import list_devices
            from ...gpu.wgpu_devices import adapters_or_none

            self.found.emit(list_devices(timeout=30.0) + adapters_or_none())
        except Exception as exc:  # noqa: BLE001 - shown in the menu, never raised into Qt
            self.found.emit(str(exc) or type(exc).__name__)


class GpuMenu(QtCore.QObject):
    """Owns the GPU menu, the GPUs dock and their reactions (one per main window)."""

    def __init__(self, win: QtWidgets.QMainWindow) -> None:
        super().__init__(win)
        from ...gpu.report_io import example_reports

        self.win = win
        self.examples = example_reports()
        self.view = GpusView(sorted(self.examples))
        self.devices: list[Any] | None = None
        self._lister: _DeviceLister | None = None
        self._report_req = -1
        self.menu = QtWidgets.QMenu("&GPU", win)
        bar = win.menuBar()
        last = bar.actions()[-1] if bar.actions() else None  # the View menu stays last
        bar.insertMenu(last, self.menu) if last is not None else bar.addMenu(self.menu)
        self.device_menu = self.menu.addMenu("&Device")
        self.device_menu.aboutToShow.connect(self._device_menu_shown)
        self.device_group = QtGui.QActionGroup(self)
        self._interim()
        self.menu.addAction("&Refresh device list", self.refresh_devices)
        self.menu.addSeparator()
        self.menu.addAction("&Open GPU report…", self.ask_open_report)
        examples = self.menu.addMenu("&Example reports")
        for name in sorted(self.examples):
            examples.addAction(name, lambda n=name: self.open_example(n))
        self.menu.addAction("&Measure live report", self.measure_live)
        self.view.open_requested.connect(self.ask_open_report)
        self.view.example_requested.connect(self.open_example)
        self.view.measure_requested.connect(self.measure_live)
        win.state.connect(lambda changed: self.refresh_current())
        gpu = win.gpu
        if gpu is not None:
            gpu.captured.connect(self._captured)
            gpu.failed.connect(self._failed)
            gpu.switched.connect(self._switched)
            gpu.switch_failed.connect(self._switch_failed)
        else:
            self.view.measure_button.setEnabled(False)
            self.view.measure_button.setToolTip("GPU off for this session (--no-gpu)")

    # -- devices ----------------------------------------------------------------------
    def _placeholder(self, text: str, clear: bool = True) -> None:
        if clear:
            self.device_menu.clear()
        act = self.device_menu.addAction(text)
        act.setEnabled(False)

    def _interim(self) -> None:
        """The menu while the devices are listed: the device in use, checked, as soon as
        its session is open (no probe needed), and a line saying the others are coming.

        Why: listing probes each device in a child process (seconds); the first open of the
        menu showed only "(looking for devices…)", though the device in use was known."""
        self.device_menu.clear()
        gpu = self.win.gpu
        if gpu is not None and gpu.available:
            renderer = gpu.info.get("renderer") or "the GPU"
            act = self.device_menu.addAction(f"{renderer} ({self.current_choice().label()}): "
                                             "in use")
            act.setCheckable(True)
            act.setChecked(True)
            act.setEnabled(False)  # (nothing to switch to: it is the device in use)
            act.setToolTip("the device the GPU column, conversions and maps use now")
            self._placeholder("(listing the other devices…)", clear=False)
        elif gpu is None:
            self._placeholder("(GPU off for this session; listing the devices…)", clear=False)
        else:
            self._placeholder(f"({gpu.message.removeprefix('GPU: ') or 'starting the GPU'}; "
                              "listing the devices…)", clear=False)

    def _device_menu_shown(self) -> None:
        if self.devices is None:
            self._interim()  # (the device in use may have opened since)
            if self._lister is None:
                self.refresh_devices()

    def refresh_devices(self) -> None:
        """List the devices again (background; the menu fills when they answer)."""
        if self._lister is not None:
            return
        self.devices = None
        self._interim()
        self._lister = _DeviceLister(self)
        self._lister.found.connect(self._devices_found)
        self._lister.start()

    def _devices_found(self, found: Any) -> None:
        if self._lister is not None:
            self._lister.wait()
            self._lister.deleteLater()
            self._lister = None
        if isinstance(found, str):
            self._placeholder(f"(device list failed: {found})")
            return
        self.devices = found
        self.device_menu.clear()
        current = self.current_choice()
        for entry in found:
            if entry.error:
                act = self.device_menu.addAction(f"{entry.options}: does not open")
                act.setToolTip(entry.error)
                act.setEnabled(False)
                continue
            text = (f"{entry.renderer} — GL {entry.version.split(' ')[0]}, "
                    f"{'/'.join(entry.paths)} ({entry.options})") if not hasattr(entry, "api") \
                else f"{entry.renderer} — WebGPU, {entry.adapter_type} ({entry.options})"
            act = self.device_menu.addAction(text)
            act.setCheckable(True)
            act.setChecked(_same_device(entry.choice, current, self.win.gpu))
            act.setEnabled(self.win.gpu is not None)
            act.setToolTip("GPU off for this session (--no-gpu)" if self.win.gpu is None
                           else f"switch the GPU column, conversions and maps to {text}")
            act.triggered.connect(lambda _=False, c=entry.choice: self.switch_to(c))
            self.device_group.addAction(act)

    def current_choice(self) -> Any:
        from ...gpu.devices import selected_device

        gpu = self.win.gpu
        return gpu.choice if gpu is not None and gpu.choice is not None else selected_device()

    def switch_to(self, choice: Any) -> None:
        """Restart the GPU worker on ``choice``; a failure keeps the previous device."""
        gpu = self.win.gpu
        if gpu is None:
            self.win.statusBar().showMessage("GPU is off for this session (--no-gpu)", 8000)
            return
        self.win.status.setText(f"GPU: switching to {choice.label()}…")
        gpu.switch(choice)

    def _switched(self, info: dict) -> None:
        self.win.statusBar().showMessage(f"now on {info.get('renderer', 'the new device')}",
                                         6000)
        self.view.set_live(None)  # the live report was the previous device's
        if self.devices is not None:
            self._devices_found(self.devices)  # move the check mark
        self.refresh_current()

    def _switch_failed(self, message: str) -> None:
        gpu = self.win.gpu
        keep = gpu.message if gpu is not None and gpu.available else "no GPU"
        text = f"device not switched: {message} (still on: {keep.removeprefix('GPU: ')})"
        self.win.status.setText(keep)
        self.win.statusBar().showMessage(text, 15000)
        self.view.status.setText(text)
        if self.devices is not None:
            self._devices_found(self.devices)

    def shutdown(self) -> None:
        """Wait for a device listing still in flight (its child processes time out)."""
        if self._lister is not None:
            self._lister.wait()

    # -- reports ----------------------------------------------------------------------
    def ask_open_report(self) -> None:
        from .. import recent

        settings = self.win.settings
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self.win, "Open GPU report", recent.folder_for(settings, "report"),
            "fpinspector GPU report (*.json);;All files (*)")
        if path:
            recent.remember_folder(settings, "report", path)
            self.open_report(path)

    def open_report(self, path: str, source: str | None = None) -> bool:
        """Load a saved report into the GPUs view; a bad file is a message, nothing else."""
        from ...gpu.report_io import ReportFileError, load_report

        try:
            report = load_report(path)
        except ReportFileError as exc:
            self.win.statusBar().showMessage(str(exc), 15000)
            self.view.status.setText(str(exc))
            return False
        item = self.view.add_report(report, source or path)
        self.show_view()
        self.refresh_current()
        self.win.statusBar().showMessage(f"opened {item.label}: {report.label}", 6000)
        return True

    def open_example(self, name: str) -> bool:
        return self.open_report(str(self.examples[name]), f"example:{name}")

    def measure_live(self) -> None:
        gpu = self.win.gpu
        if gpu is None or not gpu.available:
            self.view.status.setText("no live GPU to measure")
            return
        self.view.status.setText("measuring the live device's rules report…")
        self.view.measure_button.setEnabled(False)
        self._report_req = gpu.request_report(LIVE_REPORT_SAMPLES)

    def _captured(self, req: int, out: object) -> None:
        if req == self._report_req:
            self._report_req = -1
            self.view.measure_button.setEnabled(True)
            self.view.set_live(out)
            self.show_view()
        self.refresh_current()

    def _failed(self, req: int, message: str) -> None:
        if req == self._report_req:
            self._report_req = -1
            self.view.measure_button.setEnabled(True)
            self.view.status.setText(f"live report failed: {message}")
        self.refresh_current()

    # -- the current operation -------------------------------------------------------
    def show_view(self) -> None:
        dock = self.win.docks.get("gpus")
        if dock is not None:
            raise_dock(self.win, dock)

    def refresh_current(self) -> None:
        """Fill the current-operation table (only while the GPUs view can be seen)."""
        if not self.view.isVisible() or self.view.visibleRegion().isEmpty():
            return  # a dock tab behind another reports visible: nothing of it is seen
        ctl = getattr(self.win, "ctl", None)
        if ctl is None:
            return
        from .. import bridge_ops

        s = self.win.state.snapshot
        gpu = self.win.gpu
        note = gpu.message if gpu is not None else self.win.status.text()
        spec = bridge_ops.op_infos().get(s.op)
        operands = list(s.operands[:spec.arity if spec else 2])
        try:
            rows = current_rows(ctl.outcome, ctl.gpu_result, note, s.op_format, s.op,
                                operands, self.view.reports)
        except ValueError as exc:
            rows = [("model", "—", "—", str(exc))]
        self.view.show_current(rows)


def _same_device(a: Any, b: Any, gpu: Any) -> bool:
    """Whether menu entry ``a`` is the device in use (``b``, or what the worker opened)."""
    if a == b:
        return True
    info = getattr(gpu, "info", None) or {}
    if b is None or b.is_default:
        return a.api == "gl" and a.driver is None and a.index in (None, info.get("device"))
    return False


def install(win: QtWidgets.QMainWindow) -> GpuMenu:
    """Add the GPU menu and the GPUs dock to ``win`` (``win.gpu_menu``, ``win.gpus_view``)."""
    menu = GpuMenu(win)
    win.gpu_menu = menu
    win.gpus_view = menu.view
    dock = win._dock("GPUs side by side (model, live GPU, reports)", menu.view,
                     QtCore.Qt.DockWidgetArea.BottomDockWidgetArea, "dock-gpus")
    win.docks["gpus"] = dock
    win.tabifyDockWidget(win.docks["conversions"], dock)
    win.docks["conversions"].raise_()
    dock.visibilityChanged.connect(lambda visible: visible and menu.refresh_current())
    menu.menu.addAction(dock.toggleViewAction())
    return menu
