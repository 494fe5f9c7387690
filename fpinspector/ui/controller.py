"""Glue between the state and the views: pushes edits into the state, pulls changes into views.

Views never talk to each other; the controller reacts to the state's change events, asks the
model (through :mod:`bridge`) and the GPU worker, and hands the results to the views.
"""

from __future__ import annotations

import time

import numpy as np
from PySide6 import QtWidgets

from ..model.formats import CODE_FORMATS, FORMATS, get_format
from ..model.state import MAX_OPERANDS, STATE_PREFIX, InspectorState
from . import bridge, bridge_ops
from .carry import carry_operand
from .code_editor import parse_codes
from .gpu_codes import decode_note, decode_source
from .gpu_route import GpuConversions
from .gpu_worker import GpuRunner
from .qt_utils import signals_blocked

__all__ = ["Controller"]

#: Longest text a paste may hold: ~0.1 s of parsing, far more than any debugger dump of a few
#: values (and QLineEdit's own limit).
MAX_PASTE_CHARS = 32767
#: How long a state update waits (GIL released) for the GPU row it asked for, so a fast
#: GPU's answer is drawn in the same frame; a slower one arrives later as usual.
GPU_SAME_FRAME_S = 0.003
_OP_FIELDS = {"op", "op_format", "rule_set", "operands", "options"}


