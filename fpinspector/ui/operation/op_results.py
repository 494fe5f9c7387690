"""The op's results side by side (model vs GPU) and what the engine says about them: the
exact value, the exact allowed set, the verdict with its one-sentence reason, fired rules."""

from __future__ import annotations

from decimal import Decimal

from PySide6 import QtCore, QtGui, QtWidgets

from ...model.engine.raw_inputs import ulp_error_words
from ...model.formats import FORMATS, FloatFormat, operand_format
from .. import bridge, bridge_ops, palette
from ..hover_select import HoverSelectLabel
from ..inspector.bit_cells import BitCells, Segment, format_segments
from ..qt_utils import HoverTip, set_text, set_tip
from ..steady_label import SteadyLabel

__all__ = ["ALLOWED_TIP", "ResultBox", "VerdictPanel", "exact_text", "result_segments",
           "verdict_lines"]


def result_segments(fmt: str) -> tuple[int, list[Segment]]:
    """Bit layout of a result: a float format's fields, one run for a code or a bool."""
    if fmt == "bool":
        return 1, [Segment(fmt, "frac", 0, 0)]
    t = operand_format(fmt)
    if isinstance(t, FloatFormat):
        return t.bits, format_segments(t)
    return t.bits, [Segment(fmt, "frac", t.bits - 1, 0)]


def exact_text(hi: float, lo: float) -> tuple[str, str]:
    """(text, tooltip) of the engine's exact value ``hi + lo`` (a float64 pair): the
    shortest text of the double, "+ lo" when the double alone is not exact; the tooltip
    writes the sum out in full."""
    if hi != hi:
        return "NaN", "The exact result is not a number."
    if lo == 0 or hi in (float("inf"), float("-inf")):
        full = format(Decimal(hi), "f") if hi not in (float("inf"), float("-inf")) else str(hi)
        return repr(hi), f"exactly {full}"
    full = format(Decimal(hi) + Decimal(lo), "f")
    return (f"{hi!r} {'+' if lo > 0 else '−'} {abs(lo)!r}",
            f"exactly {full} (a double and its residual: the double alone rounds it)")


def verdict_lines(v: bridge_ops.Verdict, diff_mask: int, raw: bool = False,
                  raw_error: float | None = None, steps: float | None = None
                  ) -> tuple[str, str]:
    """(headline, detail) of a verdict: CONFORMANT / NOT CONFORMANT with the engine's reason,
    then the ULP error, saying what it is measured against (or why there is no ULP figure),
    the steps from the model's result and the bits that differ.

    ``raw``: an input flush changed the exact value (:func:`bridge_ops.raw_outcome`): both
    errors are shown, each labelled, ``raw_error`` (None: no number) against the exact value
    of the raw inputs. ``steps``: signed
    steps from the model's result (the error maps' "GPU vs model")."""
    head = f"{'CONFORMANT' if v.conformant else 'NOT CONFORMANT'}: {v.reason}"
    ulp = ulp_error_words(v.ulp_error, v.ulp_note, raw_error if raw else None, raw)
    n = bin(diff_mask).count("1")
    same = ("same bits as the model" if n == 0 else
            "1 bit differs from the model" if n == 1 else f"{n} bits differ from the model")
    if n and steps is not None and steps == steps:
        same = f"{steps:+.6g} steps from the model ({same.replace(' from the model', '')})"
    return head, f"{ulp}; {same}"


