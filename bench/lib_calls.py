"""Does every ported library call (or name) compile? Per library, variant and HIP version.

    python bench/lib_calls.py                 # every file, variant and version
    python bench/lib_calls.py --only cusparse --version 7.2 --errors 20
    python bench/lib_calls.py --names         # types, enumerators, macros and fields

Translates tests/data/libcalls/*.cu (one call of every mapped CUDA function, with arguments
of the types CUDA declares: tools/gen_lib_calls.py) for each library variant with
``--hip-version`` 7.2 and 6.4, and compiles each to an object file with that ROCm
(tools/lib_calls.py). Prints functions mapped, calls left as CUDA with an error finding,
calls that compile, and calls that do not (each is a defect: a ported call that does not
compile), with the compile time. ``--names`` does the same for tests/data/libnames/*.cu
(every mapped type, enumerator, macro and struct field: tools/gen_lib_names.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import lib_calls as L  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", help="file stem (repeatable)")
    ap.add_argument("--version", action="append", choices=L.VERSIONS)
    ap.add_argument("--choice", action="append", help="variant choice (repeatable)")
    ap.add_argument("--errors", type=int, default=0, help="print up to N failing calls each")
    ap.add_argument("--not-yet", type=Path,
                    help="write the failing calls as tests/data/libcalls/not-yet.tsv rows")
    ap.add_argument("--names", action="store_true",
                    help="the names files (tests/data/libnames) instead of the calls")
    args = ap.parse_args(argv)
    suite = "names" if args.names else "calls"
    rows = []
    print(f"{'library':10} {'variant':10} {'HIP':4} {'mapped':>6} {'finding':>7} "
          f"{'compile':>7} {'fail':>5} {'file':>4} {'secs':>5}")
    failing = 0
    for stem in args.only or L.stems(suite):
        for choice in L.choices(stem):
            if args.choice and choice not in args.choice:
                continue
            for version in args.version or L.VERSIONS:
                hipcc = L.compiler(version)
                if hipcc is None:
                    print(f"{stem:10} {choice:10} {version:4} (no ROCm {version} toolchain)")
                    continue
                why = L.unavailable(stem, choice, version)
                if why:
                    print(f"{stem:10} {choice:10} {version:4} ({why})")
                    continue
                start = time.perf_counter()
                o = L.run(stem, choice, version, hipcc, suite=suite)
                secs = time.perf_counter() - start
                failing += len(o.errors) + len(o.file_errors)
                print(f"{stem:10} {choice:10} {version:4} {len(o.mapped):6} "
                      f"{len(o.findings):7} {len(o.compiling):7} {len(o.errors):5} "
                      f"{len(o.file_errors):4} {secs:5.1f}", flush=True)
                rows += [f"{stem}\t{choice}\t{version}\t{name}\t{message}"
                         for name, message in o.errors.items()]
                for name, message in list(o.errors.items())[:args.errors]:
                    print(f"    {name}: {message}")
                for message in o.file_errors[:args.errors]:
                    print(f"    (file) {message}")
    print(f"{'names' if args.names else 'calls'} or files that do not compile: {failing}")
    if args.not_yet:
        head = [line for line in args.not_yet.read_text().splitlines() if line.startswith("#")]
        args.not_yet.write_text("\n".join(head + rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
