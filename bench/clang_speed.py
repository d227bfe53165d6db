"""Clang-backed analysis speed and memory on real CUDA files; prints per-file timings, the
median, peak memory per worker, and the hazards found.

    python bench/clang_speed.py /tmp/ext/llm.c --include /tmp/ext/llm.c --workers 2

Each worker parses its files with the precompiled header of the chosen header set (built
once, cached on disk); the first file a worker parses also loads that PCH.
"""

from __future__ import annotations

import argparse
import collections
import os
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cudaport.options import Options  # noqa: E402
from cudaport.translate.pipeline import translate_bytes  # noqa: E402

EXTENSIONS = (".cu", ".cuh")


def _work(job: tuple[str, Options]) -> tuple:
    """Translate one file with clang (timed) and without (for the clang share)."""
    path, options = job
    data = Path(path).read_bytes()
    started, cpu = time.perf_counter(), time.process_time()
    result = translate_bytes(data, options, path)
    total = time.perf_counter() - started
    cpu = time.process_time() - cpu  # includes libclang's parser thread
    started = time.perf_counter()
    translate_bytes(data, replace(options, clang=False), path)
    lexical = time.perf_counter() - started
    hazards = [(f.code, f.line, f.engine, f.message) for f in result.findings
               if f.code.startswith("CP2")]
    problems = [f.message for f in result.findings if f.code in ("CP903", "CP904")]
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return (path, total, max(0.0, total - lexical), data.count(b"\n"), hazards,
            problems[0] if problems else "", peak_kb, cpu)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs="+", help="files or folders with .cu/.cuh files")
    ap.add_argument("--include", "-I", action="append", default=[], help="include folder")
    ap.add_argument("--header-mode", default="auto")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--show-hazards", type=int, default=40, help="hazard lines to print")
    args = ap.parse_args(argv)
    files: list[str] = []
    for root in args.roots:
        p = Path(root)
        if p.is_file():
            files.append(str(p))
        else:
            files += sorted(str(f) for f in p.rglob("*") if f.suffix in EXTENSIONS)
    options = Options(clang=True, header_mode=args.header_mode,
                      include_dirs=tuple(os.path.abspath(i) for i in args.include))
    # Build (or load) the PCH once before timing, as a warm run would.
    translate_bytes(b"int main() { return 0; }\n", options, "warmup.cu")
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        results = list(pool.map(_work, [(f, options) for f in files]))
    wall = time.perf_counter() - started
    print(f"{'total s':>8} {'clang s':>8} {'cpu s':>6} {'lines':>6}  file")
    for path, total, clang, lines, _hazards, problem, _peak, cpu in results:
        note = f"  [{problem[:100]}]" if problem else ""
        print(f"{total:8.3f} {clang:8.3f} {cpu:6.3f} {lines:6d}  {path}{note}")
    times = [r[1] for r in results]
    peak_mb = max(r[6] for r in results) / 1024
    print(f"\nfiles: {len(files)}  workers: {args.workers}  wall: {wall:.2f} s")
    print(f"per-file clang share (total minus a lexical-only run): median {statistics.median(r[2] for r in results):.3f} s")
    print(f"per-file translate+clang: median {statistics.median(times):.3f} s, "
          f"mean {statistics.mean(times):.3f} s, max {max(times):.3f} s")
    print(f"per-file CPU time (translate+clang): median "
          f"{statistics.median(r[7] for r in results):.3f} s; load average now "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"peak memory per worker: {peak_mb:.0f} MB")
    counts = collections.Counter(h[0] for r in results for h in r[4])
    print("hazards: " + ", ".join(f"{c} x{n}" for c, n in sorted(counts.items())))
    shown = 0
    for path, _total, _clang, _lines, hazards, _problem, _peak, _cpu in results:
        for code, line, engine, message in hazards:
            if shown < args.show_hazards:
                print(f"  {path}:{line}: {code} [{engine}] {message}")
                shown += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
