"""Errors the GPU layer raises: no usable GL, and shaders that do not compile."""

from __future__ import annotations

__all__ = ["DeviceUnavailable", "DriverSwitchNeeded", "GpuUnavailable", "ShaderError",
           "error_text"]


class GpuUnavailable(Exception):
    """No usable OpenGL context (or not the capture path that was asked for).

    The UI shows ``.message`` as is; nothing else in fpinspector needs a GPU.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DeviceUnavailable(GpuUnavailable):
    """The device or driver that was asked for (``--device N`` / ``--driver NAME``) cannot
    be opened: no such device, a driver that does not start, or one this process cannot
    switch to. A user error (the CLI exits 2), unlike "no GL at all"."""


class DriverSwitchNeeded(DeviceUnavailable):
    """The driver asked for differs from the one this process already runs on that device
    (Mesa keeps a display's first driver): it can be had in a child process."""


class ShaderError(Exception):
    """A generated shader failed to compile or link: carries the op name and the GLSL log."""

    def __init__(self, op: str, log: str, source: str = "") -> None:
        super().__init__(f"shader for op {op!r} failed to compile/link:\n{log}")
        self.op = op
        self.log = log
        self.source = source


def error_text(exc: BaseException) -> str:
    """The words to show for ``exc``: a GPU error's ``message`` (the driver's own words,
    without the exception's wrapping), else its text, else its type's name: an exception
    raised with no text must still say something."""
    return str(getattr(exc, "message", None) or exc) or type(exc).__name__
