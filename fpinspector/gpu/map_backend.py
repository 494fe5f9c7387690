"""The sweep panel's backend: every op a map can show, including mad (A x B with C fixed)
and the ops on integer codes (itof, utof, from_unorm8, ...), with the GPU's own reason
when it cannot capture an op.

Why a UI-side subclass: :class:`fpinspector.gpu.sweep_capture.SweepBackend` lists 1- and
2-operand ops on float formats; the model side (``SweepPlan``, ``ModelStage(fixed=...)``)
already sweeps the rest, so the panel only needs to ask for it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model.sweep.plan import sweepable_ops
from ..model.sweep.stages import ModelStage, engine_format, op_arity, result_format_of
from .sweep_capture import SweepBackend, device_meta

__all__ = ["PanelSweepBackend"]


class PanelSweepBackend(SweepBackend):
    """:class:`SweepBackend` plus 3-operand ops with fixed trailing operands and code ops."""

    def ops(self) -> list[str]:
        """Ops a map can show: one or two swept operands, and mad (C fixed)."""
        return sweepable_ops()

    def make(self, op: str, fmt: str, rules: str, gpu: bool,
             fixed: tuple[np.ndarray, ...] = ()) -> tuple[Any, str, dict[str, Any]]:
        """(stage, result format, extra metadata); ValueError when it cannot be done.

        ``fixed`` are trailing operands held constant (C of mad). A GPU that cannot
        capture the op says why (``GpuSession.unsupported_reason``).
        """
        if op_arity(op) - len(fixed) not in (1, 2):
            raise ValueError(f"{op} takes {op_arity(op)} operands: a map sweeps 1 or 2 of them")
        meta: dict[str, Any] = {}
        cap = None
        if gpu:
            cap = self.capture()  # the app's selected device (reopened after a switch)
            why = self._reason(cap, op, engine_format(fmt))
            if why:
                raise ValueError(f"GPU: {why} (untick GPU to sweep the model alone)")
            meta.update(device_meta(cap.info))
        stage = ModelStage(op, fmt, rules, gpu=cap, fixed=fixed)
        return stage, result_format_of(op, fmt, rules), meta

    @staticmethod
    def _reason(cap: Any, op: str, fmt: str) -> str | None:
        """The session's own reason on the capture thread (where its GL context lives), or
        whether it can at all (captures without a session here: child processes, tests)."""
        session = getattr(cap, "session", None)
        pool = getattr(cap, "_pool", None)  # GpuCapture keeps GL calls on its one thread
        if session is not None and pool is not None and hasattr(session, "unsupported_reason"):
            return pool.submit(session.unsupported_reason, op, fmt).result()
        return None if cap.supports(op, fmt) else f"this GPU cannot capture {op} on {fmt}"
