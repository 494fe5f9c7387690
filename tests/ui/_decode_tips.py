"""A Decode panel showing 1.5 (f32), whose exact-tip requests to the model are recorded:
the tests of when Decode works out an exact expansion start from it."""

from __future__ import annotations

from fpinspector.model.state import InspectorState


def decode_counting_tips(qtbot, monkeypatch):  # type: ignore[no-untyped-def]
    """(state, panel, asked): the panel shows f32 0x3FC00000; every later
    ``bridge.exact_tip(fmt, bits)`` call is appended to ``asked`` (and still answered)."""
    from fpinspector.ui import bridge
    from fpinspector.ui.inspector.value_panel import ValuePanel

    state = InspectorState()
    panel = ValuePanel(state)
    qtbot.addWidget(panel)
    panel.show()
    state.update(fmt="f32", bits=0x3FC00000)
    asked: list[tuple[str, int]] = []
    real = bridge.exact_tip
    monkeypatch.setattr(bridge, "exact_tip", lambda f, b: asked.append((f, b)) or real(f, b))
    return state, panel, asked
