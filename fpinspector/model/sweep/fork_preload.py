"""Imported by the sweep workers' fork server before it forks them (see
:func:`.processes.worker_context`): every module a worker needs, then the objects made so
far frozen out of the garbage collector's reach, so that no collection in a worker
writes to (and so copies) the pages it shares with the others."""

from __future__ import annotations

import gc

import numpy  # noqa: F401

from ..engine import evaluate  # noqa: F401
from ..engine.exact import mp_context
from . import chunk, stages, summary, worker  # noqa: F401

mp_context(300)  # mpmath and its tables, as the exact reference's edge cases load them
gc.freeze()
