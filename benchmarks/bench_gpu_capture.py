"""GPU capture against a bare moderngl dispatch: f32 mul on 2^24 elements.

Run: ``.venv/bin/python benchmarks/bench_gpu_capture.py [--n 24] [--repeat 7] [--check]``.

The baseline is the least code moderngl needs for the same work: its own compute shader
(written here, not fpinspector's: ``local_size_x = 256``, the product of two f32 words read
as raw bits), three SSBOs created once, then per run two uploads, one dispatch, a barrier
and a read-back into an array allocated once. fpinspector's ``GpuSession.capture("mul")``
is timed on the same data in two ways: returning a fresh array (every call allocates its
result, as a user calling ``capture(...)`` gets it) and with ``out=`` (the result array
reused, as the bare dispatch does; what sweeps do). Goal: capture with ``out=`` <= 1.1 x
the bare dispatch (our wrapping costs little). The variants take turns, round after round
(best of N each), so that the machine's changing load hits them alike. Then the
render-target conversions and f16 pair kernels, for reference (no goal).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _capture_bench import (  # noqa: E402
    best_in_turns,
    check_same_products,
    print_times,
    random_words,
)
from _timing import Goals, add_arguments, best_of, print_header  # noqa: E402

from fpinspector.gpu import GpuUnavailable, open_session  # noqa: E402

GOAL_RATIO = 1.1

BARE_SHADER = """#version 430
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer A { uint a[]; };
layout(std430, binding = 1) readonly buffer B { uint b[]; };
layout(std430, binding = 2) writeonly buffer C { uint c[]; };
uniform uint n;
void main() {
    uint i = gl_GlobalInvocationID.y * (gl_NumWorkGroups.x * 256u) + gl_GlobalInvocationID.x;
    if (i >= n) return;
    precise float r = uintBitsToFloat(a[i]) * uintBitsToFloat(b[i]);
    c[i] = floatBitsToUint(r);
}
"""


def bare_dispatch(ctx, a: np.ndarray, b: np.ndarray):
    """The minimum moderngl code for f32 mul: returns a callable and its output array."""
    prog = ctx.compute_shader(BARE_SHADER)
    bufs = [ctx.buffer(reserve=a.nbytes) for _ in range(3)]
    out = np.empty_like(a)
    groups = -(-a.size // 256)
    limit = int(ctx.info["GL_MAX_COMPUTE_WORK_GROUP_COUNT"][0])
    gy = -(-groups // limit)  # rows balanced: no group launched for nothing
    gx = -(-groups // gy)

    def run() -> None:
        bufs[0].write(a)
        bufs[1].write(b)
        for i, buf in enumerate(bufs):
            buf.bind_to_storage_buffer(i)
        prog["n"].value = a.size
        prog.run(gx, gy)
        ctx.memory_barrier()
        bufs[2].read_into(out)

    def release() -> None:
        for obj in bufs + [prog]:
            obj.release()

    return run, out, release


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=24, help="log2 of the element count (default 24)")
    add_arguments(ap, repeat=11)
    args = ap.parse_args()
    print_header("bench_gpu_capture: GpuSession.capture vs a bare moderngl dispatch")
    goals = Goals()
    n = 1 << args.n
    try:
        session = open_session()
    except GpuUnavailable as exc:
        print(f"bench_gpu_capture: skipped: {exc.message}")
        return 0
    a, b = random_words(n)
    print(f"renderer: {session.info['renderer']} | GL {session.info['version']}")
    print(f"f32 mul, {n:,} elements (upload + dispatch + read-back), best of {args.repeat}")
    out = np.empty(n, np.uint32)
    runs: dict[str, object] = {}
    bare_out = release = None
    if "compute" in session.info["paths"]:
        with session.ctx:
            run, bare_out, release = bare_dispatch(session.ctx, a, b)

        def bare() -> None:
            with session.ctx:
                run()

        runs["bare moderngl dispatch (baseline)"] = bare
    takes_out = _takes_out(session)
    for path in session.info["paths"]:
        session.capture("mul", a[:1024], b[:1024], path=path)  # compile outside the timing
        runs[f"capture [{path}] fresh result"] = lambda p=path: session.capture(
            "mul", a, b, path=p)
        if takes_out:
            runs[f"capture [{path}] out= reused"] = lambda p=path: session.capture(
                "mul", a, b, path=p, out=out)
    best = best_in_turns(runs, args.repeat)
    t_bare = best.get("bare moderngl dispatch (baseline)")
    print_times(best, n, "bare moderngl dispatch (baseline)", lambda label: "compute" in label)
    if t_bare is not None:
        key = "capture [compute] out= reused" if takes_out else "capture [compute] fresh result"
        goals.check("capture(out=)/bare dispatch" if takes_out else "capture/bare dispatch",
                    best[key] / t_bare, GOAL_RATIO)
        check_same_products(session.capture("mul", a, b, path="compute"), bare_out)
        with session.ctx:
            release()
    conversions(session, min(n, 1 << 22), args.repeat)
    session.close()
    return goals.exit_code(args.check)


def _takes_out(session) -> bool:
    try:
        session.capture("mul", np.zeros(1, np.uint32), np.zeros(1, np.uint32),
                        out=np.empty(1, np.uint32))
        return True
    except TypeError:  # an older fpinspector (before/after comparisons)
        return False


def conversions(session, n: int, repeat: int) -> None:
    """Render-target / two-step conversions and f16 pair kernels on ``n`` elements."""
    from fpinspector.gpu import GpuSession

    rng = np.random.default_rng(1)
    x = rng.uniform(-2, 2, n).astype(np.float32).view(np.uint32)
    d = rng.uniform(-70000, 70000, n).view(np.uint64)
    h = rng.integers(0, 1 << 16, n, dtype=np.uint16)
    print(f"conversions and f16 kernels, {n:,} elements, best of {repeat} (no goal)")
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
