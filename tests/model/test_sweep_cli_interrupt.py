"""``fpinspector sweep`` loses nothing: Ctrl-C saves what was done (complete: false) and says
so; a run killed with SIGKILL resumes from its last checkpoint to the same file an
uninterrupted run writes (the oracle: that uninterrupted run)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from _sweep_compare import assert_same_sweep

from fpinspector.cli import main
from fpinspector.model.sweep import load_npz

pytest.importorskip("fpinspector.model.engine")
posix_only = pytest.mark.skipif(os.name != "posix", reason="signals")

# a child whose model stage sleeps per chunk, so a kill lands mid-sweep deterministically
SLOW_CHILD = """
import sys, time
from fpinspector.model.expr import sweep as expr_sweep
from fpinspector.model.sweep import stages
for cls in (stages.ModelStage, expr_sweep.ExprStage):
    cls.__call__ = (lambda call: lambda self, ops: (time.sleep(0.03), call(self, ops))[1])(
        cls.__call__)
from fpinspector.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _same_sweep(a, b):
    assert a.n_done == a.domain.size
    assert_same_sweep(a, b)


#: an op, and an expression (its own stage and plan, the same saving and resuming)
WHAT = {"op": ["sqrt"], "expression": ["--expr", "sqrt(abs(a)) * 3.0 - a"]}


@posix_only
@pytest.mark.parametrize("what", sorted(WHAT))
@pytest.mark.parametrize("extra", [[], ["--summary-only"]])
def test_sigkill_after_a_checkpoint_then_resume_equals_an_uninterrupted_run_F16_PREC(
        tmp_path, extra, what):
    args = ["sweep", *WHAT[what], "-f", "f16", "-d", "all", "--chunk", "512", "--top", "5",
            *extra]
    whole = tmp_path / "whole.npz"
    assert main([*args, "--out", str(whole), "-q"]) == 0
    part = tmp_path / "part.npz"
    p = subprocess.Popen([sys.executable, "-c", SLOW_CHILD, *args, "--out", str(part),
                          "--checkpoint", "0.2", "-q"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not part.exists():
            assert p.poll() is None, p.stderr.read().decode()
            assert time.monotonic() < deadline, "no checkpoint written"
            time.sleep(0.02)
        p.send_signal(signal.SIGKILL)
    finally:
        p.wait()
        p.stderr.close()
    saved = load_npz(part, require_complete=False)
    assert not saved.complete and 0 < saved.n_done < 65536
    assert main([*args, "--out", str(part), "--resume", "-q"]) == 0
    _same_sweep(load_npz(part), load_npz(whole))
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


def _as_from_a_terminal() -> None:
    """The child's SIGINT as a terminal's foreground command has it (the default), whatever
    the test run's own (a run started in the background has it ignored, which the sweep
    then honours: tests/test_cli_interrupt.py)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@posix_only
@pytest.mark.parametrize("what", sorted(WHAT))
def test_ctrl_c_saves_the_partial_sweep_and_says_so(tmp_path, what):
    out = tmp_path / "s.npz"
    p = subprocess.Popen([sys.executable, "-m", "fpinspector", "sweep", *WHAT[what], "-d", "all",
                          "--summary-only", "--out", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=_as_from_a_terminal)
    try:
        seen = ""
        while "M/s" not in seen:  # the sweep is under way: its progress line is out
            ch = p.stderr.read(1)
            assert ch, "no progress"
            seen += ch
        p.send_signal(signal.SIGINT)
        stdout, stderr = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, stderr
    assert "interrupted after" in stderr and "--resume" in stderr and "Traceback" not in stderr
    assert "elements:" in stdout  # the summary of what was done is still printed
    res = load_npz(out, require_complete=False)
    assert not res.complete and 0 < res.n_done < 1 << 32
    assert res.summary.total == res.n_done


def test_resume_refuses_a_different_command(tmp_path, capsys):
    out = tmp_path / "s.npz"
    assert main(["sweep", "sqrt", "-f", "f16", "-d", "bits:0:999", "--out", str(out), "-q"]) == 0
    rc = main(["sweep", "sqrt", "-f", "f16", "-d", "bits:0:998", "--out", str(out), "--resume"])
    assert rc == 2 and "it was started with --domain" in capsys.readouterr().err
    rc = main(["sweep", "sqrt", "-f", "f16", "-d", "bits:0:999", "--rules", "d3d10",
               "--out", str(out), "--resume"])
    assert rc == 2 and "--rules 'd3d11'" in capsys.readouterr().err
    rc = main(["sweep", "sqrt", "-f", "f16", "-d", "bits:0:999", "--out", str(out), "--resume"])
    assert rc == 0 and "already complete" in capsys.readouterr().out
    tail = ["-f", "f16", "-d", "bits:0:999", "--out", str(out)]
    assert main(["sweep", "--expr", "a * b", "--set", "b=3", *tail, "-q"]) == 0
    for other, flag in ((["a * b", "--set", "b=2"], "--set"), (["a * b", "--set", "a=3"], "--axes"),
                        (["a * b + 0.0", "--set", "b=3"], "--expr")):
        rc = main(["sweep", "--expr", *other, *tail, "--resume"])
        assert rc == 2 and f"it was started with {flag}" in capsys.readouterr().err, other
    rc = main(["sweep", "sqrt", "-f", "f16", "-d", "bits:0:999", "--out", str(out), "--resume"])
    assert rc == 2 and "it was started with op 'expr'" in capsys.readouterr().err


@posix_only
def test_killing_a_sweep_on_worker_processes_leaves_no_traceback():
    """A sweep on worker processes (2^32 elements) whose parent is killed mid-run: the
    workers find the parent gone and exit without a traceback on the shared terminal."""
    p = subprocess.Popen([sys.executable, "-m", "fpinspector", "sweep", "sqrt", "-d", "all",
                          "--summary-only", "--workers", "2"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        seen = ""
        while "M/s" not in seen:  # under way: the workers are computing chunks
            ch = p.stderr.read(1)
            assert ch, "no progress"
            seen += ch
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=30)
        rest = p.stderr.read()  # (until every worker, which shares the pipe, has gone)
    finally:
        if p.poll() is None:
            p.kill()
        p.stderr.close()
    assert "Traceback" not in rest and "Error" not in rest, rest
