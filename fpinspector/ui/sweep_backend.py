"""The sweep panel's backend: every op a map can show, including mad (A x B with C fixed)
and the ops on integer codes (itof, utof, from_unorm8, ...), with the GPU's own reason
when it cannot capture an op.

Why a UI-side subclass: :class:`fpinspector.gpu.sweep_capture.SweepBackend` lists 1- and
2-operand ops on float formats; the model side (``ModelStage(fixed=...)``,
``CODE_FORMATS``) already sweeps the rest, so the panel only needs to ask for it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..gpu.sweep_capture import SweepBackend, device_meta
from ..model.engine import OPS
from ..model.formats import CODE_FORMATS
from ..model.sweep.stages import (
    ModelStage,
    engine_format,
    op_arity,
    operand_format_of,
    result_format_of,
)

__all__ = ["PanelSweepBackend", "parse_fixed", "default_domain"]


def parse_fixed(text: str, fmt: str) -> np.ndarray:
    """One value or pattern (``1.5``, ``0x3F800000``) as a 0-d ``fmt`` pattern array.

    Raises ``ValueError`` with a readable message for empty text, several values or a
    value the parser cannot read.
    """
    from ..model.formats import get_format  # noqa: PLC0415
    from ..model.parse import parse  # noqa: PLC0415

    if not text.strip():
        raise ValueError("C is empty: give one value or pattern, e.g. 1.5 or 0x3F800000")
    vals = parse(text, fmt)
    if len(vals) != 1:
        raise ValueError(f"C takes one value, got {len(vals)} in {text!r}")
    return np.asarray(vals[0].bits, dtype=get_format(fmt).dtype)


def default_domain(fmt: str) -> str:
    """A first domain for an operand type: every code of 8/16-bit codes, a window of
    32-bit integers (2^32 codes would be a long sweep), a log range of floats."""
    code = CODE_FORMATS.get(fmt)
    if code is None:
        return "log:1e-40:1e3:512"
    if code.bits <= 16:
        return "all"
    return f"bits:{max(code.lo, -32768)}:{min(code.hi, 65535 if not code.signed else 32767)}"


class PanelSweepBackend(SweepBackend):
    """:class:`SweepBackend` plus 3-operand ops with fixed trailing operands and code ops."""

    def ops(self) -> list[str]:
        """Ops a map can show: one or two swept operands, and mad (C fixed)."""
        return sorted(n for n, s in OPS.items() if s.arity in (1, 2, 3))

    def operand_format(self, op: str, fmt: str) -> str:
        """The operand type swept for ``op``: ``fmt``, or the code type the op takes."""
        return operand_format_of(op, fmt)

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
            why = self._reason(op, engine_format(fmt))
            if why:
                raise ValueError(f"GPU: {why} (untick GPU to sweep the model alone)")
            meta.update(device_meta(cap.info))
        stage = ModelStage(op, fmt, rules, gpu=cap, fixed=fixed)
        return stage, result_format_of(op, fmt, rules), meta

    def _reason(self, op: str, fmt: str) -> str | None:
        """The session's own reason on the capture thread (where its GL context lives)."""
        cap = self._gpu
        session = getattr(cap, "session", None)
        pool = getattr(cap, "_pool", None)  # GpuCapture keeps GL calls on its one thread
        if session is not None and pool is not None and hasattr(session, "unsupported_reason"):
            return pool.submit(session.unsupported_reason, op, fmt).result()
        return None if cap.supports(op, fmt) else f"this GPU cannot capture {op} on {fmt}"
