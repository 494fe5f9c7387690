"""Convert the values one bit flip away (and the patterns just beside, the step buttons')
while the app is idle, so that a bit click (the app's main gesture) finds its conversions
computed; then the same for each row of the All formats panel, whose bits a click makes
the inspected value in that format (a format switch).

Why: an edit of the inspected value converts it about thirty ways (the Decode and All
formats panels' D3D conversions, the Conversions view's encoder variants), each a numpy
call on one element, about 2 ms of a wide window's edit. The model converts the 32 (f64:
64) neighbours in one call per conversion for about the cost of one value
(:func:`.bridge.prefetch_conversions`). Where the Conversions view can be seen, the GPU's
rows of the neighbours are then asked for in one job (``Controller.prefetch_gpu_rows``):
each edit's row otherwise costs a GPU round trip whose worker thread shares the
interpreter with the UI. The work runs in short steps after the edit is on screen, the
inspected value's neighbours first, the narrow rows' before the wide ones'; any new edit
starts over from its own value. It waits while the edit's own GPU answers are still to
come (``wait``), and starts an idle moment after they came: a step is a few ms of model
calls on the UI thread, and steps run between an edit and its GPU answer, or between the
answer and its paint, put them off by as much (on a loaded machine, where the answer came
after the idle moment, most clicks paid for several steps).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from PySide6 import QtCore, QtWidgets

from ...model.formats import get_format
from ...model.state import InspectorState
from .. import bridge
from ..qt_utils import is_seen

__all__ = ["NeighbourPrefetch", "IDLE_MS"]

#: Wait after an edit before the first step: its repaint comes first, and a drag over the
#: bits (an edit every few ms) only prefetches when it pauses.
IDLE_MS = 25
#: While the edit's GPU answers are still to come: look again this often, and give up
#: waiting (prefetch anyway) after ``MAX_WAIT_MS``, so a GPU that never answers (a hung
#: driver) does not leave every click unprefetched.
WAIT_POLL_MS = 4
MAX_WAIT_MS = 500
#: An idle wait whose timer fires more than this late was no idle moment: the event loop
#: was busy meanwhile (an edit whose views and paint took longer than ``IDLE_MS``, on a
#: loaded machine): the wait starts again, at most ``MAX_REARMS`` times an edit.
LATE_MS = 5
MAX_REARMS = 4
#: Anatomies per step (0.1-0.26 ms each): a step of about the D3D step's few ms.
ANATOMY_STEP = 8


class NeighbourPrefetch(QtCore.QObject):
    """After each change of the inspected value, one step per event-loop turn: the D3D
    conversions of the neighbours, then, while ``variants_view`` can be seen, each of
    ``variants``, the GPU's rows (``gpu_rows``, answered later) and the rounding anatomy
    of its selected cell (``variants_view.anatomy_conversion``, where it has one)."""

    def __init__(self, state: InspectorState, variants: list[str],
                 variants_view: QtWidgets.QWidget, parent: QtCore.QObject | None = None,
                 gpu_rows: Callable[[str, list[int]], None] | None = None,
                 wait: Callable[[], bool] | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.variants = [v for v in variants if v != "d3d"]
        self.view = variants_view
        self.gpu_rows = gpu_rows  # asks the GPU for the neighbours' rows (last: one job)
        self.wait = wait  # True while the edit's own answers (the GPU's) are to come
        self._waited_ms = 0
        self._due: float | None = None  # when the idle wait under way should end
        self._rearms = 0
        self._steps: Iterator[Callable[[], None]] | None = None
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._step)
        state.connect(self._pull)

    def _pull(self, changed: frozenset) -> None:
        if {"fmt", "bits"} & changed:
            s = self.state.snapshot
            self._steps = self._plan(s.fmt, s.bits)
            self._waited_ms = 0
            self._rearms = 0
            self._idle_wait()

    def _idle_wait(self) -> None:
        """The next step after an idle moment (``IDLE_MS``), checked when it ends."""
        self._due = time.monotonic() + IDLE_MS / 1000
        self._timer.start(IDLE_MS)

    def _was_busy(self) -> bool:
        """An idle wait just ended late (the loop was busy: the edit's own update and
        paint still ran when it was due) and is started again. Why: a step run then came
        right after (or before) the edit's paint, and on a loaded machine most slow
        clicks paid for a step of 2-3 ms."""
        due, self._due = self._due, None
        if due is None or self._rearms >= MAX_REARMS:
            return False
        if (time.monotonic() - due) * 1000 <= LATE_MS:
            return False
        self._rearms += 1
        self._idle_wait()
        return True

    def _plan(self, fmt: str, bits: int) -> Iterator[Callable[[], None]]:
        width = get_format(fmt).bits
        # one bit flipped (a click), and the patterns beside it (the step buttons)
        near = list(dict.fromkeys([bits ^ (1 << k) for k in range(width)]
                                  + [p for p in (bits - 1, bits + 1) if 0 <= p < 1 << width]))
        yield from self._converting(fmt, near)
        yield from self._anatomies(fmt, near)
        # one bit of an All formats row flipped: the row shows the value's D3D conversion
        # (kept: the panels asked for it; a format the model refused has no row to click)
        rows = bridge.d3d_conversions(fmt, bits)
        for dst in sorted(rows, key=lambda d: get_format(d).bits):
            row = rows[dst][0]
            yield from self._converting(dst, [row ^ (1 << k) for k in range(get_format(dst).bits)])

    def _converting(self, fmt: str, pats: list[int]) -> Iterator[Callable[[], None]]:
        """The steps for ``pats`` of ``fmt``: D3D, each variant and the GPU's rows (these
        two while the Conversions view can be seen: behind a tab it converts when raised)."""
        yield lambda: bridge.prefetch_conversions(fmt, pats, ["d3d"])
        for var in self.variants:
            if is_seen(self.view):
                yield lambda var=var: bridge.prefetch_conversions(fmt, pats, [var])
        if self.gpu_rows is not None and is_seen(self.view):
            gpu_rows = self.gpu_rows
            yield lambda: gpu_rows(fmt, pats)

    def _anatomies(self, fmt: str, pats: list[int]) -> Iterator[Callable[[], None]]:
        """Steps of ``ANATOMY_STEP`` patterns: the rounding anatomy the Conversions view
        shows (its selected cell's) of each of ``pats``, while the view can be seen. Why:
        it was the one model call left in a prefetched bit click (0.1-0.26 ms, scalar
        exact arithmetic: no batch, so in small steps)."""
        for i in range(0, len(pats), ANATOMY_STEP):
            shown = getattr(self.view, "anatomy_conversion", None)
            cell = shown() if shown is not None and is_seen(self.view) else None
            if cell is None:
                return
            yield lambda chunk=pats[i:i + ANATOMY_STEP], cell=cell: bridge.prefetch_anatomies(
                fmt, chunk, *cell)

    def _step(self) -> None:
        if self._steps is None or self._was_busy():
            return
        if self.wait is not None and self._waited_ms < MAX_WAIT_MS:
            if self.wait():
                self._waited_ms += WAIT_POLL_MS
                self._timer.start(WAIT_POLL_MS)
                return
            if self._waited_ms:  # they came: their paint first, then an idle moment
                self._waited_ms = MAX_WAIT_MS  # (this edit waits no more)
                self._idle_wait()
                return
        try:
            step = next(self._steps, None)
        except ValueError:  # (reading the rows' values: the plan cannot go on)
            step = None
        if step is None:
            self._steps = None
            return
        try:
            step()
        except ValueError:  # the model refused this batch: those edits convert (and
            pass  # explain) the value themselves; the other steps still run
        self._timer.start(0)

    def busy(self) -> bool:
        """Steps of the current value are still to run."""
        return self._steps is not None
