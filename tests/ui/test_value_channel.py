"""The app's channel for values from debuggers (ui/value_channel.py): a value sent by
``fpinspector send`` (a real subprocess) or a raw socket client lands like a paste (the
message says where it came from, History records it, one undo step); garbage, half-sent,
oversized, too fast and too many clients are answered with a reason or dropped, and the
app keeps answering. The channel is per user (a private directory, a user-only socket)."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import threading
import time

import pytest

from fpinspector.model.send import channel
from fpinspector.model.send.message import MAX_MESSAGE_BYTES
from fpinspector.ui.shell import value_channel
from fpinspector.ui.shell.value_channel import ValueChannel

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="raw Unix-socket clients")


@pytest.fixture
def address(tmp_path, monkeypatch):
    path = str(tmp_path / "fpi.sock")
    monkeypatch.setenv(channel.ENV, path)
    return path


@pytest.fixture
def listening(make_window, address):
    win = make_window()
    ch = ValueChannel(win.ctl.receive, win)
    assert ch.listen() is None
    yield win, ch
    ch.close()


def _in_thread(fn):
    box = {}

    def run():
        try:
            box["value"] = fn()
        except Exception as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, box


def _ask(wait_for, fn, timeout_ms=20000):
    """Run a blocking client on a thread while the event loop serves it."""
    t, box = _in_thread(fn)
    assert wait_for(lambda: not t.is_alive(), timeout_ms)
    if "error" in box:
        raise box["error"]
    return box["value"]


def _raw(address: str, data: bytes, close_early: bool = False, timeout: float = 10.0) -> bytes:
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(timeout)
    s.connect(address)
    try:
        s.sendall(data)
        if close_early:
            return b""
        buf = b""
        while b"\n" not in buf:
            chunk = s.recv(4096)
            if not chunk:
                break
            buf += chunk
        return buf
    finally:
        s.close()


def _env(address: str) -> dict:
    return {**os.environ, channel.ENV: address, "QT_QPA_PLATFORM": "offscreen"}


def test_send_from_a_subprocess_sets_the_value_with_its_origin(listening, wait_for, address):
    """`fpinspector send` reaches the running app: the value, the origin in the message
    area, one History entry, one undo step."""
    win, ch = listening
    before = win.state.snapshot
    res = _ask(wait_for, lambda: subprocess.run(
        [sys.executable, "-m", "fpinspector", "send", "--no-start", "--format", "f16",
         "--bytes", "00 3c 00 c0", "--label", "$h"], env=_env(address),
        capture_output=True, text=True, timeout=120), 130000)
    assert res.returncode == 0, res.stderr
    s = win.state.snapshot
    assert (s.fmt, s.bits) == ("f16", 0x3C00)
    msg = win.paste_box.message.text()
    assert msg.startswith("from the command line: `$h` lanes 0-1, f16")
    assert res.stdout.strip() == msg
    assert win.history.entries()[0] == ("f16", 0x3C00)
    win.state.undo()
    assert win.state.snapshot == before


def test_refused_value_says_why_and_changes_nothing(listening, wait_for, address):
    win, ch = listening
    win.state.update(op="mul")
    before = win.state.snapshot
    line = json.dumps({"format": "f32", "lanes": ["0x3f800000"], "to": "C"})
    ok, text = json.loads(_ask(wait_for, lambda: _raw(address, line.encode() + b"\n")))["ok"], \
        win.paste_box.message.text()
    assert not ok and "there is no C" in text
    assert win.state.snapshot == before


def test_fuzz_garbage_halves_oversized_and_crowds(listening, wait_for, address):
    """Whatever clients do, each gets a reason or is dropped, and the app still takes a
    good value afterwards."""
    win, ch = listening
    rng = __import__("random").Random(7)
    garbage = [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))) + b"\n"
               for _ in range(25)]
    replies = _ask(wait_for, lambda: [_raw(address, g) for g in garbage], 60000)
    for r in replies:  # each one answered, none taken
        assert r.endswith(b"\n") and json.loads(r)["ok"] is False
    _ask(wait_for, lambda: [_raw(address, b'{"format": "f32", "lan', close_early=True)
                            for _ in range(10)])
    assert wait_for(lambda: ch.counts.get("partial", 0) == 10)
    big = _ask(wait_for, lambda: _raw(address, b"x" * (MAX_MESSAGE_BYTES * 4)))
    assert "too long" in json.loads(big)["error"]

    def crowd():
        socks = []
        for _ in range(value_channel.MAX_CLIENTS + 8):  # more than the app keeps open
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(10)
            s.connect(address)
            socks.append(s)
        out = []
        for s in socks:
            try:
                out.append(s.recv(4096))
            except OSError:
                out.append(b"")
            s.close()
        return out

    # the ones over the limit are told so; the others time out with "incomplete"
    got = _ask(wait_for, crowd, 60000)
    texts = [json.loads(g)["error"] for g in got if g]
    assert any("busy" in t for t in texts) and any("incomplete" in t for t in texts)
    time.sleep(1.1)  # the rate limit's bucket refills
    good = json.dumps({"format": "f32", "lanes": ["0x40490fdb"], "label": "pi", "source": "gdb"})
    reply = json.loads(_ask(wait_for, lambda: _raw(address, good.encode() + b"\n")))
    assert reply["ok"] and win.state.snapshot.bits == 0x40490FDB


def test_a_message_in_pieces_is_taken(listening, wait_for, address):
    """A message written in several pieces (a slow sender) is one message: the channel
    gathers the pieces until the end of line."""
    win, ch = listening
    line = b'{"format": "f16", "lanes": ["0x3555"], "label": "third", "source": "lldb"}\n'

    def slow():
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(10)
        s.connect(address)
        try:
            for i in range(0, len(line), 7):
                s.sendall(line[i:i + 7])
                time.sleep(0.02)
            return s.recv(4096)
        finally:
            s.close()

    reply = json.loads(_ask(wait_for, slow))
    assert reply["ok"], reply
    assert (win.state.snapshot.fmt, win.state.snapshot.bits) == ("f16", 0x3555)


def test_value_during_a_long_paste_is_refused_not_overwritten(listening, wait_for, address,
                                                              monkeypatch):
    """While a long paste is read on a thread its result would land over a sent value: the
    sender is told to send again, and the state is left to the paste."""
    win, ch = listening
    monkeypatch.setattr(win.paste_box, "busy", lambda: True)
    before = win.state.snapshot
    line = b'{"format": "f32", "lanes": ["0x3f800000"]}\n'
    reply = json.loads(_ask(wait_for, lambda: _raw(address, line)))
    assert not reply["ok"] and "long paste" in reply["error"]
    assert win.state.snapshot == before


def test_rate_limit_drops_a_flood(listening, wait_for, address):
    win, ch = listening
    line = b'{"format": "f32", "lanes": ["0x3f800000"]}\n'
    replies = _ask(wait_for, lambda: [json.loads(_raw(address, line))
                                      for _ in range(value_channel.RATE * 3)], 60000)
    assert any(not r["ok"] and "too many" in r["error"] for r in replies)
    assert sum(r["ok"] for r in replies) >= value_channel.RATE


def test_channel_is_private_and_one_per_user(make_window, tmp_path, monkeypatch):
    monkeypatch.delenv(channel.ENV, raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", "")
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    win = make_window()
    ch = ValueChannel(win.ctl.receive, win)
    assert ch.listen() is None
    try:
        path = channel.address()
        assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
        assert not stat.S_IMODE(os.stat(path).st_mode) & 0o077  # the user only
        other = ValueChannel(win.ctl.receive, win)
        assert other.listen() == "another fpinspector app listens for debuggers"
    finally:
        ch.close()


def test_a_dead_apps_socket_is_replaced(make_window, address):
    s = socket.socket(socket.AF_UNIX)
    s.bind(address)  # a socket file nobody listens on (an app that died)
    s.close()
    win = make_window()
    ch = ValueChannel(win.ctl.receive, win)
    assert ch.listen() is None
    ch.close()


def test_second_launch_hands_its_values_to_the_first(listening, wait_for, address):
    win, ch = listening
    res = _ask(wait_for, lambda: subprocess.run(
        [sys.executable, "-m", "fpinspector", "gui", "--no-gpu", "0x40000000"],
        env=_env(address), capture_output=True, text=True, timeout=120), 130000)
    assert res.returncode == 0 and "took the values" in res.stdout, res.stderr
    assert (win.state.snapshot.fmt, win.state.snapshot.bits) == ("f32", 0x40000000)


@pytest.mark.slow
def test_send_starts_the_app_when_none_runs_and_waits_until_it_listens(address):
    env = {**_env(address), "FPINSPECTOR_SEND_WAIT": "240"}
    res = subprocess.run([sys.executable, "-m", "fpinspector", "send", "0x3fc00000"],
                         env=env, capture_output=True, text=True, timeout=300)
    pid = None
    try:
        assert res.returncode == 0, res.stderr
        assert res.stdout.startswith("from the command line: `0x3fc00000` one lane, f32")
        pid = json.loads(channel.request(json.dumps({"activate": []})))["pid"]
    finally:
        if pid:
            os.kill(pid, 15)


def test_gdb_and_lldb_fpi_reach_the_running_app(listening, wait_for, address, tmp_path):
    """`fpi` in real gdb and lldb sets the value in the app: the exact bits, the origin."""
    import shutil as sh

    from tests.test_debugger_fpi import SOURCE, _lldb_python_path, script_path

    gdb, lldb, gcc = sh.which("gdb"), sh.which("lldb") or sh.which("lldb-14"), sh.which("gcc")
    if not (gdb and lldb and gcc):
        pytest.skip("needs gdb, lldb and gcc (scripts/bootstrap.sh installs them)")
    prog = tmp_path / "values"
    subprocess.run([gcc, "-g", "-O0", str(SOURCE), "-o", str(prog)], check=True, timeout=120)
    win, ch = listening
    env = _env(address)
    res = _ask(wait_for, lambda: subprocess.run(
        [gdb, "-nx", "-batch", "-ex", f"source {script_path('gdb')}", "-ex", "break stop",
         "-ex", "run", "-ex", "fpi --to inspector d", str(prog)], env=env,
        capture_output=True, text=True, timeout=120), 130000)
    assert "from gdb: `d` one lane, f64" in res.stdout, res.stdout + res.stderr
    assert (win.state.snapshot.fmt, win.state.snapshot.bits) == ("f64", 0x3FB999999999999A)
    assert win.paste_box.message.text().startswith("from gdb: `d` one lane, f64")
    if _lldb_python_path():
        env["PYTHONPATH"] = _lldb_python_path()
    res = _ask(wait_for, lambda: subprocess.run(
        [lldb, "-b", "-o", f"command script import {script_path('lldb')}", "-o", "b stop",
         "-o", "run", "-o", "fpi harr", str(prog)], env=env, capture_output=True, text=True,
        timeout=180), 190000)
    assert "from lldb: `harr` lanes 0-2, f16" in res.stdout, res.stdout + res.stderr
    s = win.state.snapshot
    assert (s.fmt, s.bits) == ("f16", 0x3C00) and s.operands[:2] == (0x3C00, 0x7BFF)


def test_renderdoc_extension_reaches_the_running_app(listening, wait_for, address,
                                                     monkeypatch):
    """The extension's message of a known vertex (rd_values) goes through its own
    delivery (``fpinspector send -``) into the app, bits exact, origin named."""
    import importlib.util
    import struct
    import types

    from fpinspector.commands.debugger_script import script_path

    ext = script_path("renderdoc")
    for name in ("qrenderdoc", "renderdoc"):  # only RenderDoc's UI has them; unused here
        monkeypatch.setitem(sys.modules, name, sys.modules.get(name) or types.ModuleType(name))
    spec = importlib.util.spec_from_file_location(
        "fpinspector_send", ext / "__init__.py", submodule_search_locations=[str(ext)])
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "fpinspector_send", mod)
    spec.loader.exec_module(mod)
    monkeypatch.setenv("FPINSPECTOR_COMMAND", f"{sys.executable} -m fpinspector")
    line = mod.rd_values.message_line("f32", struct.pack("<3f", 0.1, -1.5, 3.0e38),
                                      "VTX POSITION of vertex 2 (R32G32B32_FLOAT)")
    win, ch = listening
    ok, text = _ask(wait_for, lambda: mod.deliver(line), 130000)
    assert ok, text
    assert text.startswith("from RenderDoc: `VTX POSITION of vertex 2 (R32G32B32_FLOAT)` "
                           "lanes 0-2, f32")
    want = struct.unpack("<3I", struct.pack("<3f", 0.1, -1.5, 3.0e38))
    assert win.state.snapshot.bits == want[0] and win.state.snapshot.operands[:2] == want[:2]
