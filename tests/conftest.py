"""Settings for the whole test suite."""

from __future__ import annotations

import os
import sys
import tempfile

# The app's channel for values from debuggers (fpinspector/model/send/channel.py) is per
# user: tests get one of their own, so a test's app never hands its values to an app the
# user (or another test run) has open, and never receives theirs.
os.environ.setdefault("FPINSPECTOR_CHANNEL", f"fpinspector-test-{os.getpid()}"
                      if sys.platform == "win32"
                      else os.path.join(tempfile.mkdtemp(prefix="fpi-test-"), "channel.sock"))
