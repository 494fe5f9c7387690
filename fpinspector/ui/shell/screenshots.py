"""Regenerate the README screenshots: ``python -m fpinspector.ui.shell.screenshots docs/screenshots``.

Run it under a real X server (e.g. ``Xvfb :99 -screen 0 1366x768x24 &`` then
``DISPLAY=:99``) so the window is a real, composited top-level window, or pass ``--xvfb``
to have it start (and stop) a private Xvfb of 1366x768 itself (``--screen WxH`` for another
size).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from ..image_files import save_image

__all__ = ["take_screenshots"]


def _settle(ms: int) -> None:
    loop = QtCore.QEventLoop()  # exec() releases the GIL so the GPU thread can finish
    QtCore.QTimer.singleShot(ms, loop.quit)
    loop.exec()


def take_screenshots(out_dir: str | Path) -> list[Path]:
    """Drive the app through its main states and save one PNG per state (the window as
    it lays itself out on this screen: 1366x768 under ``--xvfb``)."""
    from .. import palette
    from .app import MainWindow
    from .window_layout import raise_dock

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(sys.argv[:1])
    palette.apply_system_palette(app)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        s = QtCore.QSettings(str(Path(tmp) / "s.ini"), QtCore.QSettings.Format.IniFormat)
        win = MainWindow(settings=s, restore=False)
        win.show()
        _settle(1500)

        def shot(name: str, widget: QtWidgets.QWidget | None = None) -> None:
            _settle(500)
            path = out / name
            save_image((widget or win).grab(), path)
            saved.append(path)

        def paste(text: str, op: str) -> None:
            win.ops_view.op_combo.setCurrentText(op)
            win.paste_box.edit.setText(text)
            win.ctl.paste(text)
            _show_results(win)

        # 1. the headline: a denormal times one, model (FTZ) vs this GPU, with the Why steps
        raise_dock(win, win.docks["why"])
        paste("0x00000001 3f800000", "mul")
        shot("main-mul-denormal.png")
        # 1b. mad of a denormal result: the exact allowed set and the one-sentence verdict
        paste("0x00800000 0.5 0", "mad")
        raise_dock(win, win.docks["all_formats"])
        shot("main-mad-ftz-verdict.png")
        # 1c. every format at once: a value that saturates f16 (CONV-F2F-SAT) and clamps to
        # 0 in the unsigned f11/f10 (F11-CLAMP, CONV-UNSIGNED)
        win.state.update(fmt="f32", bits=0xC788B840)  # -70000.5
        shot("all-formats.png", win.docks["all_formats"])
        # 2. conversions: 1 + 3*2^-11 through every encoder (docs/rules.md, case 1)
        win.state.update(fmt="f32", bits=0x3F803000)
        raise_dock(win, win.docks["conversions"])
        win.conversions_view.select("d3d", "f16")
        shot("conversions.png", win.docks["conversions"])
        # 2b. an f16 source: the GPU row goes through f32 (sampled, then render targets)
        win.state.update(fmt="f16", bits=0x3555)  # 0.333
        win.conversions_view.select("d3d", "f11")
        shot("conversions-f16.png", win.docks["conversions"])
        # 3. min with a NaN operand (F32-MINMAX-NAN)
        raise_dock(win, win.docks["why"])
        paste("nan 2.5", "min")
        shot("min-nan.png")
        # 3b. integer-code ops: itof of -(2^24 + 1) rounds to -2^24 (CONV-ITOF), and
        # from_unorm8(3): the sampler's c * (1/255) against the correctly rounded 3/255
        # (pasted, so the paste line says what is shown; the inspector shows the f32 result:
        # an integer code is not a float to inspect)
        from ..operation.inspected import MODEL

        paste(str(-(2**24 + 1)), "itof")
        win.state.select(MODEL)
        _show_results(win)
        shot("op-itof.png")
        paste("3", "from_unorm8")
        win.state.select(MODEL)
        _show_results(win)
        shot("op-from-unorm8.png")
        # 4. a 32-bit word read four ways
        win.state.update(word=0x3C00BC00)
        raise_dock(win, win.docks["word"])
        shot("word.png", win.docks["word"])
        # 5. the headline again in a dark palette (what a dark system scheme gives)
        app.setPalette(_dark_palette())
        raise_dock(win, win.docks["all_formats"])
        paste("0x00000001 3f800000", "mul")
        shot("main-dark.png")
        app.setPalette(app.style().standardPalette())  # the maps in the light scheme again
        win.shutdown()
        win.close()
    saved += _map_shots(out)
    return saved


#: (file, op, domain A, domain B, C, compare): real maps on this machine's GPU (llvmpipe).
MAP_SHOTS = (
    ("error_map_mul.png", "mul", "log:1e-40:1e3:512", "log:1e-3:1e3:512", "", "gpu_vs_model"),
    ("error_map_mad.png", "mad", "log:1e-40:1e3:256", "lin:-4:4:256", "1e-38", "gpu_vs_model"),
    ("error_map_from_unorm8.png", "from_unorm8", "all", "", "", "model_vs_exact"),
)


def _map_shots(out: Path) -> list[Path]:
    """Sweep panel states: f32 mul and mad (C fixed) over A x B on the GPU, and an op on
    integer codes, each run to completion and saved as the panel shows it."""
    from ..maps.sweep_panel import SweepPanel

    saved: list[Path] = []
    panel = SweepPanel()
    panel.resize(1300, 720)  # what the Sweep dock gets undocked on a 1366x768 screen
    panel.show()
    try:
        for name, op, da, db, c, compare in MAP_SHOTS:
            panel.op.setCurrentText(op)
            panel.domain_a.setText(da)
            if db:
                panel.domain_b.setText(db)
            if c:
                panel.c_value.setText(c)
            panel.compare.setCurrentIndex(panel.compare.findData(compare))
            panel.use_gpu.setChecked(compare != "model_vs_exact")
            if not panel.start_sweep():
                print(f"screenshots: {name}: {panel.map.info.text()}", file=sys.stderr)
                continue
            deadline = time.monotonic() + 60
            while panel.is_running() and time.monotonic() < deadline:
                _settle(50)
            _settle(400)
            save_image(panel.grab(), out / name)
            saved.append(out / name)
    finally:
        panel.shutdown()
        panel.close()
    return saved


def _show_results(win) -> None:
    """Let the views settle; the central area shows the inspector and the op's results
    without scrolling (it starts at the top)."""
    _settle(100)
    win.centralWidget().verticalScrollBar().setValue(0)


def _dark_palette():
    """A Fusion dark palette like the one a dark system scheme produces."""
    from PySide6 import QtGui

    pal = QtGui.QPalette()
    R = QtGui.QPalette.ColorRole
    for role, color in ((R.Window, "#2b2b2b"), (R.WindowText, "#e6e6e6"), (R.Base, "#1f1f1f"),
                        (R.AlternateBase, "#2b2b2b"), (R.Text, "#e6e6e6"), (R.Button, "#353535"),
                        (R.ButtonText, "#e6e6e6"), (R.Highlight, "#3d6fb4"),
                        (R.HighlightedText, "#ffffff"), (R.ToolTipBase, "#353535"),
                        (R.ToolTipText, "#e6e6e6"), (R.Link, "#8ab4f8")):
        pal.setColor(role, QtGui.QColor(color))
    for role in (R.WindowText, R.Text, R.ButtonText):  # disabled controls look disabled
        pal.setColor(QtGui.QPalette.ColorGroup.Disabled, role, QtGui.QColor("#7a7a7a"))
    return pal


@contextlib.contextmanager
def private_xvfb(size: str = "1366x768x24") -> Iterator[str]:
    """Start Xvfb on a free display number, point DISPLAY (and Qt) at it, stop it after."""
    exe = shutil.which("Xvfb")
    if exe is None:
        raise ValueError("--xvfb: Xvfb is not installed (apt-get install xvfb)")
    num = next(n for n in range(90, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists()
               and not Path(f"/tmp/.X{n}-lock").exists())
    proc = subprocess.Popen([exe, f":{num}", "-screen", "0", size, "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    old = {k: os.environ.get(k) for k in ("DISPLAY", "QT_QPA_PLATFORM")}
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{num}").exists():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise ValueError(f"--xvfb: Xvfb :{num} did not start")
            time.sleep(0.05)
        os.environ["DISPLAY"], os.environ["QT_QPA_PLATFORM"] = f":{num}", "xcb"
        yield f":{num}"
    finally:
        proc.terminate()
        proc.wait(10)
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Regenerate the app screenshots.")
    ap.add_argument("out", nargs="?", default="docs/screenshots", help="output folder")
    ap.add_argument("--xvfb", action="store_true", help="run under a private Xvfb")
    ap.add_argument("--screen", default="1366x768", help="Xvfb screen size (default 1366x768)")
    args = ap.parse_args(argv)
    try:
        with private_xvfb(f"{args.screen}x24") if args.xvfb else contextlib.nullcontext():
            for p in take_screenshots(args.out):
                print(p)
    except ValueError as exc:
        print(f"screenshots: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
