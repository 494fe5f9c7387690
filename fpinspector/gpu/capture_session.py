"""What every capture session does the same way, whatever API runs its shaders.

:class:`.session.GpuSession` (OpenGL through moderngl) and :class:`.wgpu_session.WgpuSession`
(WebGPU through wgpu) differ in how a kernel or a texture conversion runs, not in what a
capture is: the route of an (op, format) (shader kernel, fixed-function conversion, or the
two-rounding f64 -> small-float route), the operand words and result dtypes, the scratch
words of results that are no view of the kernel's output, and the checks on conversion
inputs. Those live here once; a session supplies its runners through the hooks below.
"""

from __future__ import annotations

from typing import Any, Self

import numpy as np

from .capture_formats import SHADER_FLOAT, SHADER_PACKING
from .operands import capture_words, check_source, fill_result, result_array, result_words
from .routes import CONVERSION_OPS, TWO_STEP_OPS, conversion_shape, no_gpu_encoder
from .shaders import KERNELS, Kernel, find_kernel

__all__ = ["CaptureSession"]


class CaptureSession:
    """The capture API shared by the GL and WebGPU sessions.

    A subclass provides ``_runner(path)`` (an object with ``run(kernel, words, out)``),
    ``unsupported_reason(op, format, path)``, ``_dispatch(runner, kernel, words, out,
    what)`` (runs the kernel where the API wants it run: GL in its context, with its error
    check), the conversion table ``CONVERSIONS`` ((src, dst, path) keys) and
    ``_convert_codes(codes, src, dst, path)`` (flat int64 codes in, flat results out).
    """

    #: (src, dst, path) -> how; the conversions ``convert`` knows (the subclass's table)
    CONVERSIONS: dict[tuple[str, str, str], Any] = {}
    #: Raw-word buffers up to this many words are kept for the next capture.
    SCRATCH_KEEP = 1 << 22
    _scratch: np.ndarray

    # -- hooks -------------------------------------------------------------------------
    def _runner(self, path: str | None) -> Any:
        raise NotImplementedError

    def unsupported_reason(self, op: str, format: str = SHADER_FLOAT,
                           path: str | None = None) -> str | None:
        raise NotImplementedError

    def _dispatch(self, runner: Any, kernel: Kernel, words: list[np.ndarray], out: np.ndarray,
                  what: str) -> None:
        raise NotImplementedError

    def _convert_codes(self, codes: np.ndarray, src: str, dst: str, path: str) -> np.ndarray:
        raise NotImplementedError

    def conversion_reason(self, src: str, dst: str, path: str) -> str | None:
        """Why the known conversion ``src -> dst`` by ``path`` cannot run here (None: it
        can; a WebGPU adapter may lack a format's feature)."""
        return None

    # -- what can be captured ----------------------------------------------------------
    def supports(self, op: str, format: str = SHADER_FLOAT, path: str | None = None) -> bool:
        """True when ``op`` on ``format`` operands can run on this GPU by ``path``.

        Also True for the two-rounding f64 -> f16/f11/f10 route (see ``route``).
        """
        return self.unsupported_reason(op, format, path) is None

    def ops(self, format: str = SHADER_FLOAT) -> list[str]:
        """Op names this GPU can capture for ``format`` on the default path."""
        names = {op for op, f in list(KERNELS) + list(CONVERSION_OPS) + list(TWO_STEP_OPS)
                 if f == format}
        return sorted(op for op in names if self.supports(op, format))

    # -- capture ---------------------------------------------------------------------
    def capture(self, op: str, *operand_bits: Any, format: str = SHADER_FLOAT,
                path: str | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """Run ``op`` on the GPU and return the result bit patterns.

        Parameters
        ----------
        op : str
            Rule-engine op name ("add", "dp3", "ftoi", ...), or "mad_fma" for a fused
            multiply-add ("mad" is ``a * b + c`` marked ``precise``, i.e. not fused).
        *operand_bits : array_like of int
            Operand bit patterns, broadcast against each other like numpy.
        format : str
            Operand format ("f32", "f64", "f16").
        path : str, optional
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
            mid = self.capture(f"to_{SHADER_FLOAT}", operand_bits[0], format=format, path=path)
            return self.convert(mid, SHADER_FLOAT, TWO_STEP_OPS[(op, format)], path="render")
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
        self._dispatch(runner, kernel, flat, raw, op)
        if raw is direct:  # the kernel wrote the result in place
            return result
        return fill_result(result, raw, n, kernel)

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
        flat = [np.ascontiguousarray(w, dtype=np.uint64 if wide else np.uint32).reshape(-1)
                for w, wide in zip(words, kernel.wide_in)]
        out = np.empty(flat[0].shape[0] if flat else 0,
                       np.uint64 if kernel.wide_out else np.uint32)
        self._dispatch(runner, kernel, flat, out, kernel.op)
        return out

    def convert(self, bits: Any, src: str, dst: str, path: str = "auto") -> np.ndarray:
        """Convert through the fixed-function hardware (render targets / texture sampling).

        ``path``: "render" (f32 -> f16/f11/f10/unorm8/snorm8/unorm16/snorm16/srgb8 render
        targets; f32 -> f32 through an R32F target), "sample" (f16/f11/f10/unorm8/
        snorm8/unorm16/snorm16/srgb8 -> f32 by texture loads; rgb9e5 words -> R, G, B),
        "pack" (f32 -> f16 by the shader's pack instruction) or "unpack" (f16 -> f32);
        "auto" picks the render target / sampler. Returns dst patterns (uint16 for
        f16/f11/f10, uint32 for f32, uint8 for unorm8/srgb8, int8 for snorm8, uint16 /
        int16 for unorm16 / snorm16) in the input's shape, with a trailing axis of 3 (R, G,
        B) for rgb9e5.
        """
        a = np.asarray(bits)
        if (src, dst, path) in SHADER_PACKING:  # packHalf2x16 / unpackHalf2x16
            return self.capture(f"to_{dst}", a, format=src)
        if path == "auto":
            path = "render" if src == SHADER_FLOAT else "sample"
        if (src, dst, path) not in self.CONVERSIONS:
            raise ValueError(no_gpu_encoder(src, dst) or
                             f"no hardware conversion {src}->{dst} via {path!r}; "
                             f"see {type(self).__name__}.conversions()")
        why = self.conversion_reason(src, dst, path)
        if why:
            raise ValueError(why)
        check_source(a, src)
        out = self._convert_codes(a.reshape(-1).astype(np.int64), src, dst, path)
        return out.reshape(conversion_shape(a.shape, src))

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        raise NotImplementedError
