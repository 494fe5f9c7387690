"""Operations panel: op/format/rule-set pickers, operand editors, model vs GPU results, fired rules."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from ...model.formats import CodeFormat, operand_format
from ...model.state import MAX_OPERANDS, OP_FIELDS, InspectorState, Snapshot, edits
from ...model.state.paste import operand_letters
from .. import bridge_ops
from ..inspector.bit_editor import BitFieldEditor
from ..qt_utils import set_text, signals_blocked
from .code_editor import CodeEditor
from .op_results import ResultBox, VerdictPanel

__all__ = ["OperationsView", "operand_names"]


def _setup(snap: Snapshot) -> tuple:
    """What :meth:`OperationsView.show_state` shows besides the operands' bits."""
    return snap.op, snap.op_format, snap.rule_set, snap.options


def operand_names(op: str, arity: int) -> list[str]:
    """A, B, C for ordinary ops; a0..aN-1, b0..bN-1 for the dot products (the op row's
    ``operand_names``, as the paste message names them)."""
    return operand_letters(op, arity)


class OperationsView(QtWidgets.QWidget):
    """Pickers, operand editors, the model's result and the GPU's; a bound state
    (:meth:`bind`) receives the user's edits and is shown as it changes. The GPU column is
    filled by the window's GPU adapter (:meth:`show_gpu`).

    Signals
    -------
    op_picked(str), format_picked(str), rules_picked(str), options_picked(object)
    operand_edited(int, object) : operand index and its new pattern.
    noted(str, bool) : what a format switch did to the operands (text, ok): the window
        shows it in its one place for messages.
    """

    op_picked = QtCore.Signal(str)
    format_picked = QtCore.Signal(str)
    rules_picked = QtCore.Signal(str)
    options_picked = QtCore.Signal(object)
    operand_edited = QtCore.Signal(int, object)
    noted = QtCore.Signal(str, bool)

    def __init__(self, state: InspectorState | None = None, parent=None) -> None:
        super().__init__(parent)
        self.ops = bridge_ops.op_infos()
        self.op_combo = QtWidgets.QComboBox()
        self.op_combo.setToolTip("The operation (the rule engine's op names; log is log2, exp is 2^x).")
        for name, info in self.ops.items():
            self.op_combo.addItem(name)
            self.op_combo.setItemData(self.op_combo.count() - 1, info.description,
                                      QtCore.Qt.ItemDataRole.ToolTipRole)
        self.fmt_combo = QtWidgets.QComboBox()
        # as wide as the longest format any op takes ("unorm16"), from the start: the
        # first op's formats set it ("unorm" was cut), and a width that followed the
        # items would move the pickers on each op switch
        longest = max((f for info in self.ops.values() for f in info.formats), key=len,
                      default="f32")
        self.fmt_combo.setSizeAdjustPolicy(
            QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.fmt_combo.setMinimumContentsLength(len(longest))
        self.fmt_combo.setToolTip("Operand format of the op." + bridge_ops.no_arithmetic_note())
        self.rules_combo = QtWidgets.QComboBox()
        self.rules_combo.addItems(list(bridge_ops.rule_sets()))
        self.rules_combo.setToolTip("Rule set: d3d11 (default), d3d10, or plain ieee754 as a baseline.")
        self.option_boxes: dict[str, QtWidgets.QComboBox] = {}
        self.option_defaults: dict[str, str] = {}
        picks = QtWidgets.QHBoxLayout()
        for label, w in (("op", self.op_combo), ("format", self.fmt_combo), ("rules", self.rules_combo)):
            picks.addWidget(QtWidgets.QLabel(label))
            picks.addWidget(w)
        self.options_box = QtWidgets.QGroupBox("Rule options (the AMBIGUOUS points of docs/rules.md)")
        opt_row = QtWidgets.QGridLayout(self.options_box)
        for i, (name, info) in enumerate(bridge_ops.option_infos().items()):
            box = QtWidgets.QComboBox()
            box.addItems(list(info.choices))
            box.setCurrentText(info.default)
            box.setToolTip(f"AMBIGUOUS switch {name} ({info.text})")
            box.currentTextChanged.connect(self._push_options)
            self.option_boxes[name] = box
            self.option_defaults[name] = info.default
            lab = QtWidgets.QLabel(name)
            lab.setToolTip(box.toolTip())
            opt_row.addWidget(lab, i // 3, 2 * (i % 3))
            opt_row.addWidget(box, i // 3, 2 * (i % 3) + 1)
        self.options_btn = QtWidgets.QToolButton()
        self.options_btn.setText("options")
        self.options_btn.setCheckable(True)
        self.options_btn.setToolTip("Show the switches for the ambiguous rules (lenient d3d11, "
                                    "fused step ULPs, ...)")
        self.options_btn.toggled.connect(self.options_box.setVisible)
        self.options_box.hide()
        picks.addWidget(self.options_btn)
        picks.addStretch(1)  # (messages are the window's: MessageBar)
        self._picks = picks
        self.editors = [BitFieldEditor("f32", chr(ord("A") + i)) for i in range(MAX_OPERANDS)]
        # integer-code ops (itof, from_unorm8, ...): one bit run, hex and integer fields
        self.code_editors = [CodeEditor("i32", chr(ord("A") + i)) for i in range(MAX_OPERANDS)]
        for i, ed in enumerate(self.editors + self.code_editors):
            i %= MAX_OPERANDS
            ed.bits_changed.connect(lambda bits, i=i: self.operand_edited.emit(i, bits))
        self.model_box = ResultBox("Model result", "What the rule engine computes for these "
                                   "operands under the chosen rule set.")
        self.gpu_box = ResultBox("GPU result", "What this machine's GPU returned for the same "
                                 "op; bits that differ from the model are outlined.")
        self.verdict = VerdictPanel()
        self.exact_label = self.verdict.exact_label
        self.allowed_label = self.verdict.allowed_label
        self.verdict_label = self.verdict.verdict_label
        self.verdict_text = self.verdict.verdict_text
        self.rules_list = self.verdict.rules_list
        self.error_label = QtWidgets.QLabel()
        self.error_label.setStyleSheet("color: #c62828;")
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        self._build(picks)
        self.op_combo.currentTextChanged.connect(self.op_picked)
        self.fmt_combo.currentTextChanged.connect(self.format_picked)
        self.rules_combo.currentTextChanged.connect(self.rules_picked)
        self._is_code = False
        #: the op, operand format, rule set and options the pickers and editors show
        #: (:func:`_setup`): an edit that changes none of them shows the operands alone
        self._shown_setup: tuple | None = None
        self._switch_memo: tuple | None = None
        if state is not None:
            self.bind(state)

    def bind(self, state: InspectorState) -> None:
        """Edit ``state``'s op, operand type, rules, options and operands (an op or type
        switch carries the operands over: ``model.state.edits``) and show them."""
        self.state = state
        self.op_picked.connect(lambda op: op in self.ops and edits.switch_op(state, op))
        self.format_picked.connect(lambda fmt: fmt and self.switch_format(fmt))
        self.rules_picked.connect(lambda r: state.update(rule_set=r))
        self.options_picked.connect(lambda o: state.update(options=o))
        self.operand_edited.connect(state.set_operand)
        for ed in (*self.editors, *self.code_editors):  # a drag over the bits: one undo step
            ed.edit_started.connect(state.begin_undo_group)
            ed.edit_finished.connect(state.end_undo_group)
        state.connect(self._pull_op)
        self._pull_op(frozenset(Snapshot.__dataclass_fields__))

    def switch_format(self, fmt: str) -> None:
        """Give the operands in ``fmt`` (``edits.switch_op_format``), saying which operand
        changed its value on the way (an f32 denormal has no f16 pattern); switching
        straight back brings the operands back as they were."""
        state = self.state
        s = state.snapshot
        memo = self._switch_memo
        target = operand_format(fmt).name
        if memo is not None and memo[1] == (s.op_format, s.operands) and memo[0][0] == target:
            state.update(op_format=memo[0][0], operands=list(memo[0][1]))
            self._switch_memo = None
            self.show_note(f"back to {target}: the operands as they were before the switch")
            return
        edits.switch_op_format(state, fmt)
        after = state.snapshot
        self._switch_memo = ((s.op_format, s.operands), (after.op_format, after.operands))
        info = self.ops.get(s.op)
        names = operand_names(s.op, info.arity if info else 2)
        changed = []
        for i, name in enumerate(names):
            old = bridge_ops.exact_text(s.op_format, s.operands[i])
            new = bridge_ops.exact_text(after.op_format, after.operands[i])
            if old != new:
                changed.append(f"{name} = {bridge_ops.result_text(s.op_format, s.operands[i])} "
                               f"became {bridge_ops.result_text(after.op_format, after.operands[i])}")
        if changed:
            self.show_note(f"{s.op_format} → {after.op_format} changed {'; '.join(changed)} "
                           f"(no {after.op_format} pattern holds it: the D3D conversion); "
                           f"pick {s.op_format} again to get the operands back", ok=False)

    def _pull_op(self, changed: frozenset) -> None:
        if not OP_FIELDS & changed:
            return
        s = self.state.snapshot
        if self._shown_setup == _setup(s):  # an operand edit: only the editors' bits
            self.show_operands(s)
        else:
            self.show_state(s)
        try:
            outcome = bridge_ops.evaluate(s.op, s.operands, s.op_format, s.rule_set, s.options)
        except ValueError as exc:
            self.show_outcome(None, str(exc))
        else:
            self.show_outcome(outcome)

    def _build(self, picks: QtWidgets.QLayout) -> None:
        box = QtWidgets.QWidget()
        operands = QtWidgets.QVBoxLayout(box)
        operands.setContentsMargins(0, 0, 0, 0)
        operands.setSpacing(0)
        for ed, code in zip(self.editors, self.code_editors):
            operands.addWidget(ed)
            operands.addWidget(code)
            code.hide()
        # at most SHOWN_OPERANDS editors tall: the dot products' eight operands scroll here,
        # so the results below them stay in view
        self.operands_area = QtWidgets.QScrollArea()
        self.operands_area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.operands_area.setWidgetResizable(True)
        self.operands_area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.operands_area.setWidget(box)
        results = QtWidgets.QHBoxLayout()
        results.setSpacing(4)
        results.addWidget(self.model_box, 1)
        results.addWidget(self.gpu_box, 1)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.setSpacing(2)
        lay.addLayout(picks)
        lay.addWidget(self.options_box)
        lay.addWidget(self.operands_area)
        lay.addWidget(self.error_label)
        lay.addLayout(results)
        lay.addWidget(self.verdict, 1)

    # -- model -> widget ------------------------------------------------------------
    def show_state(self, snap: Snapshot) -> None:
        """Pickers and operand editors from the state (no signals echo back)."""
        info = self.ops.get(snap.op)
        formats = list(info.formats) if info else [snap.op_format]
        if snap.op_format not in formats:
            formats.append(snap.op_format)
        with signals_blocked(self.op_combo, self.fmt_combo, self.rules_combo, *self.option_boxes.values()):
            if self.op_combo.findText(snap.op) < 0:
                self.op_combo.addItem(snap.op)
            self.op_combo.setCurrentText(snap.op)
            if [self.fmt_combo.itemText(i) for i in range(self.fmt_combo.count())] != formats:
                self.fmt_combo.clear()
                self.fmt_combo.addItems(formats)
            self.fmt_combo.setCurrentText(snap.op_format)
            self.rules_combo.setCurrentText(snap.rule_set)
            chosen = dict(o.partition("=")[::2] for o in snap.options)
            for name, box in self.option_boxes.items():
                box.setCurrentText(chosen.get(name) or self.option_defaults[name])
        arity = info.arity if info else 2
        names = operand_names(snap.op, arity)
        is_code = self._is_code = isinstance(operand_format(snap.op_format), CodeFormat)
        for i, (flt, code) in enumerate(zip(self.editors, self.code_editors)):
            visible = i < arity
            flt.setVisible(visible and not is_code)
            code.setVisible(visible and is_code)
            if not visible:
                continue
            ed = code if is_code else flt
            if is_code and code.fmt_name != snap.op_format:
                code.set_format(snap.op_format)
            elif not is_code and flt.fmt.name != snap.op_format:
                flt.set_format(snap.op_format, snap.operands[i])
            set_text(ed.title, f"<b>{names[i]}</b>")
            ed.set_bits(snap.operands[i])
        self._fit_operands(arity, is_code)
        self._shown_setup = _setup(snap)

    def show_operands(self, snap: Snapshot) -> None:
        """The operand editors' bits from the state, where the pickers, the editors'
        formats and which editors are shown are those of :meth:`show_state` already (an
        operand edit). Why: the pickers' texts, the editors' visibility and the operands
        area's height were set again on every operand click, each unchanged."""
        info = self.ops.get(snap.op)
        arity = info.arity if info else 2
        editors = self.code_editors if self._is_code else self.editors
        for ed, bits in zip(editors[:arity], snap.operands):
            ed.set_bits(bits)

    #: Operand editors shown without scrolling (mad's three).
    SHOWN_OPERANDS = 3

    def _fit_operands(self, arity: int, is_code: bool) -> None:
        """Make the operands area as tall as its first SHOWN_OPERANDS editors."""
        eds = (self.code_editors if is_code else self.editors)[:min(arity, self.SHOWN_OPERANDS)]
        h = sum(ed.sizeHint().height() for ed in eds)
        if arity > self.SHOWN_OPERANDS:
            h += self.operands_area.horizontalScrollBar().sizeHint().height() // 2
        if self.operands_area.height() != h or self.operands_area.minimumHeight() != h:
            self.operands_area.setFixedHeight(h)

    #: How long a note on the operands stays (ms).
    NOTE_MS = 12000

    def show_note(self, text: str, ok: bool = True) -> None:
        """What a format switch converted, as a message (:attr:`noted`)."""
        self.noted.emit(text, ok)

    def operand_editor(self, index: int) -> BitFieldEditor | CodeEditor:
        """The editor now shown for operand ``index`` (float pattern or integer code)."""
        return self.code_editors[index] if self._is_code else self.editors[index]

    def show_outcome(self, outcome: bridge_ops.OpOutcome | None, error: str = "") -> None:
        """The model's result, exact value, allowed set and fired rules (or an error)."""
        set_text(self.error_label, error)
        if self.error_label.isVisibleTo(self) != bool(error):
            self.error_label.setVisible(bool(error))
        self._outcome = outcome
        self._raw = None
        if outcome is not None and getattr(self, "state", None) is not None:
            s = self.state.snapshot  # the op on the raw inputs, where a flush changed them
            self._raw = bridge_ops.raw_outcome(s.op, s.operands, s.op_format, s.rule_set)
        self.verdict.show_outcome(outcome, self._raw)
        if outcome is None:
            self.model_box.clear()
            return
        self.model_box.show_bits(outcome.result_format, outcome.bits)

    def show_gpu(self, fmt: str | None, bits: int | None, verdict: bridge_ops.Verdict | None,
                 message: str = "", diff_mask: int = 0) -> None:
        """The GPU's result with the engine's verdict on it, or ``message`` (e.g. why there
        is none)."""
        if bits is None or fmt is None:
            self.gpu_box.clear(message)
            self.verdict.show_verdict(None, 0, message)
            return
        self.gpu_box.show_bits(fmt, bits)
        self.gpu_box.cells.set_diff_mask(diff_mask)
        set_text(self.gpu_box.detail, message)
        if verdict is None:
            self.verdict.show_verdict(None, 0, "(no verdict: the model result is not available)")
            return
        raw_error: float | None = None
        steps: float | None = None
        outcome = getattr(self, "_outcome", None)
        raw = getattr(self, "_raw", None)
        try:
            if raw is not None:
                raw_error = raw.ulp_error(bits)
            if outcome is not None and diff_mask:
                steps = bridge_ops.steps_from(bits, outcome.bits, fmt)
        except ValueError:
            raw, raw_error, steps = None, None, None
        self.verdict.show_verdict(verdict, diff_mask, raw=raw is not None, raw_error=raw_error,
                                  steps=steps)

    def gpu_conformant(self) -> bool | None:
        return self.verdict.conformant()

    def _push_options(self) -> None:
        self.options_picked.emit(tuple(
            f"{n}={b.currentText()}" for n, b in self.option_boxes.items()
            if b.currentText() != self.option_defaults[n]))
