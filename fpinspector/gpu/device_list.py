"""The GL devices this machine can open, each probed in its own child process.

Every EGL device is opened with its default driver; Mesa's software device is also opened
with each of Mesa's other software drivers (llvmpipe, softpipe). Without EGL (Windows,
macOS) the one entry is the platform's default context. Each probe runs in a fresh child
(:class:`ChildSession`), because Mesa keeps the first driver of a device for the life of a
process and a driver that crashes must not take the caller with it.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from .child_session import ChildSession
from .devices import SOFTWARE_DRIVERS, DeviceChoice, renderer_family
from .egl_query import egl_devices
from .errors import GpuUnavailable

__all__ = ["DeviceEntry", "list_devices", "probe"]


@dataclass
class DeviceEntry:
    """One openable (or not) device/driver pair and what its context reports."""

    index: int | None
    driver: str | None
    default_driver: bool
    backend: str = ""
    renderer: str = ""
    vendor: str = ""
    version: str = ""
    version_code: int = 0
    paths: list[str] = field(default_factory=list)
    fp64: bool = False
    half_float: list[str] = field(default_factory=list)
    software: bool = False
    error: str | None = None

    @property
    def choice(self) -> DeviceChoice:
        """The choice that opens this entry (no driver for a device's default driver)."""
        return DeviceChoice(self.index, None if self.default_driver else self.driver)

    @property
    def options(self) -> str:
        """The command-line options that select it: "--device 0 --driver softpipe"."""
        parts = [] if self.index is None else [f"--device {self.index}"]
        if not self.default_driver and self.driver:
            parts.append(f"--driver {self.driver}")
        return " ".join(parts) or "(default)"

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "options": self.options}


def probe(choice: DeviceChoice, software: bool = False, timeout: float = 60.0) -> DeviceEntry:
    """Open ``choice`` in a child process and describe it (``error`` set when it fails)."""
    entry = DeviceEntry(choice.index, choice.driver, choice.driver is None, software=software)
    try:
        session = ChildSession("auto", choice, timeout=timeout)
    except GpuUnavailable as exc:
        entry.error = exc.message
        return entry
    try:
        info = session.info
    finally:
        session.close()
    entry.backend = str(info.get("backend", ""))
    entry.renderer = str(info.get("renderer", ""))
    entry.vendor = str(info.get("vendor", ""))
    entry.version = str(info.get("version", ""))
    entry.version_code = int(info.get("version_code", 0))
    entry.paths = list(info.get("paths", []))
    entry.fp64 = bool(info.get("fp64"))
    entry.half_float = list(info.get("half_float_arithmetic", []))
    entry.driver = str(info.get("driver") or renderer_family(entry.renderer))
    if entry.index is None and entry.backend == "egl":
        entry.index = info.get("device")
    return entry


def list_devices(timeout: float = 60.0) -> list[DeviceEntry]:
    """Every device (and Mesa software driver) this machine can open, probed in parallel.

    Entries that fail to open are kept with their ``error``: a driver that is listed but
    does not start is worth seeing.
    """
    devices = egl_devices()
    with ThreadPoolExecutor(4) as pool:
        if not devices:  # no EGL enumeration: the platform's default context only
            return [pool.submit(probe, DeviceChoice(), False, timeout).result()]
        firsts = [pool.submit(probe, DeviceChoice(d.index), d.software, timeout)
                  for d in devices]
        entries = [f.result() for f in firsts]
        extra = []
        for d, e in zip(devices, entries):
            family = renderer_family(e.renderer)
            if d.software or family in SOFTWARE_DRIVERS:
                e.software = True
                extra += [pool.submit(probe, DeviceChoice(d.index, drv), True, timeout)
                          for drv in SOFTWARE_DRIVERS if drv != family]
        entries += [f.result() for f in extra]
    entries.sort(key=lambda e: (e.index if e.index is not None else -1, not e.default_driver,
                                e.driver or ""))
    return entries
