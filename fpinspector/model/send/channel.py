"""The app's local channel: where it listens (per user, never a network port) and a client.

The app listens with Qt's ``QLocalServer`` (``fpinspector/ui/value_channel.py``): a Unix
socket in a directory only the user can enter, or on Windows a named pipe with the user's
name whose access Qt limits to the user. This client speaks to it with the standard library
alone (a Unix socket, or the pipe opened as a file), so the same file serves
``fpinspector send`` and the gdb, lldb and RenderDoc scripts, which load it by its path
into the debugger's own Python.

One request a connection: the client writes one line (a message, see ``message.py``) and
reads one line back, the app's reply.
"""

from __future__ import annotations

import getpass
import os
import re
import socket
import stat
import sys
import tempfile
import time

__all__ = ["ChannelError", "NoListener", "address", "server_name", "request", "listening", "ENV"]

#: Overrides the channel's address (a socket path, or on Windows a pipe name): tests, or
#: two apps side by side.
ENV = "FPINSPECTOR_CHANNEL"
_REPLY_MAX = 65536


class ChannelError(OSError):
    """The app was reached but the exchange failed (no answer in time, a broken reply)."""


class NoListener(ChannelError):
    """No app listens on the channel."""


def _user() -> str:
    try:
        name = getpass.getuser()
    except (OSError, KeyError, ImportError):
        name = "user"
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:64] or "user"


def _private_dir() -> str:
    """A directory only this user may enter: ``$XDG_RUNTIME_DIR`` (the user's own, 0700)
    or ``<tmp>/fpinspector-<uid>``, made 0700 and refused when another user owns it or
    others may enter it."""
    uid = os.getuid()
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime and os.path.isabs(runtime):
        try:
            st = os.stat(runtime)
            if st.st_uid == uid and not st.st_mode & 0o077:
                return runtime
        except OSError:
            pass
    path = os.path.join(tempfile.gettempdir(), f"fpinspector-{uid}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid or st.st_mode & 0o077:
        raise ChannelError(f"{path} is not a private directory of this user (owner "
                           f"{st.st_uid}, mode {stat.filemode(st.st_mode)}): refusing to "
                           "listen or send there")
    return path


def address() -> str:
    """Where the app of this user listens: a Unix socket path, or a Windows pipe path."""
    override = os.environ.get(ENV, "")
    if sys.platform == "win32":
        name = override or f"fpinspector-{_user()}"
        return name if name.startswith("\\\\") else "\\\\.\\pipe\\" + name
    if override:
        return override
    return os.path.join(_private_dir(), "fpinspector.sock")


def server_name() -> str:
    """The name to give ``QLocalServer.listen``: the socket path, or the pipe's name."""
    addr = address()
    return addr.rpartition("\\")[2] if sys.platform == "win32" else addr


def request(line: str, timeout: float = 5.0) -> bytes:
    """Send one line to the app and return its one-line reply (without the newline).

    NoListener when no app listens; ChannelError when the app does not answer within
    ``timeout`` seconds or answers with more than 64 KiB.
    """
    data = (line.rstrip("\n") + "\n").encode("utf-8")
    if sys.platform == "win32":
        return _pipe_request(address(), data, timeout)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        try:
            sock.connect(address())
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            raise NoListener(f"no fpinspector app listens ({exc.strerror})") from None
        except OSError as exc:
            raise NoListener(f"no fpinspector app listens ({exc})") from None
        deadline = time.monotonic() + timeout
        try:
            sock.sendall(data)
            return _read_line(sock.recv, deadline, sock.settimeout)
        except TimeoutError:
            raise ChannelError(f"the app did not answer within {timeout:g} s") from None
    finally:
        sock.close()


def _read_line(recv, deadline: float, set_timeout) -> bytes:  # type: ignore[no-untyped-def]
    buf = b""
    while b"\n" not in buf:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        set_timeout(left)
        chunk = recv(4096)
        if not chunk:
            raise ChannelError("the app closed the connection without an answer")
        buf += chunk
        if len(buf) > _REPLY_MAX:
            raise ChannelError("the app's answer is too long")
    return buf.partition(b"\n")[0]


def _pipe_request(path: str, data: bytes, timeout: float) -> bytes:
    """Windows: the named pipe opened as a file (blocking; the app answers at once)."""
    try:
        f = open(path, "r+b", buffering=0)  # noqa: SIM115
    except FileNotFoundError:
        raise NoListener("no fpinspector app listens (no pipe)") from None
    except OSError as exc:
        raise NoListener(f"no fpinspector app listens ({exc})") from None
    with f:
        f.write(data)
        buf = b""
        while b"\n" not in buf:
            chunk = f.read(4096)
            if not chunk:
                raise ChannelError("the app closed the connection without an answer")
            buf += chunk
            if len(buf) > _REPLY_MAX:
                raise ChannelError("the app's answer is too long")
    return buf.partition(b"\n")[0]


def listening(timeout: float = 1.0) -> bool:
    """Whether an app listens on the channel (a connection opened and closed at once: the
    app drops a client that sends nothing)."""
    if sys.platform == "win32":
        try:
            open(address(), "r+b", buffering=0).close()  # noqa: SIM115
        except OSError:
            return False
        return True
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(address())
    except OSError:
        return False
    finally:
        sock.close()
    return True
