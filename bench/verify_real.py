"""How much real CUDA code compiles for HIP after cudaport translates it.

For each translation unit of fetched public repositories: first the CUDA original must
compile with nvcc (`nvcc -std=c++17 --cuda`: the whole CUDA front end, host and device code,
without code generation); those that do are translated and compiled with the HIP compiler
`cudaport verify` picks (the ROCm 6.4 folder tools/setup-rocm.sh installs, by default),
translated for that compiler's HIP version. Prints, per repository and overall, the share
of the nvcc-clean units that compile after translation, and the top first errors.

    python bench/verify_real.py --root /tmp/ext --max-tus 30 -j 2 --cuda-include DIR...
    python bench/verify_real.py --root /tmp/ext --only llm.c --failures

--cuda-include adds folders for nvcc only: an nvcc without cuBLAS, cuRAND, cuFFT, cuSPARSE
and cuSOLVER (nvcc and CCCL alone, as pip's nvidia-cuda-nvcc gives) rejects every unit using
them, so they would not be counted. Their headers are in the include/ folders of NVIDIA's
nvidia-cublas, nvidia-curand ... wheels (unzip 'nvidia/*/include/*').

Expected layout below --root (clones of the public repositories, kept outside this repo):
    cuda-samples/            NVIDIA/cuda-samples           Samples/*/*/*.cu, -I Common
    gpu-rodinia/             yuhc/gpu-rodinia              cuda/*/ (+ its sub-folders)
    llm.c/                   karpathy/llm.c                *.cu, dev/cuda/*.cu
    Learn-CUDA-Programming/  PacktPublishing/...           every .cu
    cuda_programming/        CoffeeBeforeArch/...          every .cu
    code-samples/            NVIDIA-developer-blog/...     every .cu
    shoc/                    vetter/shoc                   src/cuda/**/*.cu
Include folders are guessed: the unit's folder, its ancestors up to the repository root with
their include/inc/common/Common/util(s) sub-folders, and cuda-samples' Common/ (helper_cuda.h).
.cu files another file #includes are not units of their own.

nvcc's verdict on each original is cached in ~/.cache/cudaport/verify_real-nvcc (keyed by the
unit's text, the flags and the nvcc binary; --no-nvcc-cache to bypass), so a rerun after a
change to the translator costs only the HIP side.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cudaport import Options  # noqa: E402
from cudaport.verify import TOOLCHAINS, find_compiler, verify_paths  # noqa: E402

DEFAULT_NVCC_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") \
    / "cudaport" / "verify_real-nvcc"
_QUOTED = re.compile(r"'[^']*'")
_NVCC_ERROR = re.compile(r"error: (.*)")
INCLUDE_NAMES = ("include", "inc", "common", "Common", "util", "utils", "helper")
# Repository folder → the .cu files that are its translation units.
LAYOUT = {
    "cuda-samples": lambda r: sorted(r.glob("Samples/*/*/*.cu")),
    "gpu-rodinia": lambda r: sorted(r.glob("cuda/**/*.cu")),
    "llm.c": lambda r: sorted(r.glob("*.cu")) + sorted(r.glob("dev/cuda/*.cu")),
    "Learn-CUDA-Programming": lambda r: sorted(r.rglob("*.cu")),
    "cuda_programming": lambda r: sorted(r.rglob("*.cu")),
    "code-samples": lambda r: sorted(r.rglob("*.cu")),
    # A benchmark suite with no dependencies beyond CUDA and cuBLAS (first measured in
    # session 5; polybenchGpu was tried too: nvcc 13 rejects all of it, cudaThreadSynchronize).
    "shoc": lambda r: sorted(r.glob("src/cuda/**/*.cu")),
}


def _included_cu(folder: Path) -> set[Path]:
    """.cu files a sibling #includes (not translation units of their own)."""
    names: set[str] = set()
    for f in folder.iterdir():
        if f.is_file() and f.suffix in (".cu", ".cuh", ".h", ".c", ".cpp", ".hpp"):
            names |= set(re.findall(r'#\s*include\s*"([^"]+\.cu)"',
                                    f.read_text(errors="replace")))
    return {(folder / n).resolve() for n in names}


def guess_flags(repo: Path, unit: Path, root: Path) -> list[str]:
    dirs = []
    folder = unit.parent
    while True:
        dirs.append(folder)
        dirs += [folder / n for n in INCLUDE_NAMES if (folder / n).is_dir()]
        if folder == repo or repo not in folder.parents:
            break
        folder = folder.parent
    common = root / "cuda-samples" / "Common"
    if common.is_dir():
        dirs.append(common)
    seen: dict[Path, None] = dict.fromkeys(dirs)
    return [f"-I{d}" for d in seen]


