"""The error map fills while a sweep runs: chunks are drawn as they finish.

Why: a user should "watch it fill"; the runner hands back the result only at
the end, so a wrapper around the stage copies each finished chunk's error column aside
(on the sweep thread) and the UI thread draws what has arrived on a timer. Cells not yet
computed are NaN, which the image shows as transparent.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .error_map import signed_log

__all__ = ["LiveChunks", "draw_partial"]


class LiveChunks:
    """Collects ``(k0, error values)`` of each chunk a stage finishes.

    Parameters
    ----------
    column : str
        The error column to keep (``err_model``, ``err_gpu``, ``err_gpu_model``).

    Notes
    -----
    Element offsets are counted in call order, so the sweep must evaluate its chunks in
    order on one stage thread (``run_sweep(..., workers=1)``, what the panel uses).
    """

    def __init__(self, column: str) -> None:
        self.column = column
        self._lock = threading.Lock()
        self._chunks: list[tuple[int, np.ndarray]] = []
        self._next = 0

    def wrap(self, stage: Callable[[tuple[np.ndarray, ...]], Mapping[str, Any]]
             ) -> Callable[[tuple[np.ndarray, ...]], Mapping[str, Any]]:
        """``stage`` that also records its chunk's error column (a copy)."""

        def live(operands: tuple[np.ndarray, ...]) -> Mapping[str, Any]:
            out = stage(operands)
            n = len(operands[0]) if operands else 0
            col = out.get(self.column)
            with self._lock:
                k0, self._next = self._next, self._next + n
                if col is not None:
                    self._chunks.append((k0, np.array(col, dtype=np.float64)))
            return out

        for name in ("timings", "arity"):  # what callers may read off the real stage
            if hasattr(stage, name):
                setattr(live, name, getattr(stage, name))
        return live

    def take(self) -> list[tuple[int, np.ndarray]]:
        """The chunks finished since the last call."""
        with self._lock:
            out, self._chunks = self._chunks, []
        return out


def draw_partial(view: Any, domain: Any, z: np.ndarray, chunks: list[tuple[int, np.ndarray]]
                 ) -> np.ndarray:
    """Fold ``chunks`` into ``z`` (signed-log errors, NaN = not yet computed) and draw it
    on the error map ``view`` (an :class:`~fpinspector.ui.error_map.ErrorMapWidget`).

    Returns ``z`` (allocated here on the first call, when ``z`` is None or mis-sized).
    """
    if z is None or z.size != domain.size:
        z = np.full(domain.size, np.nan)
        _axes(view, domain)
    for k0, vals in chunks:
        z[k0 : k0 + len(vals)] = signed_log(vals)
    finite = z[np.isfinite(z)]
    m = max(float(np.abs(finite).max()) if finite.size else 1.0, 1.0)
    if domain.arity == 2:
        view.colorbar.setLevels((-m, m))
        view.image.setImage(z.reshape(domain.shape).T, levels=(-m, m), autoLevels=False)
    else:
        done = np.flatnonzero(np.isfinite(z))
        view.curve.setData(done + 0.5, z[done])
    return z


def _axes(view: Any, domain: Any) -> None:
    """Value-labelled axes and the full data range, as the finished map will have them."""
    view.image.clear()
    view.overlay.clear()
    view.curve.setData([], [])
    view.bad_points.setData([], [])
    axes = domain.axes
    view.colorbar.setVisible(domain.arity == 2)
    if domain.arity == 2:
        view._y_axis.set_values(axes[0].values())
        view._x_axis.set_values(axes[1].values())
        view.plot.setRange(xRange=(0, domain.shape[1]), yRange=(0, domain.shape[0]), padding=0)
    else:
        view._x_axis.set_values(axes[0].values())
        view._y_axis.set_values(None)
        view.plot.setRange(xRange=(0, domain.size), padding=0.02)
