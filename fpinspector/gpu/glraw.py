"""The two raw GL calls moderngl does not expose with the pixel types we need.

``glReadPixels`` / ``glTexSubImage2D`` with ``GL_UNSIGNED_INT_10F_11F_11F_REV`` (the packed
R11G11B10 word, exactly as stored), ``GL_UNSIGNED_INT_5_9_9_9_REV`` (an R9G9B9E5 word) and ``GL_BYTE`` / ``GL_SHORT`` (raw SNORM8 / SNORM16
codes), via ctypes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from typing import Any

import numpy as np

__all__ = ["RawGL", "context_loader", "GL_RGB", "GL_RGBA", "GL_BYTE", "GL_SHORT",
           "GL_UNSIGNED_INT_10F_11F_11F_REV", "GL_UNSIGNED_INT_5_9_9_9_REV"]

GL_TEXTURE_2D = 0x0DE1
GL_RGB = 0x1907
GL_RGBA = 0x1908
GL_BYTE = 0x1400
GL_SHORT = 0x1402
GL_UNSIGNED_INT_10F_11F_11F_REV = 0x8C3B
GL_UNSIGNED_INT_5_9_9_9_REV = 0x8C3E  # the R9G9B9E5 word as stored (GL 3.0)

# GL entry points are APIENTRY: stdcall on 32-bit Windows (WINFUNCTYPE), cdecl elsewhere
_FUNCTYPE = getattr(ctypes, "WINFUNCTYPE", ctypes.CFUNCTYPE) if sys.platform == "win32" \
    else ctypes.CFUNCTYPE
_READ = _FUNCTYPE(None, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                  ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p)
_CLAMP = _FUNCTYPE(None, ctypes.c_uint, ctypes.c_uint)
GL_CLAMP_READ_COLOR = 0x891C
GL_FIXED_ONLY = 0x891D
_SUB = _FUNCTYPE(None, ctypes.c_uint, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                 ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p)


def _proc(name: bytes) -> int | None:
    """Function pointer from EGL (headless Linux) or straight from the GL library."""
    egl_name = ctypes.util.find_library("EGL")
    if egl_name:
        try:
            egl = ctypes.CDLL(egl_name)
            egl.eglGetProcAddress.restype = ctypes.c_void_p
            egl.eglGetProcAddress.argtypes = [ctypes.c_char_p]
            ptr = egl.eglGetProcAddress(name)
            if ptr:
                return ptr
        except OSError:
            pass
    for lib in ("GL", "OpenGL", "opengl32"):
        path = ctypes.util.find_library(lib)
        if not path:
            continue
        try:
            fn: Any = getattr(ctypes.CDLL(path), name.decode())
            return ctypes.cast(fn, ctypes.c_void_p).value
        except (OSError, AttributeError):
            continue
    return None


def context_loader(ctx: Any) -> Any:
    """The glcontext loader behind a moderngl context (``load(name)`` -> address): it knows
    the platform's way (wglGetProcAddress, eglGetProcAddress, dlsym), or None."""
    return getattr(getattr(ctx, "mglo", None), "_context", None)


class RawGL:
    """Lazily bound raw entry points; ``available`` is False where none could be found.

    ``loader`` (see :func:`context_loader`) is asked first: on Windows GL 3.0 functions
    such as glClampColor exist only through wglGetProcAddress of the current context.
    """

    def __init__(self, loader: Any = None) -> None:
        def proc(name: bytes) -> int | None:
            if loader is not None:
                try:
                    addr = loader.load(name.decode())
                    if addr:
                        return int(addr)
                except Exception:  # noqa: BLE001 - fall back to the libraries below
                    pass
            return _proc(name)

        read, sub = proc(b"glReadPixels"), proc(b"glTexSubImage2D")
        clamp = proc(b"glClampColor")
        self.available = bool(read and sub and clamp)
        self._clamp = _CLAMP(clamp) if clamp else None
        self._read = _READ(read) if read else None
        self._sub = _SUB(sub) if sub else None

    def read_pixels(self, width: int, rows: int, fmt: int, typ: int, out: np.ndarray) -> None:
        """Read the bound framebuffer's colour attachment 0 into ``out`` (C-contiguous).

        Read colour clamping is switched off for the call: with the default FIXED_ONLY a
        signed-normalized buffer reads back clamped to [0, 1], losing every negative code.
        """
        assert out.flags.c_contiguous
        if self._clamp is None or self._read is None:
            raise RuntimeError("glReadPixels / glClampColor are not available here")
        self._clamp(GL_CLAMP_READ_COLOR, 0)
        try:
            self._read(0, 0, width, rows, fmt, typ, out.ctypes.data)
        finally:
            self._clamp(GL_CLAMP_READ_COLOR, GL_FIXED_ONLY)

    def tex_sub_image(self, width: int, rows: int, fmt: int, typ: int, data: np.ndarray) -> None:
        """Upload into the texture bound to GL_TEXTURE_2D on the active unit, bits unchanged."""
        data = np.ascontiguousarray(data)
        if self._sub is None:
            raise RuntimeError("glTexSubImage2D is not available here")
        self._sub(GL_TEXTURE_2D, 0, 0, 0, width, rows, fmt, typ, data.ctypes.data)
