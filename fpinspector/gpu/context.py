"""Headless GL context creation on a chosen device and driver, with the platform fallback.

EGL first (any device, headless; Linux, and wherever an EGL loader exists), then the
platform's default standalone context (WGL on Windows, CGL on macOS: GL 4.1 core there, so
fragment path only, GLX on other Unixes); GL 4.3 (compute) first, then 3.3. The backend that
worked is returned with the context so reports can say which one was used.
"""

from __future__ import annotations

from typing import Any

import moderngl

from .devices import (
    DeviceChoice,
    driver_environment,
    environment,
    in_process_conflict,
    note_display,
    platform_backend,
    renderer_family,
    resolve_index,
)
from .egl_query import egl_devices
from .errors import DeviceUnavailable, DriverSwitchNeeded, GpuUnavailable

__all__ = ["create_context", "GL_VERSIONS"]

#: Context versions asked for, best first: 4.3 has compute shaders, 3.3 is the minimum.
GL_VERSIONS = (430, 330)


def _no_such_device(index: int, devices: list | None) -> DeviceUnavailable:
    n = len(devices or [])
    have = f"device 0 to {n - 1}" if n > 1 else ("device 0" if n == 1 else "no EGL device")
    return DeviceUnavailable(f"no GL device {index}: this machine has {have} "
                             f"(fpinspector gpu-devices lists them)")


def _backends(choice: DeviceChoice, devices: list | None) -> list[str | None]:
    if choice.backend:
        return [choice.backend]
    if choice.index is None and choice.driver is None:
        return ["egl", None]
    if devices is not None:
        return ["egl"]  # a chosen device never falls back to some other context
    if choice.index not in (None, 0):
        raise DeviceUnavailable(
            f"no GL device {choice.index}: without EGL device enumeration this platform "
            f"({platform_backend()}) opens only its default device (0)")
    return [None]


def create_context(choice: DeviceChoice | None = None) -> tuple[moderngl.Context, dict[str, Any]]:
    """Create a standalone context for ``choice``; returns it with where it came from.

    Returns
    -------
    (moderngl.Context, dict)
        The dict holds "backend" (egl, wgl, cgl, glx, ...), "device" (EGL index or None) and
        "driver" (the renderer's driver family, e.g. "llvmpipe").

    Raises
    ------
    DeviceUnavailable
        A chosen device index that does not exist, a driver that does not start, or a
        driver this process cannot switch to (see :func:`devices.in_process_conflict`).
    GpuUnavailable
        No usable GL at all on the default device (the message lists what was tried).
    """
    choice = choice or DeviceChoice()
    devices = egl_devices()
    index = resolve_index(choice, devices)
    if devices is not None and index is not None and index >= len(devices):
        raise _no_such_device(index, devices)
    resolved = DeviceChoice(index, choice.driver, choice.backend)
    errors = []
    env = driver_environment(choice.driver) if choice.driver else {}
    for backend in _backends(resolved, devices):
        name = backend or platform_backend()
        where = (index or 0) if name == "egl" else index  # EGL's default device is 0
        why = in_process_conflict(name, where, choice.driver)
        if why:
            raise DriverSwitchNeeded(f"{resolved.label()}: {why}")
        for req in GL_VERSIONS:
            kwargs: dict[str, Any] = {"standalone": True, "require": req}
            if backend:
                kwargs["backend"] = backend
            if backend == "egl" and index is not None:
                kwargs["device_index"] = index
            try:
                with environment(env):
                    ctx = moderngl.create_context(**kwargs)
            except Exception as exc:  # moderngl/glcontext raise several types
                if "requested device index" in str(exc):
                    raise _no_such_device(index or 0, devices) from None
                errors.append(f"{name} GL {req // 100}.{req % 100 // 10}: {exc}")
                continue
            renderer = ctx.info["GL_RENDERER"]
            note_display(name, where, renderer, choice.driver)
            family = renderer_family(renderer)
            if choice.driver and family != choice.driver:
                ctx.release()
                raise DeviceUnavailable(
                    f"driver {choice.driver} did not start on {resolved.label()}: the "
                    f"device runs {renderer} (--driver selects Mesa's software drivers on "
                    "Mesa's software device)")
            return ctx, {"backend": name, "device": where, "driver": family}
    if choice.index is not None or choice.driver is not None:
        causes = "; ".join(dict.fromkeys(e.split(": ", 1)[-1] for e in errors))
        what = (f"driver {choice.driver} did not start on device {index or 0}"
                if choice.driver else f"{resolved.label()} did not open")
        raise DeviceUnavailable(f"{what}: {causes}")
    raise GpuUnavailable(
        "No usable OpenGL context (GPU capture needs GL 3.3 or later; on Linux without a GPU "
        "install Mesa's EGL/llvmpipe packages). Tried: " + "; ".join(errors)
    )
