"""decode - / convert - read at most 4 MiB of standard input: an endless pipe (`yes |`) is
refused with one line and exit 2, never read until memory runs out."""

from __future__ import annotations

import io
import subprocess
import sys
import types

import pytest

from fpinspector.cli import main
from fpinspector.commands._readout import STDIN_BYTES


class _Endless(io.RawIOBase):
    def __init__(self) -> None:
        self.taken = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # noqa: ANN001
        b[:] = b"y\n" * (len(b) // 2) + b"y" * (len(b) % 2)
        self.taken += len(b)
        return len(b)


@pytest.mark.parametrize("cmd", [["decode", "-"], ["convert", "-", "--to", "f16"]])
def test_an_endless_stdin_is_refused_after_the_cap(cmd, monkeypatch, capsys):
    src = _Endless()
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=src))
    assert main(cmd) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith(f"standard input: more than {STDIN_BYTES:,} bytes; refused before "
                        "reading the rest") and "\n" not in err
    assert src.taken <= STDIN_BYTES + 1


def test_a_normal_paste_on_stdin_still_reads(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=io.BytesIO(b"0x3f800000\n")))
    assert main(["decode", "-"]) == 0
    assert "0x3F800000" in capsys.readouterr().out


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell pipe")
def test_yes_piped_into_decode_ends_at_once():
    p = subprocess.run(["sh", "-c", f"yes | {sys.executable} -m fpinspector decode -"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "more than" in p.stderr and "Traceback" not in p.stderr
