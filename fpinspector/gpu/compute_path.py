"""Compute-shader capture path (GL 4.3): operands in SSBOs, each invocation a few elements."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

import moderngl
import numpy as np

from .errors import ShaderError
from .shaders import Kernel, header, kernel_function

__all__ = ["ComputePath", "LOCAL_SIZE", "PER_INVOCATION", "invocation_main", "dispatch_groups"]

#: Invocations per work group. 256 (not 64): llvmpipe runs a work group as one task and
#: pays a fixed cost per group, so 2^24 elements took ~11 ms longer with 64
#: (benchmarks/bench_gpu_capture.py); GL 4.3 guarantees at least 1024.
LOCAL_SIZE = 256
#: Elements per invocation: invocation i of a grid of G takes i, i + G, i + 2G, i + 3G
#: (a grid-stride loop), so each step still reads and writes consecutive elements across
#: invocations. Why: llvmpipe pays a fixed cost per invocation; a 2^19 f32 sqrt took 2.1
#: (unrolled) or 2.2 (a loop) instead of 2.9 CPU-ns per element (best of 6, 2-core EPYC).
PER_INVOCATION = 4
DEFAULT_CHUNK = 1 << 24
CHUNK_BYTES = 256 << 20  # all buffers of one chunk together stay under this


def compute_source(kernel: Kernel, extensions: set[str]) -> str:
    """Full compute shader: bindings 0..n-1 read operands, binding n receives results."""
    word = lambda wide: "uvec2" if wide else "uint"  # noqa: E731
    blocks = [
        f"layout(std430, binding = {i}) readonly buffer In{i} {{ {word(w)} d{i}[]; }};"
        for i, w in enumerate(kernel.wide_in)
    ]
    n = kernel.arity
    blocks.append(
        f"layout(std430, binding = {n}) writeonly buffer Out {{ {word(kernel.wide_out)} dout[]; }};"
    )
    args = ", ".join(f"d{i}[i]" for i in range(n))
    return (
        header(430, extensions, kernel)
        + f"layout(local_size_x = {LOCAL_SIZE}) in;\n"
        + "\n".join(blocks)
        + "\nuniform uint u_count;\n"
        + kernel_function(kernel)
        + invocation_main([f"dout[i] = kernel({args});"], unrolled=True)
    )


def invocation_main(step: list[str], unrolled: bool = False) -> str:
    """``void main()`` running the GLSL statements ``step`` on element ``i`` (below
    ``u_count``) for each of the invocation's :data:`PER_INVOCATION` elements, a grid of
    invocations apart; dispatch it with :func:`dispatch_groups`. ``unrolled``: the steps
    written out instead of a loop: 4x the code, for the small single-op kernels (the 2^32
    f32 sqrt sweep on llvmpipe: 29-30 s against 31-32 s with the loop); expressions, whose
    bodies can be long, keep the loop."""
    body = "".join(f"            {line.strip()}\n" for line in step)
    each = f"        if (i >= u_count) return;\n        {{\n{body}        }}\n"
    if unrolled:
        steps = "        i += grid;\n".join([each] * PER_INVOCATION)
    else:
        steps = (f"    for (uint elem_k = 0u; elem_k < {PER_INVOCATION}u; elem_k++) {{\n"
                 + each + "        i += grid;\n    }\n")
    return (
        "void main() {\n"
        f"    uint grid = gl_NumWorkGroups.x * gl_NumWorkGroups.y * {LOCAL_SIZE}u;\n"
        f"    uint i = gl_GlobalInvocationID.y * (gl_NumWorkGroups.x * {LOCAL_SIZE}u)"
        " + gl_GlobalInvocationID.x;\n"
        + steps + "}\n"
    )


def dispatch_groups(n: int, max_groups: int) -> tuple[int, int]:
    """The work-group grid for ``n`` elements run by :func:`invocation_main`."""
    return group_counts(-(-n // PER_INVOCATION), max_groups)


def group_counts(n: int, max_groups: int) -> tuple[int, int]:
    """Work-group grid (x, y) covering ``n`` invocations within the per-dimension limit.

    The rows are balanced (x = ceil(groups / y)), not filled up to the limit: 2^24 elements
    are 65,536 groups of 256, one more than GL's guaranteed 65,535 per dimension, and a
    65,535 x 2 grid would launch twice the groups needed (llvmpipe runs every one of them:
    a 2^24 capture took 30% longer)."""
    groups = max(1, -(-n // LOCAL_SIZE))
    gy = -(-groups // max_groups)
    if gy > max_groups:
        raise ValueError(f"{n} elements exceed the work-group grid {max_groups}^2")
    gx = -(-groups // gy)
    return gx, gy


class ComputePath:
    """Runs kernels with compute shaders; programs cached per kernel, buffers reused.

    The caches are the context's for this path: the expression runner
    (:class:`.expr_paths.ExprCompute`) compiles its shaders into :meth:`compiled` and writes
    its words into the same :meth:`buffer` s, so a session holds one set of SSBOs.

    Elements go in chunks bounded by the SSBO block size, the work-group grid and
    ``chunk`` (keeps memory bounded): why a 2^24 capture needs no special casing.
    """

    name = "compute"

    def __init__(self, ctx: moderngl.Context, chunk: int = DEFAULT_CHUNK) -> None:
        self.ctx = ctx
        self.extensions = set(ctx.extensions)
        self.max_groups = int(ctx.info["GL_MAX_COMPUTE_WORK_GROUP_COUNT"][0])
        self.max_block = int(ctx.info.get("GL_MAX_SHADER_STORAGE_BLOCK_SIZE", 1 << 27))
        self.chunk = max(LOCAL_SIZE, chunk)
        self._programs: dict[Hashable, moderngl.ComputeShader] = {}
        self._buffers: dict[int, moderngl.Buffer] = {}
        self.version = 430

    def program(self, kernel: Kernel) -> moderngl.ComputeShader:
        return self.compiled(kernel, lambda: compute_source(kernel, self.extensions), kernel.op)

    def compiled(self, key: Hashable, source: Callable[[], str], what: str
                 ) -> moderngl.ComputeShader:
        """The program cached under ``key``, compiled from ``source()`` on first use
        (ShaderError naming ``what`` when the driver refuses it)."""
        prog = self._programs.get(key)
        if prog is None:
            src = source()
            try:
                prog = self.ctx.compute_shader(src)
            except moderngl.Error as exc:
                raise ShaderError(what, str(exc), src) from None
            self._programs[key] = prog
        return prog

    def forget(self, keys: Iterable[Hashable]) -> None:
        """Release the programs cached under ``keys`` (a closing expression runner's)."""
        for k in keys:
            prog = self._programs.pop(k, None)
            if prog is not None:
                prog.release()

    def buffer(self, binding: int, nbytes: int) -> moderngl.Buffer:
        """The SSBO for ``binding``, grown to at least ``nbytes`` (reused between runs)."""
        buf = self._buffers.get(binding)
        if buf is None or buf.size < nbytes:
            if buf is not None:
                buf.release()
            buf = self.ctx.buffer(reserve=max(nbytes, 4))
            self._buffers[binding] = buf
        return buf

    def run(self, kernel: Kernel, words: list[np.ndarray], out: np.ndarray) -> None:
        """Fill ``out`` (uint32/uint64 raw result words) from flat operand word arrays."""
        prog = self.program(kernel)
        n = out.shape[0]
        sizes = [w.dtype.itemsize for w in words] + [out.dtype.itemsize]
        chunk = min(self.chunk, self.max_block // max(sizes), CHUNK_BYTES // sum(sizes))
        chunk = max(LOCAL_SIZE, chunk)
        for start in range(0, n, chunk):
            stop = min(n, start + chunk)
            m = stop - start
            for i, w in enumerate(words):
                part = np.ascontiguousarray(w[start:stop])
                buf = self.buffer(i, part.nbytes)
                buf.write(part)
                buf.bind_to_storage_buffer(i, size=part.nbytes)
            dst = out[start:stop]
            obuf = self.buffer(kernel.arity, dst.nbytes)
            obuf.bind_to_storage_buffer(kernel.arity, size=dst.nbytes)
            prog["u_count"].value = m
            prog.run(*dispatch_groups(m, self.max_groups))
            self.ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)
            obuf.read_into(dst, size=dst.nbytes)

    def release(self) -> None:
        for obj in list(self._programs.values()) + list(self._buffers.values()):
            obj.release()
        self._programs.clear()
        self._buffers.clear()
