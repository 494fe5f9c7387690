"""A paste is read on a thread by what it expands to, not by its length: ``1.5 <repeats
131072 times>`` is 27 characters but 131072 values (a 0.6 s stall on the UI thread before)."""

from __future__ import annotations

import pytest

from fpinspector.model.parse import MAX_VALUES
from fpinspector.model.state import InspectorState
from fpinspector.model.state.paste import MAX_PASTE_CHARS, paste_work
from fpinspector.ui import background, bridge


@pytest.mark.parametrize("text, least", [
    ("1.5", 3), ("1.5 <repeats 131072 times>", 131072), ("{1, 2 <repeats 99 times>}", 99),
    ("0 <repeats 999999999 times>", MAX_VALUES), ("x" * (MAX_PASTE_CHARS + 1), MAX_PASTE_CHARS),
])
def test_paste_work_counts_the_copies(text, least):
    assert least <= paste_work(text) <= len(text) + MAX_VALUES


def test_a_short_text_that_expands_is_read_off_the_ui_thread(monkeypatch):
    calls = []

    def on_thread(fn):  # noqa: ANN001, ANN202 - stands for background.wait_in_event_loop
        calls.append(fn)
        return fn()

    monkeypatch.setattr(background, "wait_in_event_loop", on_thread)
    state = InspectorState()
    text = "$1 = {1.5 <repeats 4096 times>}"
    assert len(text) < bridge.BACKGROUND_PASTE_CHARS
    bridge.paste(state, text)
    assert len(calls) == 1
    bridge.paste(state, "0x3f800000")
    assert len(calls) == 1  # a plain value stays on the UI thread (no thread hop)
