"""The main window's GPU adapter: it listens to the same state as the views and asks the GPU
worker again only when a field it uses changed (STYLE.md 6), then hands the GPU's answers,
judged by the model, to the views that show them.

The views bind the state themselves; what is left here is what spans them: the GPU
requests (sent before the views redraw, so the capture overlaps the UI work), the GPU
results, Undo/Redo enabled, and the time stamps the latency benchmark reads.
"""

from __future__ import annotations

import time

import numpy as np
from PySide6 import QtCore, QtWidgets

from ...gpu.code_decode import decode_note, decode_source
from ...gpu.conversion_route import BATCHED, GpuConversions, route_text
from ...model.formats import FORMATS, get_format
from ...model.send import Activate, Message, deliver
from ...model.state import OP_FIELDS, Snapshot
from .. import bridge_ops
from ..memo import Memo
from ..qt_utils import is_seen, settle_layouts
from .gpu_worker import GpuRunner

__all__ = ["Controller"]

#: How long a state update waits (GIL released) for the GPU answer it asked for (the
#: Conversions row, the op's result), so a fast GPU's answer is drawn in the same frame as
#: the edit instead of in a second one; a slower one arrives later as usual.
GPU_SAME_FRAME_S = 0.003
_ALL = frozenset(Snapshot.__dataclass_fields__)


