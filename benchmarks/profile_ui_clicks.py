"""Where a click's time goes: the clicks of ``bench_ui_latency.py``, broken down.

For each kind of click (cold inspector, inspector, all-formats row, operand; the same
walk and idle moments as the benchmark) it prints:

* the wall time to every view updated, painted and the GPU's part shown (median, p95)
  and the UI thread's CPU time over the same window (``time.thread_time``: what the UI
  thread itself did, not the time it waited for the GIL or for a core);
* each state listener's time per click (the views' update code, the GPU adapter);
* with ``--events``: the time inside Qt's handling of paint, layout, resize and the other
  events a click causes, per widget class (an ``QApplication.notify`` override: it slows
  every event, so the totals are inflated; the counts and the shares are what to read);
  with ``--owners`` each widget is named by the project's view it sits in ("QScrollBar
  of QPlainTextEdit in ConversionsView"), each paint by the share of the widget it
  covered, and the paints of a click's second and later paint passes are marked; with
  ``--cpu`` the UI thread's CPU time instead of the wall time (``time.thread_time``: on
  a loaded machine the wall time of an event also holds the time the thread waited for
  a core, and a long event, a paint pass, catches more of that wait than a short one);
* the neighbour prefetch's model calls that ran inside the click windows;
* with ``--cprofile FILE``: cProfile of the click windows (``pstats`` file, the Python
  calls per click, a figure the load hardly moves, and the top functions printed).
* with ``--parts``: ``Controller._after_views`` part by part (:class:`_AfterViewsParts`)
  and the rule engine's evaluations per click;
* with ``--gpu``: the GPU's part of each click (:class:`_GpuParts`): the worker's jobs
  (count, wall and worker CPU time), the job time that fell inside the views' update (the
  worker holds the GIL through a job: the views wait for it), the UI thread's wait for
  the answer (``deliver_ready``, GIL released), the time to show the answer, and how many
  answers came in the same frame as the edit.

The machine is shared: the call counts and the shares are what hold under load, not the
milliseconds. Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python
benchmarks/profile_ui_clicks.py --layout compact -n 30``.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import io
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_ui_latency as bench  # noqa: E402
from PySide6 import QtCore, QtTest, QtWidgets  # noqa: E402

_WATCHED = ("Paint", "LayoutRequest", "Resize", "UpdateRequest", "MetaCall", "Timer",
            "Move", "Show", "Hide", "Polish", "ToolTipChange", "StyleChange", "FontChange")


class _Counting(QtWidgets.QApplication):
    """Times the events of :data:`_WATCHED` while ``active`` (per event name, widget class,
    and whether it was delivered inside another timed event)."""

    active = False

    owners = False  # name a widget by the project's view it sits in (``--owners``)

    clock = staticmethod(time.perf_counter)  # (``--cpu``: time.thread_time)

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.area: dict[tuple[str, str, bool], float] = collections.defaultdict(float)
        self.stats: dict[tuple[str, str, bool], list[float]] = collections.defaultdict(
            lambda: [0, 0.0])
        self.names = {getattr(QtCore.QEvent.Type, n): n for n in _WATCHED}
        self.depth = 0
        self.passes = 0  # the window's paint passes (UpdateRequests) in this click

    def notify(self, obj: QtCore.QObject, ev: QtCore.QEvent) -> bool:  # noqa: N802
        name = self.names.get(ev.type()) if self.active else None
        if name is None:
            return super().notify(obj, ev)
        if name == "UpdateRequest" and not self.depth:
            self.passes += 1
        self.depth += 1
        t0 = self.clock()
        try:
            return super().notify(obj, ev)
        finally:
            self.depth -= 1
            who = _owner(obj) if self.owners else type(obj).__name__
            if self.owners and self.passes > 1 and name == "Paint":
                who += " [a later pass]"
            key = (name, who, self.depth > 0)
            s = self.stats[key]
            s[0] += 1
            s[1] += self.clock() - t0
            if name == "Paint" and isinstance(obj, QtWidgets.QWidget):
                whole = max(1, obj.width() * obj.height())
                r = ev.rect()  # type: ignore[attr-defined]
                self.area[key] += min(1.0, r.width() * r.height() / whole)


class _AfterViewsParts:
    """``--parts``: what ``Controller._after_views`` spends a click on, part by part (the
    op's outcome, the GPU answers shown inside the edit, the Conversions GPU row as known,
    the layouts settled before the paint, Undo/Redo enabled, the rest), and the rule
    engine's evaluations per click (``bridge_ops`` and the raw inputs' module: a cache hit
    is none). Made before the window: the controller's listener is bound when it starts."""

    PARTS = ("op outcome", "GPU answers", "pending row", "settle layouts", "undo actions")

    def __init__(self) -> None:
        from fpinspector.model.engine import raw_inputs
        from fpinspector.ui import bridge_ops
        from fpinspector.ui.gpu import controller, gpu_worker

        self.where = ""  # the click kind while a click is timed, else ""
        self.inside = False  # in _after_views
        self.part = ""  # the part being timed
        self.now: dict[str, float] = collections.defaultdict(float)  # this click's parts
        self.parts: dict[tuple[str, str], list[float]] = collections.defaultdict(list)
        self.engine: collections.Counter = collections.Counter()
        ctl = controller.Controller
        wrap = self._part
        ctl._after_views = wrap("total", ctl._after_views, always=True)  # type: ignore[method-assign]
        ctl._show_gpu_pending = wrap("pending row", ctl._show_gpu_pending)  # type: ignore[method-assign]
        ctl.sync_undo_actions = wrap("undo actions", ctl.sync_undo_actions)  # type: ignore[method-assign]
        gpu_worker.GpuRunner.deliver_ready = wrap(  # type: ignore[method-assign]
            "GPU answers", gpu_worker.GpuRunner.deliver_ready)
        controller.settle_layouts = wrap("settle layouts", controller.settle_layouts)
        bridge_ops.evaluate = wrap("op outcome", bridge_ops.evaluate)  # type: ignore[assignment]
        bridge_ops.evaluate_op = self._counted(bridge_ops.evaluate_op)
        raw_inputs.evaluate = self._counted(raw_inputs.evaluate)  # type: ignore[assignment]

    def _part(self, name: str, fn, always: bool = False):  # type: ignore[no-untyped-def]
        """``fn`` timed as part ``name`` of a click's ``_after_views`` (``always``: the
        whole of it); a part inside another (the layouts an answer settles) is the
        outer one's."""
        def run(*a, **k):  # type: ignore[no-untyped-def]
            if not self.where or self.part or (not always and not self.inside):
                return fn(*a, **k)
            if always:
                self.inside = True
            else:
                self.part = name
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                self.now[name] += time.perf_counter() - t
                if always:
                    self.inside = False
                else:
                    self.part = ""

        if hasattr(fn, "cache_clear"):  # (bridge_ops.evaluate: its cache is emptied)
            run.cache_clear = fn.cache_clear  # type: ignore[attr-defined]
        return run

    def _counted(self, fn):  # type: ignore[no-untyped-def]
        def run(*a, **k):  # type: ignore[no-untyped-def]
            if self.where:
                self.engine[self.where] += 1
            return fn(*a, **k)

        return run

    def click_done(self) -> None:
        """Keep the click's parts (under ``where``) and start the next click's."""
        parts = [self.now.get(p, 0.0) for p in ("total", *self.PARTS)]
        for name, x in zip(("total", *self.PARTS, "rest"),
                           (*parts, parts[0] - sum(parts[1:]))):
            self.parts[(self.where, name)].append(x)
        self.now.clear()
        self.where = ""

    def report(self, clicks: dict[str, int]) -> None:
        print("Controller._after_views, ms per click (median, mean): total | "
              + " | ".join(self.PARTS) + " | rest; the rule engine's evaluations per click")
        for key, n in clicks.items():
            cells = " | ".join(
                f"{statistics.median(xs) * 1e3:4.2f} {statistics.mean(xs) * 1e3:4.2f}"
                for xs in (self.parts[(key, p)] or [0.0]
                           for p in ("total", *self.PARTS, "rest")))
            print(f"  {key:>16}: {cells}; {self.engine[key] / n:.2f}")


