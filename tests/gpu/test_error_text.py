"""The words the app and the CLI show for a GPU-layer error (gpu/errors.py error_text).

Behaviour proved: a GpuUnavailable shows the driver's message as given (not the
exception's repr), a ShaderError its full text with the GLSL log, any other exception its
text, and one raised with no text its type's name, never an empty line. Runs without GL."""

from __future__ import annotations

from fpinspector.gpu.errors import DeviceUnavailable, GpuUnavailable, ShaderError, error_text


def test_gpu_unavailable_shows_its_message() -> None:
    assert error_text(GpuUnavailable("EGL: no display")) == "EGL: no display"
    assert error_text(DeviceUnavailable("no device 3 (2 found)")) == "no device 3 (2 found)"


def test_shader_error_shows_the_log() -> None:
    text = error_text(ShaderError("sqrt", "0:3(1): error: syntax error"))
    assert "'sqrt'" in text and "0:3(1): error: syntax error" in text


def test_plain_exception_shows_its_text_or_type() -> None:
    assert error_text(RuntimeError("context lost")) == "context lost"
    assert error_text(MemoryError()) == "MemoryError"


def test_empty_message_attribute_falls_back() -> None:
    exc = GpuUnavailable("")
    assert error_text(exc) == "GpuUnavailable"
