"""Edit-to-update latency of the desktop app, and its start time against a bare Qt window.

Clicks bits through the real widgets (QTest mouse clicks on the bit cells), each click
from an idle app (the timers of the step before have fired, as between a person's clicks)
with a full history list (as after some minutes of use: each edit adds an entry), and
reports the median and p95 time from the click to:

* every view that can be seen updated (editor, operations, all formats, and the docks on
  screen: a dock tab behind another catches up when raised);
* the same plus the repaints delivered (offscreen or Xvfb backing store);
* the GPU's part shown too: for the inspected value the render-target conversions row
  where its dock can be seen (behind another tab the row is asked for when the tab is
  raised, and nothing is waited for), for an operand the op's capture (one capture on the
  worker thread, llvmpipe here).

The clicks:

* inspector: a bit of the inspected value. The clicks walk to a value never inspected
  before each time (a bit of 0, 5, 12, 22, 23, 30, 31 chosen at random among those that
  lead somewhere new), so no answer of a value seen before helps; the app's idle prefetch
  of the values one bit flip away (ui/prefetch.py) has run, as it has between a person's
  clicks (the benchmark waits for it, the GPU's part included: about 40 ms after an edit).
* cold inspector: the same walk, with every per-value cache emptied just before the click
  (``bridge_ops.clear_caches``, ``Controller.forget_gpu_rows``): nothing computed ahead,
  as for a value typed or pasted.
* all-formats row: a bit of the f16 row of the All formats panel (a format switch: the
  inspected value becomes that f16 pattern), after the same idle moment: the prefetch has
  converted the neighbours of each row too. Its GPU part is the conversion row, as for
  the inspector. Cold all-formats row: the same with every per-value cache emptied first.
* operand: a bit of operand A (the op evaluated, its GPU capture), toggling 7 bits on and
  off with every per-value cache emptied before the click (without it every value after
  the 14th would come from the caches of conversions, decimals and op outcomes).

Goal (issue 15): a click to every view updated and painted, p95 <= 8 ms (half a 60 Hz
frame), checked on the three end-to-end figures (inspector+gpu, all-formats row+gpu,
operand+gpu) in both dock layouts (the cold clicks are printed beside them): a small
screen's (the docks are tabs: All formats on screen beside the inspector and the
operation) and a big screen's (All formats, Decode and Conversions on screen at once); the
partial figures are printed beside them. Start time:
the app's window against a bare PySide6 window (no numpy, no fpinspector), each in fresh
processes; best of N, the load average and the ratio are printed. ``--check`` exits 1 when
a goal is missed.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_ui_latency.py``
(``--no-gpu`` for the views alone, ``--layout wide|compact`` for one layout; under a real
X server: ``xvfb-run -s "-screen 0 1920x1080x24" ...`` with ``QT_QPA_PLATFORM=xcb``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from _timing import Goals, add_arguments, print_header  # noqa: E402

#: inspector = a bit of the inspected value; operand = a bit of operand A of the op.
#: (sync) views updated; +paint: their repaints delivered; +gpu: the GPU's part shown and
#: everything painted (the end-to-end figure).
#: p95 goal of an edit to every view repainted, checked on the end-to-end figures.
GOAL_MS = 8.0
END_TO_END = ("inspector+gpu", "all-formats row+gpu", "operand+gpu")
KEYS = tuple(f"{c}{k}{part}" for c, k in (("", "inspector"), ("cold ", "inspector"),
                                           ("", "all-formats row"), ("cold ", "all-formats row"),
                                           ("", "operand"))
             for part in ("", "+paint", "+gpu"))

#: A bare PySide6 window (no numpy, no fpinspector: the honest floor of any Qt app here)
#: against the app's window, each in a fresh process.
_BARE_SCRIPT = r"""
import sys, time
t0 = time.perf_counter()
from PySide6 import QtCore, QtWidgets
qapp = QtWidgets.QApplication([])
win = QtWidgets.QMainWindow()
win.show()
def done():
    print(time.perf_counter() - t0)
    qapp.quit()