class Controller:
    """GPU requests and results for a main window (``win``: ops_view, conversions_view,
    status, gpu and the Undo/Redo actions).

    Create it before the views (its request listener then runs first) and call
    :meth:`start` after them.
    """

    def __init__(self, win: QtWidgets.QMainWindow) -> None:
        self.win = win
        self.state = win.state
        self.outcome: bridge_ops.OpOutcome | None = None
        self.gpu_result: tuple[str, int] | None = None
        self._gpu_req = 0
        self._gpu_answered = True  # the GPU answered (a result or why not) _gpu_req
        self._conv_req = 0
        self._conv_pending = False  # asked the GPU for the row of the current value
        self._conv_deferred = False  # the row is behind another tab: asked for when raised
        self._gpu_decode: tuple[str | None, object] = (None, None)
        #: this GPU's conversion rows, (fmt, bits) -> GpuConversions: the values shown, and
        #: their neighbours asked for ahead (:meth:`prefetch_gpu_rows`); emptied when a
        #: session opens (a device switch included)
        self._rows = Memo(1024)
        self._conv_key: tuple[str, int] | None = None  # the value _conv_req asked for
        self._conv_kept: GpuConversions | None = None  # its row, kept: shown, not asked for
        self._ahead_req = 0
        self._ahead: tuple[str, list[int]] = ("", [])  # the batch _ahead_req asked for
        self._ahead_queue: list[tuple[str, list[int]]] = []  # batches asked for after it
        self.last_update_s = 0.0  # perf_counter when all views last finished updating
        self.gpu_update_s = 0.0  # perf_counter when the last GPU op result was shown
        self.conv_update_s = 0.0  # perf_counter when the GPU conversion row was last filled
        self.state.connect(self._request)

    def start(self) -> None:
        """Listen after the views too, and show the current state's GPU rows."""
        self.state.connect(self._after_views)
        # the Conversions tab raised: its GPU row (queued after the view's own catch-up)
        self.win.docks["conversions"].visibilityChanged.connect(
            lambda shown: shown and QtCore.QTimer.singleShot(0, self._conversions_shown))
        self._request(_ALL, in_change=False)
        self._after_views(_ALL)

    @property
    def conv_in_flight(self) -> bool:
        """The GPU row of the current value was asked for and is not shown yet."""
        return self._conv_pending

    def answers_pending(self) -> bool:
        """The GPU's answers to the last edit (its conversion row, its op result) are not
        all shown yet: the idle work (the neighbour prefetch) waits for them."""
        return self._conv_pending or not self._gpu_answered

    def paste(self, text: str) -> bool:
        """Paste ``text`` as if typed into the paste box (its message says what happened)."""
        return self.win.paste_box.paste(text)

    def receive(self, request: Message | Activate) -> tuple[bool, str]:
        """A value sent from a debugger or ``fpinspector send`` (``ui/value_channel.py``):
        into the state as a paste is (``model/send/deliver.py``: one undo step, one History
        entry), its message where a paste's shows, the window raised; a second launch's
        activation raises the window and pastes its values. (ok, the sender's answer)."""
        win, box = self.win, self.win.paste_box
        if isinstance(request, Activate):
            _raise_window(win)
            text = " ".join(request.argv)
            if not text.strip():
                return True, "the running app was raised"
            ok = self.paste(text)
            return ok, box.message.message()
        if box.busy():  # a long paste is read on a thread: it would land over the value
            return False, "the app is still reading a long paste; send again in a moment"
        try:
            text = deliver(self.state, request)
        except ValueError as exc:
            box.show_error(str(exc), prefix="Cannot take the sent value: ")
            return False, str(exc)
        box.clear_readings()  # the last paste's other readings are not this value's
        box.show_result(text)
        _raise_window(win)
        return True, text

    # -- state -> GPU, before the views redraw ----------------------------------------
    def _request(self, changed: frozenset, in_change: bool = True) -> None:
        """Ask the GPU for what ``changed`` changed: the op's result first (it is what an
        operand edit watches, a capture of a fraction of a millisecond), then the
        inspected value's conversion row (a linked operand's edit asks for both).
        ``in_change``: called as a listener of the state's change (the picker then
        refreshes on that change itself)."""
        s = self.state.snapshot
        if OP_FIELDS & changed:
            self.gpu_result = None
            follow = getattr(self.state, "follow_gpu", None)
            if follow is not None:
                follow(None, None, notify=not in_change)
            self._send_gpu_op(s)
        if {"fmt", "bits"} & changed:
            self._ahead_queue.clear()  # the old value's neighbourhood: the new one's comes
            self._send_gpu_conversions(s.fmt, s.bits)

    def _send_gpu_conversions(self, fmt: str, bits: int) -> None:
        """Ask the GPU for its render-target row; any source goes through f32 (gpu_route).

        Only while the row can be seen: behind another dock tab it is asked for when the
        tab is raised (each request is a GPU round trip on every edit, and its worker
        thread shares the interpreter with the UI)."""
        gpu = self.win.gpu
        available = bool(gpu is not None and gpu.available)
        seen = is_seen(self.win.conversions_view)
        self._conv_kept = None
        self._conv_pending, self._conv_deferred = available and seen, available and not seen
        if self._conv_deferred:
            self._conv_req = 0  # (an answer still on the way is for an older value)
        if self._conv_pending:
            f = get_format(fmt)
            self._conv_key = (f.name, int(bits))
            self._conv_kept = self._rows.get(self._conv_key)
            if self._conv_kept is not None:  # no round trip (an older answer is stale)
                self._conv_pending, self._conv_req = False, 0
                return
            self._conv_req = gpu.request_route(np.asarray([bits], dtype=f.dtype), f.name,
                                               tuple(d for d in FORMATS if d != f.name))

    def prefetch_gpu_rows(self, fmt: str, patterns: list[int]) -> None:
        """Ask the GPU, in one job after any other, for the conversion rows of
        ``patterns`` not kept yet; each is kept as it comes, and an edit to one of them
        shows it at once (the neighbour prefetch calls this while the app is idle).

        One such job at a time: a batch asked for while one runs waits for it, and an edit
        drops the batches still waiting (its own prefetch asks for its neighbourhood)."""
        gpu, f = self.win.gpu, get_format(fmt)
        if (gpu is None or not gpu.available or f.name not in BATCHED
                or not is_seen(self.win.conversions_view)):
            return
        self._ahead_queue.append((f.name, [int(b) for b in patterns]))
        self._send_ahead()

    def _send_ahead(self) -> None:
        gpu = self.win.gpu
        while not self._ahead_req and self._ahead_queue and gpu is not None and gpu.available:
            fmt, pats = self._ahead_queue.pop(0)
            todo = [b for b in pats if self._rows.get((fmt, b)) is None]  # (some came since)
            if todo:
                self._ahead = (fmt, todo)
                self._ahead_req = gpu.request_route(
                    np.asarray(todo, dtype=get_format(fmt).dtype), fmt,
                    tuple(d for d in FORMATS if d != fmt), ahead=True)

    def _send_gpu_op(self, s: Snapshot) -> None:
        gpu = self.win.gpu
        if gpu is None:
            return
        spec = bridge_ops.op_infos().get(s.op)
        args, fmt = bridge_ops.operand_arrays(s.operands[:spec.arity if spec else 2], s.op_format)
        self._gpu_decode = decode_source(s.op, s.op_format), args[0]
        self._gpu_answered = gpu.available is False  # (then its message stands)
        if self._gpu_decode[0]:  # from_unorm8, ...: the sampler's hardware decode
            self._gpu_req = gpu.request_convert(args[0], self._gpu_decode[0], "f32")
        else:
            self._gpu_req = gpu.request(s.op, tuple(a.reshape(()) for a in args), fmt)

    # -- after the views redrew ---------------------------------------------------------
    def _after_views(self, changed: frozenset) -> None:
        s, w = self.state.snapshot, self.win
        new_value = bool({"fmt", "bits"} & changed)
        asked = self._conv_pending
        if OP_FIELDS & changed:
            try:  # the views asked first: this is the cached outcome they show
                self.outcome = bridge_ops.evaluate(s.op, s.operands, s.op_format, s.rule_set,
                                                   s.options)
            except ValueError:
                self.outcome = None
            if w.gpu is None:
                w.ops_view.show_gpu(None, None, None, w.status.text())
        self.sync_undo_actions()
        if w.gpu is not None and (self._conv_pending or OP_FIELDS & changed):
            w.gpu.deliver_ready(GPU_SAME_FRAME_S)  # the GPU's answer, if it is quick
        settled = getattr(self.state, "gpu_settled", None)
        if settled is not None:  # no answer inside the change: the picker says so now
            settled()
        if w.gpu is not None and {"op", "op_format"} & changed and not self._gpu_answered:
            # another op: the last op's GPU result and verdict must not stand beside it
            # (an operand edit keeps them until its answer: no flicker on every edit)
            w.ops_view.show_gpu(None, None, None, "waiting for the GPU…")
        if new_value and not (asked and not self._conv_pending):  # (unless it just came)
            self._show_gpu_pending()
        settle_layouts()  # (one paint for the edit, not one per layout level)
        self.last_update_s = time.perf_counter()

    def sync_undo_actions(self) -> None:
        """Enable Undo/Redo only when the state has a step to go back/forward to."""
        self.win.undo_action.setEnabled(self.state.can_undo())
        self.win.redo_action.setEnabled(self.state.can_redo())

    def _conversions_shown(self) -> None:
        """The Conversions tab came to the front: ask for the row it missed."""
        if self._conv_deferred and is_seen(self.win.conversions_view):
            s = self.state.snapshot
            self._send_gpu_conversions(s.fmt, s.bits)
            self._show_gpu_pending()

    def _show_gpu_pending(self) -> None:
        """The GPU row as known now: kept from before, or waiting for its answer (with the
        route it will come by: the note and header stay as they are, nothing is laid out
        again), or why there is none."""
        gpu, view = self.win.gpu, self.win.conversions_view
        kept, self._conv_kept = self._conv_kept, None
        if kept is not None:
            view.show_gpu(kept.results, "", kept.tips, kept.route)
            self.conv_update_s = time.perf_counter()
        elif self._conv_pending or self._conv_deferred:
            view.show_gpu({}, "", {d: "waiting for the GPU…" for d in FORMATS},
                          route_text(self.state.snapshot.fmt))
        else:
            note = gpu.message if gpu else "GPU off"
            view.show_gpu({}, note, {d: note for d in FORMATS})

    # -- GPU -> views ---------------------------------------------------------------------
    def attach_gpu(self, gpu: GpuRunner) -> None:
        gpu.ready.connect(self._gpu_ready)
        gpu.unavailable.connect(self._gpu_unavailable)
        gpu.captured.connect(self._gpu_captured)
        gpu.failed.connect(self._gpu_failed)
        # the op, on the new device (outside a state change: the picker is told here)
        gpu.switched.connect(lambda info: self._request(OP_FIELDS, in_change=False))

    def _gpu_ready(self, info: dict) -> None:
        self.forget_gpu_rows()  # (a new session: maybe another device)
        self.win.status.setText(self.win.gpu.message if self.win.gpu else "GPU")
        self.win.status.setToolTip("\n".join(f"{k}: {v}" for k, v in info.items()))
        s = self.state.snapshot
        self._send_gpu_conversions(s.fmt, s.bits)
        self._show_gpu_pending()

    def _gpu_unavailable(self, message: str) -> None:
        self.forget_gpu_rows()
        self.win.status.setText(message)
        self.win.ops_view.show_gpu(None, None, None, message)
        self.win.conversions_view.show_gpu({}, message)

    def forget_gpu_rows(self) -> None:
        """Drop the GPU rows kept per value (a new session; the latency benchmark's cold
        clicks)."""
        self._rows.clear()
        self._ahead_queue.clear()
        self._conv_kept, self._ahead_req = None, 0

    def _gpu_captured(self, req: int, out: object) -> None:
        if req == self._ahead_req:
            self._ahead_req = 0
            if isinstance(out, GpuConversions):
                fmt, todo = self._ahead
                for i, b in enumerate(todo):
                    self._rows.put((fmt, b), out.element(i))
            self._send_ahead()
            return
        if req == self._conv_req:
            self._conv_pending = False
            if isinstance(out, GpuConversions) and self._conv_key is not None:
                self._rows.put(self._conv_key, out)
            if isinstance(out, GpuConversions):
                self.win.conversions_view.show_gpu(out.results, "", out.tips, out.route)
            else:
                self.win.conversions_view.show_gpu(out, "")
            settle_layouts()
            self.conv_update_s = time.perf_counter()
            return
        if req != self._gpu_req:
            return  # stale
        self._gpu_answered = True
        arr = np.asarray(out).reshape(-1)
        o = self.outcome
        fmt = o.result_format if o is not None else self.state.snapshot.op_format
        bits = int(arr[0].view(np.uint32)) if arr.dtype == np.int32 else int(arr[0])
        try:
            verdict = o.verdict(bits) if o is not None else None
        except ValueError as exc:
            verdict = None
            self.win.statusBar().showMessage(str(exc), 8000)
        diff = (bits ^ o.bits) if o is not None else 0
        self.gpu_result = (fmt, bits)
        follow = getattr(self.state, "follow_gpu", None)
        if follow is not None:  # the GPU result, where it is the value inspected
            follow(fmt, bits)
        note = self.win.status.text()
        if self._gpu_decode[0]:  # from_unorm8, ...: say how it was taken, name a deviation
            renderer = str((self.win.gpu.info if self.win.gpu else {}).get("renderer", ""))
            note = decode_note(renderer, *self._gpu_decode, bits, bool(diff), note)
        from ...gpu.fidelity import session_note  # lazy: the GPU layer loads with the worker

        mark = session_note(getattr(self.win.gpu, "info", None), fmt, bits)
        self.win.ops_view.show_gpu(fmt, bits, verdict, f"{note}\n⚠ {mark}" if mark else note, diff)
        settle_layouts()
        self.gpu_update_s = time.perf_counter()

    def _gpu_failed(self, req: int, message: str) -> None:
        if req == self._ahead_req:  # (each value is asked for alone when it is shown)
            self._ahead_req = 0
            self._send_ahead()
        elif req == self._conv_req:
            self._conv_pending = False
            self.win.conversions_view.show_gpu({}, message)
            settle_layouts()
            self.conv_update_s = time.perf_counter()
        elif req == self._gpu_req:
            self._gpu_answered = True
            self.win.ops_view.show_gpu(None, None, None, message)
            settle_layouts()
            self.gpu_update_s = time.perf_counter()


def _raise_window(win: QtWidgets.QWidget) -> None:
    """Bring the window to the front (the platform may only flash it in the task bar)."""
    if win.isMinimized():
        win.showNormal()
    win.raise_()
    win.activateWindow()
