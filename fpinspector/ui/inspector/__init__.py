"""The inspected value: its bit editor, its decode, the All formats rows, the conversions,
the 32-bit word, the distance between operands, and the conversions computed ahead while
idle."""
