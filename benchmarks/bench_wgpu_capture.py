"""WebGPU capture against a bare wgpu dispatch: f32 mul on 2^24 elements.

Run: ``.venv/bin/python benchmarks/bench_wgpu_capture.py [--api vulkan] [--n 24]
[--repeat 7] [--check]``.

The baseline is the least code wgpu needs for the same work: its own WGSL shader (written
here, not fpinspector's: ``@workgroup_size(256)``, one element per invocation, the product
of two words read as raw bits), three storage buffers and a mappable read-back buffer
created once, then per run two ``queue.write_buffer`` uploads, one dispatch, a copy into the
mappable buffer, map, read into an array allocated once, unmap. fpinspector's
``capture("mul")`` through :class:`WgpuSession` is timed on the same data with ``out=`` (the
result array reused, as the bare dispatch does) and returning a fresh array. Goal: capture
with ``out=`` <= 1.3 x the bare dispatch. The variants take turns, round after round (best
of N each), so that the machine's changing load hits them alike.
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
from _timing import Goals, add_arguments, print_header  # noqa: E402

from fpinspector.gpu import GpuUnavailable, open_session  # noqa: E402

GOAL_RATIO = 1.3

BARE_SHADER = """
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read_write> c: array<u32>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * (groups.x * 256u) + gid.x;
    if (i >= arrayLength(&c)) { return; }
    c[i] = bitcast<u32>(bitcast<f32>(a[i]) * bitcast<f32>(b[i]));
}
"""


def bare_dispatch(wgpu, device, a: np.ndarray, b: np.ndarray):
    """The minimum wgpu code for f32 mul: returns a callable and its output array."""
    module = device.create_shader_module(code=BARE_SHADER)
    pipe = device.create_compute_pipeline(layout="auto",
                                          compute={"module": module, "entry_point": "main"})
    usage = wgpu.BufferUsage
    bufs = [device.create_buffer(size=a.nbytes, usage=usage.STORAGE | usage.COPY_DST)
            for _ in range(2)]
    bufs.append(device.create_buffer(size=a.nbytes, usage=usage.STORAGE | usage.COPY_SRC))
    staging = device.create_buffer(size=a.nbytes, usage=usage.MAP_READ | usage.COPY_DST)
    group = device.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
        {"binding": i, "resource": {"buffer": buf}} for i, buf in enumerate(bufs)])
    out = np.empty_like(a)
    groups = -(-a.size // 256)
    limit = int(device.limits["max-compute-workgroups-per-dimension"])
    gy = -(-groups // limit)
    gx = -(-groups // gy)

    def run() -> None:
        device.queue.write_buffer(bufs[0], 0, a)
        device.queue.write_buffer(bufs[1], 0, b)
        enc = device.create_command_encoder()
        cp = enc.begin_compute_pass()
        cp.set_pipeline(pipe)
        cp.set_bind_group(0, group)
        cp.dispatch_workgroups(gx, gy)
        cp.end()
        enc.copy_buffer_to_buffer(bufs[2], 0, staging, 0, a.nbytes)
        device.queue.submit([enc.finish()])
        staging.map_sync(wgpu.MapMode.READ)
        out[:] = np.frombuffer(staging.read_mapped(copy=False), np.uint32)
        staging.unmap()

    def release() -> None:
        for buf in bufs + [staging]:
            buf.destroy()

    return run, out, release


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=24, help="log2 of the element count (default 24)")
    ap.add_argument("--api", default="vulkan", choices=("vulkan", "d3d12", "metal"))
    ap.add_argument("--adapter", default=None, help="adapter index or name (default: best)")
    add_arguments(ap, repeat=7)
    args = ap.parse_args()
    print_header("bench_wgpu_capture: WgpuSession.capture vs a bare wgpu dispatch")
    goals = Goals()
    n = 1 << args.n
    try:
        session = open_session(api=args.api, adapter=args.adapter)
    except GpuUnavailable as exc:
        print(f"bench_wgpu_capture: skipped: {exc.message}")
        return 0
    a, b = random_words(n)
    print(f"adapter: {session.info['renderer']} | {session.info['backend']} | driver "
          f"{session.info['version']}")
    print(f"f32 mul, {n:,} elements (upload + dispatch + read-back), best of {args.repeat}")
    out = np.empty(n, np.uint32)
    run, bare_out, release = bare_dispatch(session.wgpu, session.device, a, b)
    session.capture("mul", a[:1024], b[:1024])  # compile outside the timing
    runs = {
        "bare wgpu dispatch (baseline)": run,
        "capture out= reused": lambda: session.capture("mul", a, b, out=out),
        "capture fresh result": lambda: session.capture("mul", a, b),
    }
    best = best_in_turns(runs, args.repeat)
    t_bare = best["bare wgpu dispatch (baseline)"]
    print_times(best, n, "bare wgpu dispatch (baseline)")
    goals.check("capture(out=)/bare dispatch", best["capture out= reused"] / t_bare, GOAL_RATIO)
    check_same_products(session.capture("mul", a, b), bare_out)
    release()
    session.close()
    return goals.exit_code(args.check)


if __name__ == "__main__":
    sys.exit(main())
