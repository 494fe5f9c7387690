"""ProcessGpuCapture (GL context in a child process) returns what the in-process capture
returns, and a sweep with it gives the same summary (F32-SQRT-RCP sweeps with the GPU).

"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from fpinspector.gpu import GpuUnavailable
from fpinspector.gpu.sweep_capture import GpuCapture, ProcessGpuCapture
from fpinspector.model.sweep import Axis, ModelStage, UnaryDomain, run_sweep

pytestmark = pytest.mark.gpu


def _captures() -> tuple[GpuCapture, ProcessGpuCapture]:
    try:
        return GpuCapture(), ProcessGpuCapture()
    except GpuUnavailable as exc:
        pytest.skip(exc.message)


def test_process_capture_equals_in_process_capture_F32_SQRT_RCP():
    """F32-SQRT-RCP, F32-NANOUT: the same result patterns (dtype, shape, bits) for sqrt,
    rcp and a binary op over special values, denormals and random patterns; chunks of
    different sizes (the shared buffer grows); a bad op is a ValueError, not a hang;
    and a sweep through it gives the in-process sweep's summary."""
    if os.environ.get("FPINSPECTOR_TEST_PRETEND_RENDERER"):
        pytest.skip("the GPU child process sees the real renderer, not the pretended one")
    local, proc = _captures()
    try:
        assert proc.info["renderer"] == local.info["renderer"]
        rng = np.random.default_rng(3)
        special = np.array([0, 0x80000000, 1, 0x007FFFFF, 0x00800000, 0x3F800000, 0x7F7FFFFF,
                            0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0xBF800000],
                           np.uint32)
        for n in (12, 1000, 1 << 18, 300000):
            b = np.concatenate([special, rng.integers(0, 1 << 32, n, dtype=np.uint32)])
            for op in ("sqrt", "rcp"):
                want = local(op, b, format="f32")
                got = proc(op, b, format="f32")
                assert got.dtype == want.dtype and got.shape == want.shape
                assert np.array_equal(got, want), (op, n)
            c = b[::-1].copy()
            assert np.array_equal(proc("mul", b, c, format="f32"), local("mul", b, c, format="f32"))
        assert proc.supports("sqrt", "f32") == local.supports("sqrt", "f32")
        with pytest.raises(ValueError, match="no GPU kernel"):
            proc("no_such_op", special, format="f32")
        dom = UnaryDomain(Axis.bit_range("f32", 0x3F7FF000, 0x3F801000, 0x2001))
        res = [run_sweep(dom, ModelStage("sqrt", "f32", gpu=g), result_format="f32",
                         chunk_size=1 << 11, keep_elements=False, prefetch=False)
               for g in (local, proc)]
        assert (json.dumps(res[0].summary.to_dict(), default=repr)
                == json.dumps(res[1].summary.to_dict(), default=repr))
    finally:
        local.close()
        proc.close()
    assert not proc._proc.is_alive()


@pytest.mark.parametrize("kind", ["child process", "in-process (helper child for workers)"])
def test_worker_processes_capture_on_the_gpu_like_threads_F32_SQRT_RCP(kind):
    """Worker processes reach the GPU over their own connections (to the capture's child
    process, or to a helper child where the capture's GL context is in this process) and
    give the thread sweep's summary and columns, GPU columns included."""
    try:
        cap = ProcessGpuCapture() if kind == "child process" else GpuCapture()
    except GpuUnavailable as exc:
        pytest.skip(exc.message)
    dom = UnaryDomain(Axis.bit_range("f32", 0x007FF000, 0x007FF000 + (1 << 15) + 99))
    try:
        a, b = _in_threads_and_in_processes(dom, cap, keep=True)
        assert (json.dumps(a.summary.to_dict(), default=repr)
                == json.dumps(b.summary.to_dict(), default=repr))
        for k in a.columns:
            assert np.array_equal(a.columns[k], b.columns[k], equal_nan=True), k
        bad = int(np.count_nonzero(~b.columns["ok_gpu"]))
        assert b.summary.nonconformant_count() == bad
        if "llvmpipe" in cap.info["renderer"]:  # LLVMPIPE-COMPUTE-NO-FTZ: the domain's
            assert bad > 0  # kept denormals are non-conformant (the rows are exercised);
            # a GPU that flushes them (F32-FTZ, as D3D wants) is conformant there
        assert np.array_equal(cap("sqrt", np.array([0x40800000], np.uint32), format="f32"),
                              [0x40000000])  # the capture still serves this process
    finally:
        cap.close()


