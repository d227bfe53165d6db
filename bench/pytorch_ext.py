#!/usr/bin/env python3
"""Translate a PyTorch extension's tree with ``--framework pytorch`` and print numbers.

Usage: python bench/pytorch_ext.py DIR [DIR ...] [--target hip --target musa]

For each target: files translated (C++/CUDA, Python, setup.py), PyTorch includes before
and after, includes that still name a CUDA folder of PyTorch, mangled paths (a CUDA
folder with a target file name or the reverse, as a plain rename of CUDA names makes),
and findings per code. Nothing is written.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cudaport import Options, translate_bytes  # noqa: E402
from cudaport.builds.python_side import translate_python_file  # noqa: E402

CPP = {".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc", ".cxx", ".inl"}
INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.M)
PYTORCH = re.compile(rb"^(?:ATen|c10|THC|torch)/")
CUDA_DIR = re.compile(rb"^(?:ATen/(?:native/(?:\w+/)?)?cuda|c10/cuda|THC)/")
MANGLED = re.compile(rb"^(?:ATen|c10)/(?:\w+/)*(?:cuda/\w*(?:HIP|MUSA)|hip/\w*CUDA|musa/\w*CUDA)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("roots", nargs="+", type=Path)
    ap.add_argument("--target", action="append", dest="targets")
    ap.add_argument("--no-framework", action="store_true",
                    help="plain API rules, to compare")
    args = ap.parse_args(argv)
    files = sorted(p for root in args.roots for p in ([root] if root.is_file() else root.rglob("*"))
                   if p.is_file() and (p.suffix in CPP or p.suffix == ".py"))
    for target in args.targets or ["hip", "musa"]:
        options = Options(target=target,
                          framework=None if args.no_framework else "pytorch")
        codes: collections.Counter[str] = collections.Counter()
        counts: collections.Counter[str] = collections.Counter()
        left, mangled = [], []
        start = time.perf_counter()
        for path in files:
            data = path.read_bytes()
            try:
                if path.suffix == ".py":
                    result = translate_python_file(data, options, str(path))
                else:
                    result = translate_bytes(data, options, str(path))
            except Exception as exc:  # a bench reports, it does not stop
                counts["errors"] += 1
                print(f"  {path}: {exc}", file=sys.stderr)
                continue
            counts["py" if path.suffix == ".py" else "cpp"] += 1
            counts["changed"] += result.output != data
            codes.update(f.code for f in result.findings)
            before = [m for m in INCLUDE.findall(data) if PYTORCH.match(m)]
            after = [m for m in INCLUDE.findall(result.output) if PYTORCH.match(m)]
            counts["pytorch includes"] += len(before)
            still = [f"{path}: {m.decode()}" for m in after if CUDA_DIR.match(m)]
            counts["rewritten"] += sum(bool(CUDA_DIR.match(m)) for m in before) - len(still)
            left += still
            mangled += [f"{path}: {m.decode()}" for m in after if MANGLED.match(m)]
        took = time.perf_counter() - start
        print(f"{target}: {counts['cpp']} C++/CUDA + {counts['py']} Python files, "
              f"{counts['changed']} changed, {counts['errors']} errors, {took:.2f} s; "
              f"PyTorch includes {counts['pytorch includes']}, under a CUDA folder rewritten {counts['rewritten']}, "
              f"left {len(left)}, mangled {len(mangled)}")
        print("  findings: " + ", ".join(f"{c} {n}" for c, n in sorted(codes.items())))
        for item in (left + mangled)[:10]:
            print("  " + item)
    return 0


if __name__ == "__main__":
    sys.exit(main())
