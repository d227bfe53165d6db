#!/usr/bin/env python3
"""How long a fresh process takes to get the full HIP rule table, cold and warm.

Usage: python bench/rules_load.py [--runs 7]

Each run is a new interpreter (as a CLI call is), timed from before ``import cudaport``:
"load_table" is what loading the table costs (YAML parse and validation when the cache
is cold, one pickle read when warm); "get_compiled" is what a translation pays before its
first file: the table resolved for default options (cached too when warm). Cold runs use
an empty cache folder; warm runs reuse the one a first run filled. Prints median and best.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import json, sys, time
t0 = time.perf_counter()
from cudaport.options import Options
from cudaport.rules import get_compiled, load_table
t1 = time.perf_counter()
if sys.argv[1] == "load_table":
    names = len(load_table("hip").identifiers)
else:
    names = len(get_compiled(Options()).identifiers)
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "total": t2 - t0, "names": names}))
"""
WHAT = ("load_table", "get_compiled")


def run(cache: str, what: str) -> dict:
    env = dict(os.environ, CUDAPORT_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", CHILD, what], env=env, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:7.1f} ms (best {min(values) * 1000:6.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    names = 0
    for what in WHAT:
        cold, warm = [], []
        with tempfile.TemporaryDirectory() as keep:
            for _ in range(args.runs):
                with tempfile.TemporaryDirectory() as empty:
                    cold.append(run(empty, what))
            run(keep, what)
            for _ in range(args.runs):
                warm.append(run(keep, what))
        names = warm[0]["names"]
        print(f"{what:13} cold {ms([r['total'] for r in cold])}   "
              f"warm {ms([r['total'] for r in warm])}   "
              f"(of which import cudaport {ms([r['import'] for r in warm])})")
    print(f"full HIP table: {names} CUDA names; {args.runs} fresh processes per figure; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