class Controller:
    """Owns the reactions of a :class:`MainWindow` to state changes and user edits."""

    def __init__(self, win: QtWidgets.QMainWindow) -> None:
        self.win = win
        self.state = win.state
        self.outcome: bridge_ops.OpOutcome | None = None
        self.gpu_result: tuple[str, int] | None = None
        self._gpu_req = 0
        self._conv_req = 0
        self._conv_pending = False
        self._gpu_decode: tuple[str | None, object] = (None, None)
        self.last_update_s = 0.0  # perf_counter when all views last finished updating
        self.gpu_update_s = 0.0  # perf_counter when the last GPU op result was shown
        self.conv_update_s = 0.0  # perf_counter when the GPU conversion row was last filled
        self.state.connect(self.on_state)
        w = win
        w.editor.bits_changed.connect(lambda b: self.state.update(bits=b))
        for ed in (w.editor, *w.ops_view.editors, *w.ops_view.code_editors):  # a drag over the bits is one undo step
            ed.edit_started.connect(self.state.begin_undo_group)
            ed.edit_finished.connect(self.state.end_undo_group)
        w.editor.error.connect(self._show_error)
        w.fmt_combo.currentTextChanged.connect(self.push_format)
        v = w.ops_view
        v.op_picked.connect(self.push_op)
        v.format_picked.connect(self.push_op_format)
        v.rules_picked.connect(lambda r: self.state.update(rule_set=r))
        v.options_picked.connect(lambda o: self.state.update(options=o))
        v.operand_edited.connect(self.state.set_operand)
        w.word_view.word_changed.connect(lambda word: self.state.update(word=word))
        w.history.recalled.connect(lambda f, b: self.state.update(fmt=f, bits=b))
        w.all_formats.picked.connect(lambda f, b: self.state.update(fmt=f, bits=b))
        w.all_formats.error.connect(self._show_error)
        w.all_formats.edit_started.connect(self.state.begin_undo_group)
        w.all_formats.edit_finished.connect(self.state.end_undo_group)
        w.paste_box.submitted.connect(self.paste)

    # -- pushes (widget -> state) ---------------------------------------------------
    def push_format(self, fmt: str) -> None:
        """Switch the inspected format, carrying the value over by the D3D conversion."""
        s = self.state.snapshot
        if fmt == s.fmt:
            return
        self.state.update(fmt=fmt, bits=self._carry(s.bits, s.fmt, fmt))

    def push_op_format(self, fmt: str) -> None:
        s = self.state.snapshot
        if not fmt or fmt == s.op_format or (fmt not in FORMATS and fmt not in CODE_FORMATS):
            return
        ops = [self._carry(b, s.op_format, fmt) for b in s.operands]
        self.state.update(op_format=fmt, operands=ops)

    def push_op(self, op: str) -> None:
        s = self.state.snapshot
        info = bridge_ops.op_infos().get(op)
        if info is None or op == s.op:
            return
        if s.op_format in info.formats:
            self.state.update(op=op)
            return
        fmt = info.formats[0]  # itof, from_unorm8, ...: an integer code type (code editors)
        ops = [self._carry(b, s.op_format, fmt) for b in s.operands]
        self.state.update(op=op, op_format=fmt, operands=ops)

    _carry = staticmethod(carry_operand)

    def paste(self, text: str) -> bool:
        """Paste text: a state string restores the view; values fill the inspector and A, B, C."""
        box = self.win.paste_box
        try:
            if len(text) > MAX_PASTE_CHARS:  # parsing megabytes would freeze the window
                raise ValueError(
                    f"too much text: {len(text):,} characters (at most {MAX_PASTE_CHARS:,}; "
                    f"the inspector takes one value and the operands at most {MAX_OPERANDS})")
            if text.strip().startswith(STATE_PREFIX):
                self.state.restore(InspectorState.snapshot_from_string(text))
                box.show_result("restored the pasted state")
                return True
            codes = parse_codes(self.state.op_format, text)  # itof & co: integer operands
            if codes is not None:
                return self._paste_codes(codes)
            items = bridge.parse_values(text)
        except ValueError as exc:
            box.show_error(str(exc))
            return False
        s = self.state.snapshot
        fmts = {it.fmt for it in items}
        with self.state.batch():
            self.state.update(fmt=items[0].fmt, bits=items[0].bits)
            if len(items) > 1:
                target = s.op_format
                info = bridge_ops.op_infos().get(s.op)
                if len(fmts) == 1 and (info is None or items[0].fmt in info.formats):
                    target = items[0].fmt
                ops = [self._carry(it.bits, it.fmt, target) for it in items[:MAX_OPERANDS]]
                ops += [self._carry(b, s.op_format, target) for b in s.operands[len(ops):]]
                self.state.update(op_format=target, operands=ops)
        names = "ABCDEFGH"
        where = "the inspector" if len(items) == 1 else "operands " + ", ".join(names[:len(items)])
        box.show_result(f"{len(items)} value(s) into {where}")
        return True

    def _paste_codes(self, codes: list[int]) -> bool:
        if len(codes) > MAX_OPERANDS:
            raise ValueError(f"{len(codes)} codes: the operands take at most {MAX_OPERANDS}")
        ops = list(self.state.operands)
        ops[:len(codes)] = codes
        self.state.update(operands=ops)
        self.win.paste_box.show_result(
            f"{len(codes)} {self.state.op_format} code(s) into operands {'ABCDEFGH'[:len(codes)]}")
        return True

    # -- pulls (state -> views) -----------------------------------------------------
    def refresh_all(self) -> None:
        self.on_state(frozenset(self.state.snapshot.__dataclass_fields__))

    def on_state(self, changed: frozenset) -> None:
        w, s = self.win, self.state.snapshot
        if {"fmt", "bits"} & changed:
            with signals_blocked(w.fmt_combo):
                w.fmt_combo.setCurrentText(s.fmt)
            if w.editor.fmt.name != s.fmt:
                w.editor.set_format(s.fmt)
            w.editor.set_bits(s.bits)
            self._send_gpu_conversions(s.fmt, s.bits)  # first: the GPU works while we draw
            conv = bridge.d3d_conversions(s.fmt, s.bits)
            w.value_panel.show_value(s.fmt, s.bits, conv)
            w.all_formats.show_value(s.fmt, s.bits, conv)
            w.conversions_view.show_value(s.fmt, s.bits)
            w.history.add(s.fmt, s.bits)
            self._show_gpu_pending()
        if "word" in changed:
            w.word_view.show_word(s.word)
        if _OP_FIELDS & changed:
            w.ops_view.show_state(s)
            self._evaluate()
            if s.op_format in FORMATS:  # ULP distances are between float patterns
                w.distance_view.show_pair(s.op_format, s.operands[0], s.operands[1])
        self.sync_undo_actions()
        if self._conv_pending and self.win.gpu is not None:
            self.win.gpu.deliver_ready(GPU_SAME_FRAME_S)  # the GPU row, if it is quick
        self.last_update_s = time.perf_counter()

    def sync_undo_actions(self) -> None:
        """Enable Undo/Redo only when the state has a step to go back/forward to."""
        undo, redo = getattr(self.win, "undo_action", None), getattr(self.win, "redo_action", None)
        if undo is not None:
            undo.setEnabled(self.state.can_undo())
        if redo is not None:
            redo.setEnabled(self.state.can_redo())

    def _evaluate(self) -> None:
        s, w = self.state.snapshot, self.win
        try:
            self.outcome = bridge_ops.evaluate(s.op, s.operands, s.op_format, s.rule_set, s.options)
        except ValueError as exc:
            self.outcome = None
            w.ops_view.show_outcome(None, str(exc))
            w.why_view.show_steps(f"{s.op}: no evaluation", [str(exc)])
        else:
            o = self.outcome
            w.ops_view.show_outcome(o)
            head = (f"<b>{s.op}</b> on {s.op_format} under <b>{s.rule_set}</b> → "
                    f"0x{o.bits:X} = {bridge_ops.result_text(o.result_format, o.bits)}")
            w.why_view.show_steps(head + f"<br>rules: {', '.join(o.rules) or 'none'}", o.steps)
        self.gpu_result = None
        if self.win.gpu is None:
            w.ops_view.show_gpu(None, None, None, w.status.text())
            return
        info = bridge_ops.op_infos().get(s.op)
        arity = info.arity if info else 2
        args, fmt = bridge_ops.operand_arrays(s.operands[:arity], s.op_format)
        self._gpu_decode = decode_source(s.op, s.op_format), args[0]
        if self._gpu_decode[0]:  # from_unorm8, ...: the sampler's hardware decode
            self._gpu_req = self.win.gpu.request_convert(args[0], self._gpu_decode[0], "f32")
        else:
            self._gpu_req = self.win.gpu.request(s.op, tuple(a.reshape(()) for a in args), fmt)

    def _send_gpu_conversions(self, fmt: str, bits: int) -> None:
        """Ask the GPU for its render-target row; any source goes through f32 (gpu_route).

        Sent before the views are redrawn so the capture overlaps the UI work."""
        gpu = self.win.gpu
        self._conv_pending = bool(gpu is not None and gpu.available)
        if self._conv_pending:
            f = get_format(fmt)
            self._conv_req = gpu.request_route(np.asarray([bits], dtype=f.dtype), f.name,
                                               tuple(d for d in FORMATS if d != f.name))

    def _show_gpu_pending(self) -> None:
        """The GPU row while its answer is on the way, or why there is none."""
        gpu, view = self.win.gpu, self.win.conversions_view
        if self._conv_pending:
            view.show_gpu({}, "", {d: "waiting for the GPU…" for d in FORMATS})
        else:
            note = gpu.message if gpu else "GPU off"
            view.show_gpu({}, note, {d: note for d in FORMATS})

    def _request_conversions(self, fmt: str, bits: int) -> None:
        self._send_gpu_conversions(fmt, bits)
        self._show_gpu_pending()

    # -- GPU ------------------------------------------------------------------------
    def attach_gpu(self, gpu: GpuRunner) -> None:
        gpu.ready.connect(self._gpu_ready)
        gpu.unavailable.connect(self._gpu_unavailable)
        gpu.captured.connect(self._gpu_captured)
        gpu.failed.connect(self._gpu_failed)
        gpu.switched.connect(lambda info: self._evaluate())  # the op again, on the new device

    def _gpu_ready(self, info: dict) -> None:
        self.win.status.setText(self.win.gpu.message if self.win.gpu else "GPU")
        self.win.status.setToolTip("\n".join(f"{k}: {v}" for k, v in info.items()))
        s = self.state.snapshot
        self._request_conversions(s.fmt, s.bits)

    def _gpu_unavailable(self, message: str) -> None:
        self.win.status.setText(message)
        self.win.ops_view.show_gpu(None, None, None, message)
        self.win.conversions_view.show_gpu({}, message)

    def _gpu_captured(self, req: int, out: object) -> None:
        if req == self._conv_req:
            if isinstance(out, GpuConversions):
                self.win.conversions_view.show_gpu(out.results, "", out.tips, out.route)
            else:
                self.win.conversions_view.show_gpu(out, "")
            self.conv_update_s = time.perf_counter()
            return
        if req != self._gpu_req:
            return  # stale
        arr = np.asarray(out).reshape(-1)
        o = self.outcome
        fmt = o.result_format if o is not None else self.state.snapshot.op_format
        bits = int(arr[0].view(np.uint32)) if arr.dtype == np.int32 else int(arr[0])
        try:
            verdict = o.judge(bits) if o is not None else None
        except ValueError as exc:
            verdict = None
            self.win.statusBar().showMessage(str(exc), 8000)
        diff = (bits ^ o.bits) if o is not None else 0
        self.gpu_result = (fmt, bits)
        note = self.win.status.text()
        if self._gpu_decode[0]:  # from_unorm8, ...: say how it was taken, name a deviation
            renderer = str((getattr(self.win.gpu, "info", None) or {}).get("renderer", ""))
            note = decode_note(renderer, *self._gpu_decode, bits, bool(diff), note)
        from ..gpu.fidelity import session_note  # lazy: the GPU layer loads with the worker

        mark = session_note(getattr(self.win.gpu, "info", None), fmt, bits)
        self.win.ops_view.show_gpu(fmt, bits, verdict, f"{note}\n⚠ {mark}" if mark else note, diff)
        self.gpu_update_s = time.perf_counter()

    def _gpu_failed(self, req: int, message: str) -> None:
        if req == self._conv_req:
            self.win.conversions_view.show_gpu({}, message)
            self.conv_update_s = time.perf_counter()
        elif req == self._gpu_req:
            self.win.ops_view.show_gpu(None, None, None, message)
            self.gpu_update_s = time.perf_counter()

    def _show_error(self, message: str) -> None:
        if message:
            self.win.statusBar().showMessage(message, 6000)
