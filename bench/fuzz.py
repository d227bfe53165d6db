#!/usr/bin/env python3
"""Fuzz the translator for a fixed time with the property-test generators.

Runs batches of generated token soups and mutated example files through
cudaport.translate.integrity.problems (no crash, idempotent, bytes outside edits preserved, no edits
in comments or strings unless asked) until the time is up, then prints how many inputs
were tried and every distinct failure. Each failure's shrunk input is saved under
``--save`` (default ``bench/fuzz-failures/``, git-ignored) with the options that broke it,
so it can be replayed with ``--replay FILE``.

Build files are fuzzed too (``--kinds``): generated Makefiles and CMake files (the
generators of tests/test_build_syntax.py: continuations, recipe tabs, conditionals,
``define``, ``$(foreach)``, shell loops, generator expressions) and mutated build files of
the examples and of ``--corpus`` folders must translate without a crash (nor a CP908),
idempotently, keeping the bytes outside the edits, and parse with make or CMake wherever
the original parses (with the same variables and targets, or commands).

Time is checked too: an input that takes longer than ``--budget`` seconds is a failure,
and the inputs whose time per KB is far above the median (``--slow-factor``) are timed
again at four times their size (the input repeated): one that then takes more than
``--growth`` times as long is superlinear, printed and saved as ``slow-N.cu``.

    python bench/fuzz.py --minutes 10
    python bench/fuzz.py --minutes 10 --corpus ../cuda-samples ../llm.c
    python bench/fuzz.py --replay bench/fuzz-failures/failure-1.cu
    python bench/fuzz.py --minutes 5 --kinds make cmake --corpus /tmp/projects
"""

from __future__ import annotations

import argparse
import heapq
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from cudaport import Options  # noqa: E402
from cudaport.translate.integrity import problems  # noqa: E402
from cudaport.translate.pipeline import InputError, check_text  # noqa: E402
from test_properties import FRAGMENTS, OPTIONS, _example_sources  # noqa: E402

COUNT = {"token soup": 0, "mutated example": 0, "mutated corpus file": 0,
         "generated Makefile": 0, "mutated Makefile": 0, "generated CMake file": 0,
         "mutated CMake file": 0}
BUILD_FRAGMENTS = {
    "make": [b" ", b"\t", b"\n", b"\\\n", b"\n\t", b"#", b"$(", b")", b"${", b"}", b",",
             b";", b"'", b'"', b"-arch=sm_70", b"-Xptxas -v", b"-Xcompiler -fPIC,-O2",
             b"--expt-relaxed-constexpr", b"$(addprefix -Xcompiler ,$(F))", b"nvcc",
             b"$(CUDA_PATH)/lib64", b"-gencode arch=compute_70,code=sm_70", b"define X\n",
             b"endef\n", b"ifeq ($(A),1)\n", b"else\n", b"endif\n", b"-lcudart",
             b"for c in 70; do nvcc -arch=compute_$$c $< ; done"],
    "cmake": [b" ", b"\n", b"(", b")", b'"', b";", b"#", b"[[", b"]]", b"$<", b">", b":",
              b"${", b"}", b"-Xptxas -v", b"--extended-lambda", b"-arch=sm_80", b"-dc",
              b"SHELL:", b"$<$<COMPILE_LANGUAGE:CUDA>:", b"set(CMAKE_CUDA_FLAGS \"",
              b"target_compile_options(t PRIVATE ", b"if(ENABLE_ROCM)\n", b"else()\n",
              b"endif()\n", b"-gencode arch=compute_70,code=sm_70"],
}
LAST_FAILURE: dict[str, object] = {}
BUDGET = {"seconds": 5.0}
MIN_TIMED_BYTES = 1024  # smaller inputs are timed by their fixed costs, not their size
TIMES: list[float] = []  # CPU seconds per KB of every input of at least MIN_TIMED_BYTES
SLOWEST: list[tuple[float, int, bytes, dict]] = []  # heap of the slowest per KB
KEEP_SLOWEST = 20
SOURCE_SUFFIXES = {".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc", ".c"}


def corpus_sources(folders: list[Path], limit: int, seed: int = 0) -> list[bytes]:
    """Up to ``limit`` real source files (under 200 kB) from ``folders``, as mutation seeds."""
    import random

    paths = sorted(p for folder in folders for p in folder.rglob("*")
                   if p.suffix in SOURCE_SUFFIXES and p.is_file() and p.stat().st_size < 200_000)
    random.Random(seed).shuffle(paths)
    return [data for data in (p.read_bytes() for p in paths[:limit]) if _accepted(data)]


def _accepted(data: bytes) -> bool:
    """Whether the translator takes the bytes as text: UTF-16 (tpruvot/ccminer has a UTF-16
    header) or binary input is refused with an InputError by design, not a failure."""
    try:
        check_text(data, "<seed>")
    except InputError:
        return False
    return True


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


