"""GpuSession: one moderngl context, its capture paths, and the public capture/convert API."""

from __future__ import annotations

import os
from typing import Any

import moderngl
import numpy as np

from .compute_path import ComputePath
from .context import create_context
from .conversions import HW_CONVERSIONS, HardwareConversions
from .devices import DeviceChoice
from .errors import GpuUnavailable
from .fragment_path import FragmentPath
from .operands import capture_words, check_source, fill_result, result_array, result_words
from .routes import (
    CONVERSION_OPS,
    HALF_FLOAT_EXTENSIONS,
    TWO_STEP_OPS,
    conversion_shape,
    no_gpu_encoder,
    reason,
    route,
)
from .shaders import EMULATE_HALF, KERNELS, Kernel, find_kernel

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
#: Ops whose operands are signed integers (two's complement words), not bit patterns.


class GpuSession:
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
    """

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

    def supports(self, op: str, format: str = "f32", path: str | None = None) -> bool:
        """True when ``op`` on ``format`` operands can run on this GPU by ``path``.

        Also True for the two-rounding f64 -> f16/f11/f10 route (see :meth:`route`).
        """
        return self.unsupported_reason(op, format, path) is None

    def unsupported_reason(self, op: str, format: str = "f32",
                           path: str | None = None) -> str | None:
        """Why ``op`` on ``format`` cannot be captured here (None when it can).

        The text names exactly what is missing (e.g. the half-float extensions), so the
        UI and the report can show it as is.
        """
        runner = self._runner(path)
        return reason(op, format, runner.version, runner.extensions, self.ctx.info["GL_RENDERER"])

    @staticmethod
    def route(op: str, format: str = "f32") -> str:
        """How ``op`` on ``format`` is captured: shader, fixed function, or two roundings."""
        return route(op, format)

    def ops(self, format: str = "f32") -> list[str]:
        """Op names this GPU can capture for ``format`` on the default path."""
        names = {op for op, f in list(KERNELS) + list(CONVERSION_OPS) + list(TWO_STEP_OPS)
                 if f == format}
        return sorted(op for op in names if self.supports(op, format))

    # -- capture ---------------------------------------------------------------------
    def capture(self, op: str, *operand_bits: Any, format: str = "f32",
                path: str | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """Run ``op`` on the GPU and return the result bit patterns.

        Parameters
        ----------
        op : str
            Rule-engine op name ("add", "dp3", "ftoi", ...), or "mad_fma" for GLSL ``fma()``
            ("mad" is ``a * b + c`` marked ``precise``, i.e. not fused).
        *operand_bits : array_like of int
            Operand bit patterns, broadcast against each other like numpy.
        format : str
            Operand format ("f32", "f64", "f16").
        path : {"compute", "fragment"}, optional
            Force a capture path (default: the session's).
        out : numpy.ndarray, optional
            Receives the result (C-contiguous, the result's dtype and shape) and is
            returned: a caller that captures again and again (a sweep, a benchmark) reuses
            one array instead of a fresh one per call. Shader kernels only.

        Returns
        -------
        numpy.ndarray
            Same dtype as the model's ``evaluate(...).bits``: uint32 for f32, uint64 for f64,
            uint16 for f16, bool for comparisons, int32 / uint32 for ftoi / ftou.
        """
        if (op, format) in CONVERSION_OPS or (op, format) in TWO_STEP_OPS:
            if out is not None:
                raise ValueError(f"{op} on {format} is a fixed-function conversion: no out=")
            if len(operand_bits) != 1:
                raise ValueError(f"{op} takes 1 operand, got {len(operand_bits)}")
            if (op, format) in CONVERSION_OPS:
                return self.convert(operand_bits[0], *CONVERSION_OPS[(op, format)])
            # two roundings: float(double), then the target
            mid = self.capture("to_f32", operand_bits[0], format="f64", path=path)
            return self.convert(mid, "f32", TWO_STEP_OPS[(op, format)], path="render")
        kernel = find_kernel(op, format)
        why = self.unsupported_reason(op, format, path)
        if why:
            raise ValueError(why)
        runner = self._runner(path)
        flat, shape, n = capture_words(op, kernel, operand_bits)
        result = result_array(out, kernel.result_dtype, shape)
        count = flat[0].shape[0] if flat else 0
        direct = result_words(result, kernel)
        raw = direct if direct is not None and direct.shape[0] == count else \
            self._scratch_words(kernel, count)
        with self.ctx:  # make our context current: another session may have switched it
            if raw.size:
                runner.run(kernel, flat, raw)
            self._check_gl(op)
        if raw is direct:  # the kernel wrote the result in place
            return result
        return fill_result(result, raw, n, kernel)

    #: Raw-word buffers up to this many words are kept for the next capture.
    SCRATCH_KEEP = 1 << 22

    def _scratch_words(self, kernel: Kernel, count: int) -> np.ndarray:
        """Raw words for a result that is no view of them (bool, f16 patterns, odd f16
        pairs): a buffer reused between captures (up to SCRATCH_KEEP words)."""
        dtype = np.dtype(np.uint64 if kernel.wide_out else np.uint32)
        if count > self.SCRATCH_KEEP:
            return np.empty(count, dtype)
        if self._scratch.dtype != dtype or self._scratch.shape[0] < count:
            self._scratch = np.empty(count, dtype)
        return self._scratch[:count]

    def run_kernel(self, kernel: Kernel, *words: np.ndarray, path: str | None = None
                   ) -> np.ndarray:
        """Run ``kernel`` on flat raw operand words (uint32, or uint64 for 64-bit kinds) and
        return the raw result words (uint32 / uint64), untouched by any dtype conversion.

        Why: the capture-fidelity check (:mod:`.fidelity`) needs kernels that are no op of
        the rule engine (a pure integer pass-through).
        """
        runner = self._runner(path)
        flat = [np.ascontiguousarray(w).reshape(-1) for w in words]
        out = np.empty(flat[0].shape[0] if flat else 0,
                       np.uint64 if kernel.wide_out else np.uint32)
        with self.ctx:
            if out.size:
                runner.run(kernel, flat, out)
            self._check_gl(kernel.op)
        return out

    def convert(self, bits: Any, src: str, dst: str, path: str = "auto") -> np.ndarray:
        """Convert through the fixed-function hardware (render targets / texture sampling).

        ``path``: "render" (f32 -> f16/f11/f10/unorm8/snorm8/unorm16/snorm16/srgb8 render
        targets; f32 -> f32 through an R32F target), "sample" (f16/f11/f10/unorm8/
        snorm8/unorm16/snorm16/srgb8 -> f32 via texelFetch; rgb9e5 words -> R, G, B), "pack"
        (f32 -> f16 packHalf2x16) or "unpack" (f16 -> f32 unpackHalf2x16); "auto" picks
        the render target / sampler. Returns dst patterns (uint16 for f16/f11/f10, uint32
        for f32, uint8 for unorm8/srgb8, int8 for snorm8, uint16 / int16 for unorm16 /
        snorm16) in the input's shape, with a trailing axis of 3 (R, G, B) for rgb9e5.
        """
        a = np.asarray(bits)
        if path == "pack" and (src, dst) == ("f32", "f16"):
            return self.capture("to_f16", a, format="f32")
        if path == "unpack" and (src, dst) == ("f16", "f32"):
            return self.capture("to_f32", a, format="f16")
        if path == "auto":
            path = "render" if src == "f32" else "sample"
        if (src, dst, path) not in HW_CONVERSIONS:
            raise ValueError(no_gpu_encoder(src, dst) or
                             f"no hardware conversion {src}->{dst} via {path!r}; "
                             f"see GpuSession.conversions()")
        check_source(a, src)
        with self.ctx:
            if self._hw is None:
                self._hw = HardwareConversions(self.ctx)
            out = self._hw.run(a.reshape(-1).astype(np.int64), src, dst, path)
            self._check_gl(f"convert {src}->{dst}")
        return out.reshape(conversion_shape(a.shape, src))

    @staticmethod
    def conversions() -> list[tuple[str, str, str]]:
        """(src, dst, path) triples ``convert`` accepts (besides pack/unpack)."""
        return sorted(HW_CONVERSIONS) + [("f32", "f16", "pack"), ("f16", "f32", "unpack")]

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

    def __enter__(self) -> GpuSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