def units_of(repo: Path, name: str) -> list[Path]:
    found = LAYOUT[name](repo)
    skipped: set[Path] = set()
    for folder in {u.parent for u in found}:
        skipped |= _included_cu(folder)
    return [u for u in found if u.resolve() not in skipped and u.is_file()]


def spread(items: list, limit: int | None) -> list:
    """At most ``limit`` items, evenly spread over the list (the whole repository, not its
    first folders)."""
    if not limit or len(items) <= limit:
        return items
    step = len(items) / limit
    return [items[int(i * step)] for i in range(limit)]


@dataclasses.dataclass
class Result:
    repo: str
    unit: Path
    cuda_ok: bool
    hip_ok: bool = False
    cause: str = ""  # the first error after translation
    where: str = ""
    kinds: tuple[str, ...] = ()


def nvcc_cache_key(nvcc: str, unit: Path, flags: list[str], arch: str) -> str:
    """The unit's text, the command's flags and the nvcc binary (path, size, mtime). Headers
    the unit includes are not part of it: the fetched repositories do not change between runs
    (--no-nvcc-cache when they do)."""
    exe = Path(shutil.which(nvcc) or nvcc)
    stat = exe.stat() if exe.exists() else None
    digest = hashlib.sha256()
    for part in (str(exe), f"{stat.st_size}:{stat.st_mtime_ns}" if stat else "", arch,
                 "\0".join(flags), str(unit.resolve())):
        digest.update(part.encode() + b"\0")
    digest.update(unit.read_bytes())
    return digest.hexdigest()


