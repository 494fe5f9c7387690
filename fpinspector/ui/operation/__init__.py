"""The op under inspection: pickers, operand editors (float patterns and integer codes),
model vs GPU results with the allowed set and verdict, the why view, and the link between
the inspected value and an operand or result."""
