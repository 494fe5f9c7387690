"""GPU capture: run fpinspector's ops and conversions on the local GPU (moderngl, no Qt)."""

from .child_session import ChildSession, open_device
from .devices import DeviceChoice
from .errors import DeviceUnavailable, GpuUnavailable, ShaderError
from .session import GpuSession, open_session

__all__ = ["ChildSession", "DeviceChoice", "DeviceUnavailable", "GpuSession", "GpuUnavailable",
           "ShaderError", "open_device", "open_session"]
