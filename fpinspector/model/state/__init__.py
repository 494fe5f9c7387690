"""The inspector's state without Qt: an observable, undoable snapshot of what the app shows.

:mod:`.snapshot` (the immutable, validated fields), :mod:`.inspector` (``InspectorState``:
events, batches, undo), :mod:`.codec` (JSON dict and one-line state string),
:mod:`.edits` (switching format or op with the values carried over), :mod:`.paste`
(pasted text: its readings, which value became which operand),
:mod:`.atomic` (crash-safe file writes for workspaces and sweep results).
"""

from . import edits, paste
from .atomic import atomic_write
from .codec import snapshot_from_dict, snapshot_from_string, snapshot_to_dict, snapshot_to_string
from .inspector import InspectorState
from .snapshot import MAX_OPERANDS, OP_FIELDS, STATE_PREFIX, Snapshot

__all__ = [
    "InspectorState", "Snapshot", "MAX_OPERANDS", "OP_FIELDS", "STATE_PREFIX", "atomic_write", "edits", "paste", "snapshot_to_dict", "snapshot_from_dict",
    "snapshot_to_string", "snapshot_from_string",
]
