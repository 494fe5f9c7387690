"""``fpinspector debugger-script gdb|lldb|renderdoc``: where the debugger add-ons are.

The gdb and lldb ``fpi`` commands and the RenderDoc extension ship inside the package
(``fpinspector/resources``); this prints the path to give the debugger, so one line sets
each up (README, "From your debugger")::

    echo "source $(fpinspector debugger-script gdb)" >> ~/.gdbinit
    echo "command script import $(fpinspector debugger-script lldb)" >> ~/.lldbinit
    fpinspector debugger-script renderdoc   # the folder to copy into RenderDoc's extensions
"""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["NAME", "HELP", "add_arguments", "run", "script_path", "SCRIPTS"]

NAME = "debugger-script"
HELP = "print the path of the gdb or lldb 'fpi' command file, or of the RenderDoc extension"
#: The add-on of each debugger, relative to fpinspector/resources.
SCRIPTS = {"gdb": "fpi_gdb.py", "lldb": "fpi_lldb.py", "renderdoc": "renderdoc/fpinspector_send"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("debugger", choices=list(SCRIPTS),
                   help="gdb: a file for 'source'; lldb: a file for 'command script import'; "
                   "renderdoc: the extension's folder (with extension.json)")


def script_path(debugger: str) -> Path:
    """The add-on's absolute path inside the installed package."""
    return Path(__file__).resolve().parents[1] / "resources" / SCRIPTS[debugger]


def run(args: argparse.Namespace) -> int:
    path = script_path(args.debugger)
    if not path.exists():
        raise OSError(f"{path} is missing from this installation")
    print(path)
    return 0
