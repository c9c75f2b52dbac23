#!/usr/bin/env python3
"""Reads loadgen.py's JSON lines and prints each figure in units of the server's own trivial
request, as the project's benchmarks report CPU (a shared machine's load moves a rate more than
it moves CPU per request, and moves both servers' trivial requests too).

    units.py RESULTS.jsonl "LABEL OF THE TRIVIAL REQUEST"
"""
import json
import sys

path, unit_label = sys.argv[1], sys.argv[2]
rows = [json.loads(line) for line in open(path) if line.strip()]
unit = [r for r in rows if r["label"] == unit_label][-1]["server_ms"]
for r in rows:
    print("%-28s %8.3f ms CPU = %8.1f x %s (%.3f ms)%s" % (
        r["label"], r["server_ms"], r["server_ms"] / unit, unit_label, unit,
        "" if r["valid"] else "  INVALID: rejects or errors"))
