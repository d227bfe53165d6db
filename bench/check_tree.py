#!/usr/bin/env python3
"""Translate every source file of a tree and check cudaport's promises on each.

For every C/C++/CUDA file below DIR: no crash, translating the output again changes
nothing, bytes outside edits are identical, and no edit lands in a comment or string.
Prints totals and every problem; exits 1 if there was any.

    python bench/check_tree.py DIR [DIR ...] [--launch hip] [--hip-version 5.2]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cudaport import Options  # noqa: E402
from cudaport.translate.integrity import problems  # noqa: E402
from cudaport.translate.pipeline import InputError, check_text  # noqa: E402

EXTENSIONS = {".cu", ".cuh", ".h", ".hpp", ".hh", ".cpp", ".cc", ".cxx", ".c", ".inl", ".hip"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--launch", default="cuda", choices=("cuda", "hip"))
    parser.add_argument("--hip-version")
    parser.add_argument("--rewrite-comments", action="store_true")
    args = parser.parse_args()
    options = Options(launch=args.launch, target_version=args.hip_version,
                      rewrite_comments=args.rewrite_comments)
    files = sorted(p for d in args.dirs for p in d.rglob("*")
                   if p.suffix in EXTENSIONS and p.is_file() and not p.is_symlink())
    total_bytes = 0
    skipped = 0
    bad: list[str] = []
    start = time.perf_counter()
    for path in files:
        data = path.read_bytes()
        try:
            check_text(data, str(path))
        except InputError:
            skipped += 1
            continue
        total_bytes += len(data)
        bad += problems(data, options, str(path))
    elapsed = time.perf_counter() - start
    print(f"{len(files)} files ({total_bytes / 1e6:.1f} MB) in {elapsed:.1f} s; "
          f"{skipped} skipped as binary; {len(bad)} problem(s)")
    kinds: dict[str, int] = {}
    for line in bad:
        kind = line.split(": ", 2)[1] if ": " in line else line
        kinds[kind.split(":")[0]] = kinds.get(kind.split(":")[0], 0) + 1
    for kind, count in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f"  {count:5d}  {kind}")
    for line in bad[:50]:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
