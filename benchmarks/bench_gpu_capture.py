"""GPU capture throughput: f32 mul on 16M elements including upload and read-back.

Run: ``.venv/bin/python benchmarks/bench_gpu_capture.py [--n 24] [--repeat 3]``.
Then the render-target conversions (f16, UNORM16, SNORM16, R32F), the two-rounding
f64 -> f16 route and f16 add (emulated where the driver lacks half-float shaders).
Prints elements/s of ``GpuSession.capture("mul", a, b)`` on each path and the ratio of
the compute path to a bare moderngl dispatch of the *same* compute shader (one pair of
SSBOs, one dispatch, one read-back; goal: ratio <= 1.3, i.e. our wrapping costs little).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
from _timing import best_of  # noqa: E402

from fpinspector.gpu import GpuUnavailable, open_session  # noqa: E402
from fpinspector.gpu.compute_path import compute_source, group_counts  # noqa: E402
from fpinspector.gpu.shaders import find_kernel  # noqa: E402


def bare_dispatch(ctx, a: np.ndarray, b: np.ndarray):
    """The minimum moderngl code for the same shader: returns a callable and its output."""
    kernel = find_kernel("mul", "f32")
    prog = ctx.compute_shader(compute_source(kernel, set(ctx.extensions)))
    bufs = [ctx.buffer(reserve=a.nbytes) for _ in range(3)]
    out = np.empty_like(a)
    max_groups = int(ctx.info["GL_MAX_COMPUTE_WORK_GROUP_COUNT"][0])

    def run() -> None:
        bufs[0].write(a)
        bufs[1].write(b)
        for i, buf in enumerate(bufs):
            buf.bind_to_storage_buffer(i)
        prog["u_count"].value = a.size
        prog.run(*group_counts(a.size, max_groups))
        ctx.memory_barrier()
        bufs[2].read_into(out)

    return run, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=24, help="log2 of the element count (default 24)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    n = 1 << args.n
    try:
        session = open_session()
    except GpuUnavailable as exc:
        print(f"bench_gpu_capture: skipped: {exc.message}")
        return 0
    rng = np.random.default_rng(0)
    a = rng.integers(0, 2**32, n, dtype=np.uint32)
    b = rng.integers(0, 2**32, n, dtype=np.uint32)
    print(f"renderer: {session.info['renderer']} | GL {session.info['version']}")
    print(f"f32 mul, {n:,} elements (upload + dispatch + read-back), best of {args.repeat}")
    times = {}
    for path in session.info["paths"]:
        session.capture("mul", a[:1024], b[:1024], path=path)  # compile outside the timing
        times[path] = best_of(lambda p=path: session.capture("mul", a, b, path=p), args.repeat)
        rate = n / times[path] / 1e6
        print(f"  capture [{path:8}] {times[path] * 1e3:8.1f} ms  {rate:8.1f} M elements/s")
    if "compute" in times:
        with session.ctx:
            run, out = bare_dispatch(session.ctx, a, b)
            run()
            t_bare = best_of(run, args.repeat)
        ours = session.capture("mul", a, b, path="compute")
        assert np.array_equal(ours, out), "bare dispatch and capture disagree"
        ratio = times["compute"] / t_bare
        print(f"  bare moderngl dispatch  {t_bare * 1e3:8.1f} ms  "
              f"{n / t_bare / 1e6:8.1f} M elements/s")
        print(f"  ratio capture/bare (compute): {ratio:.2f}  (goal <= 1.3: "
              f"{'met' if ratio <= 1.3 else 'NOT met'})")
    conversions(session, min(n, 1 << 22), args.repeat)
    session.close()
    return 0


def conversions(session, n: int, repeat: int) -> None:
    """Render-target / two-step conversions and f16 pair kernels on ``n`` elements."""
    from fpinspector.gpu import GpuSession

    rng = np.random.default_rng(1)
    x = rng.uniform(-2, 2, n).astype(np.float32).view(np.uint32)
    d = rng.uniform(-70000, 70000, n).view(np.uint64)
    h = rng.integers(0, 1 << 16, n, dtype=np.uint16)
    print(f"conversions and f16 kernels, {n:,} elements, best of {repeat}")
    jobs = [(f"f32 -> {dst} render target", lambda dst=dst: session.convert(x, "f32", dst))
            for dst in ("f16", "unorm16", "snorm16", "f32")]
    jobs.append(("f64 -> f16 two roundings", lambda: session.capture("to_f16", d, format="f64")))
    half = session
    label = "f16 add (float16_t)"
    if not session.supports("add", "f16"):
        half = GpuSession(session.ctx, owns_context=False, emulate_half=True)
        label = "f16 add (EMULATED f32 math: packing cost only)"
    jobs.append((label, lambda: half.capture("add", h, h, format="f16")))
    for name, fn in jobs:
        fn()  # compile and allocate outside the timing
        t = best_of(fn, repeat)
        print(f"  {name:48} {t * 1e3:8.1f} ms  {n / t / 1e6:8.1f} M elements/s")
    if half is not session:
        half.close()


if __name__ == "__main__":
    raise SystemExit(main())
