"""A line edit whose frame is a widget of its own, so that new text repaints only the
inside of the frame.

Why: a QLineEdit updates its whole rectangle when its text or cursor changes (from inside
Qt, where no override reaches). It is not opaque (Fusion rounds its corners), so every new
text repaints the parents under it, then the antialiased frame, then the text; an
inspector click gives new text to six All formats fields. Here the QLineEdit
(:attr:`FramedEdit.edit`) has no frame and covers the plain inside of the frame: the
style's ``SE_LineEditContents`` less the edge rows and columns where Fusion draws its
shading and focus glow. Its text margins reach back over those, so the text sits and
scrolls where a framed edit's does. Without a frame it fills its rectangle with the base
colour, as the framed panel is there, so it is opaque and its updates stop at it. The
frame widget repaints only when the frame's look changes (focus, enabled, size, palette).

Pixels are a framed QLineEdit's for text that fits the field. Text wider than the field
(typed) is clipped 2 px inside the frame's glow instead of at the frame.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from .qt_utils import ERROR_STYLE

__all__ = ["FramedEdit"]

_S = QtWidgets.QStyle
# rows (top, bottom) and columns (left, right) of Fusion's shading and focus glow inside
# the frame: the frame widget's, not the field's
_SHADE_Y, _SHADE_X = 1, 2


class _Inside(QtWidgets.QLineEdit):
    """The frameless QLineEdit inside the frame's shading (see the module's docstring)."""

    def __init__(self, frame: FramedEdit) -> None:
        super().__init__(frame)
        self._frame = frame
        self.setFrame(False)
        # it paints every pixel of its rectangle: the parents need not repaint under it
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_OpaquePaintEvent)
        # the frame's shading and glow stay the frame's: the text rectangle reaches back
        # over them, so the text sits and scrolls where a framed edit's does
        self.setTextMargins(-_SHADE_X, -_SHADE_Y, -_SHADE_X, -_SHADE_Y)

    def panel_option(self) -> QtWidgets.QStyleOptionFrame:
        """The style option of a framed QLineEdit in this one's state, over the frame."""
        opt = QtWidgets.QStyleOptionFrame()
        self.initStyleOption(opt)
        opt.rect = self._frame.rect()
        opt.palette = self._frame.palette()
        # the frame's style: a style sheet on the field (a red text) leaves the frame as is
        opt.lineWidth = self._frame.style().pixelMetric(_S.PixelMetric.PM_DefaultFrameWidth,
                                                        opt, self)
        return opt

    # the frame shows the focus and the enabled state: overridden handlers, not an event
    # filter (a Python filter would run for every event of the field)
    def focusInEvent(self, event: QtGui.QFocusEvent) -> None:  # noqa: N802 (Qt override)
        self._frame.update()
        super().focusInEvent(event)

    def focusOutEvent(self, event: QtGui.QFocusEvent) -> None:  # noqa: N802 (Qt override)
        self._frame.update()
        super().focusOutEvent(event)

    def changeEvent(self, event: QtCore.QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() == QtCore.QEvent.Type.EnabledChange:
            self._frame.update()
        super().changeEvent(event)


class FramedEdit(QtWidgets.QWidget):
    """A framed line edit for layouts; :attr:`edit` is the QLineEdit (text, signals,
    tooltips, focus). Sizes go on this widget (see the module's docstring)."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit: QtWidgets.QLineEdit = _Inside(self)
        self.setFocusProxy(self.edit)
        self.setFocusPolicy(self.edit.focusPolicy())
        self.setSizePolicy(QtWidgets.QLineEdit().sizePolicy())
        self.setCursor(QtCore.Qt.CursorShape.IBeamCursor)  # as over a framed edit's frame
        self.error = False  # the text shown in red (set_error)
        self._forwarding = False  # a tooltip event on its way to the field

    def set_error(self, error: bool) -> None:
        """Red text (bad input), or the palette's (a style sheet on the field: the frame
        keeps its look)."""
        self.error = error
        self.edit.setStyleSheet(ERROR_STYLE if error else "")

    def _frame_width(self) -> int:
        return self.style().pixelMetric(_S.PixelMetric.PM_DefaultFrameWidth, None, self.edit)

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 (Qt override)
        fw = self._frame_width()
        return self.edit.sizeHint() + QtCore.QSize(2 * (fw + _SHADE_X), 2 * (fw + _SHADE_Y))

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 (Qt override)
        fw = self._frame_width()
        return self.edit.minimumSizeHint() + QtCore.QSize(2 * (fw + _SHADE_X), 2 * (fw + _SHADE_Y))

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:  # noqa: N802 (Qt override)
        opt = self.edit.panel_option()  # type: ignore[attr-defined]
        self.edit.setGeometry(self.style().subElementRect(_S.SubElement.SE_LineEditContents,
                                                          opt, self.edit)
                              .adjusted(_SHADE_X, _SHADE_Y, -_SHADE_X, -_SHADE_Y))
        super().resizeEvent(event)

    def event(self, event: QtCore.QEvent) -> bool:
        if (event.type() == QtCore.QEvent.Type.ToolTip and isinstance(event, QtGui.QHelpEvent)
                and not self._forwarding):
            # the pointer on the frame: the field's tooltip, as on a framed edit (a tooltip
            # the field leaves unhandled comes back here, up to its parents: not again)
            self._forwarding = True
            try:
                tip = QtGui.QHelpEvent(event.type(), self.edit.mapFrom(self, event.pos()),
                                       event.globalPos())
                return QtWidgets.QApplication.sendEvent(self.edit, tip)
            finally:
                self._forwarding = False
        return super().event(event)

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:  # noqa: N802 (Qt override)
        p = QtGui.QPainter(self)
        self.style().drawPrimitive(_S.PrimitiveElement.PE_PanelLineEdit,
                                   self.edit.panel_option(),  # type: ignore[attr-defined]
                                   p, self.edit)