class ResultBox(QtWidgets.QGroupBox):
    """Bits and value of one result (the model's or the GPU's); the value's exact expansion
    is its tooltip, written out when the value is hovered (:meth:`value_tip`)."""

    def __init__(self, title: str, tip: str) -> None:
        super().__init__(title)
        self.setToolTip(tip)
        self.cells = BitCells(32, format_segments(FORMATS["f32"]))
        self.cells.HEADER = 12
        self.cells.setEnabled(False)  # read-only: results are not edited
        # plain text in a bold font, not rich text: no text document laid out per result
        self.value = HoverSelectLabel()
        self.value.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        bold = self.value.font()
        bold.setBold(True)
        self.value.setFont(bold)
        self.detail = HoverSelectLabel()  # (plain text: see hover_select)
        self.detail.setWordWrap(True)
        # sizes that new text does not change: an edit repaints the text, not the panel
        for lab in (self.value, self.detail):
            lab.setAlignment(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignTop)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.setSpacing(1)
        lay.addWidget(self.cells)
        lay.addWidget(SteadyLabel(self.value, 1))
        lay.addWidget(SteadyLabel(self.detail, 2))
        self._fmt = "f32"
        self._width = 32
        #: (format, pattern) of the value shown; its exact expansion is worked out when
        #: the value is hovered. Why: an operand click shows two results (the model's, the
        #: GPU's), and each expansion (hundreds of digits for a tiny value) was written
        #: into a tooltip on every click, seldom read
        self._shown: tuple[str, int] | None = None
        HoverTip(self.value, self.value_tip)

    def show_bits(self, fmt: str, bits: int) -> None:
        if fmt != self._fmt:
            self._fmt = fmt
            self._width, segments = result_segments(fmt)
            self.cells.set_layout(self._width, segments)
        self.cells.set_bits(bits)
        text = bridge_ops.result_text(fmt, bits)
        set_text(self.value, f"0x{bits:0{(self._width + 3) // 4}X} = {text}")
        if self._shown != (fmt, bits):
            self._shown = (fmt, bits)
            set_tip(self.value, "")  # (not an earlier value's expansion: the box's tip)

    def value_tip(self) -> str:
        """The value's tooltip when hovered: the exact expansion of the pattern shown
        (the model's, worked out now), "" with none shown."""
        return "" if self._shown is None else bridge.exact_tip(*self._shown)

    def clear(self, message: str = "") -> None:
        set_text(self.value, "—")
        self._shown = None
        set_tip(self.value, "")
        set_text(self.detail, message)
        self.cells.set_diff_mask(0)
        self.cells.set_blank()  # (no digit of the previous result beside this op)


#: The allowed set's tooltip until it is hovered (then: the exact ends, :func:`_allowed_tip`).
ALLOWED_TIP = ("Every result the rule set allows, exactly: points and intervals of patterns, "
               "-0 and +0 apart.")


