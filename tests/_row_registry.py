"""An op row registered for the duration of a test (the rows that prove "an op is one
row" are added this way and removed after, so no other test sees them)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fpinspector.model.engine.optable import OpSpec, register_op, unregister_op


@contextmanager
def registered(spec: OpSpec) -> Iterator[OpSpec]:
    """``spec`` in the op table inside the ``with`` block, gone after it."""
    register_op(spec)
    try:
        yield spec
    finally:
        unregister_op(spec.name)
