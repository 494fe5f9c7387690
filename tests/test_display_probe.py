"""The app never dies with SIGABRT for want of a display: an unreachable X display, xcb with no
DISPLAY, or a dead Wayland socket is a one-line error with exit status 2; a live display
(a private Xvfb) passes the probe. Oracle: a real X server, and Qt's own plugin names."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time

import pytest

from fpinspector.commands._display_probe import display_problem, probe_display

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland: Linux")


def _cli(env_over):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(env_over)
    return subprocess.run([sys.executable, "-m", "fpinspector"], env=env, capture_output=True,
                          text=True, timeout=60)


@linux
@pytest.mark.parametrize("env", [
    {"DISPLAY": ":97531"},
    {"DISPLAY": ":97531", "QT_QPA_PLATFORM": "xcb"},
    {"QT_QPA_PLATFORM": "xcb"},
    {"WAYLAND_DISPLAY": "no-such-wayland", "QT_QPA_PLATFORM": "wayland",
     "XDG_RUNTIME_DIR": "/tmp"},
])
def test_unreachable_displays_exit_2_with_a_message_not_sigabrt(env):
    r = _cli(env)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "cannot open a window" in r.stderr and "QT_QPA_PLATFORM=offscreen" in r.stderr
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1


def test_plugins_without_a_display_are_not_probed():
    def boom(kind, name, env):
        raise AssertionError("probed")

    for qpa in ("offscreen", "minimal", "eglfs", "vnc:size=800x600", "xcb;offscreen"):
        assert display_problem({"QT_QPA_PLATFORM": qpa}, "linux", probe=boom) is None
    assert display_problem({}, "win32", probe=boom) is None


def test_any_reachable_candidate_is_enough():
    seen = []

    def only_x11(kind, name, env):
        seen.append(kind)
        return None if kind == "x11" else "dead"

    env = {"WAYLAND_DISPLAY": "w-0", "DISPLAY": ":1"}
    assert display_problem(env, "linux", probe=only_x11) is None and seen == ["wayland", "x11"]
    msg = display_problem(env, "linux", probe=lambda k, n, e: f"{k} dead")
    assert "wayland dead" in msg and "x11 dead" in msg


@linux
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb")
def test_a_live_x_server_passes_the_probe():
    # -displayfd: Xvfb picks a free display itself (other test runs may start theirs too);
    # -noreset: an X server resets when its last client leaves, and refuses connections
    # while it does: each probe below connects and leaves, so the next one could be refused
    # (a desktop's server always has clients: its window manager)
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-noreset", "-screen", "0",
                             "320x240x24", "-nolisten", "tcp"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        n = int(xvfb.stdout.readline())
        deadline = time.monotonic() + 20
        while probe_display("x11", f":{n}", {}) is not None:
            assert xvfb.poll() is None and time.monotonic() < deadline, "Xvfb did not start"
            time.sleep(0.05)
        assert display_problem({"DISPLAY": f":{n}"}, "linux") is None
        assert display_problem({"DISPLAY": f":{n}", "QT_QPA_PLATFORM": "xcb"}, "linux") is None
    finally:
        xvfb.terminate()
        xvfb.wait()


@linux
def test_a_live_wayland_socket_passes(tmp_path):
    with socket.socket(socket.AF_UNIX) as srv:
        srv.bind(str(tmp_path / "wayland-7"))
        srv.listen(1)
        env = {"WAYLAND_DISPLAY": "wayland-7", "XDG_RUNTIME_DIR": str(tmp_path),
               "QT_QPA_PLATFORM": "wayland"}
        assert display_problem(env, "linux") is None


@linux
@pytest.mark.parametrize("qpa", ["nonsense", "x" * 5000])
def test_an_unknown_qt_platform_is_one_line_exit_2_not_sigabrt(qpa):
    """QT_QPA_PLATFORM naming no plugin made Qt abort (SIGABRT, exit 134) with no display;
    now the documented one-line error, exit 2, the value quoted at most ~40 characters.
    Oracle for the plugin names: PySide6's own plugins/platforms folder."""
    r = _cli({"QT_QPA_PLATFORM": qpa})
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "names no Qt platform plugin" in r.stderr and "offscreen" in r.stderr
    assert r.stderr.count("\n") == 1 and len(r.stderr) < 600


def test_unknown_plugins_beside_a_known_one_are_left_to_qt():
    from fpinspector.commands._display_probe import qt_platform_plugins

    assert {"offscreen", "minimal"} <= qt_platform_plugins()
    assert display_problem({"QT_QPA_PLATFORM": "nonsense;offscreen"}, "linux",
                           probe=lambda k, n, e: "dead") is None
