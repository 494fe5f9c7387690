"""GPU capture: run fpinspector's ops and conversions on the local GPU (moderngl, no Qt).

The names below are imported when first used, so that the modules that need no GL
(saved reports, their comparison, the deviation table) work where moderngl is missing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import DeviceUnavailable, GpuUnavailable, ShaderError

if TYPE_CHECKING:
    from .child_session import ChildSession, open_device
    from .devices import DeviceChoice
    from .session import GpuSession, open_session

__all__ = ["ChildSession", "DeviceChoice", "DeviceUnavailable", "GpuSession", "GpuUnavailable",
           "ShaderError", "open_device", "open_session"]


def __getattr__(name: str) -> Any:
    if name in ("ChildSession", "open_device"):
        from . import child_session

        return getattr(child_session, name)
    if name == "DeviceChoice":
        from .devices import DeviceChoice

        return DeviceChoice
    if name in ("GpuSession", "open_session"):
        from . import session

        return getattr(session, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
