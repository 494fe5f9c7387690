"""Run expressions on the GPU: every step's bits (``precise``), or the result as a driver
compiles the expression freely; on the compute or the fragment path of a GpuSession.

:class:`ExprRunner` works on an open session in the caller's thread (the GL context's);
:class:`ExprGpu` owns a session on its own thread for sweeps and the app (like
:class:`fpinspector.gpu.sweep_capture.GpuCapture`).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from ..model.expr.instructions import instruction
from ..model.expr.program import Program
from .capture_formats import EXPR_FORMAT, EXPR_FORMAT_REASON
from .devices import DeviceChoice, selected_device
from .expr_front import ExprThreadFront
from .expr_glsl import expr_shader
from .expr_paths import ExprCompute, ExprFragment
from .session import GpuSession, open_session

__all__ = ["ExprRunner", "ExprGpu", "VARIANTS"]

#: "precise": every step, in the step list's order; "free": the result only, no precise.
VARIANTS = ("precise", "free")


class ExprRunner:
    """Expression captures on ``session`` (programs cached per program, path, variant)."""

    def __init__(self, session: GpuSession) -> None:
        self.session = session
        self._paths: dict[str, Any] = {}

    def _path(self, path: str | None) -> str:
        p = self.session.path if path in (None, "auto") else path
        if p not in self.session.info["paths"]:
            raise ValueError(f"capture path {p!r} is not available here "
                             f"({self.session.info['paths']})")
        return p

    def unsupported_reason(self, program: Program, path: str | None = None) -> str | None:
        """Why ``program`` cannot run here (None when it can)."""
        if program.format != EXPR_FORMAT:
            return EXPR_FORMAT_REASON
        if getattr(self.session, "api", "gl") != "gl":
            from .expr_wgsl import wgsl_unsupported

            why = wgsl_unsupported(program)
            if why:
                return why
        p = self._path(path)
        for op in sorted({s.op for s in program.steps if instruction(s.op).engine}):
            why = self.session.unsupported_reason(op, EXPR_FORMAT, p)
            if why:
                return why
        return None

    def run(self, program: Program, slots: Sequence[np.ndarray], *, path: str | None = None,
            variant: str = "precise") -> list[np.ndarray]:
        """Words per step ("precise") or per result component ("free"), input-shaped.

        ``slots`` are the input slots' bit patterns (``program.inputs`` order), broadcast
        together like numpy.
        """
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}")
        why = self.unsupported_reason(program, path)
        if why:
            raise ValueError(why)
        p = self._path(path)
        arrs = [np.asarray(s) for s in slots]
        for a in arrs:
            if a.size and (a.dtype.kind not in "iub" or int(a.min()) < 0 or
                           int(a.max()) > 0xFFFFFFFF):
                raise ValueError("GPU operands are 32-bit patterns (0..0xFFFFFFFF)")
        shape = np.broadcast_shapes(*(a.shape for a in arrs)) if arrs else ()
        n = int(np.prod(shape, dtype=np.int64))
        words = np.empty((n, len(arrs)), np.uint32)
        for j, a in enumerate(arrs):
            words[:, j] = np.broadcast_to(a, shape).reshape(-1)
        key = (program.signature(), variant)
        if getattr(self.session, "api", "gl") != "gl":  # a WebGPU session: WGSL
            wgsl = self._paths.get("wgsl")
            if wgsl is None:
                from .expr_wgsl import ExprWgsl

                wgsl = self._paths["wgsl"] = ExprWgsl(self.session)
            out = wgsl.run(key, program, variant == "precise", words, n) if n else \
                np.zeros((0, len(expr_shader(program, variant == "precise").words)), np.uint32)
            return [np.ascontiguousarray(out[:, k]).reshape(shape) for k in range(out.shape[1])]
        sh = expr_shader(program, precise=variant == "precise")
        ctx = self.session.ctx
        with ctx:
            runner = self._paths.get(p)
            if runner is None:
                path_obj = self.session.capture_path(p)  # its caches: one set per context
                runner = self._paths[p] = (ExprCompute(ctx, path_obj) if p == "compute"
                                           else ExprFragment(ctx, path=path_obj))
            out = runner.run(key, sh, words, n) if n else np.zeros((0, len(sh.words)), np.uint32)
            err = ctx.error
        if err != "GL_NO_ERROR":
            raise RuntimeError(f"OpenGL reported {err} after an expression capture")
        return [np.ascontiguousarray(out[:, k]).reshape(shape) for k in range(out.shape[1])]

    def close(self) -> None:
        """Release this runner's programs and buffers (the session stays open)."""
        if getattr(self.session, "api", "gl") != "gl":
            for r in self._paths.values():
                r.release()
            self._paths.clear()
            return
        with self.session.ctx:
            for r in self._paths.values():
                r.release()
        self._paths.clear()


class ExprGpu(ExprThreadFront):
    """A GPU session on its own thread running expressions: ``submit`` returns a Future.

    ``choice`` is the device (a GL device and driver, or a WebGPU adapter); by default the
    process-wide :func:`~fpinspector.gpu.devices.selected_device` (GPU ▸ Device in the
    app); ``api``/``adapter`` name a WebGPU adapter instead. Raises
    :class:`~fpinspector.gpu.GpuUnavailable` from the constructor when no context can be
    made on it (a Mesa driver other than this process's first is one: ExprRunner needs the
    context in this process).
    """

    def __init__(self, path: str = "auto", api: str | None = None,
                 adapter: int | str | None = None, choice: DeviceChoice | None = None) -> None:
        if api is not None:
            choice = DeviceChoice(api=api, adapter=adapter)
        elif choice is None:  # the process-wide choice: the device picked in the app
            choice = selected_device()
        #: the device this session runs on (a GL device and driver, or a WebGPU adapter)
        self.choice = choice
        kw: dict[str, Any] = ({"api": choice.api, "adapter": choice.adapter}
                              if choice.api != "gl" else
                              {"device": choice.index, "driver": choice.driver,
                               "backend": choice.backend})
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="gpu-expr")
        self.timings: dict[str, float] = {}
        try:
            self.session = self._pool.submit(open_session, path, **kw).result()
        except BaseException:
            self._pool.shutdown(wait=False)
            raise
        self.runner = ExprRunner(self.session)
        self.info = self._pool.submit(lambda: dict(self.session.info)).result()

    def close(self) -> None:
        """Release everything on the GL thread, then stop it."""
        try:
            def _close() -> None:
                self.runner.close()
                self.session.close()
            self._pool.submit(_close).result()
        finally:
            self._pool.shutdown(wait=True)