def _in_threads_and_in_processes(dom, cap, keep: bool) -> list:
    """The same sqrt sweep (chunks of 2^12) in stage threads, then on two worker processes."""
    from fpinspector.model.sweep.processes import WorkerPool

    with WorkerPool(2) as pool:
        return [run_sweep(dom, ModelStage("sqrt", "f32", gpu=cap), result_format="f32",
                          chunk_size=1 << 12, keep_elements=keep, processes=processes,
                          pool=pool if processes else None, workers=2)
                for processes in (False, True)]


def test_summary_only_workers_send_the_gpu_spans_and_give_the_thread_summary_F32_SQRT_RCP():
    """Summary-only sweeps on worker processes send the GPU process one request per span of
    chunks (model.sweep.chunk.GPU_SPAN), the next one while the model works on the
    current one: the same summary as one request per chunk in stage threads, over a
    span and a bit (a partial last span, denormals the GPU may keep)."""
    from fpinspector.model.sweep.chunk import GPU_SPAN

    try:
        cap = ProcessGpuCapture()
    except GpuUnavailable as exc:
        pytest.skip(exc.message)
    n = GPU_SPAN + 5 * (1 << 12) + 7
    dom = UnaryDomain(Axis.bit_range("f32", 0x00780000, 0x00780000 + n - 1))
    try:
        runs = _in_threads_and_in_processes(dom, cap, keep=False)
        assert runs[1].complete and runs[1].summary.total == n
        assert (json.dumps(runs[0].summary.to_dict(), default=repr)
                == json.dumps(runs[1].summary.to_dict(), default=repr))
    finally:
        cap.close()


def test_the_app_backend_keeps_its_workers_and_replaces_a_broken_pool():
    """The sweep backend starts worker processes for big sweeps only, keeps them between
    sweeps, and starts new ones when one of them has died."""
    import os
    import signal
    import sys

    from fpinspector.gpu.sweep_capture import SweepBackend

    backend = SweepBackend(workers=2)
    try:
        assert backend.pool_for(1000) is None
        pool = backend.pool_for(SweepBackend.PROCESS_MIN)
        assert pool is not None and pool.alive and backend.pool_for(1 << 30) is pool
        if sys.platform != "win32":
            os.kill(pool._procs[0].pid, signal.SIGKILL)
            pool._procs[0].join(timeout=10)
            fresh = backend.pool_for(1 << 30)
            assert fresh is not pool and fresh.alive
    finally:
        backend.close()
    assert SweepBackend(workers=1).pool_for(1 << 30) is None


def test_a_script_without_a_main_guard_runs_once_with_a_gpu_process(tmp_path):
    """The GPU process starts with "spawn", which runs the parent's ``__main__`` script
    again in the child; an API user's script without ``if __name__ == "__main__"`` must
    still run once (its GPU child opens the device instead of re-running the script)."""
    import os
    import subprocess
    import sys

    script = tmp_path / "unguarded.py"
    script.write_text(
        "from fpinspector.gpu.child_session import ChildSession\n"
        "print('script ran', flush=True)\n"
        "s = ChildSession('auto')\n"
        "print('renderer', s.info['renderer'], flush=True)\n"
        "s.close()\n")
    res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, env=dict(os.environ), cwd=tmp_path)
    if "no usable OpenGL" in res.stderr:
        pytest.skip(res.stderr.strip().splitlines()[-1])
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.count("script ran") == 1 and "renderer" in res.stdout
