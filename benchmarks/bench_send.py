"""How long a value takes from a sender to the app's answer (offscreen, GPU off).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_send.py [N]

Prints the median and worst of N requests over the local channel (a socket client on a
thread: connect, write the line, the app checks it, fills the state, redraws its views,
answers) and the wall time of ``fpinspector send --no-start`` as a process (Python start,
imports, the same request). Requests are spaced so the channel's rate limit never drops one.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main(n: int = 20) -> int:
    from PySide6 import QtCore, QtWidgets

    from fpinspector.model.send import channel
    from fpinspector.ui.shell.app import MainWindow
    from fpinspector.ui.shell.value_channel import RATE, ValueChannel

    with tempfile.TemporaryDirectory() as tmp:
        os.environ[channel.ENV] = str(Path(tmp) / "bench.sock")
        app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(sys.argv[:1])
        settings = QtCore.QSettings(str(Path(tmp) / "s.ini"), QtCore.QSettings.Format.IniFormat)
        win = MainWindow(gpu="off", settings=settings, restore=False)
        win.show()
        ch = ValueChannel(win.ctl.receive, win)
        assert ch.listen() is None
        times: list[float] = []
        procs: list[float] = []

        def client() -> None:
            for i in range(n):
                line = ('{"format": "f32", "lanes": ["0x%08x", "0x40000000"], "label": "x", '
                        '"source": "gdb"}' % (0x3F800000 + i))
                t0 = time.perf_counter()
                channel.request(line)
                times.append(time.perf_counter() - t0)
                time.sleep(1.5 / RATE)
            for _ in range(3):
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-m", "fpinspector", "send", "--no-start",
                                "0x3fc00000"], check=True, capture_output=True)
                procs.append(time.perf_counter() - t0)

        t = threading.Thread(target=client)
        t.start()
        while t.is_alive():
            loop = QtCore.QEventLoop()
            QtCore.QTimer.singleShot(10, loop.quit)
            loop.exec()
        ch.close()
        win.shutdown()
        del app
    ms = [x * 1000 for x in times]
    print(f"channel request to answer, {n} requests: median {statistics.median(ms):.1f} ms, "
          f"worst {max(ms):.1f} ms")
    print(f"fpinspector send --no-start (a process): median "
          f"{statistics.median(procs) * 1000:.0f} ms of 3")
    print(f"load average: {open('/proc/loadavg').read().split()[0]}"
          if os.path.exists("/proc/loadavg") else "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
