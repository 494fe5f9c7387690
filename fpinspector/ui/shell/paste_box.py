"""The paste box: a line that takes any text (debugger output, hex, decimals, a state string),
says how it was read and which value went where, and offers the other readings."""

from __future__ import annotations

from dataclasses import replace

from PySide6 import QtCore, QtGui, QtWidgets

from ...model.state import InspectorState
from .. import bridge, bridge_ops
from ..operation.inspected import VALUE, selection_name
from ..qt_utils import settle_layouts
from .message_bar import MessageBar

__all__ = ["PasteBox"]


class PasteBox(QtWidgets.QWidget):
    """Line edit + button; what happened (or the error) appears inline, never in a dialog,
    with one button per other reading of the text (bytes or decimals, byte order, width).

    Signals
    -------
    submitted(str) : the text to paste (a bound state receives it, :meth:`paste`).
    feedback(str, bool) : after each paste, its message and whether it worked (shown in
        :attr:`message`, the window's one place for messages).
    """

    submitted = QtCore.Signal(str)
    feedback = QtCore.Signal(str, bool)
    #: The most the first other reading's button takes of the message line (px).
    READING_WIDTH = 220

    def __init__(self, state: InspectorState | None = None, parent=None) -> None:
        super().__init__(parent)
        self.edit = QtWidgets.QLineEdit()
        self.edit.setPlaceholderText("Paste values here (Ctrl+V anywhere): 0x3f800000, 1.5f, "
                                     "asfloat(0x...), -0x1p-149, debugger output, or a state string")
        self.edit.setToolTip("Several values fill operands A, B, C, … in order.")
        self.button = QtWidgets.QPushButton("Paste")
        # the window's one place for messages (MessageBar): under the line, of fixed height
        self.message = MessageBar()
        # the other readings of the last paste: the first one as a button (Ctrl+Shift+V),
        # the rest in the menu of a second one. A button per reading made a row wider than
        # the central area at 1280x720 ("10 20 30 40" has four): everything below was cut
        # and scrolled sideways
        self.first_reading = QtWidgets.QToolButton()
        self.first_reading.setMaximumWidth(self.READING_WIDTH)
        self.more_readings = QtWidgets.QToolButton()
        self.more_readings.setPopupMode(QtWidgets.QToolButton.ToolButtonPopupMode.InstantPopup)
        self.more_readings.setMenu(QtWidgets.QMenu(self.more_readings))
        self.more_readings.setToolTip("The other ways this text can be read")
        self.readings_row = QtWidgets.QHBoxLayout()
        self.readings_row.setContentsMargins(0, 0, 0, 0)
        self.readings_row.setSpacing(4)
        for b in (self.first_reading, self.more_readings):
            b.setAutoRaise(True)
            b.hide()
            self.readings_row.addWidget(b, 0, QtCore.Qt.AlignmentFlag.AlignTop)
        self.reading_actions: list[QtGui.QAction] = []
        self._offered: QtCore.QObject | None = None  # owns the offered readings' actions
        top = QtWidgets.QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.edit, 1)
        top.addWidget(self.button)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(1)
        lay.addLayout(top)
        # the readings sit beside the message, inside its fixed height: offered or not,
        # they never move the editors below (the one-message-line rule)
        line = QtWidgets.QHBoxLayout()
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(self.message, 1)
        line.addLayout(self.readings_row)
        lay.addLayout(line)
        self.edit.returnPressed.connect(self._submit)
        self.button.clicked.connect(self._submit)
        self.state = state
        self._last: tuple[str, bridge.PasteResult, object] | None = None
        self._busy = False
        if state is not None:
            self.submitted.connect(self.paste)
            self.message.bind(state)  # a message about the state goes when the state changes

    def paste(self, text: str, reading: str | None = None) -> bool:
        """Paste ``text`` into the state (``model.state.paste.paste_text``), read the
        ``reading`` way (the first reading by default); the outcome or the error shows
        inline and goes out as :attr:`feedback`."""
        if self._busy:  # a long paste is still being read (the window kept running)
            self.show_error("still reading the previous paste; try again in a moment")
            return False
        self._busy = True
        if len(text) > bridge.BACKGROUND_PASTE_CHARS:
            self.message.show_message(f"reading {len(text):,} characters…")
        try:
            result = self._paste_inspected(text, reading)
        except ValueError as exc:
            self._last = None
            self.show_error(str(exc))
            settle_layouts()
            return False
        finally:
            self._busy = False
        self._last = (text, result, self.state.snapshot)
        self.show_result(result.message)
        self._offer(result.others)
        # the message, the operand note (feedback) and the reading buttons are laid out
        # before the window repaints: one paint for the paste, not one per layout level
        settle_layouts()
        return True

    def _paste_inspected(self, text: str, reading: str | None) -> bridge.PasteResult:
        """The paste, with the value under inspection (ui/inspected.py): one value pasted
        for a unary op is its A, inspected (it went to the inspector, A unchanged); one
        value with an operand inspected is that operand; several values inspect A. A
        failed paste changes nothing."""
        st = self.state
        selection = getattr(st, "selection", None)
        spec = bridge_ops.op_infos().get(st.snapshot.op)
        if selection is None or not (selection == VALUE and spec is not None
                                     and spec.arity == 1 and st.linkable(0)):
            result = bridge.paste(st, text, reading)
            s = st.snapshot
            several = (result.reading is not None and result.reading.word is None
                       and len(result.reading.items) > 1)
            if (selection == VALUE and several and s.fmt == s.op_format
                    and s.bits == s.operands[0] and st.linkable(0)):
                st.select(0)  # several values: A, inspected (no change: no undo step)
            return self._named(result)
        start = st.snapshot
        with st.batch():  # (one undo step: A inspected and the value pasted into it)
            st.select(0)
            try:
                result = bridge.paste(st, text, reading)
            except ValueError:
                st.restore(start)
                st.select(VALUE)
                raise
        return self._named(result)

    def _named(self, result: bridge.PasteResult) -> bridge.PasteResult:
        """The message names the operand a single value went into, where it is the value
        inspected (the model's message says the inspector, operands unchanged)."""
        st = self.state
        selection = getattr(st, "selection", None)
        tail = " into the inspector (operands unchanged)"
        if isinstance(selection, int) and result.message.endswith(tail):
            s = st.snapshot
            spec = bridge_ops.op_infos().get(s.op)
            name = selection_name(selection, s.op, spec.arity if spec else 2)
            result = replace(result, message=result.message[: -len(tail)]
                             + f" into {name} (the value inspected)")
        return result

    def busy(self) -> bool:
        """A long paste is being read on a thread."""
        return self._busy

    def other_readings(self) -> list[str]:
        """Keys of the readings offered for the last paste (not the one taken)."""
        return [] if self._last is None else [r.key for r in self._last[1].others]

    def paste_reading(self, key: str) -> bool:
        """Paste the last text again, read the ``key`` way: the first paste is undone when
        nothing was edited since, so the other reading replaces it in one undo step."""
        if self._last is None:
            return False
        text, _, after = self._last
        if self.state.snapshot == after and self.state.can_undo():
            self.state.undo()
        return self.paste(text, key)

    def next_reading(self) -> bool:
        """Take the first other reading of the last paste (Ctrl+Shift+V)."""
        keys = self.other_readings()
        return self.paste_reading(keys[0]) if keys else False

    def _offer(self, others) -> None:
        """Offer the other readings of the last paste (none: nothing shown)."""
        if self._offered is not None:  # (deleted later: its action may be the one running)
            self._offered.deleteLater()
        self._offered = owner = QtCore.QObject(self)
        self.reading_actions = []
        menu = self.more_readings.menu()
        menu.clear()
        for i, r in enumerate(others):
            a = QtGui.QAction(f"read as {r.label}" + ("" if i else " (Ctrl+Shift+V)"), owner)
            a.setToolTip(f"Paste the same text again, read as {r.label} ({r.key})")
            a.triggered.connect(lambda _=False, k=r.key: self.paste_reading(k))
            self.reading_actions.append(a)
            if i:
                menu.addAction(a)
        if others:
            first = self.reading_actions[0]
            # the button's words cut to READING_WIDTH (whole in its tooltip and the menu):
            # whole, "read as 64 bits as 4 f16 lanes, the lowest first (…)" took the line
            # from the message beside it and widened the central area by ~110 px
            # (side scrolling at 1280x720)
            fm = self.first_reading.fontMetrics()
            first.setIconText(fm.elidedText(first.text(), QtCore.Qt.TextElideMode.ElideRight,
                                            self.READING_WIDTH - 16))
            first.setToolTip(f"{first.text()}: {first.toolTip()}")
            self.first_reading.setDefaultAction(first)
        more = len(others) - 1
        self.more_readings.setText(f"{more} more reading{'s' if more > 1 else ''}")
        self.first_reading.setVisible(bool(others))
        self.more_readings.setVisible(more > 0)

    def clear_readings(self) -> None:
        """Offer no other reading (a value that came without text has none)."""
        self._last = None
        self._offer(())

    def _submit(self) -> None:
        text = self.edit.text()
        if text.strip():
            self.submitted.emit(text)

    def show_error(self, message: str, prefix: str = "Cannot paste: ") -> None:
        """Show ``message`` inline: control characters escaped, at most a few lines long."""
        self._offer(())
        text = f"{prefix}{_printable(message)}"
        self.message.show_message(text, error=True)
        self.feedback.emit(text, False)

    def show_pasted(self, text: str) -> None:
        """Put clipboard text in the line (what Ctrl+V pasted); huge text is not copied in."""
        if len(text) > self.edit.maxLength():
            self.edit.clear()
            self.edit.setPlaceholderText(f"(clipboard: {len(text):,} characters, too long)")
        else:
            self.edit.setText(text)

    def show_result(self, message: str) -> None:
        self.message.show_message(message)
        self.feedback.emit(message, True)

    def is_error(self) -> bool:
        """The message shown is an error (a paste that could not be read, a workspace that
        could not be opened)."""
        return self.message.is_error()


_MAX_MESSAGE = 400


def _printable(message: str) -> str:
    """Escape what a label cannot show (NULs, other control bytes) and cap the length, so
    garbage on the clipboard reads as a short, clear message."""
    out = "".join(ch if ch.isprintable() or ch == "\n" else f"\\x{ord(ch):02x}"
                  if ord(ch) < 0x100 else "\ufffd" for ch in message)
    lines = out.split("\n")[:4]
    out = "\n".join(line[:160] for line in lines)
    return out if len(out) <= _MAX_MESSAGE else out[: _MAX_MESSAGE - 1] + "…"
