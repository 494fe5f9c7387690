"""Runs lldb through its own Python API (``python3 lldb_side.py probe``, lldb's package on
PYTHONPATH): each command of the plan in $CAPTURE_PLAN at its stop, its exact output (as
lldb's console prints it) written to $CAPTURE_OUT (JSON). Each command runs on its own, so
a failing one cannot stop the others (``lldb -b`` stops at the first error)."""

import json
import os
import sys

import lldb  # type: ignore[import-not-found]


def main(exe):
    plan = json.load(open(os.environ["CAPTURE_PLAN"]))
    lldb.SBDebugger.Initialize()
    debugger = lldb.SBDebugger.Create(False)  # no ~/.lldbinit
    debugger.SetAsync(False)
    ci = debugger.GetCommandInterpreter()

    def run(cmd):
        res = lldb.SBCommandReturnObject()
        ci.HandleCommand(cmd, res)
        return (res.GetOutput() or "") + (res.GetError() or "")

    run(f"target create {exe}")
    run("breakpoint set -n locals_ready")
    run("breakpoint set -n regs_ready")
    run("process launch -o /dev/null")
    run("frame select 1")
    out = {}
    for k, case in enumerate(plan):
        if case["stop"] == "locals":
            out[k] = run(case["command"])
    run("process continue")
    for k, case in enumerate(plan):
        if case["stop"] == "regs":
            out[k] = run(case["command"])
    version = lldb.SBDebugger.GetVersionString().splitlines()[0]
    json.dump({"version": version, "outputs": [out[k] for k in sorted(out)]},
              open(os.environ["CAPTURE_OUT"], "w"))
    run("process kill")
    lldb.SBDebugger.Destroy(debugger)


if __name__ == "__main__":
    main(sys.argv[1])
