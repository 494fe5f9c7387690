"""Read bit patterns from pasted text (hex, decimals, byte dumps, vectors, debugger output).

:func:`parse` (in :mod:`.reader`) is the entry point; :mod:`.lex` cuts the text into
tokens, :mod:`.walk` assembles them into values, :mod:`.literals` rounds decimal and
hex-float literals exactly once, :mod:`.values` holds the result type and
:mod:`.renderdoc_csv` reads tab- or comma-separated tables with a header and
:mod:`.renderdoc_text` what RenderDoc really writes (Ctrl+C rows, CSV exports, constant buffers).
"""

from .lex import ParseError
from .reader import MAX_INPUT_CHARS, MAX_VALUES, parse
from .values import ParsedValue

__all__ = ["ParsedValue", "ParseError", "parse", "MAX_INPUT_CHARS", "MAX_VALUES"]
