"""Speed of tree translation: ``python bench/translate_tree.py DIR [-j 2]``.

``python bench/translate_tree.py --check FILE`` times only the pre-commit case instead:
``cudaport check FILE`` in a fresh interpreter, five times after one warming run, and
prints the median wall time (the goal is 0.3 s) with the load average.

Runs the real CLI in a subprocess (interpreter start included) twice on DIR: cold (empty
incremental cache, empty output folder; the rule table's own cache is warmed first, as
after any earlier run) and warm (nothing changed). Prints files/s, MB/s, wall and CPU time,
peak RSS, and the time of a pre-commit style check of one file. The machine's load average
is printed too: wall times on a shared machine mean little without it.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user+sys of the process and its workers), exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.returncode


def check_one(path: Path, runs: int = 5) -> None:
    """Median wall time of ``cudaport check PATH`` (interpreter start included)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "cudaport", "check", str(path)]
    run(cmd, env)  # warms the rule-table cache and the bytecode cache
    times = sorted(run(cmd, env)[0] for _ in range(runs))
    print(f"check of one file ({path.name}): median {times[runs // 2]:.3f} s wall over {runs}"
          f" runs ({' '.join(f'{t:.3f}' for t in times)})"
          f"  cores: {os.cpu_count()}  load average: {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path, nargs="?")
    parser.add_argument("--check", type=Path, metavar="FILE",
                        help="time only 'cudaport check FILE' (median of 5)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--scratch", type=Path, default=None,
                        help="folder for the output and cache (default: the system temp "
                             "folder; /dev/shm takes the disk out of the measurement)")
    args = parser.parse_args()
    if args.check is not None:
        return check_one(args.check)
    if args.tree is None:
        parser.error("give a DIR to translate, or --check FILE")
    sys.path.insert(0, str(ROOT))
    from cudaport.run.driver import plan

    jobs = [j for j in plan([args.tree], None).jobs if j.kind != "copy"]
    size = sum(j.source.stat().st_size for j in jobs)
    work = Path(tempfile.mkdtemp(prefix="cudaport-bench-", dir=args.scratch))
    env = dict(os.environ, PYTHONPATH=str(ROOT), CUDAPORT_CACHE_DIR=str(work / "cache"))
    py = [sys.executable, "-m", "cudaport"]
    subprocess.run(py + ["translate", "-", "-q"], input=b"", env=env, check=True,
                   stdout=subprocess.DEVNULL)  # warm the rule-table cache only
    cmd = py + ["translate", str(args.tree), "--out-dir", str(work / "out"), "-q",
                "-j", str(args.jobs), "--fail-on", "never"]
    cold, cold_cpu, rc1 = run(cmd, env)
    warm, warm_cpu, rc2 = run(cmd, env)
    sample = max(jobs, key=lambda j: j.source.suffix == ".cu").source
    hook, hook_cpu, _ = run([sys.executable, "-m", "cudaport.cli.hooks", "check", str(sample)], env)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    load = os.getloadavg()[0]
    print(f"tree: {args.tree}  files: {len(jobs)}  size: {size / 1e6:.1f} MB  workers: {args.jobs}"
          f"  output below: {work.parent}"
          f"  cores: {os.cpu_count()}  load average: {load:.1f}")
    print(f"cold: {cold:.2f} s wall ({cold_cpu:.2f} s CPU)  {len(jobs) / cold:.0f} files/s  "
          f"{size / 1e6 / cold:.1f} MB/s  exit {rc1}")
    print(f"warm: {warm:.2f} s wall ({warm_cpu:.2f} s CPU)  exit {rc2}")
    print(f"pre-commit check of one file ({sample.name}): {hook:.2f} s wall ({hook_cpu:.2f} s CPU)")
    print(f"peak RSS of one process: {peak:.0f} MB")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
