"""The CLI behaves like a Unix tool when its reader stops early (`... | head`)."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.slow
def test_closed_pipe_exits_quietly() -> None:
    """Many lines into a pipe closed after one line: exit 0, nothing on stderr."""
    cmd = [sys.executable, "-m", "fpinspector", "decode"] + [f"0x{i:04x}" for i in range(3000)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()  # the reader goes away, as `head -1` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert first.startswith(b"0x0000") and err == ""
