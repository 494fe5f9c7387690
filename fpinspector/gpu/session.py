"""GpuSession: one moderngl context, its capture paths, and the public capture/convert API."""

from __future__ import annotations

import os
from typing import Any

import moderngl
import numpy as np

from .capture_formats import SHADER_FLOAT, SHADER_PACKING
from .capture_session import CaptureSession
from .compute_path import ComputePath
from .context import create_context
from .conversions import HW_CONVERSIONS, HardwareConversions
from .devices import DeviceChoice
from .errors import GpuUnavailable
from .fragment_path import FragmentPath
from .routes import CONVERSION_OPS, HALF_FLOAT_EXTENSIONS, TWO_STEP_OPS, reason, route
from .shaders import EMULATE_HALF, Kernel

__all__ = [
    "CONVERSION_OPS",
    "HALF_FLOAT_EXTENSIONS",
    "PATHS",
    "TWO_STEP_OPS",
    "GpuSession",
    "open_session",
]

PATHS = ("auto", "compute", "fragment")
BACKEND_ENV = "FPINSPECTOR_GL_BACKEND"


class GpuSession(CaptureSession):
    """Runs fpinspector ops on the local GPU and returns raw result bit patterns.

    Parameters
    ----------
    ctx : moderngl.Context
        The context to use; the session releases it on ``close()`` when ``owns_context``.
    path : {"auto", "compute", "fragment"}
        Default capture path. "auto" takes compute shaders when GL 4.3 is there.

    Notes
    -----
    Operands are uploaded as raw bits (uintBitsToFloat in the shader), so no upload can
    flush or quiet them; programs are compiled once per (op, format, path) and cached.
    ``capture``, ``convert``, ``run_kernel``, ``supports`` and ``ops`` are
    :class:`.capture_session.CaptureSession`'s, shared with the WebGPU session.
    """

    CONVERSIONS = HW_CONVERSIONS

    def __init__(self, ctx: moderngl.Context, path: str = "auto", owns_context: bool = True,
                 chunk: int | None = None, *, emulate_half: bool = False,
                 origin: dict[str, Any] | None = None) -> None:
        if path not in PATHS:
            raise ValueError(f"path must be one of {PATHS}, got {path!r}")
        self.ctx = ctx
        #: where the context came from: backend, device index, driver (see context.py)
        self.origin = {"backend": "external", "device": None, "driver": "", **(origin or {})}
        self._owns = owns_context
        self._gl_error_at_open = ctx.error  # clears any error left by context creation
        kw = {"chunk": chunk} if chunk else {}
        self._paths: dict[str, Any] = {}
        if ctx.version_code >= 430:
            self._paths["compute"] = ComputePath(ctx, **kw)
        self._paths["fragment"] = FragmentPath(ctx, **kw)
        if emulate_half:  # tests only: f16 kernels built with float16_t = float (see shaders)
            for runner in self._paths.values():
                runner.extensions.add(EMULATE_HALF)
        if path == "compute" and "compute" not in self._paths:
            raise GpuUnavailable(
                f"compute path needs GL 4.3; this context is {ctx.info['GL_VERSION']}"
            )
        self.path = "compute" if path == "auto" and "compute" in self._paths else (
            "fragment" if path == "auto" else path)
        self._hw: HardwareConversions | None = None
        self._scratch = np.empty(0, np.uint32)  # raw words of results needing a conversion

    # -- description -------------------------------------------------------------------
    @property
    def info(self) -> dict[str, Any]:
        """Vendor, renderer, GL version, capture paths and the extensions that matter."""
        ext = set(self.ctx.extensions)
        return {
            "vendor": self.ctx.info["GL_VENDOR"],
            "renderer": self.ctx.info["GL_RENDERER"],
            "version": self.ctx.info["GL_VERSION"],
            "glsl_version": self.ctx.info.get("GL_SHADING_LANGUAGE_VERSION", ""),
            "version_code": self.ctx.version_code,
            "paths": list(self._paths),
            "path": self.path,
            "fp64": "GL_ARB_gpu_shader_fp64" in ext or self.ctx.version_code >= 400,
            "half_float_arithmetic": [e for e in HALF_FLOAT_EXTENSIONS if e in ext],
            "max_texture_size": self.ctx.info.get("GL_MAX_TEXTURE_SIZE"),
            "max_compute_work_group_count": self.ctx.info.get("GL_MAX_COMPUTE_WORK_GROUP_COUNT"),
            "extensions": len(ext),
            "backend": self.origin["backend"],
            "device": self.origin["device"],
            "driver": self.origin["driver"],
            "process": "in-process",
        }

    def _runner(self, path: str | None) -> Any:
        if not self._paths:
            raise ValueError("this GPU session is closed; open a new one with open_session()")
        p = self.path if path in (None, "auto") else path
        if p not in self._paths:
            raise ValueError(f"capture path {p!r} is not available here ({list(self._paths)})")
        return self._paths[p]

    def capture_path(self, path: str | None) -> Any:
        """The capture path object (ComputePath / FragmentPath) that ``path`` names: the
        expression runners share its program and buffer caches."""
        return self._runner(path)

    def unsupported_reason(self, op: str, format: str = SHADER_FLOAT,
                           path: str | None = None) -> str | None:
        """Why ``op`` on ``format`` cannot be captured here (None when it can).

        The text names exactly what is missing (e.g. the half-float extensions), so the
        UI and the report can show it as is.
        """
        runner = self._runner(path)
        return reason(op, format, runner.version, runner.extensions, self.ctx.info["GL_RENDERER"])

    @staticmethod
    def route(op: str, format: str = SHADER_FLOAT) -> str:
        """How ``op`` on ``format`` is captured: shader, fixed function, or two roundings."""
        return route(op, format)

    def _dispatch(self, runner: Any, kernel: Kernel, words: list[np.ndarray], out: np.ndarray,
                  what: str) -> None:
        with self.ctx:  # make our context current: another session may have switched it
            if out.size:
                runner.run(kernel, words, out)
            self._check_gl(what)

    def _convert_codes(self, codes: np.ndarray, src: str, dst: str, path: str) -> np.ndarray:
        with self.ctx:
            if self._hw is None:
                self._hw = HardwareConversions(self.ctx)
            out = self._hw.run(codes, src, dst, path)
            self._check_gl(f"convert {src}->{dst}")
        return out

    @staticmethod
    def conversions() -> list[tuple[str, str, str]]:
        """(src, dst, path) triples ``convert`` accepts (besides pack/unpack)."""
        return sorted(HW_CONVERSIONS) + SHADER_PACKING

    def _check_gl(self, what: str) -> None:
        err = self.ctx.error
        if err != "GL_NO_ERROR":
            raise RuntimeError(f"OpenGL reported {err} after {what}")

    def close(self) -> None:
        """Release programs, buffers and (when owned) the context."""
        with self.ctx:
            for runner in self._paths.values():
                runner.release()
            if self._hw is not None:
                self._hw.release()
                self._hw = None
        self._paths.clear()
        if self._owns:
            self.ctx.release()


