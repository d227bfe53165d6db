"""How much real CUDA code compiles for HIP after cudaport translates it.

Runs `cudaport verify` (the library API, one compilation at a time, so it stays polite on
a shared machine) over fetched public repositories and prints the pass rate per corpus
and overall, and the top causes of the failures that remain.

    python bench/verify_real.py --root /tmp/ext            # all corpora found below root
    python bench/verify_real.py --root /tmp/ext --only llm.c --limit 5

Expected layout below --root (clones of the public repositories, kept outside this repo):
    cuda-samples/  (NVIDIA/cuda-samples)   Samples/{0_Introduction,2_Concepts_and_Techniques,
                                           6_Performance}/*/ with -I Common
    gpu-rodinia/   (yuhc/gpu-rodinia)      cuda/*/ (files #included by a sibling are skipped),
                                           -I its sub-folders and cuda-samples' Common
    llm.c/         (karpathy/llm.c)        *.cu and dev/cuda/*.cu with -I the repo root
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cudaport import Options  # noqa: E402
from cudaport.verify import find_compiler, verify_paths  # noqa: E402

_QUOTED = re.compile(r"'[^']*'")


def _included_siblings(folder: Path) -> set[Path]:
    """.cu files another file of the folder #includes (not translation units of their own)."""
    names = set()
    for f in folder.glob("*"):
        if f.suffix in (".cu", ".cuh", ".h", ".c", ".cpp"):
            text = f.read_text(errors="replace")
            names |= set(re.findall(r'#\s*include\s*"([^"]+\.cu)"', text))
    return {folder / n for n in names}


def corpora(root: Path) -> dict[str, list[tuple[Path, list[str]]]]:
    """name → [(translation unit, flags)]."""
    found: dict[str, list[tuple[Path, list[str]]]] = {}
    samples = root / "cuda-samples"
    if samples.is_dir():
        units = []
        for group in ("0_Introduction", "2_Concepts_and_Techniques", "6_Performance"):
            for cu in sorted((samples / "Samples" / group).glob("*/*.cu")):
                units.append((cu, [f"-I{samples / 'Common'}", f"-I{cu.parent}"]))
        found["cuda-samples"] = units
    rodinia = root / "gpu-rodinia" / "cuda"
    if rodinia.is_dir():
        # Rodinia's makefiles add the benchmark's sub-folders and the CUDA SDK's common
        # headers (helper_cuda.h); cuda-samples' Common/ stands in for the latter.
        sdk = [f"-I{samples / 'Common'}"] if (samples / "Common").is_dir() else []
        units = []
        for folder in sorted(p for p in rodinia.iterdir() if p.is_dir()):
            subdirs = [f"-I{d}" for d in sorted(folder.rglob("*")) if d.is_dir()]
            for cu in sorted(folder.rglob("*.cu")):
                if cu not in _included_siblings(cu.parent):
                    units.append((cu, [f"-I{cu.parent}", f"-I{folder}"] + subdirs + sdk))
        found["rodinia"] = units
    llmc = root / "llm.c"
    if llmc.is_dir():
        units = [(cu, [f"-I{llmc}", f"-I{cu.parent}"])
                 for cu in sorted(llmc.glob("*.cu")) + sorted((llmc / "dev" / "cuda").glob("*.cu"))]
        found["llm.c"] = units
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path("/tmp/ext"))
    parser.add_argument("--only", action="append", help="corpus name (repeatable)")
    parser.add_argument("--limit", type=int, help="at most this many files per corpus")
    parser.add_argument("--failures", action="store_true", help="list every failing file")
    args = parser.parse_args()
    compiler = find_compiler()
    if compiler is None:
        print("no HIP compiler found (install clang-15 and libamdhip64-dev)")
        return 2
    options = Options(target_version=compiler.hip_version)
    print(f"compiler: {compiler.description}; translating for HIP {compiler.hip_version}")
    found = corpora(args.root)
    if args.only:
        found = {k: v for k, v in found.items() if k in args.only}
    if not found:
        print(f"no corpora below {args.root}")
        return 2
    total = passed = missing_lib = 0
    causes: collections.Counter[str] = collections.Counter()  # primary error per failing file
    kinds: collections.Counter[str] = collections.Counter()
    for name, units in found.items():
        units = units[:args.limit] if args.limit else units
        start = time.perf_counter()
        ok = 0
        for path, flags in units:
            (outcome,) = verify_paths([path], options, compiler, lambda _p, f=flags: f, jobs=1)
            errors = [f for f in outcome.findings if f.severity == "error"]
            if outcome.ok and not errors:
                ok += 1
                continue
            if any(f.code == "CP504" and "not in Debian" in f.message for f in errors):
                missing_lib += 1  # needs hipBLAS & co.: not a verdict on the translation
            first = errors[0] if errors else None
            cause = f"{first.code} {first.message}" if first else "failed without diagnostic"
            causes[cause] += 1
            for kind in {f"{f.code} {_QUOTED.sub('…', f.message)}" for f in errors}:
                kinds[kind] += 1
            if args.failures:
                where = f"{first.path}:{first.line}" if first else str(path)
                print(f"  FAIL {where}: {cause[:160]}")
        seconds = time.perf_counter() - start
        total += len(units)
        passed += ok
        rate = 100.0 * ok / len(units) if units else 0.0
        print(f"{name:14s} {ok:4d}/{len(units):<4d} compile ({rate:5.1f}%) in {seconds:6.1f} s")
    print(f"{'overall':14s} {passed:4d}/{total:<4d} compile ({100.0 * passed / max(total, 1):5.1f}%)")
    rest = total - missing_lib
    print(f"{'without libs':14s} {passed:4d}/{rest:<4d} compile ({100.0 * passed / max(rest, 1):5.1f}%)"
          f"  ({missing_lib} files need a ROCm library Debian does not package)")
    print("\ntop first errors of failing files:")
    for cause, n in causes.most_common(15):
        print(f"  {n:4d}  {cause[:150]}")
    print("\ntop error kinds (files affected):")
    for kind, n in kinds.most_common(12):
        print(f"  {n:4d}  {kind[:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
