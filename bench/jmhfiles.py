"""Reads one or more JMH result files (-rf json) as one result set.

A partial re-run (say, only the configurations a change affects) is summarised together with
the full run it updates: files are read in order, and an entry of a later file replaces the
entry of an earlier one with the same benchmark and parameters.
"""
import argparse
import json
import os
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


def arguments(doc, out_default, sizes_help=None):
    """The options every JMH summary takes: result files, where the page goes, the run's record."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jmh", required=True, action="append",
                    help="JMH result file (-rf json); repeat to update a full run with a partial re-run")
    if sizes_help:
        ap.add_argument("--sizes", help=sizes_help)
    ap.add_argument("--out", default=out_default)
    ap.add_argument("--command", action="append", default=[], help="command line(s) of the run, for the record")
    ap.add_argument("--log", help="path of the run's console log, for the record")
    return ap


def load_json(path):
    """A size report or other side file, or None when the run has none."""
    if not path:
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def write_page(lines, path):
    """Writes the summary page (creating its folder), echoes it, and says where it went."""
    text = "\n".join(lines)
    out_dir = os.path.dirname(path)
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(text)
    print(f"\nwrote {path}", file=sys.stderr)
