"""Speed of tree translation: ``python bench/translate_tree.py DIR [-j 2]``.

``python bench/translate_tree.py --check FILE [--runs N] [--python PY]`` times only the
pre-commit case instead: ``cudaport check FILE`` in a fresh interpreter, N times (default 11)
after one warming run, from a copy of the package in a temporary folder, twice: with its
bytecode compiled (``compileall``, as ``pip install`` leaves an installed package) and with
no bytecode at all under ``PYTHONDONTWRITEBYTECODE=1`` (an editable install on a machine
that sets it: every module is compiled from source in every run). Prints the median wall
and CPU time of each (the goal is 0.2 s) with the load average. ``--python`` picks the
interpreter (a fresh virtual environment's has no other project's ``.pth`` start-up code).

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


def run(cmd: list[str], env: dict[str, str], cwd: Path | None = None) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user+sys of the process and its workers), exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.returncode


def check_one(path: Path, runs: int = 11, python: str = sys.executable) -> None:
    """Median wall and CPU time of ``cudaport check PATH`` (interpreter start included),
    with and without the package's bytecode."""
    import compileall
    import statistics

    path = path.resolve()
    work = Path(tempfile.mkdtemp(prefix="cudaport-check-bench-"))
    try:
        for label, compiled in (("with bytecode", True), ("no bytecode", False)):
            copy = work / label.replace(" ", "-")
            shutil.copytree(ROOT / "cudaport", copy / "cudaport",
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            (copy / "rules").symlink_to(ROOT / "rules")
            if compiled:
                compileall.compile_dir(copy / "cudaport", quiet=1)
            # The copy's folder is the working directory (``-m`` puts it first on the path).
            env = dict(os.environ, PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1")
            cmd = [python, "-m", "cudaport", "check", str(path)]
            run(cmd, env, cwd=copy)  # warms the rule-table cache
            walls, cpus = zip(*(run(cmd, env, cwd=copy)[:2] for _ in range(runs)))
            print(f"check of one file ({path.name}), {label}: median {statistics.median(walls):.3f} s"
                  f" wall, {statistics.median(cpus):.3f} s CPU over {runs} runs"
                  f" (wall {min(walls):.3f}-{max(walls):.3f})"
                  f"  cores: {os.cpu_count()}  load average: {os.getloadavg()[0]:.1f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path, nargs="?")
    parser.add_argument("--check", type=Path, metavar="FILE",
                        help="time only 'cudaport check FILE', with and without bytecode")
    parser.add_argument("--runs", type=int, default=11, help="runs of --check (default 11)")
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter for --check (default: this one)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--scratch", type=Path, default=None,
                        help="folder for the output and cache (default: the system temp "
                             "folder; /dev/shm takes the disk out of the measurement)")
    args = parser.parse_args()
    if args.check is not None:
        return check_one(args.check, args.runs, args.python)
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