def open_session(path: str = "auto", *, backend: str | None = None,
                 chunk: int | None = None, device: int | None = None,
                 driver: str | None = None, api: str = "gl",
                 adapter: int | str | None = None) -> Any:
    """Open a headless GL context in this process and wrap it in a :class:`GpuSession`;
    with ``api`` "vulkan", "d3d12" or "metal", a WebGPU adapter instead
    (:class:`.wgpu_session.WgpuSession`, the same methods; ``adapter``: its index, "warp"
    or a word of its name).

    Parameters
    ----------
    path : {"auto", "compute", "fragment"}
        Capture path; "compute" needs GL 4.3.
    backend : str, optional
        glcontext backend ("egl", "x11", ...); default EGL then the platform default (WGL,
        CGL, GLX), or the ``FPINSPECTOR_GL_BACKEND`` environment variable.
    device : int, optional
        EGL device index (``fpinspector gpu-devices``); default: the default device.
    driver : str, optional
        Mesa software driver ("llvmpipe", "softpipe") for Mesa's software device. Mesa
        keeps the first driver of a device for the whole process; :func:`open_device`
        opens another one in a child process instead.

    Raises
    ------
    DeviceUnavailable
        The chosen device or driver cannot be opened here (a subclass of GpuUnavailable).
    GpuUnavailable
        No usable GL (message says what was tried), or the path is not supported.
    """
    if api != "gl":
        from .wgpu_session import open_wgpu_session

        if path not in ("auto", "compute"):
            raise GpuUnavailable(f"the {api} (WebGPU) backend captures through compute "
                                 f"shaders only, not the {path} path")
        return open_wgpu_session(api, adapter, chunk=chunk)
    if path not in PATHS:
        raise ValueError(f"path must be one of {PATHS}, got {path!r}")
    choice = DeviceChoice(device, driver, backend or os.environ.get(BACKEND_ENV) or None)
    ctx, origin = create_context(choice)
    try:
        return GpuSession(ctx, path=path, chunk=chunk, origin=origin)
    except GpuUnavailable:
        ctx.release()
        raise