def build_files(folders: list[Path], kind: str, limit: int, seed: int = 0) -> list[bytes]:
    """Up to ``limit`` build files of ``kind`` (make, cmake) from ``folders`` and the
    examples, as mutation seeds."""
    import random

    from cudaport.run.kinds import kind_of

    paths = sorted(p for folder in [ROOT / "examples", *folders] for p in folder.rglob("*")
                   if p.is_file() and "expected" not in p.parts and kind_of(p.name) == kind
                   and p.stat().st_size < 200_000)
    random.Random(seed).shuffle(paths)
    return [data for data in (p.read_bytes() for p in paths[:limit]) if _accepted(data)]


def build_inputs(kind: str, seeds: list[bytes]) -> st.SearchStrategy[tuple[str, bytes]]:
    from test_build_syntax import cmake_file, makefile

    name = "Makefile" if kind == "make" else "CMake file"
    generated = makefile() if kind == "make" else cmake_file()
    kinds = [st.tuples(st.just(f"generated {name}"), generated)]
    if seeds:
        kinds.append(st.tuples(st.just(f"mutated {name}"), st.builds(
            _mutate, st.sampled_from(seeds),
            st.lists(st.tuples(st.floats(0, 1), st.sampled_from(BUILD_FRAGMENTS[kind]),
                               st.integers(0, 3)), max_size=12))))
    return st.one_of(kinds)


def build_problems(src: bytes, kind: str, scratch: Path) -> list[str]:
    """Everything wrong with translating the build file ``src``: a crash or CP908, a second
    pass that changes it, bytes changed outside the edits, or a translation that make or
    CMake cannot parse where they parse the original."""
    import test_build_syntax as syntax

    from cudaport.builds.cmake import translate_cmake
    from cudaport.builds.makefile import translate_makefile

    translate = translate_makefile if kind == "make" else translate_cmake
    try:
        result = translate(src)
        again = translate(result.output)
    except Exception as exc:  # the point is to report crashes, whatever they are
        return [f"crash: {type(exc).__name__}: {str(exc)[:200]}"]
    found = []
    if again.output != result.output:
        found.append("not idempotent: a second pass changed the output")
    pos_in = pos_out = 0
    for edit in result.edits:
        gap = src[pos_in:edit.start]
        if result.output[pos_out:pos_out + len(gap)] != gap:
            found.append(f"bytes before offset {edit.start} changed outside any edit")
            break
        pos_out += len(gap) + len(edit.replacement)
        pos_in = edit.end
    if found:
        return found
    try:
        if kind == "make" and syntax.MAKE:
            syntax.assert_make_keeps_syntax(scratch, src)
        elif kind == "cmake" and syntax.CMAKE:
            syntax.assert_cmake_keeps_syntax(scratch, src)
    except AssertionError as exc:
        return [str(exc).splitlines()[0][:300]]
    return []


