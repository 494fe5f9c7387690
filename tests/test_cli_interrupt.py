"""Ctrl-C helpers of the CLI: the first SIGINT only asks long work to stop, a second one
aborts; while a child process starts, SIGINT is held (the child inherits the block, ours is
delivered afterwards, not lost). Oracle: the kernel's own view, /proc/PID/status."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
import threading

import pytest

from fpinspector.commands._sweep.interrupt import interrupts_held, stop_on_interrupt

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and sigmask")


def _blocked_signals(q) -> None:
    with open("/proc/self/status") as fh:
        line = next(x for x in fh if x.startswith("SigBlk:"))
    q.put(int(line.split()[1], 16))


@pytest.fixture
def sigint(request):
    """SIGINT set to the disposition the test names (Python's default handler, or ignored
    as a shell leaves it for a background command), put back afterwards."""
    old = signal.signal(signal.SIGINT, request.param)
    yield request.param
    signal.signal(signal.SIGINT, old)


@pytest.mark.parametrize("sigint", [signal.default_int_handler], indirect=True)
def test_first_interrupt_stops_second_aborts(capsys, sigint):
    with stop_on_interrupt("stopping") as stop:
        os.kill(os.getpid(), signal.SIGINT)
        assert stop.is_set() and "stopping" in capsys.readouterr().err
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):  # give the interpreter a chance to run the handler
                pass
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.parametrize("sigint", [signal.SIG_IGN], indirect=True)
def test_an_ignored_interrupt_stays_ignored(capsys, sigint):
    """A sweep a shell started in the background (SIGINT ignored) is not stopped by the
    terminal's Ctrl-C meant for the foreground job."""
    with stop_on_interrupt("stopping") as stop:
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            pass
        assert not stop.is_set() and "stopping" not in capsys.readouterr().err
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


@linux
@pytest.mark.parametrize("sigint", [signal.default_int_handler], indirect=True)
def test_children_start_with_sigint_held_and_ours_is_not_lost(sigint):
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    with stop_on_interrupt("stopping") as stop:
        with interrupts_held():
            p = ctx.Process(target=_blocked_signals, args=(q,), daemon=True)
            p.start()
            # to this thread: a process-wide kill may be taken by another thread of the
            # test run (a pool's, Qt's) that does not block it, and then runs at once
            signal.pthread_kill(threading.get_ident(), signal.SIGINT)  # arrives while held
            assert not stop.is_set()
        for _ in range(1000):
            pass
        assert stop.is_set()  # delivered when the block ended
        child_blocked = q.get(timeout=30)
        p.join(30)
    assert child_blocked & (1 << (signal.SIGINT - 1))
