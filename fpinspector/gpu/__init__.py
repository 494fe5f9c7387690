"""GPU capture: run fpinspector's ops and conversions on the local GPU (moderngl, no Qt)."""

from .errors import GpuUnavailable, ShaderError
from .session import GpuSession, open_session

__all__ = ["GpuSession", "GpuUnavailable", "ShaderError", "open_session"]
