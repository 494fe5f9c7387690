"""fpinspector: a bit-pattern inspector for GPU floating-point formats under the D3D rules."""

#: The release (pyproject.toml reads it from here: one place to change it)
__version__ = "0.1.0"
