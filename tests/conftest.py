"""Settings for the whole test suite."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile

# The app's channel for values from debuggers (fpinspector/model/send/channel.py) is per
# user: tests get one of their own, so a test's app never hands its values to an app the
# user (or another test run) has open, and never receives theirs.
if sys.platform == "win32":
    os.environ.setdefault("FPINSPECTOR_CHANNEL", f"fpinspector-test-{os.getpid()}")
elif "FPINSPECTOR_CHANNEL" not in os.environ:
    _dir = tempfile.mkdtemp(prefix="fpi-test-")
    atexit.register(shutil.rmtree, _dir, True)
    os.environ["FPINSPECTOR_CHANNEL"] = os.path.join(_dir, "channel.sock")