QtCore.QTimer.singleShot(0, done)
qapp.exec()
"""
_APP_SCRIPT = r"""
import sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
from PySide6 import QtCore, QtWidgets
import fpinspector.ui.shell.app as app_mod
qapp = QtWidgets.QApplication([])
s = QtCore.QSettings({ini!r}, QtCore.QSettings.Format.IniFormat)
win = app_mod.MainWindow(settings=s, restore=False)
win.show()
def done():
    print(time.perf_counter() - t0)
    win.shutdown()
    qapp.quit()
QtCore.QTimer.singleShot(0, done)
qapp.exec()
"""


#: Event-loop passes of :func:`_drain`. Each level of a layout chain (a label's holder, its
#: panel, the scroll area's contents, the scroll area) posts the next one, and a repaint
#: follows: a format switch took 6 passes before its last repaint, and a drain of 2 passes
#: left a repaint of 6 widgets out of the figure. Idle passes cost microseconds.
DRAIN_PASSES = 8


def _drain(app) -> None:
    """Deliver what an edit scheduled, every repaint included, so nothing the edit caused
    is left out of its figure (or leaks into the next click's)."""
    for _ in range(DRAIN_PASSES):
        app.processEvents()


def _settle(app, ms: int = 50) -> None:
    """Run the event loop for ``ms``: the short timers an untimed step started (deferred
    catch-ups, relayouts) fire here, so each timed click starts from an idle app, as a
    person's clicks (more than 50 ms apart) do, instead of paying for the step before."""
    from PySide6 import QtCore

    loop = QtCore.QEventLoop()
    QtCore.QTimer.singleShot(ms, loop.quit)
    loop.exec()
    app.processEvents()


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def start_times(runs: int) -> tuple[list[float], list[float]]:
    """Seconds from interpreter start (after Python itself) to a shown window, per run."""
    bare, full = [], []
    with tempfile.TemporaryDirectory() as tmp:
        ini = str(Path(tmp) / "s.ini")
        for _ in range(runs):
            for code, out in ((_BARE_SCRIPT, bare),
                              (_APP_SCRIPT.format(root=str(ROOT), ini=ini), full)):
                res = subprocess.run([sys.executable, "-c", code], capture_output=True,
                                     text=True, timeout=120)
                lines = [ln for ln in res.stdout.split() if ln.strip()]
                if res.returncode != 0 or not lines:
                    raise RuntimeError(f"start run failed: {res.stderr[-2000:]}")
                out.append(float(lines[-1]))
    return bare, full


def edit_latency(n: int, gpu: str = "auto", layout: str = "") -> dict[str, list[float]]:
    """Click bits n times in the inspector and in operand A; time to views (and GPU) updated.
    ``layout`` "wide" or "compact" lays the docks out as on a big or a small screen."""
    from PySide6 import QtCore, QtTest, QtWidgets

    from fpinspector.ui.shell.app import MainWindow

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        s = QtCore.QSettings(str(Path(tmp) / "s.ini"), QtCore.QSettings.Format.IniFormat)
        win = MainWindow(settings=s, restore=False, gpu=gpu)
        if layout:
            from PySide6.QtCore import QSize

            from fpinspector.ui.shell import window_layout

            size = QSize(1800, 1000) if layout == "wide" else QSize(1280, 720)
            win.resize(size)
            win.layout_mode = window_layout.arrange_docks(win, size)
        win.show()
        loop = QtCore.QEventLoop()
        if win.gpu is not None:
            win.gpu.ready.connect(loop.quit)
            win.gpu.unavailable.connect(loop.quit)
            QtCore.QTimer.singleShot(15000, loop.quit)
            loop.exec()
        gpu_ok = bool(win.gpu and win.gpu.available)
        settle = QtCore.QEventLoop()
        QtCore.QTimer.singleShot(300, settle.quit)
        settle.exec()
        win.ctl.paste("0x00000001 3f800000")
        win.ops_view.op_combo.setCurrentText("mul")
        # a session some minutes old: the history is full (each edit adds an entry)
        win.history.set_entries([("f32", 0x40000000 + k) for k in range(win.history.limit)])
        out: dict[str, list[float]] = {k: [] for k in KEYS}
        bits = [0, 5, 12, 22, 23, 30, 31]

        def wait_until(stamp: str, before: float) -> None:
            """Spin the event loop (GIL released) until ``win.ctl.<stamp>`` moves on."""
            deadline = time.perf_counter() + 2.0
            while getattr(win.ctl, stamp) == before and time.perf_counter() < deadline:
                el = QtCore.QEventLoop()
                win.gpu.captured.connect(el.quit)
                win.gpu.failed.connect(el.quit)
                QtCore.QTimer.singleShot(20, el.quit)
                el.exec()
                win.gpu.captured.disconnect(el.quit)
                win.gpu.failed.disconnect(el.quit)

        from fpinspector.ui import bridge_ops

        rng = random.Random(2026)
        seen = {win.state.snapshot.bits}

        def walk_bit() -> int:
            """A bit whose flip leads to a value not inspected before (one of ``bits``
            while some does)."""
            cur = win.state.snapshot.bits
            new = ([b for b in bits if cur ^ (1 << b) not in seen]
                   or [b for b in range(32) if cur ^ (1 << b) not in seen])
            b = rng.choice(new)
            seen.add(cur ^ (1 << b))
            return b

        def inspector_click(key: str) -> None:
            """A bit of the inspected value: decode, conversions (+ the GPU's conversion row)."""
            cells = win.editor.cells
            pos = cells.cell_rect(walk_bit()).center().toPoint()
            before = win.ctl.conv_update_s
            t0 = time.perf_counter()
            QtTest.QTest.mouseClick(cells, QtCore.Qt.MouseButton.LeftButton, pos=pos)
            out[key].append(win.ctl.last_update_s - t0)
            _drain(app)  # deliver the repaints the edit scheduled
            out[key + "+paint"].append(time.perf_counter() - t0)
            if gpu_ok:
                if win.ctl.conv_in_flight:  # (not asked for while its tab is behind)
                    wait_until("conv_update_s", before)
                _drain(app)  # and painted
                out[key + "+gpu"].append(time.perf_counter() - t0)

        def row_click(key: str, bit: int) -> None:
            """A bit of the f16 row of the All formats panel: the inspected value becomes
            that f16 pattern (a format switch, every view), then back to f32 (not timed)."""
            row = win.all_formats.rows["f16"].cells
            prev = win.state.snapshot
            pos = row.cell_rect(bit).center().toPoint()
            before = win.ctl.conv_update_s
            t0 = time.perf_counter()
            QtTest.QTest.mouseClick(row, QtCore.Qt.MouseButton.LeftButton, pos=pos)
            out[key].append(win.ctl.last_update_s - t0)
            _drain(app)
            out[key + "+paint"].append(time.perf_counter() - t0)
            if gpu_ok:
                if win.ctl.conv_in_flight:
                    wait_until("conv_update_s", before)
                _drain(app)
                out[key + "+gpu"].append(time.perf_counter() - t0)
            stamp = win.ctl.conv_update_s  # read first: the row may land inside update()
            win.state.update(fmt=prev.fmt, bits=prev.bits)
            _drain(app)
            if gpu_ok and win.ctl.conv_in_flight:
                wait_until("conv_update_s", stamp)

        def cold() -> None:
            """Empty every answer kept per value: the UI's and the GPU rows."""
            bridge_ops.clear_caches()
            win.ctl.forget_gpu_rows()

        def idle() -> None:
            """Between a person's clicks: the short timers, and the neighbour prefetch
            (the GPU's part included) of the edit before, which a cold click's emptied
            caches then make useless, as a typed value's would."""
            _settle(app)
            deadline = time.perf_counter() + 2.0
            while (win.prefetch.busy() or (gpu_ok and not win.gpu.idle)) \
                    and time.perf_counter() < deadline:
                _settle(app, 5)

        for i in range(n):
            bit = bits[i % len(bits)]
            # 1) a bit of the inspected value, nothing computed ahead (as a typed value)
            idle()
            cold()
            inspector_click("cold inspector")
            # 1a) the next bit, after the idle moment a person leaves between clicks
            idle()
            inspector_click("inspector")
            # 1b) a bit of the f16 row of the All formats panel after the idle moment (its
            # neighbours were prefetched too), then the same cold
            idle()
            row_click("all-formats row", bit % 16)
            idle()
            cold()
            row_click("cold all-formats row", bit % 16)
            # 2) a bit of operand A: model result, window, rules, why (+ one GPU capture)
            idle()
            ed = win.ops_view.editors[0].cells
            pos = ed.cell_rect(bit).center().toPoint()
            cold()
            before = win.ctl.gpu_update_s
            t0 = time.perf_counter()
            QtTest.QTest.mouseClick(ed, QtCore.Qt.MouseButton.LeftButton, pos=pos)
            out["operand"].append(win.ctl.last_update_s - t0)
            _drain(app)
            out["operand+paint"].append(time.perf_counter() - t0)
            if gpu_ok:
                wait_until("gpu_update_s", before)
                _drain(app)
                out["operand+gpu"].append(time.perf_counter() - t0)
        out["gpu"] = [1.0] if gpu_ok else []
        out["renderer"] = [win.gpu.message] if win.gpu else ["GPU off"]  # type: ignore[list-item]
        out["layout"] = [win.layout_mode]  # type: ignore[list-item]
        from fpinspector.ui.qt_utils import is_seen

        out["conversions"] = [  # type: ignore[list-item]
            "seen: its GPU row is asked for on each edit" if is_seen(win.conversions_view)
            else "behind a tab: its GPU row is asked for when raised"]
        win.shutdown()
        win.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=100, help="clicks per measurement (default 100)")
    ap.add_argument("--start-runs", type=int, default=5, help="process starts of each kind")
    ap.add_argument("--no-gpu", action="store_true", help="no GPU worker (views alone)")
    ap.add_argument("--layout", choices=("wide", "compact"), default="",
                    help="only the dock layout of a big (1800x1000) or a small (1280x720) "
                         "window (default: both, the small one first)")
    add_arguments(ap, repeat=1)
    args = ap.parse_args()
    print_header("bench_ui_latency: a click to every view painted")
    goals = Goals()
    for layout in [args.layout] if args.layout else ["compact", "wide"]:
        lat = edit_latency(args.n, "off" if args.no_gpu else "auto", layout)
        print(f"platform: {os.environ.get('QT_QPA_PLATFORM')}, {lat['renderer'][0]}, layout "
              f"{lat['layout'][0]}, load average "
              f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"Conversions dock {lat['conversions'][0]}")
        for key in KEYS:
            xs = lat[key]
            if not xs:
                print(f"{key:>26}: (no GPU)")
                continue
            med, p95 = statistics.median(xs) * 1e3, _pct(xs, 0.95) * 1e3
            print(f"{key:>26}: median {med:6.2f} ms  p95 {p95:6.2f} ms  "
                  f"best {min(xs) * 1e3:6.2f} ms  (n={len(xs)})")
        for key in END_TO_END:
            xs = lat[key] or lat[key.replace("+gpu", "+paint")]  # (no GPU: views alone)
            if xs:
                goals.check(f"{layout} layout: {key} p95", _pct(xs, 0.95) * 1e3, GOAL_MS,
                            unit=" ms")
    if args.start_runs:
        bare, full = start_times(args.start_runs)
        b, f = min(bare), min(full)
        print(f"start (best of {args.start_runs}): bare PySide6 window {b * 1e3:.0f} ms, "
              f"fpinspector {f * 1e3:.0f} ms, ratio {f / b:.2f} (medians {statistics.median(bare) * 1e3:.0f}"
              f" / {statistics.median(full) * 1e3:.0f} ms)")
    return goals.exit_code(args.check)


if __name__ == "__main__":
    raise SystemExit(main())
