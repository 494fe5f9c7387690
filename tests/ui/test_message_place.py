"""One place for messages (ui/message_bar.py): a paste's message, a field's error, a
workspace opened, a device switched to all appear in the one line under the paste box, of
fixed height, so no message moves another widget; the message goes when the state it
describes changes (an edit, undo, a workspace opened) and a new one replaces it. Before,
one paste message showed in the paste box, by the operands and in the status bar, and a
wrapped one moved the A/B editors down by up to ~60 px."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets
from PySide6.QtCore import Qt


def _settle() -> None:
    for _ in range(5):
        QtWidgets.QApplication.processEvents()


def _y(win, widget: QtWidgets.QWidget) -> int:
    return widget.mapTo(win, QtCore.QPoint(0, 0)).y()


def _visible_texts(win) -> list[str]:
    """Every visible label's text that carries a message (the status bar's painted
    temporary message included)."""
    texts = [w.text() for w in win.findChildren(QtWidgets.QLabel)
             if w.isVisible() and w.text() and "not used" in w.text()]
    texts += [QtWidgets.QStatusBar.currentMessage(win.statusBar())] if \
        QtWidgets.QStatusBar.currentMessage(win.statusBar()) else []
    return texts


def test_a_long_paste_message_is_in_one_place_and_moves_nothing(make_compact_window) -> None:
    win = make_compact_window()
    win.state.update(op="mul")
    _settle()
    ed_a, model = win.ops_view.editors[0], win.ops_view.model_box
    before = (_y(win, ed_a), _y(win, model))
    # several values, more than mul takes: the longest message a paste gives
    assert win.ctl.paste("1.5 2.5 3.5 4.5 5.5 6.5 7.5 8.5 9.5 10.5 11.5 12.5")
    _settle()
    assert "not used (mul takes 2)" in win.messages.text()
    assert (_y(win, ed_a), _y(win, model)) == before
    assert _visible_texts(win) == [win.messages.text()]  # once, not three times
    height = win.messages.height()
    assert not win.ctl.paste("0xZZZZ garbage(" * 20)  # a long error
    _settle()
    assert win.paste_box.is_error() and win.messages.height() == height
    assert (_y(win, ed_a), _y(win, model)) == before


def test_undo_clears_the_message_a_new_one_replaces_it(make_window, tmp_path) -> None:
    from fpinspector.ui.shell import actions

    win = make_window()
    assert win.ctl.paste("1.5 2.5")
    assert win.messages.text().startswith("read as")
    win.state.undo()  # the values the message describes are gone
    assert win.messages.text() == ""
    assert win.ctl.paste("1.5 2.5")
    path = tmp_path / "w.json"
    assert actions.save_workspace_to(win, str(path))
    assert win.messages.text().startswith("saved workspace")
    win.state.update(bits=0x40000000)  # an edit: the "saved" message is about before it
    assert win.messages.text() == ""
    assert actions.open_workspace(win, str(path))
    assert win.messages.text().startswith("opened workspace")
    assert not actions.open_workspace(win, str(tmp_path / "missing.json"))
    assert win.messages.text().startswith("Cannot open workspace")
    assert win.paste_box.is_error()


def test_a_rules_change_keeps_the_message_a_field_error_replaces_it(make_window) -> None:
    win = make_window()
    assert win.ctl.paste("1.5 2.5")
    msg = win.messages.text()
    win.state.update(rule_set="d3d10")
    assert win.messages.text() == msg
    win.editor.error.emit("cannot read 'zz' as f32")
    assert win.messages.text() == "cannot read 'zz' as f32" and win.messages.is_error()


def test_picking_the_inspected_value_keeps_the_message_an_edit_clears_it(make_window) -> None:
    """Choosing which value to inspect (A, B, the model result, the GPU's answer shown)
    changes none of the values a paste's message describes: the message stays. Before,
    the picker cleared it (the inspected value changed). An edit still clears it."""
    from fpinspector.ui.operation.inspected import GPU, MODEL

    win = make_window()
    win.state.update(op="mul")
    assert win.ctl.paste("1.5 2.5")
    msg = win.messages.text()
    assert msg.startswith("read as")
    for pick in (MODEL, 1, 0):
        inspected = win.state.snapshot.bits
        win.state.select(pick)
        assert win.state.snapshot.bits != inspected  # (the inspector did change)
        assert win.messages.text() == msg, pick
    win.state.select(GPU)
    win.state.follow_gpu("f32", 0x40700000)  # 3.75: the GPU's answer, shown
    assert win.state.snapshot.bits == 0x40700000 and win.messages.text() == msg
    win.state.follow_gpu("f32", 0x40700001)  # another answer shown: still no edit
    assert win.state.snapshot.bits == 0x40700001 and win.messages.text() == msg
    win.state.select(0)
    win.state.update(bits=0x40000000)  # an edit of A: the pasted values changed
    assert win.messages.text() == ""


def test_an_other_reading_leaves_the_message_its_room_and_nothing_scrolls(
        make_compact_window) -> None:
    """"0x00000001 3f800000" can also be read as 64 bits as four f16 lanes: the offer's
    button was the whole reading ("read as 64 bits as 4 f16 lanes, the lowest first (…)"),
    which hid the paste's message beside it and made the central area ~110 px wider than
    a 1280x720 window gives it (side scrolling). Now the button keeps READING_WIDTH, its
    words cut at the end and whole in its tooltip; the message has the rest."""
    win = make_compact_window()
    win.state.update(op="mul")
    assert win.ctl.paste("0x00000001 3f800000")
    _settle()
    box = win.paste_box
    assert box.first_reading.isVisible()
    assert box.first_reading.width() <= box.READING_WIDTH
    label = box.reading_actions[0].text()
    assert "4 f16 lanes" in label and label in box.first_reading.toolTip()
    assert win.messages.isVisible() and win.messages.width() >= 300
    assert win.messages.text().startswith("read as")
    assert win.centralWidget().horizontalScrollBar().maximum() == 0


def test_a_long_message_is_cut_to_its_two_lines_with_an_ellipsis(qtbot) -> None:
    """A message longer than the bar's two lines is cut in its second line with "…" (the
    whole of it in the tooltip and message()); clipped, the first-run intro at 1280x720
    showed half of a third line. The intro itself fits the ~390 px it has there."""
    from PySide6 import QtGui

    from fpinspector.ui.shell.first_run import INTRO
    from fpinspector.ui.shell.message_bar import MessageBar

    bar = MessageBar()
    qtbot.addWidget(bar)
    bar.resize(390, bar.height())
    bar.show()
    long = ("read as 12 decimals (12 f32): A = 1.5, B = 2.5, C = 3.5; not used (mul takes 2): "
            "4.5 5.5 6.5 7.5 8.5 9.5 10.5 11.5 12.5; the inspector shows 1.5")
    for text, cut in ((long, True), (INTRO, False)):
        bar.show_message(text)
        shown = bar.text()
        fm = QtGui.QFontMetrics(bar.font())
        rect = fm.boundingRect(bar.contentsRect(), int(Qt.TextFlag.TextWordWrap), shown)
        assert rect.height() <= 2 * fm.lineSpacing(), (shown, rect.height())
        assert bar.message() == text and bar.toolTip() == text
        assert shown.endswith("…") == cut and (shown == text) != cut
        if cut:
            assert text.startswith(shown[:-1].rstrip())
