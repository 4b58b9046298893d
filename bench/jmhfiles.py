"""Reads one or more JMH result files (-rf json) as one result set.

A partial re-run (say, only the configurations a change affects) is summarised together with
the full run it updates: files are read in order, and an entry of a later file replaces the
entry of an earlier one with the same benchmark and parameters.
"""
import json
import sys


def key(entry):
    return entry["benchmark"], tuple(sorted((entry.get("params") or {}).items()))


def load(paths):
    merged = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            entries = json.load(f)
        if not entries:
            sys.exit(f"{path}: no benchmarks in the result")
        for e in entries:
            merged[key(e)] = e
    return list(merged.values())


def describe(paths):
    """The files as a Markdown list fragment: `a` or `a` updated by `b`."""
    quoted = [f"`{p}`" for p in paths]
    if len(quoted) == 1:
        return quoted[0]
    return quoted[0] + ", updated by " + ", ".join(quoted[1:]) + " (later files replace the same benchmark and parameters)"
