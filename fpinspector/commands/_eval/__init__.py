"""Helpers of the `eval` command: `--batch` files and streams (reading, one operand per
field, the batch evaluation and its output)."""
