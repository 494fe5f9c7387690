"""Expression captures in a GPU child process (ExprChild, the "expr" request of the GPU
process): the same words as in this process on the same driver, another Mesa driver's own
words where this process cannot switch to it (what the Expression dock uses after GPU ▸
Device ▸ softpipe), errors rebuilt as the types the GPU process raised, and a process
that stops said in one line."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import subprocess
import sys

import numpy as np
import pytest

from fpinspector.gpu.devices import SOFTWARE_DRIVERS, DeviceChoice, renderer_family
from fpinspector.gpu.errors import (
    DeviceUnavailable,
    DriverSwitchNeeded,
    GpuUnavailable,
    ShaderError,
)
from fpinspector.gpu.expr_capture import ExprRunner
from fpinspector.gpu.expr_child import ExprChild, open_expr_gpu
from fpinspector.gpu.gpu_server import _reply
from fpinspector.gpu.shm_channel import ShmChannel, rebuild_error
from fpinspector.model.expr import evaluate_expr, lower

U32 = np.uint32
TEXTS = ["saturate(a * b + c)", "mad(a, b, -c)", "a < b ? -abs(c) : b - a",
         "n * rsqrt(dot(n, n))", "f16tof32(f32tof16(a * 0.5))", "log2(a) * exp2(b)"]


def _words(n: int, seed: int) -> np.ndarray:
    """Any 32-bit patterns: NaNs, infinities, denormals and normals alike."""
    return np.random.default_rng(seed).integers(0, 2**32, n, dtype=np.uint64).astype(U32)


def _family(gpu) -> str:
    family = renderer_family(gpu.info["renderer"])
    if family not in SOFTWARE_DRIVERS:
        pytest.skip(f"{gpu.info['renderer']} is not one of Mesa's software drivers")
    return family


# -- the protocol, no GPU --------------------------------------------------------------
class _Refusing:
    """An expression runner whose shader does not compile."""

    def run(self, *a, **kw):
        raise ShaderError("expression", "0:12(3): error: syntax error", "void main() {}")

    def unsupported_reason(self, *a):
        raise DriverSwitchNeeded("device 0 / softpipe: needs a separate GPU process")


def test_a_gpu_process_error_comes_back_as_the_same_type():
    """A shader that fails to compile in the GPU process is a ShaderError here, with the
    same op, log and source (it was a RuntimeError with the message only); the GPU layer's
    own errors keep their types (DriverSwitchNeeded was a DeviceUnavailable)."""
    mine, theirs = mp.Pipe()
    chan = ShmChannel(mine, "test")
    blocks: dict = {}  # the GPU process's side of the shared block
    try:
        program = lower("a * b", {"a": "float", "b": "float"})
        chan.send("expr", program, None, "precise", arrays=(np.ones(3, U32),) * 2,
                  result_bytes=64)
        _reply(object(), theirs, theirs.recv(), blocks, {"expr": _Refusing()})
        with pytest.raises(ShaderError) as info:
            chan.receive()
        assert (info.value.op, info.value.log, info.value.source) == (
            "expression", "0:12(3): error: syntax error", "void main() {}")
        assert str(info.value) == str(ShaderError("expression", "0:12(3): error: syntax error"))
        chan.send("expr_unsupported", program, None)
        _reply(object(), theirs, theirs.recv(), blocks, {"expr": _Refusing()})
        with pytest.raises(DriverSwitchNeeded, match="separate GPU process"):
            chan.receive()
    finally:
        for shm in blocks.values():
            shm.close()  # (no view of it outlives a failed request)
        chan.close()
        theirs.close()
    assert type(rebuild_error(("ShaderError", "old reply without fields"))) is RuntimeError
    assert type(rebuild_error(("ZeroDivisionError", "x"))) is RuntimeError


# -- on this run's driver ----------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("text", TEXTS)
def test_the_child_gives_the_in_process_words(gpu, text):
    """Same driver in and out of process: identical words, every step ("precise") and the
    free variant, on each path of the driver (the transport adds nothing)."""
    family = renderer_family(gpu.info["renderer"])
    driver = family if family in SOFTWARE_DRIVERS else None
    a, b, c = _words(1031, 1), _words(1031, 2), _words(1031, 3)
    r = evaluate_expr(text, {"a": a, "b": b, "c": c, "n": [a, b, c]})
    runner = ExprRunner(gpu)
    try:
        with ExprChild(choice=DeviceChoice(driver=driver)) as child:
            assert child.info["process"] == "child"
            assert renderer_family(child.info["renderer"]) == family
            for path in gpu.info["paths"]:
                for variant in ("precise", "free"):
                    here = runner.run(r.program, r.slots, path=path, variant=variant)
                    there = child.run(r.program, r.slots, path=path, variant=variant)
                    assert len(there) == len(here)
                    for k, (x, y) in enumerate(zip(here, there)):
                        assert x.shape == y.shape == r.shape and y.dtype == U32
                        np.testing.assert_array_equal(y, x, err_msg=f"{path} {variant} {k}")
    finally:
        runner.close()


@pytest.mark.gpu
def test_scalars_constants_and_no_elements_keep_their_shapes(gpu):
    """A scalar binding gives 0-d words, an expression of constants alone needs no
    operand block, an empty binding gives empty words; bad operands are the same
    ValueError as in this process."""
    family = renderer_family(gpu.info["renderer"])
    with ExprChild(choice=DeviceChoice(driver=family if family in SOFTWARE_DRIVERS else None)
                   ) as child:
        p = lower("a * b", {"a": "float", "b": "float"})
        one = child.run(p, [np.uint32(0x3FC00000), np.uint32(0x40000000)])
        assert [w.shape for w in one] == [()] and int(one[0]) == 0x40400000  # 1.5 * 2 = 3
        const = child.run(lower("1.0 + 2.0", {}), [])
        assert int(const[-1]) == 0x40400000
        empty = child.run(p, [np.zeros(0, U32)] * 2)
        assert [w.shape for w in empty] == [(0,)]
        with pytest.raises(ValueError, match="32-bit patterns"):
            child.run(p, [np.array([-1]), np.array([1])])
        assert "f32" in child.unsupported_reason(lower("a + a", {"a": "float"}, "f16"))


# -- another Mesa driver --------------------------------------------------------------
def _cli_gpu_words(driver: str, text: str, **values: str) -> tuple[str, list[str]]:
    """The GPU's answer from `fpinspector expr --gpu --driver` in a fresh process, whose
    first GL context is that driver's: an answer this test process did not compute."""
    env = {k: v for k, v in os.environ.items() if k != "GALLIUM_DRIVER"}
    sets = [x for k, v in values.items() for x in ("--set", f"{k}={v}")]
    run = subprocess.run([sys.executable, "-m", "fpinspector", "expr", text, *sets, "--gpu",
                          "--json", "--driver", driver],
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stderr
    rep = json.loads(run.stdout)
    return rep["gpu"]["renderer"], [c["gpu"]["hex"] for c in rep["result"]["components"]]


@pytest.mark.gpu
def test_the_other_driver_gives_its_own_words_through_a_child(gpu):
    """GPU ▸ Device ▸ softpipe after llvmpipe (or back): this process cannot open it
    (DriverSwitchNeeded), so open_expr_gpu runs the expression in a child, and its words
    are that driver's, as a fresh `fpinspector expr --driver` process gets them. log2 of
    the denormal 0x00000003: llvmpipe flushes it (-127), softpipe does not (-147.415...),
    so the answer also shows which driver computed it."""
    other = next(d for d in SOFTWARE_DRIVERS if d != _family(gpu))
    renderer, want = _cli_gpu_words(other, "log2(a)", a="0x00000003")
    assert renderer_family(renderer) == other
    ev = evaluate_expr("log2(a)", {"a": np.uint32(3)})
    with pytest.raises(DriverSwitchNeeded):
        from fpinspector.gpu.expr_capture import ExprGpu

        ExprGpu(choice=DeviceChoice(driver=other))
    gpu_expr = open_expr_gpu(choice=DeviceChoice(driver=other))
    try:
        assert isinstance(gpu_expr, ExprChild) and gpu_expr.info["process"] == "child"
        assert renderer_family(gpu_expr.info["renderer"]) == other
        free = gpu_expr.run(ev.program, ev.slots, variant="free")
        assert [f"0x{int(w):08X}" for w in free] == want
        here = ExprRunner(gpu)
        mine = here.run(ev.program, ev.slots, variant="free")
        here.close()
        if {other, _family(gpu)} == set(SOFTWARE_DRIVERS):  # the two drivers differ here
            assert [int(w) for w in mine] != [int(w) for w in free]
    finally:
        gpu_expr.close()


@pytest.mark.gpu
def test_a_gpu_process_that_stops_is_said_in_one_line(gpu):
    """The child dies (killed, a driver crash): the capture raises GpuUnavailable naming
    the process and its exit code, not a hang or a traceback from the pipe; the runner
    says it is gone, and closing it is quiet."""
    family = renderer_family(gpu.info["renderer"])
    child = ExprChild(choice=DeviceChoice(driver=family if family in SOFTWARE_DRIVERS else None))
    try:
        p = lower("a + b", {"a": "float", "b": "float"})
        assert int(child.run(p, [np.uint32(0x3F800000)] * 2)[0]) == 0x40000000
        child.session._proc.kill()
        child.session._proc.join(10)
        with pytest.raises(GpuUnavailable, match=r"GPU process .* stopped \(exit code -9\)"):
            child.run(p, [np.uint32(0x3F800000)] * 2)
        assert not child.alive
    finally:
        child.close()


@pytest.mark.gpu
def test_a_device_that_does_not_exist_is_one_line(gpu):
    with pytest.raises(DeviceUnavailable, match="no GL device 99"):
        ExprChild(choice=DeviceChoice(99))
