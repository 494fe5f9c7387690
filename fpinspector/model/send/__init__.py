"""Values sent from a debugger to the running app: the message (``message.py``, standard
library only), the local channel's address and client (``channel.py``, standard library
only) and how a received message fills the inspector state (``deliver.py``)."""

from .deliver import deliver
from .message import (
           Activate,
           Message,
           MessageError,
           message_from_bytes,
           message_to_json,
           origin_text,
           parse_request,
)

__all__ = ["Activate", "Message", "MessageError", "deliver", "message_from_bytes",
           "message_to_json", "origin_text", "parse_request"]