def _owner(obj: QtCore.QObject) -> str:
    """``obj``'s class, the scroll area it is part of (a viewport, a scroll bar) and the
    first class of the project above it (its view): "QScrollBar of QPlainTextEdit in
    ConversionsView"."""
    name = type(obj).__name__
    if type(obj).__module__.startswith("fpinspector"):
        return name
    area, up = "", obj.parent()
    while up is not None and not type(up).__module__.startswith("fpinspector"):
        if not area and isinstance(up, QtWidgets.QAbstractScrollArea):
            area = f" of {type(up).__name__}"
        up = up.parent()
    return name + area + (f" in {type(up).__name__}" if up is not None else "")


class _GpuParts:
    """Stamps of the GPU's part of the clicks: the worker's jobs (a conversion row, a
    capture), the runner's wait for the answer and the controller's showing of the
    answers. Only plain functions are wrapped (a wrapped slot of a QObject would be called
    on the emitting thread): made before the window, :meth:`watch` once its session is
    open."""

    def __init__(self) -> None:
        from fpinspector.ui.gpu import controller, gpu_worker

        self.jobs: list[tuple[float, float, float]] = []  # (start, end, worker CPU)
        self.waits: list[tuple[float, float, bool]] = []  # (start, wall, answered)
        self.shown: list[tuple[float, float]] = []  # (start, wall) of showing an answer
        deliver, shown = gpu_worker.GpuRunner.deliver_ready, controller.Controller._gpu_captured
        gpu_worker.convert_via_f32 = self._timed(gpu_worker.convert_via_f32)

        def timed_deliver(runner, wait_s=0.0):  # type: ignore[no-untyped-def]
            t, busy = time.perf_counter(), runner._busy
            ok = deliver(runner, wait_s)
            if busy:
                self.waits.append((t, time.perf_counter() - t, ok))
            return ok

        def timed_shown(ctl, req, out):  # type: ignore[no-untyped-def]
            t = time.perf_counter()
            shown(ctl, req, out)
            self.shown.append((t, time.perf_counter() - t))

        gpu_worker.GpuRunner.deliver_ready = timed_deliver  # type: ignore[method-assign]
        controller.Controller._gpu_captured = timed_shown  # type: ignore[method-assign]

    def _timed(self, fn):  # type: ignore[no-untyped-def]
        def run(*a, **k):  # type: ignore[no-untyped-def]
            t, c = time.perf_counter(), time.thread_time()
            try:
                return fn(*a, **k)
            finally:
                self.jobs.append((t, time.perf_counter(), time.thread_time() - c))

        return run

    def watch(self, runner) -> None:  # type: ignore[no-untyped-def]
        """Time the open session's captures too (an op's GPU result)."""
        session = getattr(runner._worker, "_session", None)
        if session is not None:
            session.capture = self._timed(session.capture)

    def click(self, t0: float, t1: float) -> tuple[int, float, float, float, float, float, int, int]:
        """For the click window [t0, t1]: (jobs, their wall, their worker CPU, job time
        inside the views' update, the UI's wait for the answer less showing it, showing
        the answers, answered inside the edit, waits)."""
        waits = [(s, w, ok) for s, w, ok in self.waits if t0 <= s <= t1]
        views_end = min((s for s, _, _ in waits), default=t1)  # (the wait follows the views)
        jobs = [j for j in self.jobs if t0 <= j[0] <= t1]
        during = sum(max(0.0, min(views_end, e) - max(t0, s)) for s, e, _ in self.jobs)
        shows = [w for s, w in self.shown if t0 <= s <= t1]
        shown_in_wait = sum(w for s, w in self.shown
                            if any(ws <= s <= ws + ww for ws, ww, _ in waits))
        return (len(jobs), sum(e - s for s, e, _ in jobs), sum(c for *_, c in jobs), during,
                sum(w for _, w, _ in waits) - shown_in_wait, sum(shows),
                sum(ok for *_, ok in waits), len(waits))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20, help="rounds of the four clicks")
    ap.add_argument("--layout", choices=("wide", "compact"), default="compact")
    ap.add_argument("--no-gpu", action="store_true")
    ap.add_argument("--events", action="store_true", help="time Qt's events per widget class")
    ap.add_argument("--owners", action="store_true",
                    help="with --events: per widget class and the view it sits in, and the "
                         "share of each widget a paint covered")
    ap.add_argument("--cpu", action="store_true",
                    help="with --events: the UI thread's CPU time in each event, not the wall "
                         "time (steadier under load)")
    ap.add_argument("--events-of", metavar="KIND", default="",
                    help="with --events or --cprofile: only the clicks of this kind (e.g. "
                         "'inspector')")
    ap.add_argument("--cprofile", metavar="FILE", help="cProfile of the click windows")
    ap.add_argument("--gpu", action="store_true", help="the GPU's part of each click")
    ap.add_argument("--parts", action="store_true",
                    help="Controller._after_views part by part, and engine calls per click")
    args = ap.parse_args()
    gpu_parts = _GpuParts() if args.gpu else None
    after_parts = _AfterViewsParts() if args.parts else None

    _Counting.owners = args.owners
    if args.cpu:
        _Counting.clock = staticmethod(time.thread_time)
    app = _Counting([]) if args.events else QtWidgets.QApplication([])
    from fpinspector.ui import bridge, bridge_ops
    from fpinspector.ui.shell import window_layout
    from fpinspector.ui.shell.app import MainWindow

    active = [False]
    where = [""]
    in_window: collections.Counter = collections.Counter()
    real_prefetch = bridge.prefetch_conversions

    def counted_prefetch(*a, **k):  # type: ignore[no-untyped-def]
        if active[0]:
            in_window[where[0]] += 1
        return real_prefetch(*a, **k)

    bridge.prefetch_conversions = counted_prefetch  # (the prefetch looks it up per call)
    # the model's rounding anatomies worked out inside the click windows (the Conversions
    # view's, or a prefetch step's); a tree without bridge.anatomy_text makes them in the
    # view itself, uncounted here
    anatomies: collections.Counter = collections.Counter()
    real_anatomy = getattr(bridge, "rounding_anatomy", None)
    if real_anatomy is not None:
        def counted_anatomy(*a, **k):  # type: ignore[no-untyped-def]
            if active[0]:
                anatomies[where[0]] += 1
            return real_anatomy(*a, **k)

        bridge.rounding_anatomy = counted_anatomy

    tmp = tempfile.TemporaryDirectory()
    settings = QtCore.QSettings(str(Path(tmp.name) / "s.ini"), QtCore.QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, restore=False, gpu="off" if args.no_gpu else "auto")
    size = QtCore.QSize(1800, 1000) if args.layout == "wide" else QtCore.QSize(1280, 720)
    win.resize(size)
    win.layout_mode = window_layout.arrange_docks(win, size)
    win.show()
    if win.gpu is not None:
        loop = QtCore.QEventLoop()
        win.gpu.ready.connect(loop.quit)
        win.gpu.unavailable.connect(loop.quit)
        QtCore.QTimer.singleShot(15000, loop.quit)
        loop.exec()
    gpu_ok = bool(win.gpu and win.gpu.available)
    if gpu_parts is not None and gpu_ok:
        gpu_parts.watch(win.gpu)
    bench._settle(app, 300)
    win.ctl.paste("0x00000001 3f800000")
    win.ops_view.op_combo.setCurrentText("mul")
    win.history.set_entries([("f32", 0x40000000 + k) for k in range(win.history.limit)])
    state = win.state

    listeners: dict[tuple[str, str], list[float]] = collections.defaultdict(lambda: [0, 0.0])

    def timed(fn):  # type: ignore[no-untyped-def]
        name = getattr(fn, "__qualname__", repr(fn))

        def run(changed: frozenset) -> None:
            t0 = time.perf_counter()
            fn(changed)
            if active[0]:
                x = listeners[(where[0], name)]
                x[0] += 1
                x[1] += time.perf_counter() - t0

        return run

    state._listeners[:] = [timed(f) for f in state._listeners]
    prof = cProfile.Profile() if args.cprofile else None
    bits = [0, 5, 12, 22, 23, 30, 31]
    rng = random.Random(2026)
    seen = {state.snapshot.bits}

    def walk_bit() -> int:
        cur = state.snapshot.bits
        new = ([b for b in bits if cur ^ (1 << b) not in seen]
               or [b for b in range(32) if cur ^ (1 << b) not in seen])
        b = rng.choice(new)
        seen.add(cur ^ (1 << b))
        return b

    def idle() -> None:
        bench._settle(app)
        deadline = time.perf_counter() + 2
        while (win.prefetch.busy() or (gpu_ok and not win.gpu.idle)) \
                and time.perf_counter() < deadline:
            bench._settle(app, 5)

    def cold() -> None:
        bridge_ops.clear_caches()
        win.ctl.forget_gpu_rows()

    def wait_until(stamp: str, before: float) -> None:
        deadline = time.perf_counter() + 2.0
        while getattr(win.ctl, stamp) == before and time.perf_counter() < deadline:
            el = QtCore.QEventLoop()
            QtCore.QTimer.singleShot(5, el.quit)
            el.exec()

    times: dict[str, list[tuple[float, float, float]]] = collections.defaultdict(list)
    gpu_times: dict[str, list[tuple]] = collections.defaultdict(list)

    def click(key: str, widget, bit: int, stamp: str, gpu_part) -> None:  # type: ignore[no-untyped-def]
        pos = widget.cell_rect(bit).center().toPoint()
        before = getattr(win.ctl, stamp)
        where[0] = key
        active[0] = True
        _Counting.active = not args.events_of or key == args.events_of
        if isinstance(app, _Counting):
            app.passes = 0
        if after_parts is not None:
            after_parts.where = key
        profiled = prof is not None and (not args.events_of or key == args.events_of)
        if profiled:
            prof.enable()
        c0, t0 = time.thread_time(), time.perf_counter()
        QtTest.QTest.mouseClick(widget, QtCore.Qt.MouseButton.LeftButton, pos=pos)
        bench._drain(app)
        t_paint = time.perf_counter() - t0
        if gpu_ok and gpu_part():
            wait_until(stamp, before)
        bench._drain(app)
        t_all, cpu = time.perf_counter() - t0, time.thread_time() - c0
        if profiled:
            prof.disable()
        active[0] = _Counting.active = False
        if after_parts is not None:
            after_parts.click_done()
        times[key].append((t_paint, t_all, cpu))
        if gpu_parts is not None:
            gpu_times[key].append(gpu_parts.click(t0, t0 + t_all))

    conv = lambda: win.ctl.conv_in_flight  # noqa: E731
    for i in range(args.n):
        bit = bits[i % len(bits)]
        idle()
        cold()
        click("cold inspector", win.editor.cells, walk_bit(), "conv_update_s", conv)
        idle()
        click("inspector", win.editor.cells, walk_bit(), "conv_update_s", conv)
        idle()
        prev = state.snapshot
        click("all-formats row", win.all_formats.rows["f16"].cells, bit % 16,
              "conv_update_s", conv)
        stamp = win.ctl.conv_update_s
        state.update(fmt=prev.fmt, bits=prev.bits)
        bench._drain(app)
        if gpu_ok and win.ctl.conv_in_flight:
            wait_until("conv_update_s", stamp)
        idle()
        cold()
        click("operand", win.ops_view.editors[0].cells, bit, "gpu_update_s", lambda: True)

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"layout {args.layout}, {win.gpu.message if win.gpu else 'GPU off'}, load {load}")
    for key, xs in times.items():
        print(f"{key:>16}: painted median {statistics.median(x[0] for x in xs) * 1e3:6.2f} "
              f"p95 {bench._pct([x[0] for x in xs], 0.95) * 1e3:6.2f} | +gpu median "
              f"{statistics.median(x[1] for x in xs) * 1e3:6.2f} p95 "
              f"{bench._pct([x[1] for x in xs], 0.95) * 1e3:6.2f} | UI thread CPU median "
              f"{statistics.median(x[2] for x in xs) * 1e3:6.2f} ms (n={len(xs)})")
    if gpu_parts is not None:
        print("the GPU's part, per click: jobs | job wall, worker CPU (medians) | job time "
              "inside the views' update, the UI's wait for the answer, showing it (means, ms)"
              " | answered inside the edit")
        for key, gs in gpu_times.items():
            jobs = [g for g in gs if g[0]]
            med = (lambda i: statistics.median(g[i] / g[0] for g in jobs) * 1e3) if jobs \
                else (lambda i: 0.0)
            mean = lambda i: statistics.mean(g[i] for g in gs) * 1e3  # noqa: E731
            print(f"  {key:>16}: {sum(g[0] for g in gs) / len(gs):4.2f} | {med(1):5.2f} "
                  f"{med(2):5.2f} | {mean(3):5.2f} {mean(4):5.2f} {mean(5):5.2f} | "
                  f"{sum(g[6] for g in gs)}/{sum(g[7] for g in gs)}")
    print("state listeners, ms per click:")
    for (key, name), (count, secs) in sorted(listeners.items(), key=lambda kv: (kv[0][0], -kv[1][1])):
        n = len(times[key])
        if secs / n > 5e-5:
            print(f"  {key:>16} {secs / n * 1e3:7.3f}  {name} ({count / n:.2f} calls)")
    if after_parts is not None:
        after_parts.report({k: len(v) for k, v in times.items()})
    print("prefetch model calls inside the click windows, per click:",
          {k: round(v / len(times[k]), 2) for k, v in in_window.items()} or "none")
    if real_anatomy is not None:
        print("rounding anatomies worked out inside the click windows, per click:",
              {k: round(v / len(times[k]), 2) for k, v in anatomies.items()} or "none")
    if args.events:
        clicks = (len(times[args.events_of]) if args.events_of
                  else sum(len(v) for v in times.values()))
        print(f"events (per click: count, ms {'of CPU ' if args.cpu else ''}inside Qt's "
              "handling; 'nested' = inside another"
              "; a paint's mean share of its widget)")
        for key, (count, secs) in sorted(app.stats.items(), key=lambda kv: -kv[1][1])[:40]:
            ev, cls, nested = key
            share = f" ({app.area[key] / count:.0%} of it)" if ev == "Paint" else ""
            print(f"  {count / clicks:6.2f} {secs / clicks * 1e3:7.3f}  {ev:14} {cls}"
                  f"{' (nested)' if nested else ''}{share}")
    if prof is not None:
        prof.dump_stats(args.cprofile)
        out = io.StringIO()
        stats = pstats.Stats(prof, stream=out)
        profiled = (len(times[args.events_of]) if args.events_of
                    else sum(len(v) for v in times.values()))
        calls = sum(v[1] for v in stats.stats.values())  # type: ignore[attr-defined]
        print(f"Python calls per profiled click ({args.events_of or 'every kind'}): "
              f"{calls / max(profiled, 1):.1f} (cProfile: hardly moves with the load; compare at the same -n)")
        stats.sort_stats("cumulative").print_stats(40)
        print(out.getvalue())
    win.shutdown()
    win.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
