"""A parse error's caret excerpt reads whole in the message bar (ui/shell/message_bar.py):
the reason, the text and a caret under the character that could not be read were three
lines in a bar of two (the caret line was cut in half) and in a proportional font (the
caret stood under another character). Now: two monospaced lines that fit the bar's width
and height, the caret under the offending character, the reason beside it, the whole
message as the tooltip; at the window sizes of issue 36, in the real window."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from fpinspector.model.parse.tokens import ParseError
from fpinspector.ui.shell.message_bar import caret_lines, caret_message

#: (paste, index of the character the parser names, that character)
BAD = [("0x3f8000000000000000000000000000000000000000 bar", 45, "b"),
       ("1.5 2.5 " * 14 + "2..5", 112, "2"),
       ("{1.5, 2.5", 0, "{")]


def _settle() -> None:
    for _ in range(5):
        QtWidgets.QApplication.processEvents()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("text,index,char", BAD)
def test_a_caret_message_reads_whole_in_the_bar(make_window, qtbot, size, text, index,
                                                char) -> None:
    from fpinspector.ui.shell import window_layout

    win = make_window()
    win.resize(*size)
    win.layout_mode = window_layout.arrange_docks(win, QtCore.QSize(*size))
    win.show()
    qtbot.waitExposed(win)
    _settle()
    assert not win.ctl.paste(text)
    _settle()
    bar = win.messages
    given = bar.message()
    assert given.count("\n") == 2 and given.endswith("^")  # (a caret excerpt indeed)
    shown = bar.text().split("\n")
    fm = QtGui.QFontMetrics(bar.font())
    # every line inside the bar: as many lines as its height holds, none wider than it
    assert len(shown) * fm.lineSpacing() <= bar.contentsRect().height()
    assert all(fm.horizontalAdvance(line) <= bar.contentsRect().width() for line in shown)
    # the bar is inside the part of the central area one sees (no side scrolling)
    view = win.centralWidget()
    left = bar.mapTo(view.viewport(), QtCore.QPoint(0, 0)).x()
    assert 0 <= left and left + bar.width() <= view.viewport().width() + 1
    # the caret under the character named, in a fixed-pitch font
    assert QtGui.QFontInfo(bar.font()).fixedPitch()
    col = shown[1].index("^")
    assert shown[0][col] == char
    # the reason whole beside it; the whole message as the tooltip
    reason = given.split(" at index")[0]
    assert reason in shown[1]
    assert "\n".join(given.split("\n")[1:]).replace("<", "&lt;") in bar.toolTip()


@pytest.mark.parametrize("columns", range(20, 140, 7))
def test_caret_lines_keep_the_caret_under_its_character(columns) -> None:
    """caret_lines at any width: both lines within ``columns``, the caret under the
    character the ParseError names (against the text itself, not the excerpt)."""
    for text, index in [("x" * 40 + "?" + "y" * 80, 40), ("ab?", 2), ("?" + "z" * 118, 0),
                        ("w" * 119 + "?", 119)]:
        msg = caret_message(str(ParseError("cannot read '?'", text, index)))
        assert msg is not None
        top, under = caret_lines(msg, columns)
        width = max(columns, 20)
        assert len(top) <= width and len(under) <= width
        assert top[under.index("^")] == "?"
        assert "cannot read '?'" in under or under.replace("^", "").strip().endswith("…")
