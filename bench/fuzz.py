#!/usr/bin/env python3
"""Fuzz the translator for a fixed time with the property-test generators.

Runs batches of generated token soups and mutated example files through
cudaport.integrity.problems (no crash, idempotent, bytes outside edits preserved, no edits
in comments or strings unless asked) until the time is up, then prints how many inputs
were tried and every distinct failure (with a minimal reproducer from hypothesis).

    python bench/fuzz.py --minutes 10
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from cudaport.integrity import problems  # noqa: E402
from test_properties import FRAGMENTS, OPTIONS, _example_sources  # noqa: E402

COUNT = {"inputs": 0}


def run_batch(seed: int, batch: int) -> list[str]:
    sources = _example_sources()
    bigger = st.lists(st.sampled_from(FRAGMENTS), max_size=400).map(b"".join)
    mutated = st.builds(_mutate, st.sampled_from(sources),
                        st.lists(st.tuples(st.floats(0, 1), st.sampled_from(FRAGMENTS),
                                           st.integers(0, 3)), max_size=30))

    @settings(max_examples=batch, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(src=st.one_of(bigger, mutated), options=OPTIONS)
    def check(src, options):
        COUNT["inputs"] += 1
        found = problems(src, options)
        assert not found, found

    try:
        check()
        return []
    except AssertionError as exc:
        return [str(exc).splitlines()[0][:300]]


def _mutate(src: bytes, edits: list[tuple[float, bytes, int]]) -> bytes:
    data = bytearray(src)
    for where, fragment, action in edits:
        pos = int(where * len(data))
        if action == 0:
            data[pos:pos] = fragment
        elif action == 1:
            del data[pos:pos + len(fragment)]
        elif action == 2 and pos < len(data):
            data[pos] = fragment[0] if fragment else 0x20
        else:
            data[pos:pos] = fragment * 3
    return bytes(data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--batch", type=int, default=500)
    args = parser.parse_args()
    deadline = time.monotonic() + args.minutes * 60
    failures: dict[str, int] = {}
    seed = 0
    while time.monotonic() < deadline:
        seed += 1
        for failure in run_batch(seed, args.batch):
            failures[failure] = failures.get(failure, 0) + 1
    print(f"{COUNT['inputs']} inputs in {args.minutes:.1f} min; "
          f"{len(failures)} distinct failure(s)")
    for failure, n in failures.items():
        print(f"  x{n}: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
