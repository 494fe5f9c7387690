"""Expression captures in a GPU child process, and :func:`open_expr_gpu`, which picks this
process or a child for a device.

Why: Mesa keeps one driver per process and device (:mod:`.devices`), so an expression on
softpipe after this process opened llvmpipe has to run in a child process, as the
inspector's and the maps' captures do (:mod:`.child_session`). :class:`ExprChild` has
:class:`~.expr_capture.ExprGpu`'s API (``submit``, ``run``, ``submit_job``,
``unsupported_reason``, ``info``, ``choice``, ``close``); its runner sends each capture to
the child's :class:`~.expr_capture.ExprRunner`, which compiles and runs the same shader an
in-process runner would. Nothing here imports GL: a process that runs its expressions in a
child never loads moderngl itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, TimeoutError
from typing import Any

import numpy as np

from .child_session import ChildSession
from .devices import DeviceChoice, selected_device
from .errors import DriverSwitchNeeded
from .expr_front import ExprThreadFront

__all__ = ["ChildExprRunner", "ExprChild", "open_expr_gpu", "CLOSE_TIMEOUT_S"]

#: how long closing waits for the capture in flight before it stops the GPU process
CLOSE_TIMEOUT_S = 10.0


class ChildExprRunner:
    """:class:`~.expr_capture.ExprRunner`'s API over a :class:`ChildSession`."""

    def __init__(self, session: ChildSession) -> None:
        self.session = session

    def unsupported_reason(self, program: Any, path: str | None = None) -> str | None:
        return self.session.expr_unsupported_reason(program, path)

    def run(self, program: Any, slots: Sequence[np.ndarray], *, path: str | None = None,
            variant: str = "precise") -> list[np.ndarray]:
        return self.session.expr_run(program, slots, path=path, variant=variant)

    def close(self) -> None:
        """Nothing to release here: the child releases its runner with its session."""


class ExprChild(ExprThreadFront):
    """Expressions on ``choice`` run by a GPU child process; ``submit`` returns a Future.

    Raises :class:`~.errors.DeviceUnavailable` / :class:`~.errors.GpuUnavailable` from the
    constructor when the device does not open in the child.
    """

    def __init__(self, path: str = "auto", choice: DeviceChoice | None = None) -> None:
        self.choice = selected_device() if choice is None else choice
        self.timings: dict[str, float] = {}
        self.session = ChildSession(path, self.choice)
        self.runner = ChildExprRunner(self.session)
        self.info = dict(self.session.info)
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="gpu-expr-child")

    @property
    def alive(self) -> bool:
        """Is the GPU process still running?"""
        return self.session.alive

    def close(self) -> None:
        """Stop the GPU process (after the job in flight) and the thread; a capture that
        does not end within ``CLOSE_TIMEOUT_S`` (a hung driver) ends with the process."""
        closing = self._pool.submit(self.session.close)
        try:
            closing.result(timeout=CLOSE_TIMEOUT_S)
        except TimeoutError:
            self.session.kill()
            closing.result()
        finally:
            self._pool.shutdown(wait=True)


def open_expr_gpu(path: str = "auto", choice: DeviceChoice | None = None, *,
                  process: bool | None = None) -> Any:
    """An expression runner on ``choice`` (default: the process-wide selected device): an
    :class:`~.expr_capture.ExprGpu` in this process when Mesa allows it, else an
    :class:`ExprChild`; ``process=True`` always uses a child (and imports no GL here).

    Why in this process first: a capture there costs no pipe round trip and opening needs
    no new process (a child takes about a second to start)."""
    choice = selected_device() if choice is None else choice
    if process:
        return ExprChild(path, choice)
    from .expr_capture import ExprGpu  # noqa: PLC0415 - GL only when it is used here

    try:
        return ExprGpu(path, choice=choice)
    except DriverSwitchNeeded:
        return ExprChild(path, choice)
