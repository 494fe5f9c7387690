"""Run the CLI in-process with ``stdin`` as standard input: (exit code, stdout, stderr)."""

from __future__ import annotations

import io
import sys

from fpinspector.cli import main


def run_cli(argv, capsys, stdin=""):
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        rc = main(argv)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return rc, out, err
