"""The Conversions view's own cost per value, alone in a window: UI-thread CPU of
``show_value`` and of the repaint it causes, for the bench's clicks.

Why a view alone: in the whole app a click's figure moves by more than a view's cut on a
shared machine (load 3-5); thread CPU of one view is the load-independent figure to compare
(two trees back to back: ``PYTHONPATH=<other tree>`` runs another tree's view with this
script).

Kinds (``--kind``):

* warm: f32 values a bit flip apart (bits 0, 5, 12, 22, 23, 30, 31, as
  ``bench_ui_latency.py`` walks), each value's conversions and its anatomy computed ahead
  (as the app's neighbour prefetch does between clicks);
* cold: the same walk with every per-value cache emptied before each value (a typed or
  pasted value);
* switch: f32 -> f16 (an All formats row click: the f16 row's pattern with one bit
  flipped), computed ahead, timed on the f16 value.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/profile_conversions_view.py
--width 1000 --kind warm`` (1000 px: side by side; 600 px: one above the other);
``--calls`` counts what each value's update asks for instead of timing it.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtWidgets  # noqa: E402

WALK_BITS = (0, 5, 12, 22, 23, 30, 31)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--width", type=int, default=1000)
    ap.add_argument("--kind", choices=("warm", "cold", "switch"), default="warm")
    ap.add_argument("-n", type=int, default=300, help="values timed")
    ap.add_argument("--calls", action="store_true",
                    help="count calls per value instead (cProfile: load-independent)")
    args = ap.parse_args()
    app = QtWidgets.QApplication([])
    from fpinspector.model.convert import VARIANTS
    from fpinspector.ui import bridge, bridge_ops
    from fpinspector.ui.inspector.conversions_view import ConversionsView

    view = ConversionsView()
    view.resize(args.width, 500)
    view.show()
    app.processEvents()
    x = 0x3FC00000
    view.show_value("f32", x)
    app.processEvents()
    rng = random.Random(7)
    update, painted = [], []
    prof = cProfile.Profile() if args.calls else None
    for _ in range(args.n):
        x ^= 1 << rng.choice(WALK_BITS)
        src, bits = "f32", x
        if args.kind == "cold":
            bridge_ops.clear_caches()
        else:
            bridge.prefetch_conversions("f32", [x], list(VARIANTS))
            # the anatomy too, as the app's prefetch (a tree before 2026-11-28 has none)
            if hasattr(bridge, "prefetch_anatomies"):
                bridge.prefetch_anatomies("f32", [x], *view.anatomy_conversion())
        if args.kind == "switch":
            src = "f16"
            bits = bridge.d3d_conversions("f32", x)["f16"][0] ^ (1 << rng.randrange(16))
            bridge.prefetch_conversions("f16", [bits], list(VARIANTS))
            view.show_value("f32", x)
            app.processEvents()
        if prof is not None:
            prof.enable()
        c0 = time.thread_time()
        view.show_value(src, bits)
        c1 = time.thread_time()
        if prof is not None:
            prof.disable()
        app.processEvents()
        c2 = time.thread_time()
        update.append(c1 - c0)
        painted.append(c2 - c0)
    if prof is not None:
        _print_calls(pstats.Stats(prof), args)
        return
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"{args.kind} at {args.width} px: update {statistics.median(update) * 1e3:.3f} ms, "
          f"update + paint {statistics.median(painted) * 1e3:.3f} ms (UI-thread CPU, median "
          f"of {args.n}), load {load}")


#: What a value's update asks for, by the name cProfile gives it.
_COUNTED = {"calls": "", "shortest decimals (bridge.value_text)": "value_text",
            "table items asked for (QTableWidget.item)": "'item' of",
            "texts measured (horizontalAdvance)": "horizontalAdvance",
            "item texts set": "'setText' of 'PySide6.QtWidgets.QTableWidgetItem"}


def _print_calls(stats: pstats.Stats, args: argparse.Namespace) -> None:
    print(f"{args.kind} at {args.width} px, per value (mean of {args.n}):")
    for what, name in _COUNTED.items():
        n = sum(v[1] for k, v in stats.stats.items() if name in k[2])  # type: ignore[attr-defined]
        print(f"  {n / args.n:8.1f}  {what}")


if __name__ == "__main__":
    main()