def run_build_batch(batch: int, kind: str, strategy, scratch: Path
                    ) -> list[tuple[str, bytes, dict]]:
    @settings(max_examples=batch, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(kind_and_src=strategy)
    def check(kind_and_src):
        what, src = kind_and_src
        if not _accepted(src):
            return
        COUNT[what] += 1
        found = build_problems(src, kind, scratch)
        if found:
            LAST_FAILURE.update(src=src, options={"kind": kind})
        assert not found, found

    return _failures(check)


def run_batch(batch: int, strategy: st.SearchStrategy[tuple[str, bytes]]
              ) -> list[tuple[str, bytes, dict]]:
    @settings(max_examples=batch, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(kind_and_src=strategy, options=OPTIONS)
    def check(kind_and_src, options):
        kind, src = kind_and_src
        if not _accepted(src):  # (refused as UTF-16 or binary, with a message: by design)
            return
        COUNT[kind] += 1
        start = time.process_time()
        found = problems(src, options)
        seconds = time.process_time() - start
        if seconds > BUDGET["seconds"]:
            found = found + [f"over the time budget: {seconds:.1f} s > {BUDGET['seconds']} s "
                             f"for {len(src):,} bytes"]
        _record_time(seconds, src, options)
        if found:  # hypothesis shrinks: the last failing call is the smallest input
            LAST_FAILURE.update(src=src, options=options.__dict__.copy())
        assert not found, found

    return _failures(check)


def _failures(check) -> list[tuple[str, bytes, dict]]:
    """Run a batch; its failure (the first line, the shrunk input, its options), if any."""
    try:
        check()
        return []
    except AssertionError as exc:
        return [(str(exc).splitlines()[0][:300], LAST_FAILURE["src"], LAST_FAILURE["options"])]


def _record_time(seconds: float, src: bytes, options: Options) -> None:
    if len(src) < MIN_TIMED_BYTES:
        return
    per_kb = seconds / (len(src) / 1024)
    TIMES.append(per_kb)
    entry = (per_kb, len(TIMES), src, options.__dict__.copy())
    if len(SLOWEST) < KEEP_SLOWEST:
        heapq.heappush(SLOWEST, entry)
    elif per_kb > SLOWEST[0][0]:
        heapq.heapreplace(SLOWEST, entry)


def _cpu_time(src: bytes, options: Options, tries: int = 3) -> float:
    best = float("inf")
    for _ in range(tries):
        start = time.process_time()
        problems(src, options)
        best = min(best, time.process_time() - start)
    return best


def superlinear(slow_factor: float, growth: float) -> list[tuple[float, float, bytes, dict]]:
    """Of the slowest inputs per KB, those far above the median whose time grows more than
    ``growth`` times when the input is repeated four times: (per KB, growth, src, options)."""
    if not TIMES:
        return []
    median = statistics.median(TIMES)
    found = []
    for per_kb, _, src, fields in sorted(SLOWEST, reverse=True):
        if per_kb < slow_factor * median:
            break
        options = _options(fields)
        once = max(_cpu_time(src, options), 1e-3)
        ratio = _cpu_time(src * 4, options, tries=2) / once
        if ratio > growth:
            found.append((per_kb, ratio, src, fields))
    return found


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
    parser.add_argument("--budget", type=float, default=BUDGET["seconds"],
                        help="CPU seconds one input may take (translation, checks and the "
                             "second pass together) before it counts as a failure")
    parser.add_argument("--slow-factor", type=float, default=20.0,
                        help="time per KB above this many times the median makes an input "
                             "a suspect, timed again at four times its size")
    parser.add_argument("--growth", type=float, default=8.0,
                        help="a suspect whose time grows more than this many times at four "
                             "times the size is superlinear (linear: about 4)")
    parser.add_argument("--kinds", nargs="+", default=["source", "make", "cmake"],
                        choices=["source", "make", "cmake"],
                        help="file kinds to fuzz, in turn (default: all three)")
    args = parser.parse_args()
    BUDGET["seconds"] = args.budget
    if args.replay:
        return replay(args.replay)
    deadline = time.monotonic() + args.minutes * 60
    failures: dict[str, int] = {}
    runs = []
    if "source" in args.kinds:
        strategy = inputs(corpus_sources(args.corpus, args.corpus_files) if args.corpus else [])
        runs.append(lambda: run_batch(args.batch, strategy))
    import tempfile

    scratch = Path(tempfile.mkdtemp(prefix="cudaport-fuzz-"))
    for kind in ("make", "cmake"):
        if kind in args.kinds:
            seeds = build_files(args.corpus, kind, args.corpus_files)
            build = build_inputs(kind, seeds)
            runs.append(lambda kind=kind, build=build: run_build_batch(
                max(args.batch // 10, 10), kind, build, scratch))
    turn = 0
    while time.monotonic() < deadline:
        for failure, src, options in runs[turn % len(runs)]():
            if failure not in failures:
                saved = save(args.save, len(failures) + 1, src, options,
                             suffix=".mk" if options.get("kind") == "make" else
                             ".cmake" if options.get("kind") == "cmake" else ".cu")
                print(f"failure: {failure}\n  saved: {saved}", flush=True)
            failures[failure] = failures.get(failure, 0) + 1
        turn += 1
    kinds = ", ".join(f"{n:,} {kind}" for kind, n in COUNT.items() if n)
    slow = superlinear(args.slow_factor, args.growth)
    median = statistics.median(TIMES) * 1000 if TIMES else 0.0
    print(f"{sum(COUNT.values()):,} inputs in {args.minutes:.1f} min ({kinds}); "
          f"{len(failures)} distinct failure(s); {len(slow)} superlinear input(s) "
          f"(median {median:.2f} ms per KB over {len(TIMES):,} inputs of 1 KB or more)")
    for failure, n in failures.items():
        print(f"  x{n}: {failure}")
    for number, (per_kb, ratio, src, options) in enumerate(slow, 1):
        saved = save(args.save, number, src, options, "slow")
        print(f"  superlinear: {per_kb * 1000:.2f} ms per KB, x{ratio:.1f} time at 4x size, "
              f"{len(src):,} bytes; saved: {saved}")
    return 1 if failures or slow else 0


def save(folder: Path, number: int, src: bytes, options: dict, kind: str = "failure",
         suffix: str = ".cu") -> Path:
    """Write a failing input and its options (``<name>.json`` beside it)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{kind}-{number}{suffix}"
    path.write_bytes(src)
    path.with_suffix(".json").write_text(json.dumps(options, indent=1, default=str) + "\n")
    return path


def replay(path: Path) -> int:
    """Run the integrity checks on one saved input with its saved options."""
    sidecar = path.with_suffix(".json")
    fields = json.loads(sidecar.read_text()) if sidecar.exists() else {}
    src = path.read_bytes()
    if fields.get("kind") in ("make", "cmake"):
        import tempfile

        found = build_problems(src, fields["kind"], Path(tempfile.mkdtemp()))
        for problem in found:
            print(problem)
        print(f"{len(found)} problem(s)")
        return 1 if found else 0
    options = _options(fields)
    start = time.process_time()
    found = problems(src, options, str(path))
    seconds = time.process_time() - start
    for problem in found:
        print(problem)
    print(f"{len(found)} problem(s); {seconds:.2f} s CPU for {len(src):,} bytes, "
          f"{_cpu_time(src * 4, options, tries=1):.2f} s at four times the size")
    return 1 if found else 0


def _options(fields: dict) -> Options:
    return Options(**{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})


if __name__ == "__main__":
    sys.exit(main())
