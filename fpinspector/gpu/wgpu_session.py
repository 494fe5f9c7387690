"""WgpuSession: the GpuSession API on a WebGPU adapter (D3D12, Vulkan or Metal through wgpu).

Same ops, operand checks, result dtypes and shapes as the GL session (:mod:`.session`):
operands travel as raw 32-bit words in storage buffers and are reinterpreted in WGSL
(``bitcast<f32>``; two f16 operands per word as ``bitcast<vec2<f16>>`` where the adapter
has ``shader-f16``); results come back as raw words. One capture path, "compute", plus the
texture-format conversions ("render", "sample"; :mod:`.wgpu_conversions`). What WGSL or the
adapter cannot do is answered by :meth:`WgpuSession.unsupported_reason`, per (op, format).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .capture_formats import SHADER_FLOAT, SHADER_PACKING
from .capture_session import CaptureSession
from .errors import GpuUnavailable, ShaderError
from .routes import CONVERSION_OPS, TWO_STEP_OPS, conversion_shape
from .shaders import KERNELS, Kernel
from .wgpu_conversions import (
    FORMATS,
    WGPU_CONVERSIONS,
    TextureConversions,
    conversion_dtype,
    conversion_requirement,
)
from .wgpu_devices import API_LABELS, describe_adapter, import_wgpu, select_adapter
from .wgsl_shaders import (
    F64_REASON,
    LOCAL_SIZE,
    PER_INVOCATION,
    ROUTE_NOTES,
    compute_source,
    needs_f16,
    needs_f64,
    wgsl_expr,
)

__all__ = ["WgpuSession", "open_wgpu_session", "group_counts", "OPTIONAL_FEATURES"]

#: features asked for when the adapter has them (f16 arithmetic, the conversion formats)
OPTIONAL_FEATURES = ("shader-f16", "shader-f64", "rg11b10ufloat-renderable",
                     "texture-format16bit-norm", "texture-adapter-specific-format-features")
DEFAULT_CHUNK = 1 << 24


def group_counts(n: int, max_groups: int = 65535) -> tuple[int, int]:
    """Work-group grid (x, y) for ``n`` elements, :data:`PER_INVOCATION` per invocation,
    rows balanced (as the GL compute path: no more groups launched than needed)."""
    groups = max(1, -(-(-(-n // PER_INVOCATION)) // LOCAL_SIZE))
    gy = -(-groups // max_groups)
    if gy > max_groups:
        raise ValueError(f"{n} elements exceed the work-group grid {max_groups}^2")
    return -(-groups // gy), gy


class WgpuCompute:
    """Runs kernels as WGSL compute shaders; pipelines cached per kernel, buffers reused."""

    name = "compute"

    def __init__(self, wgpu: Any, device: Any, chunk: int = DEFAULT_CHUNK) -> None:
        self.wgpu = wgpu
        self.device = device
        limits = device.limits
        self.max_groups = int(limits.get("max-compute-workgroups-per-dimension", 65535))
        self.max_binding = int(limits.get("max-storage-buffer-binding-size", 1 << 27))
        self.chunk = max(LOCAL_SIZE, min(chunk, self.max_binding // 8))
        self._pipelines: dict[Any, Any] = {}
        self._buffers: dict[int, Any] = {}
        self._staging: Any = None

    def pipeline(self, kernel: Kernel) -> Any:
        return self.compiled(kernel, lambda: compute_source(kernel), kernel.op)

    def compiled(self, key: Any, source: Any, what: str) -> Any:
        """The pipeline cached under ``key``, built from ``source()`` on first use: the op
        kernels' and the expression shaders' (:class:`.expr_wgsl.ExprWgsl`) cache."""
        pipe = self._pipelines.get(key)
        if pipe is None:
            src = source()
            try:
                module = self.device.create_shader_module(code=src)
                pipe = self.device.create_compute_pipeline(
                    layout="auto", compute={"module": module, "entry_point": "main"})
            except Exception as exc:  # wgpu's GPUValidationError carries naga's log
                raise ShaderError(what, str(exc), src) from None
            self._pipelines[key] = pipe
        return pipe

    def _buffer(self, key: int, nbytes: int, usage: int) -> Any:
        """Buffer ``key`` (operand index; -1 for the result) of at least ``nbytes``."""
        buf = self._buffers.get(key)
        if buf is None or buf.size < nbytes:
            if buf is not None:
                buf.destroy()
            buf = self.device.create_buffer(size=max(nbytes, 16), usage=usage)
            self._buffers[key] = buf
        return buf

    def run(self, kernel: Kernel, words: list[np.ndarray], out: np.ndarray) -> None:
        """Fill ``out`` (raw result words: uint32, uint64 for f64) from flat operand word
        arrays (uint32, uint64 for f64 operands)."""
        wgpu, dev = self.wgpu, self.device
        pipe = self.pipeline(kernel)
        layout = pipe.get_bind_group_layout(0)
        n = out.shape[0]
        usage_in = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_DST
        usage_out = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC
        for start in range(0, n, self.chunk):
            stop = min(n, start + self.chunk)
            m = stop - start
            entries = []
            for i, w in enumerate(words):
                part = np.ascontiguousarray(w[start:stop])
                buf = self._buffer(i, part.nbytes, usage_in)
                dev.queue.write_buffer(buf, 0, part)
                entries.append({"binding": i, "resource": {"buffer": buf, "offset": 0,
                                                          "size": part.nbytes}})
            nbytes = m * out.dtype.itemsize
            obuf = self._buffer(-1, nbytes, usage_out)
            entries.append({"binding": kernel.arity,
                            "resource": {"buffer": obuf, "offset": 0, "size": nbytes}})
            staging = self._staging_buffer(nbytes)
            enc = dev.create_command_encoder()
            cp = enc.begin_compute_pass()
            cp.set_pipeline(pipe)
            cp.set_bind_group(0, dev.create_bind_group(layout=layout, entries=entries))
            cp.dispatch_workgroups(*group_counts(m, self.max_groups))
            cp.end()
            enc.copy_buffer_to_buffer(obuf, 0, staging, 0, nbytes)
            dev.queue.submit([enc.finish()])
            staging.map_sync(wgpu.MapMode.READ, 0, nbytes)
            try:
                view = staging.read_mapped(0, nbytes, copy=False)
                np.copyto(out[start:stop], np.frombuffer(view, out.dtype, m))
                del view
            finally:
                staging.unmap()

    def _staging_buffer(self, nbytes: int) -> Any:
        if self._staging is None or self._staging.size < nbytes:
            if self._staging is not None:
                self._staging.destroy()
            self._staging = self.device.create_buffer(
                size=max(nbytes, 16),
                usage=self.wgpu.BufferUsage.MAP_READ | self.wgpu.BufferUsage.COPY_DST)
        return self._staging

    def release(self) -> None:
        for buf in list(self._buffers.values()) + ([self._staging] if self._staging else []):
            buf.destroy()
        self._buffers.clear()
        self._staging = None
        self._pipelines.clear()


class WgpuSession(CaptureSession):
    """Runs fpinspector ops on a WebGPU adapter and returns raw result bit patterns.

    Built by :func:`open_wgpu_session` (or ``open_session(api="vulkan")``); the methods and
    their results are :class:`.session.GpuSession`'s (``capture``, ``convert``,
    ``run_kernel``, ``supports``, ``ops``: :class:`.capture_session.CaptureSession`).
    """

    CONVERSIONS = WGPU_CONVERSIONS

    def __init__(self, wgpu: Any, adapter: Any, api: str, index: int,
                 chunk: int | None = None) -> None:
        self.wgpu = wgpu
        self.api = api
        self.entry = describe_adapter(adapter, api, index)
        self.features = {f for f in OPTIONAL_FEATURES if f in self.entry.features}
        try:
            self.device = adapter.request_device_sync(required_features=sorted(self.features))
        except Exception as exc:  # noqa: BLE001 - wgpu raises its own error types
            raise GpuUnavailable(f"{self.entry.renderer}: the device did not open: {exc}"
                                 ) from None
        self._compute: WgpuCompute | None = WgpuCompute(wgpu, self.device,
                                                        chunk or DEFAULT_CHUNK)
        self._hw: TextureConversions | None = None
        self._scratch = np.empty(0, np.uint32)
        self.path = "compute"

    # -- description -------------------------------------------------------------------
    @property
    def info(self) -> dict[str, Any]:
        """What the GL session's ``info`` says, for a WebGPU adapter (the API in
        ``backend``, the adapter's driver description in ``version``, the driver's short
        name in ``driver``: "lavapipe")."""
        e = self.entry
        return {
            "vendor": e.vendor or f"0x{e.vendor_id:04X}",
            "renderer": e.renderer,
            "version": e.driver,
            "glsl_version": "WGSL",
            "version_code": 0,
            "paths": ["compute"],
            "path": "compute",
            "fp64": "shader-f64" in self.features,
            "half_float_arithmetic": ["shader-f16"] if "shader-f16" in self.features else [],
            "max_texture_size": self.device.limits.get("max-texture-dimension-2d"),
            "max_compute_work_group_count": self.device.limits.get(
                "max-compute-workgroups-per-dimension"),
            "extensions": len(e.features),
            "api": self.api,
            "backend": f"wgpu/{API_LABELS[self.api]}",
            "device": e.index,
            "driver": e.family,
            "adapter_type": e.adapter_type,
            "features": list(e.features),
            "process": "in-process",
        }

    def capture_path(self, path: str | None) -> WgpuCompute:
        """The compute runner whose pipeline and buffer caches the expression runner shares."""
        return self._runner(path)

    def _runner(self, path: str | None) -> WgpuCompute:
        if self._compute is None:
            raise ValueError("this GPU session is closed; open a new one with open_session()")
        if path not in (None, "auto", "compute"):
            raise ValueError(f"capture path {path!r} is not available here (['compute'])")
        return self._compute

    def unsupported_reason(self, op: str, format: str = SHADER_FLOAT,
                           path: str | None = None) -> str | None:
        """Why ``op`` on ``format`` cannot be captured through this adapter (None if it can)."""
        self._runner(path)
        where = self.entry.renderer
        if (op, format) in CONVERSION_OPS:
            return self.conversion_reason(*CONVERSION_OPS[(op, format)])
        if (op, format) in TWO_STEP_OPS:
            why = self.unsupported_reason(f"to_{SHADER_FLOAT}", format, path)
            return None if why is None else f"{op} ({format}) goes through float(double): {why}"
        kernel = KERNELS.get((op, format))
        if kernel is None or wgsl_expr(kernel) is None:
            return (f"fpinspector has no GPU route for {op} on {format} operands (no shader "
                    "instruction or fixed-function conversion does it; the model evaluates it)")
        if needs_f64(kernel) and "shader-f64" not in self.features:
            return F64_REASON.format(where=where)
        if needs_f16(kernel) and "shader-f16" not in self.features:
            return (f"f16 arithmetic ({op}) needs WebGPU's 'shader-f16' feature; {where} does "
                    "not offer it, so f16 arithmetic is evaluated by the model only")
        return None

    def conversion_reason(self, src: str, dst: str, path: str) -> str | None:
        """Why the texture conversion ``src -> dst`` by ``path`` cannot run here, or None."""
        spec = WGPU_CONVERSIONS.get((src, dst, path))
        if spec is None:
            return f"no WebGPU texture conversion {src} -> {dst} by {path}"
        why = conversion_requirement(FORMATS[spec[0]], path, set(self.entry.features))
        return None if why is None else f"{src} -> {dst}: {why}"

    @staticmethod
    def route(op: str, format: str = SHADER_FLOAT) -> str:
        """How ``op`` on ``format`` is captured through WebGPU (WGSL, or a texture format)."""
        if (op, format) in CONVERSION_OPS:
            src, dst, how = CONVERSION_OPS[(op, format)]
            fmt = WGPU_CONVERSIONS[(src, dst, how)][0]
            kind = "render target" if how == "render" else "textureLoad"
            return f"fixed-function {src} -> {dst} ({fmt} {kind})"
        if (op, format) in TWO_STEP_OPS:
            dst = TWO_STEP_OPS[(op, format)]
            fmt = WGPU_CONVERSIONS[(SHADER_FLOAT, dst, "render")][0]
            return (f"two roundings: f32(double) in WGSL, then the f32 -> {dst} {fmt} render "
                    f"target (D3D rounds f64 -> {dst} once)")
        kernel = KERNELS.get((op, format))
        expr = wgsl_expr(kernel) if kernel else None
        if expr is None:
            return "none"
        return "WGSL: " + ROUTE_NOTES.get(op, expr.format("a", "b", "c", "d", "e", "f", "g",
                                                           "h"))

    def _dispatch(self, runner: WgpuCompute, kernel: Kernel, words: list[np.ndarray],
                  out: np.ndarray, what: str) -> None:
        if needs_f64(kernel) and "shader-f64" not in self.features:
            raise ValueError(F64_REASON.format(where=self.entry.renderer))
        if out.size:
            runner.run(kernel, words, out)

    def _convert_codes(self, codes: np.ndarray, src: str, dst: str, path: str) -> np.ndarray:
        if self._compute is None:
            raise ValueError("this GPU session is closed; open a new one with open_session()")
        if not codes.size:
            return np.empty(conversion_shape((0,), src), conversion_dtype(dst))
        if self._hw is None:
            self._hw = TextureConversions(self.wgpu, self.device)
        return self._hw.run(codes, src, dst, path)

    def conversions(self) -> list[tuple[str, str, str]]:
        """(src, dst, path) triples ``convert`` accepts on this adapter."""
        ok = [k for k in WGPU_CONVERSIONS if self.conversion_reason(*k) is None]
        return sorted(ok) + SHADER_PACKING

    def readback_seconds(self, n: int, itemsize: int = 4, repeats: int = 3) -> float:
        """Best of ``repeats`` read-backs of ``n`` words (a storage buffer copied to a mapped
        one and read), what a sweep compares its capture time with."""
        import time

        wgpu, dev = self.wgpu, self.device
        nbytes = max(4, -(-n * itemsize // 4) * 4)
        src = dev.create_buffer(size=nbytes, usage=wgpu.BufferUsage.STORAGE
                                | wgpu.BufferUsage.COPY_SRC)
        dst = np.empty(nbytes, np.uint8)
        best = float("inf")
        try:
            for _ in range(repeats):
                t = time.perf_counter()
                dst[:] = np.frombuffer(dev.queue.read_buffer(src), np.uint8)
                best = min(best, time.perf_counter() - t)
        finally:
            src.destroy()
        return best

    def close(self) -> None:
        """Release pipelines, buffers and the device."""
        if self._compute is not None:
            self._compute.release()
            self._compute = None
        if self._hw is not None:
            self._hw.release()
            self._hw = None
        try:
            self.device.destroy()
        except Exception:  # noqa: BLE001 - a lost device is gone already
            pass


def open_wgpu_session(api: str, adapter: int | str | None = None,
                      chunk: int | None = None) -> WgpuSession:
    """Open the WebGPU adapter ``adapter`` (index, "warp", a word of its name, or None for
    the best one) of ``api`` ("vulkan", "d3d12", "metal").

    Raises
    ------
    GpuUnavailable
        wgpu is not installed or does not load.
    DeviceUnavailable
        No such API or adapter here (the message lists the adapters there are).
    """
    wgpu = import_wgpu()
    found, index = select_adapter(api, adapter)
    return WgpuSession(wgpu, found, api, index, chunk=chunk)
