"""The app's local channel: values sent from gdb, lldb, RenderDoc or ``fpinspector send``.

A ``QLocalServer`` at the user's own address (``model/send/channel.py``: a Unix socket in
a directory only the user may enter, or a named pipe Qt limits to the user; never a
network port). One message a connection: a line of JSON (``model/send/message.py``), one
line back, the app's answer. Everything is bounded and nothing waits: a message longer
than ``MAX_MESSAGE_BYTES`` is refused as soon as it is, one without its end of line within
``PARTIAL_TIMEOUT_MS`` is dropped, at most ``MAX_CLIENTS`` connections are open and
``RATE`` messages a second are taken; garbage gets the reason back. Reading is driven by
Qt's ``readyRead``, so a client that stops half-way blocks nothing.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable

from PySide6 import QtCore, QtNetwork

from ...model.send import channel
from ...model.send.message import (
    MAX_MESSAGE_BYTES,
    Activate,
    Message,
    MessageError,
    parse_request,
    reply_to_json,
)

__all__ = ["ValueChannel", "open_for", "MAX_CLIENTS", "RATE", "PARTIAL_TIMEOUT_MS"]

#: Most connections open at once; one more is told the app is busy.
MAX_CLIENTS = 16
#: Most messages taken a second (a burst of as many, then this rate).
RATE = 20
#: How long a connection may take to deliver its line.
PARTIAL_TIMEOUT_MS = 2000

Handler = Callable[[Message | Activate], tuple[bool, str]]


class ValueChannel(QtCore.QObject):
    """Listens for sent values and hands each, checked, to ``handler`` (on the UI
    thread), which returns (ok, text): the answer the sender gets.

    Attributes
    ----------
    counts : dict
        How many connections ended how (``taken``, ``refused``, ``garbage``, ``oversized``,
        ``partial``, ``timeout``, ``busy``, ``rate``): for tests and the curious.
    """

    def __init__(self, handler: Handler, parent: QtCore.QObject | None = None) -> None:
        super().__init__(parent)
        self._handler = handler
        self.server = QtNetwork.QLocalServer(self)
        self.server.setSocketOptions(QtNetwork.QLocalServer.SocketOption.UserAccessOption)
        self.server.setMaxPendingConnections(MAX_CLIENTS)
        self.server.newConnection.connect(self._accept)
        self._clients: dict[QtNetwork.QLocalSocket, bytearray] = {}
        self._tokens = float(RATE)
        self._last = time.monotonic()
        self.counts: dict[str, int] = {}

    @property
    def name(self) -> str:
        """Where it listens (``model/send/channel.py``: per user, or ``$FPINSPECTOR_CHANNEL``)."""
        return channel.server_name()

    def listen(self) -> str | None:
        """Start listening; None when it does, else why not (another app listens there,
        the address cannot be made private...). A socket left by an app that died is
        removed first."""
        try:
            name = self.name
        except OSError as exc:
            return str(exc)
        # first ask: with the user-only option Qt binds elsewhere and renames the socket
        # into place, which would silently take the address from a running app
        if channel.listening():
            return "another fpinspector app listens for debuggers"
        QtNetwork.QLocalServer.removeServer(name)  # a socket file left by an app that died
        if self.server.listen(name):
            return None
        return f"cannot listen at {name}: {self.server.errorString()}"

    def close(self) -> None:
        """Stop listening and drop every open connection."""
        self.server.close()
        for sock in list(self._clients):
            sock.abort()
        self._clients.clear()

    # -- connections ------------------------------------------------------------------
    def _count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def _accept(self) -> None:
        while self.server.hasPendingConnections():
            sock = self.server.nextPendingConnection()
            if sock is None:
                break
            if len(self._clients) >= MAX_CLIENTS:
                self._count("busy")
                self._answer(sock, False, "busy: too many open connections; try again")
                continue
            self._clients[sock] = bytearray()
            sock.readyRead.connect(lambda s=sock: self._read(s))
            sock.disconnected.connect(lambda s=sock: self._drop(s, "partial"))
            timer = QtCore.QTimer(sock)
            timer.setSingleShot(True)
            timer.timeout.connect(lambda s=sock: self._timeout(s))
            timer.start(PARTIAL_TIMEOUT_MS)
            if sock.bytesAvailable():
                self._read(sock)

    def _drop(self, sock: QtNetwork.QLocalSocket, why: str) -> None:
        buf = self._clients.pop(sock, None)
        if buf is not None and why == "partial" and buf:
            self._count("partial")  # the client left half-way: its bytes are dropped
        sock.deleteLater()

    def _timeout(self, sock: QtNetwork.QLocalSocket) -> None:
        if sock in self._clients:
            self._count("timeout")
            self._finish(sock, False, f"incomplete message: no end of line within "
                         f"{PARTIAL_TIMEOUT_MS / 1000:g} s")

    def _read(self, sock: QtNetwork.QLocalSocket) -> None:
        buf = self._clients.get(sock)
        if buf is None:
            sock.readAll()  # answered already: the rest is not read
            return
        room = MAX_MESSAGE_BYTES + 1 - len(buf)
        buf += bytes(sock.read(room).data())
        end = buf.find(b"\n")
        if end < 0:
            if len(buf) > MAX_MESSAGE_BYTES:
                self._count("oversized")
                self._finish(sock, False, f"message too long (more than {MAX_MESSAGE_BYTES} "
                             "bytes without an end of line)")
            return
        line = bytes(buf[:end])
        if not self._take_token():
            self._count("rate")
            self._finish(sock, False, f"too many messages (at most {RATE} a second): "
                         "this one was dropped")
            return
        ok, text = self._handle(line)
        self._finish(sock, ok, text)

    def _take_token(self) -> bool:
        now = time.monotonic()
        self._tokens = min(float(RATE), self._tokens + (now - self._last) * RATE)
        self._last = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    def _handle(self, line: bytes) -> tuple[bool, str]:
        try:
            request = parse_request(line.rstrip(b"\r"))
        except MessageError as exc:
            self._count("garbage")
            return False, str(exc)
        try:
            ok, text = self._handler(request)
        except Exception as exc:  # noqa: BLE001 - a sender never takes the app down
            ok, text = False, f"internal error ({type(exc).__name__}): {exc}"
        self._count("taken" if ok else "refused")
        return ok, text

    def _finish(self, sock: QtNetwork.QLocalSocket, ok: bool, text: str) -> None:
        self._clients.pop(sock, None)
        self._answer(sock, ok, text)

    def _answer(self, sock: QtNetwork.QLocalSocket, ok: bool, text: str) -> None:
        """Write the one-line answer and close once it is written (never waits here)."""
        sock.write(QtCore.QByteArray((reply_to_json(ok, text, os.getpid()) + "\n")
                                     .encode("utf-8")))
        sock.flush()
        sock.disconnectFromServer()
        if sock.state() == QtNetwork.QLocalSocket.LocalSocketState.UnconnectedState:
            sock.deleteLater()
        else:
            sock.disconnected.connect(sock.deleteLater)


def open_for(win: QtCore.QObject, values: tuple[str, ...] = ()) -> ValueChannel | None:
    """Listen for a main window (its controller takes the values, ``Controller.receive``).
    None when another app of this user won the race to listen: the values are handed to
    it and this app should quit; otherwise the channel (not listening, with the reason in
    the status bar, when the address cannot be used)."""
    ch = ValueChannel(win.ctl.receive, win)
    why = ch.listen()
    if why and channel.listening():
        try:
            channel.request(json.dumps({"activate": list(values)}))
            return None
        except OSError:
            pass  # it went away: keep this app, without the channel
    if why:
        win.statusBar().showMessage(f"Not listening for debuggers: {why}", 15000)
    elif values:
        win.ctl.paste(" ".join(values))
    return ch
