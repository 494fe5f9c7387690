"""Can a window open here? Probe the X11 / Wayland display before Qt does.

Why: on Linux, Qt aborts the whole process (SIGABRT, exit 134, no message we can catch) when
its platform plugin cannot reach a display: ``DISPLAY=:99`` with no server there, an X
server refusing the connection (authorisation), ``QT_QPA_PLATFORM=xcb`` with no DISPLAY. The
probe connects the way Qt's xcb plugin does (``xcb_connect`` from libxcb, through ctypes) or
opens the display's socket, with a time limit, and says what is wrong.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import socket
import threading
from collections.abc import Callable, Mapping

from ..model.reading import excerpt

__all__ = ["display_problem", "probe_display", "qt_platform_plugins", "HEADLESS_HINT"]

HEADLESS_HINT = ("Run it in a desktop session, or set QT_QPA_PLATFORM=offscreen for a headless "
                 "run; the decode, convert, eval, sweep and gpu-report commands need no display")
#: Qt platform plugins that draw on a display this probe can check.
_DISPLAY_PLUGINS = ("xcb", "wayland", "wayland-egl")
_TIMEOUT = 5.0
#: Qt 6's platform plugin keys (any platform), for when the plugin folder cannot be listed.
_QT_PLATFORMS = frozenset((
    "xcb", "wayland", "wayland-egl", "wayland-brcm", "offscreen", "minimal", "minimalegl",
    "eglfs", "linuxfb", "vnc", "vkkhrdisplay", "windows", "direct2d", "cocoa", "ios",
    "android", "wasm", "haiku", "qnx", "bsdfb", "integrity"))
_PLUGIN_FILE = re.compile(r"(?:lib)?q([a-z0-9_-]+)\.(?:so|dll|dylib)\Z", re.IGNORECASE)

Probe = Callable[[str, str, Mapping[str, str]], "str | None"]


def display_problem(env: Mapping[str, str] | None = None, platform: str | None = None,
                    probe: Probe | None = None) -> str | None:
    """Why a window cannot open here, or None.

    ``probe(kind, name, env)`` checks one display (``kind`` ``"x11"`` or ``"wayland"``) and
    returns why it cannot be used, or None; the default connects for real.
    """
    import sys  # noqa: PLC0415

    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux"):
        return None
    asked = [p.split(":")[0].strip().lower() for p in env.get("QT_QPA_PLATFORM", "").split(";")
             if p.strip()]
    known = qt_platform_plugins()
    if asked and not any(p in known or p in _QT_PLATFORMS for p in asked):
        # Qt aborts (SIGABRT) when no plugin of the list exists: say so instead
        shown = excerpt(env.get("QT_QPA_PLATFORM", ""), 40)
        return (f"QT_QPA_PLATFORM={shown} names no Qt platform plugin (installed: "
                f"{', '.join(sorted(known)) or 'none found'}). " + HEADLESS_HINT)
    asked = [p for p in asked if p in known or p in _QT_PLATFORMS]
    if any(p not in _DISPLAY_PLUGINS for p in asked):
        return None  # offscreen, minimal, eglfs, vnc...: no display of ours to check
    if not asked and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return ("no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set). "
                + HEADLESS_HINT)
    plugins = asked or (["wayland"] if env.get("WAYLAND_DISPLAY") else []) + ["xcb"]
    probe = probe or probe_display
    reasons = []
    for plugin in plugins:
        kind, var = ("x11", "DISPLAY") if plugin == "xcb" else ("wayland", "WAYLAND_DISPLAY")
        name = env.get(var, "")
        if not name:
            reasons.append(f"{var} is not set (Qt's {plugin} platform needs it)")
            continue
        why = probe(kind, name, env)
        if why is None:
            return None
        reasons.append(why)
    return "cannot open a window: " + "; ".join(reasons) + ". " + HEADLESS_HINT


def qt_platform_plugins(env: Mapping[str, str] | None = None) -> set[str]:
    """Names of the Qt platform plugins installed (PySide6's ``plugins/platforms`` folder and
    ``QT_QPA_PLATFORM_PLUGIN_PATH``), read from their file names without importing Qt."""
    import importlib.util  # noqa: PLC0415

    env = os.environ if env is None else env
    folders = [f for f in env.get("QT_QPA_PLATFORM_PLUGIN_PATH", "").split(os.pathsep) if f]
    try:
        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.origin:
        root = os.path.dirname(spec.origin)
        folders += [os.path.join(root, "Qt", "plugins", "platforms"),
                    os.path.join(root, "plugins", "platforms")]
    names = set()
    for folder in folders:
        try:
            files = os.listdir(folder)
        except OSError:
            continue
        for f in files:
            m = _PLUGIN_FILE.match(f)
            if m:
                names.add(m.group(1).lower())
    if "wayland" in names:  # one library, several keys
        names |= {"wayland-egl", "wayland-brcm"}
    return names


def probe_display(kind: str, name: str, env: Mapping[str, str]) -> str | None:
    """Connect to one display (at most a few seconds); None when it answers."""
    box: list[str | None] = []
    worker = threading.Thread(target=lambda: box.append(_probe(kind, name, env)), daemon=True)
    worker.start()
    worker.join(_TIMEOUT)
    if not box:
        return f"the {kind} display {name!r} did not answer within {_TIMEOUT:g} s"
    return box[0]


def _probe(kind: str, name: str, env: Mapping[str, str]) -> str | None:
    if kind == "wayland":
        return _wayland(name, env)
    why = _xcb(name)
    return _x11_socket(name) if why == "no libxcb" else why


def _xcb(name: str) -> str | None:
    path = ctypes.util.find_library("xcb") or "libxcb.so.1"
    try:
        lib = ctypes.CDLL(path)
    except OSError:
        return "no libxcb"
    lib.xcb_connect.restype = ctypes.c_void_p
    lib.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
    lib.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    lib.xcb_disconnect.argtypes = [ctypes.c_void_p]
    screen = ctypes.c_int(0)
    conn = lib.xcb_connect(name.encode(errors="replace"), ctypes.byref(screen))
    try:
        err = lib.xcb_connection_has_error(conn) if conn else 1
    finally:
        if conn:
            lib.xcb_disconnect(conn)
    if err:
        return (f"the X display {name!r} cannot be reached (no X server there, or it refused "
                "the connection)")
    return None


def _x11_socket(name: str) -> str | None:
    """Without libxcb: is anything listening where DISPLAY points?"""
    m = re.fullmatch(r"(?:(?P<host>[^:]*)/)?(?P<h2>[^:/]*):(?P<num>\d+)(?:\.\d+)?", name)
    if not m:
        return f"DISPLAY={name!r} is not a display name (host:number)"
    host, num = m.group("h2") or "", int(m.group("num"))
    try:
        if host in ("", "unix"):
            with socket.socket(socket.AF_UNIX) as s:
                s.settimeout(_TIMEOUT)
                s.connect(f"/tmp/.X11-unix/X{num}")
        else:
            socket.create_connection((host, 6000 + num), timeout=_TIMEOUT).close()
    except (OSError, OverflowError, ValueError):
        return f"the X display {name!r} cannot be reached (no X server there)"
    return None


def _wayland(name: str, env: Mapping[str, str]) -> str | None:
    path = name if name.startswith("/") else os.path.join(env.get("XDG_RUNTIME_DIR", ""), name)
    if not os.path.isabs(path):
        return "WAYLAND_DISPLAY is set but XDG_RUNTIME_DIR is not"
    try:
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(_TIMEOUT)
            s.connect(path)
    except OSError:
        return f"the Wayland display {name!r} cannot be reached ({path})"
    return None
