"""A row of clickable bit cells: click toggles, drag paints, keyboard moves/toggles/sets."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtCore, QtGui, QtWidgets

from ...model.formats import FloatFormat
from .. import palette

__all__ = ["BitCells", "Segment", "format_segments", "r11g11b10_segments"]


@dataclass(frozen=True)
class Segment:
    """A run of bits of one kind: ``hi`` and ``lo`` are bit numbers (inclusive), ``label`` on top."""

    label: str
    kind: str  # "sign" | "exp" | "frac"
    hi: int
    lo: int


def format_segments(fmt: FloatFormat, prefix: str = "") -> list[Segment]:
    """Sign / exponent / fraction segments of one format, top bit first."""
    segs = []
    top = fmt.bits - 1
    if fmt.signed:
        segs.append(Segment(prefix + "S", "sign", top, top))
        top -= 1
    segs.append(Segment(prefix + "exponent", "exp", top, top - fmt.exp_bits + 1))
    segs.append(Segment(prefix + "fraction", "frac", fmt.frac_bits - 1, 0))
    return segs


def r11g11b10_segments() -> list[Segment]:
    """R11G11B10_FLOAT (FMT-R11G11B10): B in bits 31-22, G in 21-11, R in 10-0."""
    return [
        Segment("B exp", "exp", 31, 27), Segment("B frac", "frac", 26, 22),
        Segment("G exp", "exp", 21, 17), Segment("G frac", "frac", 16, 11),
        Segment("R exp", "exp", 10, 6), Segment("R frac", "frac", 5, 0),
    ]


_DIGITS: dict[str, tuple] = {}


def _static_digits(font: QtGui.QFont) -> tuple:
    """("0", "1") as QStaticText for ``font`` plus their (width, height), cached per font."""
    key = font.key()
    got = _DIGITS.get(key)
    if got is None:
        zero, one = QtGui.QStaticText("0"), QtGui.QStaticText("1")
        for st in (zero, one):
            st.prepare(QtGui.QTransform(), font)
        size = zero.size()
        got = _DIGITS[key] = (zero, one, (size.width(), size.height()))
    return got


#: static layers each BitCells keeps (the formats a user switches between)
_LAYERS_KEPT = 3


class BitCells(QtWidgets.QWidget):
    """One cell per bit, most significant on the left.

    Signals
    -------
    bits_changed(object) : the new pattern (Python int) after a click, drag step or key.
    edit_started(), edit_finished() : around one drag, so a drag can be one undo step.
    """

    bits_changed = QtCore.Signal(object)
    edit_started = QtCore.Signal()
    edit_finished = QtCore.Signal()

    HEADER = 14  # label row
    FOOTER = 13  # bit-number row
    NUMBER_BASE = 0  # the number under bit 0 (32: the upper half of a 64-bit row)

    def __init__(self, width: int, segments: list[Segment], parent=None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(False)
        self._width = width
        self._room = width  # bits the size hints make room for (reserve_room)
        self._bits = 0
        self._diff = 0
        self._blank = False  # no pattern to show: cells greyed, no digits (set_blank)
        self._cursor = width - 1  # bit number with keyboard focus
        self._paint_value: int | None = None
        self._painted: set[int] = set()
        #: static layers by size, layout, font and palette, the latest last (a few: an f32
        #: <-> f16 switch and back redraws none)
        self._layers: dict[tuple, tuple[QtGui.QPixmap, list[QtCore.QPointF]]] = {}
        self._font_key: str | None = None  # font().key() until a FontChange (changeEvent)
        self.set_layout(width, segments)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding,
                           QtWidgets.QSizePolicy.Policy.Fixed)
        self.setToolTip("Click a bit to toggle it, drag to paint, or use the keyboard: "
                        "Left/Right move, Space toggles, 0/1 set the bit.")

    # -- model-facing API -----------------------------------------------------------
    def set_layout(self, width: int, segments: list[Segment]) -> None:
        """Change the bit width and segment colouring (clears the diff highlight)."""
        hint = self.sizeHint()
        self._width = width
        self._segments = list(segments)
        self._segments_key = tuple(self._segments)  # (part of the static layer's key)
        self._kinds = ["frac"] * width
        for seg in segments:
            for b in range(seg.lo, seg.hi + 1):
                self._kinds[b] = seg.kind
        self._bits &= (1 << width) - 1
        self._diff = 0
        self._cursor = min(self._cursor, width - 1)
        if self.sizeHint() != hint:  # (a layout request goes up to the window)
            self.updateGeometry()
        self.update()

    def bits(self) -> int:
        return self._bits

    def set_bits(self, bits: int) -> None:
        """Show a pattern without emitting ``bits_changed`` (model -> widget)."""
        bits = int(bits) & ((1 << self._width) - 1)
        self.set_blank(False)
        if bits != self._bits:
            self._update_cells(bits ^ self._bits)
            self._bits = bits

    def set_blank(self, blank: bool = True) -> None:
        """Show no pattern: the cells greyed and without digits, until :meth:`set_bits`.

        Why: a result box with no result for the op now shown (the GPU cannot capture it)
        must not keep the digits of the previous op's result beside it."""
        if blank != self._blank:
            self._blank = blank
            if blank:
                self._diff = 0
            self.update()

    def is_blank(self) -> bool:
        return self._blank

    def set_diff_mask(self, mask: int) -> None:
        """Outline the bits set in ``mask`` (e.g. where the GPU differs from the model)."""
        if mask != self._diff:
            self._update_cells(int(mask) ^ self._diff)
            self._diff = int(mask)

    def _update_cells(self, changed: int) -> None:
        """Repaint the run of cells from the highest to the lowest bit set in ``changed``.

        Why: an edit usually changes a few bits, and this widget is not opaque, so a whole
        repaint also repaints the panel behind it; the run is a fraction of both (and the
        digits outside it are not drawn again)."""
        if changed >> self._width:
            self.update()
            return
        hi = changed.bit_length() - 1
        lo = (changed & -changed).bit_length() - 1
        left, right = self.cell_rect(hi).left(), self.cell_rect(lo).right()
        top = float(self.HEADER)
        run = QtCore.QRectF(left, top, right - left, self.height() - top - self.FOOTER)
        self.update(run.toAlignedRect().adjusted(-1, -1, 1, 1))

    def _update_cell(self, bit: int) -> None:
        """Repaint one cell (with its 1 px margin: the focus and diff outlines)."""
        if 0 <= bit < self._width:
            self.update(self.cell_rect(bit).toAlignedRect().adjusted(-1, -1, 1, 1))

    def _set_cursor(self, bit: int) -> None:
        """Move the keyboard cursor, repainting the old and the new cursor cell only: not
        the whole widget, and so not the panel behind it."""
        old, self._cursor = self._cursor, bit
        self._update_cell(old)
        self._update_cell(bit)

    def focusInEvent(self, event: QtGui.QFocusEvent) -> None:  # noqa: N802 (Qt override)
        self._update_cell(self._cursor)  # (QWidget's own repaints the whole widget)

    def focusOutEvent(self, event: QtGui.QFocusEvent) -> None:  # noqa: N802 (Qt override)
        self._update_cell(self._cursor)

    def diff_mask(self) -> int:
        return self._diff

    def segments(self) -> list[Segment]:
        """The labelled bit runs now drawn, top bit first."""
        return list(self._segments)

    # -- geometry -------------------------------------------------------------------
    def reserve_room(self, bits: int) -> None:
        """Size hints as for at least ``bits`` cells (fewer cells are drawn wider).

        Why: with hints that follow the bit count, switching the inspected format between
        f32 and f16 resized the window's central area and the docks beside it: the whole
        window was laid out and repainted again (22 ms) and everything moved sideways."""
        if bits != self._room:
            self._room = bits
            self.updateGeometry()

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 (Qt override)
        return QtCore.QSize(max(self._width, self._room) * 18 + 2,
                            self.HEADER + 22 + self.FOOTER)

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802
        return QtCore.QSize(max(self._width, self._room) * 9 + 2,
                            self.HEADER + 18 + self.FOOTER)

    def _cell_w(self) -> float:
        return (self.width() - 2) / self._width

    def cell_rect(self, bit: int) -> QtCore.QRectF:
        """Rectangle of the cell showing bit number ``bit``."""
        w = self._cell_w()
        col = self._width - 1 - bit
        return QtCore.QRectF(1 + col * w, self.HEADER, w, self.height() - self.HEADER - self.FOOTER)

    def _bits_in(self, area: QtCore.QRect) -> range:
        """The bit numbers whose cells meet ``area`` (a repaint's rectangle), low first."""
        w = self._cell_w()
        n = self._width
        if w <= 0:  # (no room for a cell: nothing is drawn anyway)
            return range(n)
        first = max(0, min(n - 1, int((area.left() - 1) // w)))  # columns, left to right
        last = max(0, min(n - 1, int((area.right() - 1) // w)))
        return range(n - 1 - last, n - first)

    def bit_at(self, pos: QtCore.QPointF) -> int | None:
        col = int((pos.x() - 1) // self._cell_w())
        if 0 <= col < self._width:
            return self._width - 1 - col
        return None

    def number_spans(self, fm: QtGui.QFontMetrics) -> list[tuple[int, float, float]]:
        """(bit, left, right) of each bit number drawn under the cells, in the font of
        ``fm``: every 1st, 4th or 8th bit by the cell width plus the field edges, and none
        closer than a space to the one before (R11G11B10's 28 27 26 never run together)."""
        w = self._cell_w()
        every = 1 if w >= 17 else (4 if w >= 9 else 8)
        edges = {b for seg in self._segments for b in (seg.hi, seg.lo)}
        gap = max(3.0, fm.horizontalAdvance(" "))
        out: list[tuple[int, float, float]] = []
        last_right = -1e9
        for bit in range(self._width - 1, -1, -1):
            if bit % every == 0 or bit in edges:
                center = 1 + (self._width - 1 - bit) * w + w / 2
                half = fm.horizontalAdvance(str(bit + self.NUMBER_BASE)) / 2
                if center - half < last_right + gap:
                    continue
                last_right = center + half
                out.append((bit, center - half, center + half))
        return out

    def number_font(self) -> QtGui.QFont:
        small = QtGui.QFont(self.font())
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.72))
        return small

    # -- painting -------------------------------------------------------------------
    def _static_layer(self, c: palette.BitColors) -> tuple[QtGui.QPixmap, list[QtCore.QPointF]]:
        """What an edit does not change, drawn once per size, layout, font and palette:
        the coloured cells, the grid, the bit numbers and the field labels; and where
        each bit's digit goes. Why: an edit's repaint is then one pixmap and the digits
        (Python-level calls per cell dominated the cost of repainting every bit row)."""
        dpr = self.devicePixelRatioF()
        font_key = self._font_key
        if font_key is None:  # (asked on each paint it was a third of a one-cell repaint)
            font_key = self._font_key = self.font().key()
        key = (self.width(), self.height(), dpr, self._width, self._segments_key,
               self.HEADER, self.FOOTER, c, font_key)
        layer = self._layers.pop(key, None)
        if layer is not None:
            self._layers[key] = layer  # (now the latest)
            return layer
        pm = QtGui.QPixmap(max(1, round(self.width() * dpr)), max(1, round(self.height() * dpr)))
        pm.setDevicePixelRatio(dpr)
        pm.fill(QtCore.Qt.GlobalColor.transparent)
        p = QtGui.QPainter(pm)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, False)
        w = self._cell_w()
        n, top = self._width, float(self.HEADER)
        h = self.height() - self.HEADER - self.FOOTER
        xs = [1 + (n - 1 - bit) * w for bit in range(n)]
        rects = [QtCore.QRectF(x, top, w, h) for x in xs]
        p.setPen(QtCore.Qt.PenStyle.NoPen)
        for kind in ("sign", "exp", "frac"):
            group = [rects[b] for b in range(n) if self._kinds[b] == kind]
            if group:
                p.setBrush(c.kind(kind))
                p.drawRects(group)
        p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
        p.setPen(QtGui.QPen(QtGui.QColor(c.grid)))
        p.drawRects(rects)
        p.setPen(QtGui.QColor(c.text))
        center = QtCore.Qt.AlignmentFlag.AlignCenter
        p.setFont(self.number_font())
        for bit, left, right in self.number_spans(p.fontMetrics()):
            nr = QtCore.QRectF(left - 4, rects[bit].bottom(), right - left + 8, self.FOOTER)
            p.drawText(nr, center, str(bit + self.NUMBER_BASE))
        for seg in self._segments:
            left = self.cell_rect(seg.hi).left()
            right = self.cell_rect(seg.lo).right()
            lr = QtCore.QRectF(left, 0, right - left, self.HEADER)
            text = seg.label if p.fontMetrics().horizontalAdvance(seg.label) < lr.width() else seg.label[:1]
            p.drawText(lr, center, text)
        p.end()
        dw, dh = _static_digits(self.font())[2]
        dx, y = w / 2 - dw / 2, top + h / 2 - dh / 2
        pos = [QtCore.QPointF(xs[bit] + dx, y) for bit in range(n)]
        self._layers[key] = (pm, pos)
        while len(self._layers) > _LAYERS_KEPT:
            del self._layers[next(iter(self._layers))]  # the least recently used
        return pm, pos

    def changeEvent(self, event: QtCore.QEvent) -> None:  # noqa: N802 (Qt override)
        """A new font (set on this widget or on one it inherits from): the static layer's
        key takes it up at the next paint."""
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._font_key = None
        super().changeEvent(event)

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:  # noqa: N802
        c = palette.colors()
        layer, pos = self._static_layer(c)
        p = QtGui.QPainter(self)
        if self._blank:  # no pattern: the field layout, faded, and no digit
            p.setOpacity(0.35)
            p.drawPixmap(0, 0, layer)
            p.end()
            return
        p.drawPixmap(0, 0, layer)
        p.setPen(QtGui.QColor(c.text))
        # the digits as two pre-laid-out static texts: drawText would shape every cell's
        # text again on each repaint
        zero, one, _ = _static_digits(self.font())
        bits = self._bits
        for bit in self._bits_in(event.rect()):
            p.drawStaticText(pos[bit], one if bits >> bit & 1 else zero)
        if self._diff or self.hasFocus():
            w = self._cell_w()
            top, h = float(self.HEADER), self.height() - self.HEADER - self.FOOTER

            def rect(b: int) -> QtCore.QRectF:
                return QtCore.QRectF(1 + (self._width - 1 - b) * w, top, w, h)

            if self._diff:
                p.setPen(QtGui.QPen(QtGui.QColor(c.diff), 3))
                p.drawRects([rect(b).adjusted(1.5, 1.5, -1.5, -1.5)
                             for b in range(self._width) if self._diff >> b & 1])
            if self.hasFocus():
                p.setPen(QtGui.QPen(QtGui.QColor(c.focus), 2, QtCore.Qt.PenStyle.DotLine))
                p.drawRect(rect(self._cursor).adjusted(3, 3, -3, -3))
        p.end()

    # -- mouse ----------------------------------------------------------------------
    def mousePressEvent(self, event: QtGui.QMouseEvent) -> None:  # noqa: N802
        if event.button() != QtCore.Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        bit = self.bit_at(event.position())
        if bit is None:
            return
        self.setFocus()
        self._set_cursor(bit)
        self.edit_started.emit()
        self._paint_value = 0 if self._bits >> bit & 1 else 1
        self._painted = {bit}
        self._write(bit, self._paint_value)

    def mouseMoveEvent(self, event: QtGui.QMouseEvent) -> None:  # noqa: N802
        if self._paint_value is None:
            return
        bit = self.bit_at(event.position())
        if bit is not None and bit not in self._painted:
            self._painted.add(bit)
            self._set_cursor(bit)
            self._write(bit, self._paint_value)

    def mouseReleaseEvent(self, event: QtGui.QMouseEvent) -> None:  # noqa: N802
        if self._paint_value is not None:
            self._paint_value = None
            self._painted = set()
            self.edit_finished.emit()

    # -- keyboard -------------------------------------------------------------------
    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:  # noqa: N802
        key = event.key()
        K = QtCore.Qt.Key
        if key == K.Key_Left:
            self._set_cursor(min(self._cursor + 1, self._width - 1))
        elif key == K.Key_Right:
            self._set_cursor(max(self._cursor - 1, 0))
        elif key == K.Key_Home:
            self._set_cursor(self._width - 1)
        elif key == K.Key_End:
            self._set_cursor(0)
        elif key == K.Key_Space:
            self._write(self._cursor, 0 if self._bits >> self._cursor & 1 else 1)
        elif key in (K.Key_0, K.Key_1):
            self._write(self._cursor, 1 if key == K.Key_1 else 0)
            self._set_cursor(max(self._cursor - 1, 0))
        else:
            return super().keyPressEvent(event)
        event.accept()

    def _write(self, bit: int, value: int) -> None:
        new = (self._bits | (1 << bit)) if value else (self._bits & ~(1 << bit))
        if new != self._bits:
            self._update_cells(new ^ self._bits)
            self._bits = new
            self.bits_changed.emit(new)