class NvccCache:
    """nvcc's verdicts on CUDA originals, one JSON file per unit below ``folder`` (outside the
    repository), so a rerun after a translator change costs only the HIP side."""

    def __init__(self, folder: Path | None):
        self.folder = folder

    def get(self, key: str) -> tuple[bool, str] | None:
        if self.folder is None:
            return None
        try:
            data = json.loads((self.folder / f"{key}.json").read_text())
            return bool(data["ok"]), str(data["error"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, ok: bool, error: str) -> None:
        if self.folder is None or error == "nvcc timed out":
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / f"{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps({"ok": ok, "error": error}))
        tmp.replace(self.folder / f"{key}.json")


def cached_nvcc_check(cache: NvccCache, nvcc: str, unit: Path, flags: list[str],
                      arch: str) -> tuple[bool, str]:
    key = nvcc_cache_key(nvcc, unit, flags, arch)
    hit = cache.get(key)
    if hit is not None:
        return hit
    ok, error = nvcc_check(nvcc, unit, flags, arch)
    cache.put(key, ok, error)
    return ok, error


def nvcc_check(nvcc: str, unit: Path, flags: list[str], arch: str) -> tuple[bool, str]:
    try:
        proc = subprocess.run([nvcc, "-std=c++17", f"-arch={arch}", "--cuda", "-o", "/dev/null",
                               *flags, str(unit)], capture_output=True, text=True,
                              errors="replace", timeout=300, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return False, "nvcc timed out"
    m = _NVCC_ERROR.search(proc.stdout + proc.stderr)
    return proc.returncode == 0, (m.group(1) if m else "")


def run_unit(repo_name: str, repo: Path, unit: Path, root: Path, args, compiler,
             options: Options, cache: NvccCache) -> Result:
    flags = guess_flags(repo, unit, root)
    cuda_libs = [f"-I{d}" for d in args.cuda_include or ()]
    ok, _ = cached_nvcc_check(cache, args.nvcc, unit, flags + cuda_libs, args.nvcc_arch)
    print("." if ok else "x", end="", file=sys.stderr, flush=True)  # progress
    if not ok:
        return Result(repo_name, unit, False)
    (outcome,) = verify_paths([unit], options, compiler, lambda _p: flags, jobs=1)
    errors = [f for f in outcome.findings if f.severity == "error"]
    if outcome.ok and not errors:
        return Result(repo_name, unit, True, True)
    first = errors[0] if errors else None
    cause = f"{first.code} {first.message}" if first else "failed without diagnostic"
    where = f"{first.path}:{first.line}" if first else str(unit)
    kinds = tuple(sorted({f"{f.code} {_QUOTED.sub('…', f.message)}" for f in errors}))
    return Result(repo_name, unit, True, False, cause, where, kinds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path("/tmp/ext"))
    parser.add_argument("--only", action="append", help="repository folder (repeatable)")
    parser.add_argument("--max-tus", type=int, help="at most this many units per repository, "
                        "spread evenly over it")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="units checked in parallel")
    parser.add_argument("--toolchain", choices=TOOLCHAINS, default="auto")
    parser.add_argument("--hip-version", help="translate for this HIP (default: the compiler's)")
    parser.add_argument("--nvcc", default=shutil.which("nvcc") or "nvcc")
    parser.add_argument("--nvcc-arch", default="sm_80")
    parser.add_argument("--cuda-include", action="append", metavar="DIR",
                        help="include folder for nvcc only (CUDA library headers)")
    parser.add_argument("--failures", action="store_true", help="list every failing unit")
    parser.add_argument("--nvcc-cache", type=Path, default=DEFAULT_NVCC_CACHE, metavar="DIR",
                        help="where nvcc's verdicts are kept between runs (default: %(default)s)")
    parser.add_argument("--no-nvcc-cache", action="store_true",
                        help="run nvcc on every unit, ignoring and not filling the cache")
    args = parser.parse_args()
    cache = NvccCache(None if args.no_nvcc_cache else args.nvcc_cache)
    compiler = find_compiler(toolchain=args.toolchain)
    if compiler is None:
        print("no HIP compiler found: run tools/setup-rocm.sh", file=sys.stderr)
        return 2
    if not shutil.which(args.nvcc):
        print(f"{args.nvcc}: not found (the CUDA originals are checked with nvcc)",
              file=sys.stderr)
        return 2
    version = args.hip_version or compiler.hip_version
    options = Options(target_version=version)
    print(f"HIP compiler: {compiler.description} ({compiler.label}); translated for HIP "
          f"{version}; CUDA check: {args.nvcc} -std=c++17 -arch={args.nvcc_arch} --cuda"
          + "".join(f" -I{d}" for d in args.cuda_include or ()))
    repos = [(n, args.root / n) for n in LAYOUT if (args.root / n).is_dir()
             and (not args.only or n in args.only)]
    if not repos:
        print(f"no repositories below {args.root}", file=sys.stderr)
        return 2
    work = [(n, r, u) for n, r in repos for u in spread(units_of(r, n), args.max_tus)]
    start = time.perf_counter()
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(
            lambda w: run_unit(w[0], w[1], w[2], args.root, args, compiler, options, cache),
            work))
    seconds = time.perf_counter() - start
    print(f"\n{'repository':24s} {'units':>5s} {'nvcc ok':>7s} {'HIP ok':>6s} {'share':>7s}"
          "  top first errors after translation")
    by_repo: dict[str, list[Result]] = collections.defaultdict(list)
    for r in results:
        by_repo[r.repo].append(r)
    kinds: collections.Counter[str] = collections.Counter()
    firsts: collections.Counter[str] = collections.Counter()
    for name, rs in by_repo.items():
        clean = [r for r in rs if r.cuda_ok]
        ok = sum(r.hip_ok for r in clean)
        causes = collections.Counter(_QUOTED.sub("…", r.cause)[:70] for r in clean
                                     if not r.hip_ok)
        top = "; ".join(f"{n}× {c}" for c, n in causes.most_common(3))
        print(f"{name:24s} {len(rs):5d} {len(clean):7d} {ok:6d} "
              f"{100.0 * ok / max(len(clean), 1):6.1f}%  {top}")
        for r in clean:
            if not r.hip_ok:
                kinds.update(r.kinds)
                firsts[r.cause[:150]] += 1
                if args.failures:
                    unit = "" if r.where.startswith(f"{r.unit}:") else f" (unit {r.unit})"
                    print(f"    FAIL {r.where}: {r.cause[:160]}{unit}")
    clean = [r for r in results if r.cuda_ok]
    ok = sum(r.hip_ok for r in clean)
    print(f"{'overall':24s} {len(results):5d} {len(clean):7d} {ok:6d} "
          f"{100.0 * ok / max(len(clean), 1):6.1f}%  in {seconds:.0f} s")
    print("\ntop first errors of failing units:")
    for cause, n in firsts.most_common(15):
        print(f"  {n:4d}  {cause}")
    print("\ntop error kinds (units affected):")
    for kind, n in kinds.most_common(12):
        print(f"  {n:4d}  {kind[:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
