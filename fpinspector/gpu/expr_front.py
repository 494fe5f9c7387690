"""The thread front shared by the expression runners of this process and of a GPU child.

Both :class:`~.expr_capture.ExprGpu` (a session on this process's GL thread) and
:class:`~.expr_child.ExprChild` (a session in a GPU process) answer the same calls on one
worker thread of their own, so the panel and the maps treat them alike; only opening and
closing differ. Nothing here imports GL.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Self

import numpy as np

__all__ = ["ExprThreadFront"]


class ExprThreadFront:
    """``submit`` / ``run`` / ``submit_job`` / ``unsupported_reason`` on the thread of
    ``_pool``, for the ``runner`` a subclass opens, and ``with`` closing it;
    ``timings["gpu"]`` adds up the captures' wall time."""

    runner: Any
    _pool: ThreadPoolExecutor
    timings: dict[str, float]

    def unsupported_reason(self, program: Any, path: str | None = None) -> str | None:
        return self._pool.submit(self.runner.unsupported_reason, program, path).result()

    def _run(self, program: Any, slots: list[np.ndarray], path: str | None, variant: str
             ) -> list[np.ndarray]:
        t = time.perf_counter()
        out = self.runner.run(program, slots, path=path, variant=variant)
        self.timings["gpu"] = self.timings.get("gpu", 0.0) + time.perf_counter() - t
        return out

    def submit(self, program: Any, slots: Sequence[np.ndarray], *, path: str | None = None,
               variant: str = "precise") -> Future:
        return self._pool.submit(self._run, program, list(slots), path, variant)

    def run(self, program: Any, slots: Sequence[np.ndarray], *, path: str | None = None,
            variant: str = "precise") -> list[np.ndarray]:
        return self.submit(program, slots, path=path, variant=variant).result()

    def submit_job(self, job: Any) -> Future:
        """Run ``job(runner)`` on this object's thread (several captures as one unit)."""
        return self._pool.submit(job, self.runner)

    def close(self) -> None:
        """Release the runner and stop the thread (each front closes its own way)."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
