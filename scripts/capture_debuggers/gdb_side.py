"""Runs inside gdb (``gdb -batch -nx -x gdb_side.py probe``): each command of the plan in
$CAPTURE_PLAN at its stop, its exact output written to $CAPTURE_OUT (JSON). With
$CAPTURE_REMOTE (``localhost:PORT``) it attaches to a program qemu-user holds there."""

import json
import os

import gdb  # type: ignore[import-not-found]

plan = json.load(open(os.environ["CAPTURE_PLAN"]))
out = {}
gdb.execute("set pagination off")
gdb.execute("set width 0")
gdb.execute("break locals_ready")
gdb.execute("break regs_ready")
if os.environ.get("CAPTURE_REMOTE"):  # qemu-aarch64 -g PORT: the program waits for us
    gdb.execute(f"target remote {os.environ['CAPTURE_REMOTE']}", to_string=True)
    gdb.execute("continue", to_string=True)
else:
    gdb.execute("run", to_string=True)
gdb.execute("up", to_string=True)  # main's frame: its locals and the globals


def run(cmd):
    try:
        return gdb.execute(cmd, to_string=True)
    except gdb.error as exc:
        return "ERROR: " + str(exc) + "\n"


for k, case in enumerate(plan):
    if case["stop"] == "locals":
        out[k] = run(case["command"])
displays = [k for k, c in enumerate(plan) if c["stop"] == "display"]
for k in displays:
    run(plan[k]["command"])
# "display EXPR" prints at the next stop: the stop at regs_ready
stop = run("continue")
for k, case in enumerate(plan):
    if case["stop"] == "regs":
        out[k] = run(case["command"])
lines = [ln for ln in stop.splitlines(keepends=True) if ln[:1].isdigit() and ": " in ln]
for n, k in enumerate(displays):
    out[k] = lines[n] if n < len(lines) else "ERROR: no display line\n"
json.dump({"version": gdb.VERSION, "outputs": [out[k] for k in sorted(out)]}, open(os.environ["CAPTURE_OUT"], "w"))
gdb.execute("kill")
