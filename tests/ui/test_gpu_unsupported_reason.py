"""The GPU column says *why* a capture cannot run (GpuSession.unsupported_reason).

A fake session stands in for the GPU layer: it refuses f16 ops with a specific reason and
captures f32 ops by echoing the model-independent numpy float32 product, so the test knows
what the column must show without consulting the code under test.
"""

from __future__ import annotations

from _fake_gpu import FakeMulSession

REASON = "f16 arithmetic needs GL_AMD_gpu_shader_half_float (fake driver lacks it)"


class _PickySession(FakeMulSession):
    REASON = REASON

    def refuses(self, fmt: str) -> bool:
        return fmt == "f16"


def test_unsupported_reason_helper_prefers_the_session_reason() -> None:
    """GPU column (driver capability, no docs/rules.md rule): the helper returns the
    session's own text, else a generic one from supports."""
    from fpinspector.ui.gpu.gpu_worker import unsupported_reason

    assert unsupported_reason(_PickySession(), "mul", "f16") == REASON
    assert unsupported_reason(_PickySession(), "mul", "f32") is None

    class OnlySupports:
        def supports(self, op, fmt):
            return False

    assert "cannot run mul on f16" in unsupported_reason(OnlySupports(), "mul", "f16")


def test_gpu_column_shows_unsupported_reason(monkeypatch, make_window, wait_for) -> None:
    """Operations GPU column: an op/format the GPU cannot capture shows the session's reason."""
    import fpinspector.gpu as gpu

    monkeypatch.setattr(gpu, "open_session", lambda *a, **k: _PickySession())
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available is True, 10000)
    win.state.update(op="mul", op_format="f32",
                     operands=[0x40000000, 0x3FC00000, 0])  # 2 * 1.5 = 3 on the fake GPU
    assert wait_for(lambda: win.ctl.gpu_result == ("f32", 0x40400000), 5000)
    win.state.update(op_format="f16", operands=[0x4000, 0x3E00, 0])
    assert wait_for(lambda: REASON in win.ops_view.gpu_box.detail.text(), 5000)
    assert REASON in win.ops_view.verdict_text()
    assert win.ops_view.gpu_box.value.text() == "—"
