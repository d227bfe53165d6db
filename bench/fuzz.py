#!/usr/bin/env python3
"""Fuzz the translator for a fixed time with the property-test generators.

Runs batches of generated token soups and mutated example files through
cudaport.integrity.problems (no crash, idempotent, bytes outside edits preserved, no edits
in comments or strings unless asked) until the time is up, then prints how many inputs
were tried and every distinct failure. Each failure's shrunk input is saved under
``--save`` (default ``bench/fuzz-failures/``, git-ignored) with the options that broke it,
so it can be replayed with ``--replay FILE``.

    python bench/fuzz.py --minutes 10
    python bench/fuzz.py --minutes 10 --corpus ../cuda-samples ../llm.c
    python bench/fuzz.py --replay bench/fuzz-failures/failure-1.cu
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from cudaport import Options  # noqa: E402
from cudaport.integrity import problems  # noqa: E402
from test_properties import FRAGMENTS, OPTIONS, _example_sources  # noqa: E402

COUNT = {"token soup": 0, "mutated example": 0, "mutated corpus file": 0}
LAST_FAILURE: dict[str, object] = {}
SOURCE_SUFFIXES = {".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc", ".c"}


def corpus_sources(folders: list[Path], limit: int, seed: int = 0) -> list[bytes]:
    """Up to ``limit`` real source files (under 200 kB) from ``folders``, as mutation seeds."""
    import random

    paths = sorted(p for folder in folders for p in folder.rglob("*")
                   if p.suffix in SOURCE_SUFFIXES and p.is_file() and p.stat().st_size < 200_000)
    random.Random(seed).shuffle(paths)
    return [p.read_bytes() for p in paths[:limit]]


def inputs(corpus: list[bytes]) -> st.SearchStrategy[tuple[str, bytes]]:
    """(kind, source) pairs: token soups, mutated examples and mutated corpus files."""
    def mutations(sources):
        return st.builds(_mutate, st.sampled_from(sources),
                         st.lists(st.tuples(st.floats(0, 1), st.sampled_from(FRAGMENTS),
                                            st.integers(0, 3)), max_size=30))

    kinds = [st.tuples(st.just("token soup"),
                       st.lists(st.sampled_from(FRAGMENTS), max_size=400).map(b"".join)),
             st.tuples(st.just("mutated example"), mutations(_example_sources()))]
    if corpus:
        kinds.append(st.tuples(st.just("mutated corpus file"), mutations(corpus)))
    return st.one_of(kinds)


def run_batch(batch: int, strategy: st.SearchStrategy[tuple[str, bytes]]
              ) -> list[tuple[str, bytes, dict]]:
    @settings(max_examples=batch, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(kind_and_src=strategy, options=OPTIONS)
    def check(kind_and_src, options):
        kind, src = kind_and_src
        COUNT[kind] += 1
        found = problems(src, options)
        if found:  # hypothesis shrinks: the last failing call is the smallest input
            LAST_FAILURE.update(src=src, options=options.__dict__.copy())
        assert not found, found

    try:
        check()
        return []
    except AssertionError as exc:
        return [(str(exc).splitlines()[0][:300], LAST_FAILURE["src"], LAST_FAILURE["options"])]


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
    parser.add_argument("--save", type=Path, default=ROOT / "bench" / "fuzz-failures",
                        help="folder for the shrunk input of each distinct failure")
    parser.add_argument("--replay", type=Path, help="check one saved failure and exit")
    parser.add_argument("--corpus", type=Path, nargs="*", default=[],
                        help="folders of real code whose files are mutated too")
    parser.add_argument("--corpus-files", type=int, default=300,
                        help="how many corpus files to sample as seeds")
    args = parser.parse_args()
    if args.replay:
        return replay(args.replay)
    deadline = time.monotonic() + args.minutes * 60
    failures: dict[str, int] = {}
    strategy = inputs(corpus_sources(args.corpus, args.corpus_files) if args.corpus else [])
    while time.monotonic() < deadline:
        for failure, src, options in run_batch(args.batch, strategy):
            if failure not in failures:
                saved = save(args.save, len(failures) + 1, src, options)
                print(f"failure: {failure}\n  saved: {saved}", flush=True)
            failures[failure] = failures.get(failure, 0) + 1
    kinds = ", ".join(f"{n:,} {kind}" for kind, n in COUNT.items() if n)
    print(f"{sum(COUNT.values()):,} inputs in {args.minutes:.1f} min ({kinds}); "
          f"{len(failures)} distinct failure(s)")
    for failure, n in failures.items():
        print(f"  x{n}: {failure}")
    return 1 if failures else 0


def save(folder: Path, number: int, src: bytes, options: dict) -> Path:
    """Write a failing input and its options (``<name>.json`` beside it)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"failure-{number}.cu"
    path.write_bytes(src)
    path.with_suffix(".json").write_text(json.dumps(options, indent=1, default=str) + "\n")
    return path


def replay(path: Path) -> int:
    """Run the integrity checks on one saved input with its saved options."""
    sidecar = path.with_suffix(".json")
    fields = json.loads(sidecar.read_text()) if sidecar.exists() else {}
    options = Options(**{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})
    found = problems(path.read_bytes(), options, str(path))
    for problem in found:
        print(problem)
    print(f"{len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
