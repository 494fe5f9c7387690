"""The first run: two lines in the message line that say what the screen shows, and three
example cases one click away (a denormal mul, an f11 clamp, a NaN min), instead of a red
verdict without context. They go with the first edit (as any message does) and never come
back once the window has saved its settings."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

__all__ = ["EXAMPLES", "INTRO", "is_first_run", "offer_examples"]

#: What the screen shows, in two lines (whole in the message line beside the examples at
#: 1280x720, ~390 px: the longer first text was cut there)
INTRO = ("Top: a value's bits in every format. Below: an op on A, B, C: what D3D allows "
         "(model), what this GPU gave, the verdict. Try:")

#: (button, tooltip, op, operands as f32 patterns)
EXAMPLES = (
    ("denormal mul", "1e-45 x 1.0: D3D flushes the denormal input to 0 (F32-FTZ); a GPU that "
     "keeps it returns 1e-45", "mul", (0x00000001, 0x3F800000)),
    ("f11 clamp", "-2.5 to f11: f11 has no sign, negative values clamp to 0 (F11-CLAMP)",
     "to_f11", (0xC0200000,)),
    ("NaN min", "min(NaN, 2.5): D3D returns the other operand (F32-MINMAX-NAN)", "min",
     (0x7FC00000, 0x40200000)),
)


def is_first_run(settings: QtCore.QSettings) -> bool:
    """No window has saved its settings here yet."""
    return settings.value("state") is None


def offer_examples(win: QtWidgets.QMainWindow) -> QtWidgets.QWidget:
    """Show the intro in the message line and the example buttons under the paste line;
    both go when the message does. Returns the buttons' row."""
    row = QtWidgets.QWidget()
    lay = QtWidgets.QHBoxLayout(row)
    lay.setContentsMargins(0, 0, 0, 0)
    for text, tip, op, operands in EXAMPLES:
        b = QtWidgets.QToolButton()
        b.setText(text)
        b.setToolTip(tip)
        b.clicked.connect(lambda _=False, o=op, v=operands: _load(win, o, v))
        lay.addWidget(b)
    lay.addStretch(1)
    win.paste_box.readings_row.insertWidget(0, row)
    win.messages.show_message(INTRO)

    def gone(text: str) -> None:
        if text != INTRO:
            row.hide()
            row.deleteLater()
            win.messages.message_changed.disconnect(gone)

    win.messages.message_changed.connect(gone)
    return row


def _load(win: QtWidgets.QMainWindow, op: str, operands: tuple[int, ...]) -> None:
    st = win.state
    ops = list(st.snapshot.operands)
    ops[: len(operands)] = operands
    with st.batch():  # (one undo step)
        st.update(op=op, op_format="f32", operands=ops)
        if hasattr(st, "select"):
            st.select(0)  # the inspector shows A
