"""EGL device enumeration through ctypes: how many EGL devices there are and what each is.

Why ctypes: glcontext opens a context on ``device_index=N`` but cannot list devices or say
which one is Mesa's software device (``EGL_MESA_device_software``), which ``--driver`` needs.
Querying devices creates no display and loads no driver, so it is safe in-process. Where
there is no libEGL (Windows, macOS) every function returns None.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = ["EglDevice", "egl_devices"]

EGL_EXTENSIONS = 0x3055
EGL_DRM_DEVICE_FILE_EXT = 0x3233
EGL_RENDERER_EXT = 0x335F
MAX_DEVICES = 32


@dataclass(frozen=True)
class EglDevice:
    """One entry of ``eglQueryDevicesEXT``: its index and what its strings say."""

    index: int
    extensions: tuple[str, ...]
    drm_file: str | None
    renderer: str | None

    @property
    def software(self) -> bool:
        """Mesa's software device (llvmpipe / softpipe; ``GALLIUM_DRIVER`` picks which)."""
        return "EGL_MESA_device_software" in self.extensions


@lru_cache(maxsize=1)
def _library() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("EGL")
    for candidate in (name, "libEGL.so.1", "libEGL.so"):
        if not candidate:
            continue
        try:
            return ctypes.CDLL(candidate)
        except OSError:
            continue
    return None


def _proc(lib: ctypes.CDLL, name: str, restype: Any, *argtypes: Any) -> Any:
    get = lib.eglGetProcAddress
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.c_char_p]
    addr = get(name.encode())
    if not addr:
        return None
    return ctypes.CFUNCTYPE(restype, *argtypes)(addr)


def egl_devices() -> list[EglDevice] | None:
    """The EGL devices in ``eglQueryDevicesEXT`` order (the ``device_index`` glcontext takes),
    or None when EGL or its device enumeration is not there."""
    lib = _library()
    if lib is None:
        return None
    try:
        query = _proc(lib, "eglQueryDevicesEXT", ctypes.c_uint, ctypes.c_int,
                      ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int))
        string = _proc(lib, "eglQueryDeviceStringEXT", ctypes.c_char_p, ctypes.c_void_p,
                       ctypes.c_int)
    except AttributeError:  # a libEGL without eglGetProcAddress
        return None
    if query is None:
        return None
    devices = (ctypes.c_void_p * MAX_DEVICES)()
    count = ctypes.c_int(0)
    if not query(MAX_DEVICES, devices, ctypes.byref(count)):
        return None
    out = []
    for i in range(count.value):
        def text(attr: int, dev: Any = devices[i]) -> str | None:
            if string is None:
                return None
            raw = string(dev, attr)
            return raw.decode(errors="replace") if raw else None

        ext = tuple((text(EGL_EXTENSIONS) or "").split())
        drm = text(EGL_DRM_DEVICE_FILE_EXT) if "EGL_EXT_device_drm" in ext else None
        rend = text(EGL_RENDERER_EXT) if "EGL_EXT_device_query_name" in ext else None
        out.append(EglDevice(i, ext, drm, rend))
    return out
