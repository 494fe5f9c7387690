"""Helpers of the `sweep` command: `--expr` maps (`expr.py`), the output files
(`files.py`), Ctrl-C that keeps what was done (`interrupt.py`)."""
