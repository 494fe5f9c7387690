"""Which GL device a session opens: an EGL device index, a Mesa software driver, a backend.

Mesa picks its gallium driver (llvmpipe, softpipe, ...) from the environment
(``GALLIUM_DRIVER``) once, when a process first initialises an EGL display for a device;
later contexts on that display get the same driver whatever the environment says then. So a
driver is chosen by setting the environment around the *first* context of a process, and
switching to another driver at run time needs another process (:mod:`.child_session`).
:func:`in_process_conflict` says when that is the case; nothing here assumes Linux.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["APIS", "DeviceChoice", "KNOWN_DRIVERS", "SOFTWARE_DRIVERS", "driver_environment",
           "platform_backend", "renderer_family", "resolve_index", "in_process_conflict",
           "note_display", "selected_device", "select_device"]

#: Mesa's software rasterisers, the drivers ``--driver`` is for (both run on any CPU).
SOFTWARE_DRIVERS = ("llvmpipe", "softpipe")
#: Names ``GALLIUM_DRIVER`` accepts for non-hardware drivers; the others usually do not
#: start without their hardware or API (zink needs Vulkan, d3d12 needs WSL), and say so.
KNOWN_DRIVERS = SOFTWARE_DRIVERS + ("swr", "zink", "d3d12")
#: what ``--api`` takes: GL through moderngl, or a WebGPU API through wgpu
APIS = ("gl", "vulkan", "d3d12", "metal")
DEVICE_ENV = "FPINSPECTOR_GL_DEVICE"
DRIVER_ENV = "FPINSPECTOR_GL_DRIVER"


@dataclass(frozen=True)
class DeviceChoice:
    """The GL device to open.

    Parameters
    ----------
    index : int, optional
        EGL device index (``fpinspector gpu-devices`` lists them); None for the default
        device (EGL device 0, or the platform's only context where there is no EGL).
    driver : str, optional
        Mesa gallium driver (``llvmpipe``, ``softpipe``) for Mesa's software device.
    backend : str, optional
        glcontext backend ("egl", ...); None tries EGL, then the platform default.
    api : str
        "gl" (moderngl: index / driver / backend apply) or a WebGPU API ("vulkan",
        "d3d12", "metal"; :mod:`.wgpu_session`).
    adapter : int or str, optional
        The WebGPU adapter of ``api``: its index, "warp", or a word of its device name.
    """

    index: int | None = None
    driver: str | None = None
    backend: str | None = None
    api: str = "gl"
    adapter: int | str | None = None

    def __post_init__(self) -> None:
        if self.index is not None and (not isinstance(self.index, int) or self.index < 0):
            raise ValueError(f"device index must be 0 or more, got {self.index!r}")
        if self.driver is not None and self.driver not in KNOWN_DRIVERS:
            raise ValueError(f"unknown driver {self.driver!r}: --driver picks one of Mesa's "
                             f"software drivers ({', '.join(SOFTWARE_DRIVERS)}; also "
                             f"{', '.join(KNOWN_DRIVERS[2:])})")
        if self.api not in APIS:
            raise ValueError(f"unknown API {self.api!r}: --api takes {', '.join(APIS)}")
        if self.api != "gl" and (self.index is not None or self.driver is not None):
            raise ValueError(f"--device and --driver pick GL devices; with --api {self.api} "
                             "pick the adapter with --adapter (fpinspector gpu-devices)")
        if self.api == "gl" and self.adapter is not None:
            raise ValueError("--adapter picks a WebGPU adapter: give --api vulkan, d3d12 or "
                             "metal too (fpinspector gpu-devices lists them)")

    @property
    def is_default(self) -> bool:
        return (self.index is None and self.driver is None and self.backend is None
                and self.api == "gl")

    def label(self) -> str:
        """Short words for menus and messages: "default device", "device 0 / softpipe",
        "Vulkan adapter 0"."""
        if self.api != "gl":
            which = "default adapter" if self.adapter is None else f"adapter {self.adapter}"
            return f"{self.api} {which}"
        parts = ["default device" if self.index is None else f"device {self.index}"]
        if self.driver:
            parts.append(self.driver)
        if self.backend:
            parts.append(f"backend {self.backend}")
        return " / ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> DeviceChoice:
        d = d or {}
        return cls(d.get("index"), d.get("driver"), d.get("backend"), d.get("api") or "gl",
                   d.get("adapter"))

    @classmethod
    def from_environment(cls, env: dict[str, str] | None = None) -> DeviceChoice:
        """``FPINSPECTOR_GL_DEVICE`` / ``FPINSPECTOR_GL_DRIVER`` (what tests and CI set)."""
        source: Mapping[str, str] = os.environ if env is None else env
        raw = source.get(DEVICE_ENV, "").strip()
        try:
            index = int(raw) if raw else None
        except ValueError:
            raise ValueError(f"{DEVICE_ENV}={raw!r}: expected a device index") from None
        return cls(index, source.get(DRIVER_ENV, "").strip() or None)


def driver_environment(driver: str) -> dict[str, str]:
    """Environment that makes Mesa create ``driver`` for the next display it initialises.

    Mesa's own EGL warnings ("failed to create dri2 screen") are silenced unless the user
    set ``EGL_LOG_LEVEL``: a driver that does not start is reported in one line by us.
    """
    return {"GALLIUM_DRIVER": driver, "LIBGL_ALWAYS_SOFTWARE": "1",
            "EGL_LOG_LEVEL": os.environ.get("EGL_LOG_LEVEL", "fatal")}


@contextmanager
def environment(changes: dict[str, str]) -> Iterator[None]:
    """Set ``changes`` in ``os.environ`` for the block, then put the old values back (so
    child processes started later do not inherit a driver chosen for one context)."""
    old = {k: os.environ.get(k) for k in changes}
    os.environ.update(changes)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def renderer_family(renderer: str) -> str:
    """The driver a GL_RENDERER string names: "llvmpipe (LLVM 15...)" -> "llvmpipe"."""
    m = re.match(r"\s*([A-Za-z0-9_]+)", renderer or "")
    return m.group(1).lower() if m else ""


def platform_backend() -> str:
    """Name of glcontext's default standalone backend on this platform."""
    if sys.platform.startswith("win"):
        return "wgl"
    if sys.platform == "darwin":
        return "cgl"
    return "glx"


def resolve_index(choice: DeviceChoice, devices: list[Any] | None) -> int | None:
    """The EGL index to open: the chosen one; for a driver alone, Mesa's software device."""
    if choice.index is not None or choice.driver is None or not devices:
        return choice.index
    soft = [d.index for d in devices if getattr(d, "software", False)]
    return soft[0] if soft else 0


# (backend, device index) -> (renderer family, driver asked for) of displays this process
# has initialised: Mesa keeps the first driver of a display for the life of the process.
_DISPLAYS: dict[tuple[str, int | None], tuple[str, str | None]] = {}


def note_display(backend: str, index: int | None, renderer: str, driver: str | None) -> None:
    """Record that this process now has ``backend``'s display ``index`` running ``renderer``."""
    _DISPLAYS.setdefault((backend, index), (renderer_family(renderer), driver))


def in_process_conflict(backend: str, index: int | None, driver: str | None) -> str | None:
    """Why ``driver`` cannot be had in this process on that display (None when it can)."""
    seen = _DISPLAYS.get((backend, index))
    if seen is None:
        return None
    family, asked = seen
    if driver is None:
        default = os.environ.get("GALLIUM_DRIVER") or None
        if asked is None or asked == default:
            return None
        return (f"this process runs {family} on that device (chosen with --driver); Mesa "
                "keeps a display's first driver for the whole process")
    if family == driver:
        return None
    return (f"this process already runs {family} on that device and Mesa keeps a display's "
            f"first driver for the whole process, so {driver} needs a separate GPU process")


_SELECTED: DeviceChoice | None = None


def selected_device() -> DeviceChoice:
    """The device new GPU work in this process uses when none is named (the app's choice,
    else ``FPINSPECTOR_GL_DEVICE`` / ``FPINSPECTOR_GL_DRIVER``, else the default)."""
    return _SELECTED if _SELECTED is not None else DeviceChoice.from_environment()


def select_device(choice: DeviceChoice | None) -> None:
    """Make ``choice`` the process-wide device (None: back to the environment's)."""
    global _SELECTED
    _SELECTED = choice
