"""Do ported projects build? For each program of real CUDA suites built by Makefiles (or
CMake): build the CUDA original with its own `make` and nvcc, translate the suite with
cudaport, build the translated folder with its own `make` (or CMake) against ROCm 7.2 (the
root `tools/setup-rocm.sh 7.2` installs), and print the table: built or the first error
(mapped to the CUDA line) with the finding that explains it.

    python bench/build_projects.py --suite hecbench=/tmp/ext/hecbench/src --first 45 \\
        --suite rodinia=/tmp/ext/rodinia/cuda --cuda-var hecbench:ARCH=sm_80 \\
        --work /tmp/bench-build
    python bench/build_projects.py --only hip --cmake samples \\
        --suite samples=/tmp/ext/cs/Samples/0_Introduction --top samples=/tmp/ext/cs \\
        --work /tmp/bench-cmake

``--cmake NAME``: the suite's programs are CMake projects (folders with a CMakeLists.txt),
built with the root's CMake; ``--top NAME=DIR``: the folder copied and translated (default:
the suite folder's parent when it is named src or cuda, else the suite folder). ``--suite``
may be given twice with one name to take programs from two folders of one tree.

A suite is a folder of program folders (each with a Makefile); the programs are the first
``--first`` such folders in name order (HeCBench: only ``*-cuda``), not chosen by outcome.
The whole extracted tree above the suite folder is copied and translated once, since
programs include shared files (rodinia's ``common/make.config``, HeCBench's ``src/include``).
The CUDA originals are built with `make VARIABLE=VALUE` from ``--cuda-var SUITE:NAME=VALUE``,
each given set tried in turn until one builds (HeCBench's Makefiles default to
``ARCH = sm_60``, or ``ARCH = 60``, which nvcc 13 no longer accepts, so the bench passes
their documented ``ARCH`` option: ``--cuda-var hecbench:ARCH=sm_80 --cuda-var
hecbench:ARCH=80``); translated folders get no variable at all.
Results are kept in WORK/results.json; a second run only builds what is missing
(``--fresh`` forgets them).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cudaport.builds.build import (Mapper, build, report, rocm72_dir,  # noqa: E402
                            translate_tree)
from cudaport.options import Options  # noqa: E402

MAKEFILES = ("GNUmakefile", "makefile", "Makefile")


def programs(suite: Path, first: int | None, system: str) -> list[Path]:
    names = ("CMakeLists.txt",) if system == "cmake" else MAKEFILES
    found = [p for p in sorted(suite.iterdir()) if p.is_dir()
             and any((p / m).is_file() for m in names)
             and not (suite.name == "src" and not p.name.endswith("-cuda"))]
    return found[:first] if first else found


def build_original(folder: Path, choices: list[list[str]], timeout: int
                   ) -> tuple[bool, str, float]:
    """make with each set of variables in turn until one builds (HeCBench's ARCH is sm_60
    in most Makefiles, 60 in a few)."""
    start = time.perf_counter()
    for variables in choices or [[]]:
        subprocess.run(["make", "-C", str(folder), "clean"], capture_output=True,
                       stdin=subprocess.DEVNULL)
        try:
            proc = subprocess.run(["make", "-C", str(folder), "-j2", *variables],
                                  capture_output=True, text=True, errors="replace",
                                  timeout=timeout, stdin=subprocess.DEVNULL)
            ok, output = proc.returncode == 0, proc.stdout + proc.stderr
        except subprocess.TimeoutExpired:
            ok, output = False, f"timed out after {timeout} s"
        if ok:
            break
    last = [x for x in output.splitlines() if "error" in x.lower() and not x.startswith(
        "make")] or [x for x in output.splitlines() if "error" in x.lower()] or [""]
    return ok, last[0][:200], time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", action="append", required=True, metavar="NAME=DIR")
    parser.add_argument("--first", type=int, help="only the first N programs of each suite")
    parser.add_argument("--cmake", action="append", default=[], metavar="NAME")
    parser.add_argument("--top", action="append", default=[], metavar="NAME=DIR")
    parser.add_argument("--cuda-var", action="append", default=[], metavar="SUITE:NAME=VALUE")
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--rocm", type=Path, help="the ROCm 7.2 root (default: "
                        "$CUDAPORT_ROCM72_DIR or /var/cache/cudaport/rocm-7.2)")
    parser.add_argument("--timeout", type=int, default=900)
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--only", choices=("cuda", "hip"), help="build one side only")
    args = parser.parse_args(argv)
    root = rocm72_dir(args.rocm)
    args.work.mkdir(parents=True, exist_ok=True)
    store = args.work / "results.json"
    results = {} if args.fresh or not store.exists() else json.loads(store.read_text())
    options = Options(target_version="7.2")
    rows = []
    translated: dict[str, list] = {}
    for spec in args.suite:
        name, _, folder = spec.partition("=")
        suite = Path(folder).resolve()
        tops = dict(t.split("=", 1) for t in args.top)
        top = (Path(tops[name]).resolve() if name in tops else
               suite.parent if suite.name in ("src", "cuda") else suite)
        system = "cmake" if name in args.cmake else "make"
        # each --cuda-var SUITE:A=1,B=2 is one set of variables, tried in the order given
        choices = [v.split(":", 1)[1].split(",") for v in args.cuda_var
                   if v.startswith(name + ":")]
        cuda_tree, hip_tree = args.work / name / "cuda", args.work / name / "hip"
        if not cuda_tree.exists():
            shutil.copytree(top, cuda_tree, symlinks=True)
        outcomes = []
        if not hip_tree.exists() or args.fresh and name not in translated:
            shutil.rmtree(hip_tree, ignore_errors=True)
            outcomes = translate_tree(top, hip_tree, options)
            translated[name] = outcomes
        mapper = Mapper(top, hip_tree, options, translated.get(name) or outcomes)
        for program in programs(suite, args.first, system):
            rel = program.relative_to(top).as_posix()
            key = f"{name}/{rel}"
            row = results.setdefault(key, {})
            if "cuda" not in row and args.only != "hip" and system == "make":
                ok, error, seconds = build_original(cuda_tree / rel, choices, args.timeout)
                row["cuda"] = {"ok": ok, "error": "" if ok else error, "seconds": round(seconds, 1)}
                store.write_text(json.dumps(results, indent=1))
            if "hip" not in row and args.only != "cuda":
                folder = hip_tree / rel
                rc, output, command, seconds = build(folder, system, root, 2, args.timeout)
                built = report(folder, system, rc, output, command, seconds, mapper, key)
                row["hip"] = {"ok": built.ok, "seconds": round(seconds, 1),
                              "error": "" if built.ok else
                              f"{built.error.path}:{built.error.line}: {built.error.message}"[:300],
                              "explained_by": [f"{f.code} {f.message}"[:160]
                                               for f in built.explained_by]}
                store.write_text(json.dumps(results, indent=1))
            rows.append((key, row))
            print(f"{key}: cuda {_mark(row.get('cuda'))} hip {_mark(row.get('hip'))}",
                  file=sys.stderr, flush=True)
    return table(rows)


def _mark(side: dict | None) -> str:
    return "-" if side is None else ("built" if side["ok"] else "FAILED")


def table(rows: list) -> int:
    print("| program | CUDA original, nvcc 13 | translation, ROCm 7.2 | first error of the "
          "translation / finding that explains it |")
    print("|---|---|---|---|")
    originals = [r for _, r in rows if r.get("cuda", {}).get("ok")]
    unbuilt = not any("cuda" in r for _, r in rows)  # --only hip, CMake suites
    if unbuilt:
        originals = [r for _, r in rows]
    for key, row in rows:
        cuda, hip = row.get("cuda"), row.get("hip")
        why = ""
        if hip and not hip["ok"]:
            why = hip["error"].replace("|", "\\|")
            if hip["explained_by"]:
                why += " — " + "; ".join(hip["explained_by"]).replace("|", "\\|")
        elif cuda and not cuda["ok"]:
            why = "(original does not build: " + cuda["error"].replace("|", "\\|") + ")"
        print(f"| {key} | {_mark(cuda)} | {_mark(hip)} | {why} |")
    built = sum(1 for r in originals if r.get("hip", {}).get("ok"))
    share = 100.0 * built / len(originals) if originals else 0.0
    counted = ("originals not built: all counted" if unbuilt
               else f"{len(originals)} CUDA originals build with nvcc 13")
    print(f"\n{len(rows)} programs; {counted}; of those, {built} translations build and link "
          f"with ROCm 7.2 ({share:.1f} %); "
          f"{sum(1 for _, r in rows if r.get('hip', {}).get('ok'))} translations build in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
