"""README screenshot of a value sent from gdb: real gdb, real ``fpi $xmm0``, the real app.

    .venv/bin/python scripts/screenshot_from_debugger.py docs/screenshots/from-gdb.png

Starts a private Xvfb (1366x768), the app listening on a channel of its own, compiles
tests/data/send/values.c (xmm0 holds 1.0, -2.5, 2^-149, 3e38 at the breakpoint), runs gdb
with ``fpi $xmm0`` and saves the window once the value arrived. x86-64 Linux with gcc and
gdb (scripts/bootstrap.sh installs them).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(out: str) -> int:
    from PySide6 import QtCore, QtWidgets

    from fpinspector.commands.debugger_script import script_path
    from fpinspector.ui import palette
    from fpinspector.ui.shell.app import MainWindow
    from fpinspector.ui.shell.screenshots import _settle, private_xvfb
    from fpinspector.ui.shell.value_channel import ValueChannel

    gcc, gdb = shutil.which("gcc"), shutil.which("gdb")
    if not (gcc and gdb):
        print("needs gcc and gdb", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp, private_xvfb() as display:
        os.environ["DISPLAY"] = display
        os.environ["QT_QPA_PLATFORM"] = "xcb"
        os.environ["FPINSPECTOR_CHANNEL"] = str(Path(tmp) / "channel.sock")
        prog = Path(tmp) / "values"
        subprocess.run([gcc, "-g", "-O0", str(ROOT / "tests/data/send/values.c"), "-o",
                        str(prog)], check=True)
        app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(sys.argv[:1])
        palette.apply_system_palette(app)
        settings = QtCore.QSettings(str(Path(tmp) / "s.ini"), QtCore.QSettings.Format.IniFormat)
        win = MainWindow(settings=settings, restore=False, gpu="off")
        ch = ValueChannel(win.ctl.receive, win)
        why = ch.listen()
        if why:
            print(why, file=sys.stderr)
            return 1
        win.show()
        _settle(1500)
        done: list[subprocess.CompletedProcess] = []
        t = threading.Thread(target=lambda: done.append(subprocess.run(
            [gdb, "-nx", "-batch", "-ex", f"source {script_path('gdb')}", "-ex", "break stop",
             "-ex", "run", "-ex", "fpi $xmm0", str(prog)], capture_output=True, text=True)))
        t.start()
        while t.is_alive():
            _settle(100)
        print(done[0].stdout.strip().splitlines()[-1])
        _settle(1000)
        win.grab().save(out)
        win.shutdown()
        ch.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots/from-gdb.png"))