class VerdictPanel(QtWidgets.QWidget):
    """exact / allowed / verdict rows and the fired rules, from one OpOutcome and one
    Verdict: the verdict, its ULP figure and the allowed set come from the same engine
    evaluation, so they cannot contradict each other."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.exact_label = HoverSelectLabel()
        self.exact_label.setToolTip("The infinitely precise result of the op on these operands.")
        self.allowed_label = HoverSelectLabel()
        self.allowed_label.setToolTip(ALLOWED_TIP)
        # the ends' exact values are written out when the label is hovered, not on each
        # edit
        self._allowed: bridge_ops.AllowedSet | None = None
        HoverTip(self.allowed_label,
                 lambda: None if self._allowed is None else _allowed_tip(self._allowed))
        # the verdict's headline (bold, coloured) and its detail: two plain labels, not one
        # rich-text label (a text document laid out for every GPU answer)
        self.verdict_label = HoverSelectLabel()
        self.verdict_detail = HoverSelectLabel()
        tip = ("Whether the GPU result is in the allowed set, and why; then its ULP error "
               "against the exact value (after input flush, and of the raw inputs where a "
               "flush changed it; or why a number would mislead), and how many steps "
               "(representable values) it is from the model's result.")
        for lab in (self.verdict_label, self.verdict_detail):
            lab.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # (a message may hold "<")
            lab.setToolTip(tip)
            lab.setWordWrap(True)
            lab.setAlignment(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignTop)
        self._head_style: tuple[bool, str] | None = None  # (bold, colour) of the headline
        form = QtWidgets.QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.setVerticalSpacing(2)
        # room for the usual text (the allowed set on two lines, the verdict's reason and
        # ULP line on three): new text of an edit then changes no size, so nothing moves
        for name, lab, lines in (("exact", self.exact_label, 1),
                                 ("allowed", self.allowed_label, 2)):
            lab.setWordWrap(True)
            lab.setAlignment(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignTop)
            form.addRow(name, SteadyLabel(lab, lines))
        form.addRow("verdict", SteadyLabel(self.verdict_label, 3, below=self.verdict_detail))
        self._style_head(False, "")
        self.rules_list = QtWidgets.QListWidget()
        self.rules_list.setWordWrap(True)
        self.rules_list.setToolTip("The rules that fired for this input, in plain words.")
        self.rules_list.setMinimumHeight(44)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addLayout(form)
        lay.addWidget(QtWidgets.QLabel("<b>Rules that fired</b>"))
        lay.addWidget(self.rules_list, 1)
        self._ok: bool | None = None

    def show_outcome(self, outcome: bridge_ops.OpOutcome | None,
                     raw: bridge_ops.RawExact | None = None) -> None:
        """The model's exact value, allowed set and fired rules (blank without one); with
        ``raw`` (the op on the raw inputs, where an input flush changed the exact value)
        both exact values, each labelled."""
        if outcome is None:
            self._show_rules([])
            self._allowed = None
            for lab in (self.exact_label, self.allowed_label):
                set_text(lab, "")
                set_tip(lab, "")
            return
        text, tip = exact_text(outcome.exact, outcome.exact_lo)
        if raw is not None and raw.result_format != "bool" and \
                (raw.exact, raw.exact_lo) != (outcome.exact, outcome.exact_lo):
            raw_text, raw_tip = exact_text(raw.exact, raw.exact_lo)
            text = f"{text} after input flush; {raw_text} of the raw inputs"
            tip = (f"After input flush (the rule set flushes denormal inputs): {tip}\n"
                   f"Of the raw inputs, as given: {raw_tip}")
        set_text(self.exact_label, text)
        set_tip(self.exact_label, tip)
        set_text(self.allowed_label, outcome.allowed.describe())
        self._allowed = outcome.allowed
        set_tip(self.allowed_label, ALLOWED_TIP)  # (the exact ends: when hovered)
        self._show_rules(outcome.explain or outcome.rules)

    def _show_rules(self, lines: list[str]) -> None:
        """Refill the rules list only when its lines change (a refill re-lays it out)."""
        if lines != [self.rules_list.item(i).text() for i in range(self.rules_list.count())]:
            self.rules_list.clear()
            self.rules_list.addItems(lines)
            self.rules_list.doItemsLayout()  # now: Qt's zero-timer did it after the edit's
            # repaint, and asked for a second one

    def show_verdict(self, verdict: bridge_ops.Verdict | None, diff_mask: int = 0,
                     message: str = "", raw: bool = False, raw_error: float | None = None,
                     steps: float | None = None) -> None:
        """The verdict on the GPU's result, or ``message`` (why there is none); ``raw``,
        ``raw_error`` and ``steps`` as :func:`verdict_lines`."""
        if verdict is None:
            self._ok = None
            self._style_head(False, "")
            set_text(self.verdict_label, message)
            set_text(self.verdict_detail, "")
            return
        c = palette.colors()
        self._ok = verdict.conformant
        head, detail = verdict_lines(verdict, diff_mask, raw, raw_error, steps)
        self._style_head(True, c.ok if verdict.conformant else c.bad)
        set_text(self.verdict_label, head)
        set_text(self.verdict_detail, detail)

    def _style_head(self, bold: bool, colour: str) -> None:
        """The headline's weight and colour ("": the palette's text colour), set only when
        they change (a new font or palette re-lays out and repaints the label)."""
        if self._head_style == (bold, colour):
            return
        self._head_style = (bold, colour)
        lab = self.verdict_label
        font = lab.font()
        font.setBold(bold)
        lab.setFont(font)
        pal = QtGui.QPalette()  # only the text colour set: the rest follows the window
        if colour:
            pal.setColor(QtGui.QPalette.ColorRole.WindowText, QtGui.QColor(colour))
        lab.setPalette(pal)

    def changeEvent(self, event: QtCore.QEvent) -> None:  # noqa: N802 (Qt override)
        """A new light/dark palette: the headline takes that palette's verdict colour."""
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.PaletteChange and self._ok is not None:
            c = palette.colors()
            self._style_head(True, c.ok if self._ok else c.bad)

    def verdict_text(self) -> str:
        """The verdict as shown: the headline, then the detail on a line of its own."""
        detail = self.verdict_detail.text()
        return self.verdict_label.text() + (f"\n{detail}" if detail else "")

    def conformant(self) -> bool | None:
        return self._ok


def _allowed_tip(aset: bridge_ops.AllowedSet) -> str:
    """Each end of each allowed range written out exactly (floats) or as codes."""
    if aset.is_code or aset.format == "bool":
        return "Allowed integer results (codes)."
    lines = []
    for a, b in aset.ranges[:8]:
        ends = [a] if a == b else [a, b]
        lines.append(" … ".join(f"0x{p:X} = {bridge.exact_value(aset.format, p)}" for p in ends))
    if len(aset.ranges) > 8:
        lines.append(f"… and {len(aset.ranges) - 8} more ranges")
    if aset.any_nan:
        lines.append("or any NaN")
    if aset.denormals_excluded:
        lines.append("denormals excluded: they are flushed (F32-FTZ)")
    return "Allowed results, exactly:\n" + "\n".join(lines)
