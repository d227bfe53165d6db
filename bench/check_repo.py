"""Time `cudaport check` on a source tree and print the numbers for a closing note.

    python bench/check_repo.py PATH [PATH...]

Runs the same code path as the command (walk, translate in memory, suppressions,
fingerprints) once to warm the rule-table cache, then timed; prints files, lines, MB,
findings per code, wall time and throughput.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cudaport.run.check import check_paths  # noqa: E402
from cudaport.project.config import load_config  # noqa: E402
from cudaport.options import Options  # noqa: E402
from cudaport.rules.compiled import get_compiled  # noqa: E402


def main(paths: list[str]) -> None:
    options = Options()
    get_compiled(options)  # warm: load (or build) the cached rule table
    config = load_config(paths)
    started = time.perf_counter()
    report = check_paths(paths, options, config)
    wall = time.perf_counter() - started
    size = sum(Path(p).stat().st_size for p in _files(report))
    lines = sum(r.lines for r in report.files)
    codes = Counter(f.code for f in report.findings)
    print(f"paths: {' '.join(paths)}")
    print(f"files: {len(report.files)}  lines: {lines}  size: {size / 1e6:.2f} MB  "
          f"input errors: {len(report.errors)}")
    print(f"findings: {len(report.findings)}  suppressed: {report.suppressed}")
    for code, n in sorted(codes.items()):
        print(f"  {code}: {n}")
    print(f"wall: {wall:.2f} s  ({len(report.files) / wall:.0f} files/s, "
          f"{size / 1e6 / wall:.2f} MB/s, {lines / wall:.0f} lines/s)")


def _files(report) -> list[str]:
    return [r.path for r in report.files]


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
