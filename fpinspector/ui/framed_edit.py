"""A line edit whose frame is a widget of its own, so that new text repaints only the
inside of the frame.

Why: a QLineEdit updates its whole rectangle when its text or cursor changes (from inside
Qt, where no override reaches). It is not opaque (Fusion rounds its corners), so every new
text repaints the parents under it, then the antialiased frame, then the text: 0.07-0.14 ms
of the UI thread a field, against 0.03-0.05 ms for the inside alone, and an inspector click
gives new text to six All formats fields. Here the QLineEdit (:attr:`FramedEdit.edit`) has
no frame and covers exactly the frame's inside (the style's ``SE_LineEditContents``, so its
text sits where a framed edit's does); it paints that inside opaquely, from the same style
drawing the frame widget uses, so its updates stop at it. The frame widget repaints only
when the frame's look changes (focus, enabled, size, palette).

The pixels are a framed QLineEdit's: the inside of Fusion's panel is opaque, so copying it
from a drawing of the panel gives the same pixels as drawing it in place.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["ERROR_RED", "FramedEdit"]

ERROR_RED = "#c62828"

_S = QtWidgets.QStyle
_GROUPS = (QtGui.QPalette.ColorGroup.Active, QtGui.QPalette.ColorGroup.Inactive,
           QtGui.QPalette.ColorGroup.Disabled)


class _Inside(QtWidgets.QLineEdit):
    """The frameless QLineEdit: paints the panel's inside under its text."""

    def __init__(self, frame: FramedEdit) -> None:
        super().__init__(frame)
        self._frame = frame
        self.setFrame(False)
        # it paints every pixel of its rectangle: the parents need not repaint under it
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.set_text_color(None)

    def set_text_color(self, color: QtGui.QColor | None) -> None:
        """Own palette roles: no base (QLineEdit's own base fill would cover the panel's
        shading) and the text in ``color`` (None: the inherited one)."""
        pal = QtGui.QPalette(self._frame.palette())
        pal.setResolveMask(0)  # the other roles follow the parents' palette
        for group in _GROUPS:
            pal.setColor(group, QtGui.QPalette.ColorRole.Base, QtCore.Qt.GlobalColor.transparent)
            if color is not None:
                pal.setColor(group, QtGui.QPalette.ColorRole.Text, color)
        self.setPalette(pal)

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

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:  # noqa: N802 (Qt override)
        p = QtGui.QPainter(self)
        p.drawImage(QtCore.QPoint(0, 0), self._frame.panel(), self.geometry())
        p.end()
        super().paintEvent(event)


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
        self._panel_key: tuple[object, ...] = ()
        self._panel = QtGui.QImage()
        self.error = False  # the text shown in red (set_error)
        self._forwarding = False  # a tooltip event on its way to the field

    def set_error(self, error: bool) -> None:
        """Red text (bad input), as a ``color: #c62828`` style sheet shows it. Why not a
        style sheet: on the field it would give it back a base fill over the panel."""
        self.error = error
        self.edit.set_text_color(QtGui.QColor(ERROR_RED) if error else None)  # type: ignore[attr-defined]

    def _frame_width(self) -> int:
        return self.style().pixelMetric(_S.PixelMetric.PM_DefaultFrameWidth, None, self.edit)

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 (Qt override)
        fw = self._frame_width()
        return self.edit.sizeHint() + QtCore.QSize(2 * fw, 2 * fw)

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 (Qt override)
        fw = self._frame_width()
        return self.edit.minimumSizeHint() + QtCore.QSize(2 * fw, 2 * fw)

    def panel(self) -> QtGui.QImage:
        """The style's drawing of the panel over this widget's rectangle (kept while the
        size, state and palette stay)."""
        opt = self.edit.panel_option()  # type: ignore[attr-defined]
        key = (opt.rect.size().toTuple(), int(opt.state.value), opt.palette.cacheKey())
        if key != self._panel_key:
            img = QtGui.QImage(opt.rect.size(), QtGui.QImage.Format.Format_ARGB32_Premultiplied)
            img.fill(0)
            p = QtGui.QPainter(img)
            self.style().drawPrimitive(_S.PrimitiveElement.PE_PanelLineEdit, opt, p, self.edit)
            p.end()
            self._panel, self._panel_key = img, key
        return self._panel

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:  # noqa: N802 (Qt override)
        opt = self.edit.panel_option()  # type: ignore[attr-defined]
        self.edit.setGeometry(self.style().subElementRect(_S.SubElement.SE_LineEditContents,
                                                          opt, self.edit))
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
