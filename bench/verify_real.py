"""How much real CUDA code compiles for HIP after cudaport translates it.

For each translation unit of fetched public repositories: first the CUDA original must
compile with nvcc (`nvcc -std=c++17 --cuda`: the whole CUDA front end, host and device code,
without code generation); those that do are translated and compiled with the HIP compiler
`cudaport verify` picks (the newest ROCm folder tools/setup-rocm.sh installs, 7.2, by
default, or --rocm 6.4; object code, -c, unless --syntax-only),
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
Modern CUDA C++ (issue 16; nvcc-only flags in NVCC_FLAGS):
    cccl/                    NVIDIA/cccl                   thrust/examples, cub/examples, examples
    cuCollections/           NVIDIA/cuCollections          examples/**/*.cu, -I include
    ggml/                    ggml-org/ggml                 src/ggml-cuda/*.cu (not template-instances)
    cutlass/                 NVIDIA/cutlass                examples/*/*.cu, -I include tools/util/include
    faiss/                   facebookresearch/faiss        faiss/gpu/**/*.cu, -I the repository root
    moderngpu/               moderngpu/moderngpu           tutorial, demo, tests, -I src
    warp/                    NVIDIA/warp                   warp/native/*.cu, -DWP_ENABLE_CUDA=1
Issue 30's rotation (no PyTorch headers):
    bitsandbytes/            bitsandbytes-foundation/...   csrc/*.cu, -I csrc
    TeaLeaf/                 UoB-HPC/TeaLeaf               src/cuda/*.cpp (nvcc -x cu), -I driver
    RSBench/                 ANL-CESAR/RSBench             cuda/*.cu
    PRK/                     ParRes/Kernels                Cxx11/*.cu (its Cxx11 and common folders)
    mixbench/                ekondis/mixbench              mixbench-cuda/*.{cu,cpp}, -I include
Issue 42's rotation (the symbol model, measured on projects new to cudaport; sources of
each default branch below /tmp/eval/src, CMakeLists/Makefile flags as their builds give them):
    cuda-api-wrappers/       eyalroz/cuda-api-wrappers     examples/**/*.{cu,cpp}, -I src
    CTranslate2/             OpenNMT/CTranslate2           src/cuda, src/ops/*_gpu.cu, -DCT2_WITH_CUDA
    marian/                  marian-nmt/marian-dev         src/tensors/gpu, -DCUDA_FOUND -DCUDNN
    DualSPHysics/            DualSPHysics/DualSPHysics     src/source/*_ker.cu (not JSphGpu_ker.cu)
    ppl.cv/                  OpenPPL/ppl.cv                src/ppl/cv/cuda/*.cu, deps/ppl.common/src
    Subway/, Tigr/           AutomataLab/Subway, Tigr      *.cu, -I shared
    gpu-benches/             te42kyfo/gpu-benches          */main.cu (its own HIP layer)
    CudaSift/                Celebrandil/CudaSift          *.cu, *.cpp
    kNN-CUDA/                vincentfpgarcia/kNN-CUDA      code/*.cu
    BGHT/                    owensgroup/BGHT               examples, benchmarks, -I include
Its second rotation (session 34; each default branch's snapshot below /tmp/eval/src):
    dlib/                    davisking/dlib                dlib/cuda: its CMake's CUDA sources
                                                           (wrappers of cuBLAS, cuDNN, cuRAND,
                                                           cuSOLVER), -I repo -DDLIB_USE_CUDA
    taskflow/                taskflow/taskflow             examples/cuda, unittests/cuda as its
                                                           CMake lists them (header-only), C++20
    CUDA-Programming/        brucefan1983/CUDA-Programming src/**/*.cu (a book's 64 programs)
Include folders are guessed: the unit's folder, its ancestors up to the repository root with
their include/inc/common/Common/util(s) sub-folders, and cuda-samples' Common/ (helper_cuda.h).
.cu files another file #includes are not units of their own.

nvcc's verdict on each original is cached in ~/.cache/cudaport/verify_real-nvcc (keyed by the
unit's text, the flags and the nvcc binary; --no-nvcc-cache to bypass), so a rerun after a
change to the translator costs only the HIP side.

For every unit that fails after translation, the second table says whether cudaport's own
report had warned: the unit's verdict (cudaport.report.verdict over the unit and the project headers
it includes, translated with the options `cudaport check` of the folder holding the
repository's units gives them: its project pre-pass, see checked_options) and whether one of its error findings
*names the cause* of the compiler's first error (see names_cause for the rule). The target:
no failing unit "ports cleanly", and >= 95 % of failing units with a naming finding.
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
from cudaport.findings import Finding  # noqa: E402
from cudaport.report.verdict import BLOCKED, CLEAN, WARNINGS, of_files  # noqa: E402
from cudaport.run.verify import TOOLCHAINS, find_compiler, verify_paths  # noqa: E402

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
    # Modern CUDA C++ (issue 16): CCCL-heavy, CUTLASS users, PTX- and warp-level libraries.
    "cccl": lambda r: sorted(r.glob("thrust/examples/**/*.cu")) + sorted(
        r.glob("cub/examples/**/*.cu")) + sorted(r.glob("examples/basic/**/*.cu")),
    "cuCollections": lambda r: sorted(r.glob("examples/**/*.cu")),
    "ggml": lambda r: sorted(r.glob("src/ggml-cuda/*.cu")),
    "cutlass": lambda r: sorted(r.glob("examples/*/*.cu")),
    "faiss": lambda r: sorted(r.glob("faiss/gpu/**/*.cu")),
    "moderngpu": lambda r: sorted(r.glob("tutorial/*.cu")) + sorted(r.glob("demo/*.cu"))
    + sorted(r.glob("tests/*.cu")),
    "warp": lambda r: sorted(r.glob("warp/native/*.cu")),
    # Issue 30's rotation: repositories new to the project, none needing PyTorch's headers.
    "bitsandbytes": lambda r: sorted(r.glob("csrc/*.cu")),  # bitsandbytes-foundation/...
    "TeaLeaf": lambda r: sorted(r.glob("src/cuda/*.cpp")),  # UoB-HPC/TeaLeaf: CUDA in .cpp
    "RSBench": lambda r: sorted(r.glob("cuda/*.cu")),  # ANL-CESAR/RSBench (session 30)
    "PRK": lambda r: sorted(r.glob("Cxx11/*.cu")),  # ParRes/Kernels (session 30)
    "mixbench": lambda r: sorted(r.glob("mixbench-cuda/*.cu"))  # ekondis/mixbench
    + sorted(r.glob("mixbench-cuda/*.cpp")),
    # Issue 29/30's rotation of AI repositories (session 31); the PyTorch extensions among
    # them (torchsparse, pytorch3d, fast-hadamard-transform) need PyTorch's headers.
    "candle": lambda r: sorted(r.glob("candle-kernels/src/**/*.cu")),  # huggingface/candle
    # graphdeco-inria/...: its glm submodule at third_party/glm (g-truc/glm)
    "diff-gaussian-rasterization": lambda r: sorted(r.glob("cuda_rasterizer/*.cu")),
    "nccl-tests": lambda r: sorted(r.glob("src/*.cu")) + sorted(r.glob("verifiable/*.cu")),
    # Issue 42's rotation (session 33): projects with their own wrappers around the runtime,
    # driver, NVRTC, cuBLAS and cuDNN (cuda-api-wrappers, CTranslate2 with its own HIP build,
    # marian), header-only libraries (cuda-api-wrappers, BGHT), a simulator, graph systems,
    # vision operators, a kNN search and a benchmark suite with its own HIP layer.
    "cuda-api-wrappers": lambda r: sorted(r.glob("examples/**/*.cu"))
    + sorted(r.glob("examples/**/*.cpp")),
    "CTranslate2": lambda r: sorted(r.glob("src/cuda/*.cu")) + sorted(r.glob("src/cuda/*.cc"))
    + sorted(r.glob("src/ops/*_gpu.cu")) + sorted(r.glob("src/ops/awq/*.cu")),
    # (its src/CMakeLists.txt's marian_cuda list and the host files beside it)
    "marian": lambda r: sorted(r.glob("src/tensors/gpu/*.cu")) + sorted(
        r.glob("src/tensors/gpu/*.cpp")) + sorted(r.glob("src/translator/*.cu"))
    + sorted(r.glob("src/layers_new/*.cu")),
    # (its Makefile's kernels; JSphGpu_ker.cu, 3,721 lines with its *_iker.cu, took nvcc over
    # 25 minutes on the shared 2-core machine and is left out)
    "DualSPHysics": lambda r: [u for u in sorted(r.glob("src/source/*_ker.cu"))
                               if u.name != "JSphGpu_ker.cu"],
    "ppl.cv": lambda r: sorted(r.glob("src/ppl/cv/cuda/*.cu")),
    "Subway": lambda r: sorted(r.glob("subway/*.cu")) + sorted(r.glob("shared/*.cu")),
    "Tigr": lambda r: sorted(r.glob("tigr/*.cu")),
    "gpu-benches": lambda r: sorted(r.glob("*/main.cu")),
    # (its CMakeLists.txt's cuda_sources and sources: match.cu is a stand-alone test whose
    # AVX intrinsics need -mavx2 -mfma, which no build of the project gives)
    "CudaSift": lambda r: [r / n for n in ("cudaImage.cu", "cudaSiftH.cu", "matching.cu",
                                           "geomFuncs.cpp", "mainSift.cpp")],
    "kNN-CUDA": lambda r: sorted(r.glob("code/*.cu")),
    "BGHT": lambda r: sorted(r.glob("examples/*.cu")) + sorted(r.glob("benchmarks/*.cu")),
    # Issue 42's second rotation (session 34). dlib's dlib/CMakeLists.txt: the sources it adds
    # when CUDA and cuDNN are found (its .cpp wrappers go to the host compiler with CUDA's
    # headers).
    "dlib": lambda r: [r / "dlib" / "cuda" / n for n in (
        "cuda_dlib.cu", "cudnn_dlibapi.cpp", "cublas_dlibapi.cpp", "cusolver_dlibapi.cu",
        "curand_dlibapi.cpp", "cuda_data_ptr.cpp", "gpu_data.cpp")],
    # (examples/cuda/CMakeLists.txt's TF_CUDA_EXAMPLES, unittests/cuda/CMakeLists.txt's
    # TF_CUDA_UNITTESTS: the lists' commented-out names are not built)
    "taskflow": lambda r: [r / "examples" / "cuda" / f"{n}.cu" for n in (
        "cuda_device_property", "cuda_saxpy", "cuda_matmul", "cuda_knn", "cuda_saxpy_update")]
    + [r / "unittests" / "cuda" / f"{n}.cu" for n in (
        "test_cuda_objects", "test_cuda_basics", "test_cuda_updates", "test_cuda_matrix",
        "test_cuda_kmeans", "test_cuda_for_each", "test_cuda_transform")],
    # (each program is built alone, nvcc -O3 -arch=sm_75 x.cu; 13-md's makefiles per file)
    "CUDA-Programming": lambda r: sorted(r.glob("src/**/*.cu")),
}
# Flags for nvcc only, per repository (HIP's clang needs none of them).
NVCC_FLAGS = {
    "cuCollections": ["--expt-extended-lambda", "--expt-relaxed-constexpr"],
    "ggml": ["--extended-lambda"],
    "cutlass": ["--expt-relaxed-constexpr"],
    "moderngpu": ["--expt-extended-lambda"],
    "warp": ["--extended-lambda"],
    "TeaLeaf": ["-x", "cu"],  # (its CMake sets LANGUAGE CUDA on the .cpp files)
    "CTranslate2": ["--expt-relaxed-constexpr", "--expt-extended-lambda"],
    "marian": ["--expt-relaxed-constexpr"],
    "BGHT": ["--expt-extended-lambda", "--expt-relaxed-constexpr"],
    "taskflow": ["--extended-lambda"],  # (its CMakeLists.txt's CUDA options)
}
# Include folders and defines for both compilers, for the repositories whose folders are not
# guessed (cccl's own thrust/ and cub/ would shadow the CCCL of nvcc and ROCm's rocThrust).
REPO_FLAGS: dict[str, list[str]] = {
    "cccl": [],
    "cuCollections": ["-I{repo}/include"],
    "cutlass": ["-I{repo}/include", "-I{repo}/tools/util/include", "-I{repo}/examples/common"],
    "faiss": ["-I{repo}"],
    "moderngpu": ["-I{repo}/src"],
    "ggml": ["-I{repo}/include", "-I{repo}/src"],
    "warp": ["-DNDEBUG", "-DWP_ENABLE_CUDA=1", "-DWP_ENABLE_MATHDX=0"],  # as its build_dll.py
    "bitsandbytes": ["-I{repo}/csrc"],
    "TeaLeaf": ["-I{repo}/driver"],
    "mixbench": ["-I{repo}/include"],
    "diff-gaussian-rasterization": ["-I{repo}/third_party/glm"],
    # (its CMakeLists.txt: os/ and src/ for every target, and Linux's two defines)
    "nccl-tests": ["-I{repo}/src", "-I{repo}/os", "-DNCCL_OS_LINUX", "-DNCCL_GIN_PROXY_ENABLE=1"],
    "cuda-api-wrappers": ["-I{repo}/src"],
    # (its CMakeLists.txt: CT2_WITH_CUDA and CT2_WITH_CUDNN for a CUDA build with cuDNN)
    "CTranslate2": ["-I{repo}/include", "-I{repo}/src", "-DCT2_WITH_CUDA", "-DCT2_WITH_CUDNN"],
    "marian": ["-I{repo}/src", "-I{repo}/src/3rd_party", "-DCUDA_FOUND", "-DCUDNN"],
    "DualSPHysics": ["-I{repo}/src/source", "-D_WITHGPU", "-D_WITHMR"],  # (its Makefile)
    "ppl.cv": ["-I{repo}/src", "-I{repo}/include", "-I{repo}/deps/ppl.common/src"],
    "Subway": ["-I{repo}/shared"],
    "Tigr": ["-I{repo}/shared"],
    "gpu-benches": [],
    "CudaSift": [],
    "kNN-CUDA": ["-I{repo}/code"],
    "BGHT": ["-I{repo}/include"],
    "dlib": ["-I{repo}", "-DDLIB_USE_CUDA"],  # (its CMake's switch, for either compiler)
    # (CMAKE_CXX_STANDARD 20; the unit tests' doctest folder)
    "taskflow": ["-I{repo}", "-I{repo}/3rd-party/doctest", "-std=c++20"],
    "CUDA-Programming": [],
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
    if repo.name in REPO_FLAGS:  # its folders are known: the unit's own, then the repository's
        own = [unit.parent] + [unit.parent / n for n in INCLUDE_NAMES
                               if (unit.parent / n).is_dir()]
        return [f"-I{d}" for d in own] + [f.format(repo=repo) for f in REPO_FLAGS[repo.name]]
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


def checked_options(units: list[Path], options: Options) -> Options:
    """The options ``cudaport check`` gives each file of the folder that holds ``units``
    (their deepest common folder: ggml's src/ggml-cuda): its project pre-pass over every
    source there (names the project declares, switches it defines only where the target
    never goes, architecture macros it defines itself), so a unit's verdict is the one
    ``check`` reports, not one read from the unit and its headers alone."""
    from cudaport.run import driver
    from cudaport.preprocessor import portability_layers
    from cudaport.symbols import project_names
    from cudaport.rules import get_compiled

    if not units:
        return options
    tree = Path(os.path.commonpath([str(u.resolve().parent) for u in units]))
    sources = [j.source for j in driver.plan([tree], None).jobs if j.kind == "source"]
    return project_names.project_options(
        options, lambda: portability_layers.read_all(sources), get_compiled(options), sources)


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
    verdict: str = ""  # cudaport's verdict for the unit (with the headers it includes)
    first: Finding | None = None  # the compiler's first error after translation
    named_by: str = ""  # the error finding that names it ("" when none does)


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
        std = [] if any(f.startswith("-std=") for f in flags) else ["-std=c++17"]
        proc = subprocess.run([nvcc, *std, f"-arch={arch}", "--cuda", "-o", "/dev/null",
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
    nvcc_only = NVCC_FLAGS.get(repo_name, [])
    ok, _ = cached_nvcc_check(cache, args.nvcc, unit, flags + cuda_libs + nvcc_only,
                              args.nvcc_arch)
    print("." if ok else "x", end="", file=sys.stderr, flush=True)  # progress
    if not ok:
        return Result(repo_name, unit, False)
    hip_flags = flags + [f"-D{d}" for d in args.define or ()]  # (the HIP side only)
    (outcome,) = verify_paths([unit], options, compiler, lambda _p: hip_flags, jobs=1)
    errors = [f for f in outcome.findings if f.severity == "error"]
    files = outcome.translated
    verdicts = of_files((o.shown, o.findings, o.includes) for o in files)
    unit_verdict = verdicts[files[0].shown].status if files else ""
    if outcome.ok and not errors:
        return Result(repo_name, unit, True, True, verdict=unit_verdict)
    first = first_error(errors)
    cause = f"{first.code} {first.message}" if first else "failed without diagnostic"
    where = f"{first.path}:{first.line}" if first else str(unit)
    kinds = tuple(sorted({f"{f.code} {_QUOTED.sub('…', f.message)}" for f in errors}))
    reported = [f for o in files for f in o.findings if f.severity == "error"]
    naming = names_cause(first, reported) if first else None
    named_by = f"{naming.code} {naming.path}:{naming.line} {naming.identifier}" if naming else ""
    return Result(repo_name, unit, True, False, cause, where, kinds, unit_verdict, first,
                  named_by)


def first_error(errors: list[Finding]) -> Finding | None:
    """The compiler's first error; inline PTX (CP503, found lexically) only when the
    compiler itself found none (then it is why the unit fails)."""
    compiled = [f for f in errors if f.code != "CP503"]
    return (compiled or errors or [None])[0]


_NAME = re.compile(r"[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*")
_NOT_NAMES = frozenset({  # words a message quotes that name no construct of the port
    "std", "int", "unsigned", "long", "short", "char", "float", "double", "bool", "void",
    "const", "volatile", "struct", "class", "union", "enum", "typename", "template",
    "auto", "signed", "size_t", "operator", "this", "type", "value", "T"})
# Errors that are the known consequence of a finding's code wherever the finding sits in
# the unit: (pattern on the compiler's message or its file, codes that name it).
CATEGORY = (
    (re.compile(r"warpsize|wavefront|warp size", re.I), {"CP217", "CP220"}),
    (re.compile(r"(^|/)include/(cutlass|cute)/"), {"CP113"}),  # inside the library
)


_HEADER = re.compile(r"/|\.(?:h|hh|hpp|cuh|inl)$")


def _names(text: str) -> set[str]:
    """Qualified names in a compiler message's quotes (and the quoted texts whole, for
    header names), without template arguments."""
    out: set[str] = set()
    for quoted in re.findall(r"'([^']+)'", text):
        out.add(quoted.strip("<>\""))
        if _HEADER.search(quoted):  # 'cuda/std/utility' file not found: the header, whole
            continue
        bare, previous = quoted, None
        while bare != previous:  # innermost template arguments first
            previous, bare = bare, re.sub(r"<[^<>]*>", "", bare)
        for name in _NAME.findall(bare):
            out.add(re.sub(r"\s+", "", name))
    return {n for n in out if n not in _NOT_NAMES}


def _matches(identifier: str, names: set[str]) -> bool:
    """The finding's identifier is one of the names, or one is a ``::`` prefix/suffix of
    the other (``cuda::atomic_ref`` vs ``'atomic_ref'``, ``'cuda'``)."""
    ident = identifier.strip("<>\"")
    if not ident or ident in _NOT_NAMES:
        return False
    parts = ident.split("::")
    for name in names:
        if name == ident:
            return True
        other = name.split("::")
        short, long = sorted((parts, other), key=len)
        if short and (long[:len(short)] == short or long[-len(short):] == short) \
                and "::".join(short) not in _NOT_NAMES:
            return True
    return False


_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif|error)\b")


def _conditions(path: str, line: int) -> set[int]:
    """The lines of the conditions that chose ``path``:``line``: each enclosing group's
    ``#if``/``#elif``/``#else`` up to the branch holding it."""
    try:
        text = Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return set()
    if not 0 < line <= len(text):
        return set()
    found: set[int] = set()
    depth = 0  # groups closed between here and the line (skipped whole)
    for n in range(line - 1, 0, -1):
        m = _DIRECTIVE.match(text[n - 1])
        if m is None:
            continue
        kind = m.group(1)
        if kind == "endif":
            depth += 1
        elif kind in ("if", "ifdef", "ifndef"):
            if depth:
                depth -= 1
            else:
                found.add(n)
        elif kind in ("elif", "else") and not depth:
            found.add(n)
    return found


_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def _one_statement(path: str, start: int, line: int) -> bool:
    """Whether ``path``:``line`` is in the statement that begins on line ``start`` (no ';'
    outside string literals ends it before that line)."""
    try:
        text = Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return False
    if line > len(text) or line - start > 40:
        return False
    return ";" not in _STRING.sub("", "\n".join(text[start - 1:line - 1]))


def names_cause(first: Finding, reported: list[Finding]) -> Finding | None:
    """The error finding of cudaport's report on the unit that names the cause of the
    compiler's first error ``first``, or None. A finding names it when

    - **place**: it is on the error's line of the same file (an error inside a library
      header is placed on the unit's ``#include`` line that brings it in), a CP210 at the
      start of the asm statement the error is in (an operand constraint lines below), or on a
      condition of an ``#if`` group around the error (the ``#if CUDA_VERSION < 8000`` that
      made an ``#error`` fire, or chose CUDA 8's ``h.x = 0`` branch: an error finding on the
      condition means the target takes a branch the author did not mean for it), or
    - **name**: its identifier (API, namespace, macro, header) is a name the compiler's
      message quotes, or a ``::`` prefix/suffix of one, or
    - **category**: the message (or, for CUTLASS, the file) is the known consequence of
      the finding's code: a rocPRIM warp-size static_assert for CP217/CP220, an error inside
      CUTLASS/CuTe code for CP113.

    Nothing else counts: an unrelated error finding elsewhere in the unit does not."""
    names = _names(first.message)
    lines = {first.line} | _conditions(first.path, first.line)
    for f in reported:
        if f.path == first.path and f.line in lines and first.line > 0:
            return f
    for f in reported:  # (an asm statement over several lines: its operand constraints)
        if f.code == "CP210" and f.path == first.path and 0 < f.line < first.line \
                and _one_statement(f.path, f.line, first.line):
            return f
    for f in reported:
        if _matches(f.identifier, names):
            return f
    where = f"{first.path} {first.message}"
    for pattern, codes in CATEGORY:
        if pattern.search(where):
            hit = next((f for f in reported if f.code in codes), None)
            if hit:
                return hit
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path("/tmp/ext"))
    parser.add_argument("--only", action="append", help="repository folder (repeatable)")
    parser.add_argument("--max-tus", type=int, help="at most this many units per repository, "
                        "spread evenly over it")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="units checked in parallel")
    parser.add_argument("--toolchain", choices=TOOLCHAINS, default="auto")
    parser.add_argument("--hip-version", help="translate for this HIP (default: the compiler's)")
    parser.add_argument("--rocm", metavar="DIR|VERSION", help="the ROCm folder or line (7.2, "
                        "6.4) to compile with (default: the newest set up)")
    parser.add_argument("--syntax-only", action="store_true",
                        help="-fsyntax-only instead of object code (-c)")
    parser.add_argument("--nvcc", default=shutil.which("nvcc") or "nvcc")
    parser.add_argument("--nvcc-arch", default="sm_80")
    parser.add_argument("--cuda-include", action="append", metavar="DIR",
                        help="include folder for nvcc only (CUDA library headers)")
    parser.add_argument("-D", "--define", action="append", metavar="NAME[=VALUE]",
                        help="a macro the project's own HIP build defines (ggml's GGML_USE_HIP): "
                        "given to cudaport and the HIP compiler, not to nvcc")
    parser.add_argument("--failures", action="store_true", help="list every failing unit")
    parser.add_argument("--nvcc-cache", type=Path, default=DEFAULT_NVCC_CACHE, metavar="DIR",
                        help="where nvcc's verdicts are kept between runs (default: %(default)s)")
    parser.add_argument("--no-nvcc-cache", action="store_true",
                        help="run nvcc on every unit, ignoring and not filling the cache")
    args = parser.parse_args()
    cache = NvccCache(None if args.no_nvcc_cache else args.nvcc_cache)
    compiler = find_compiler(toolchain="rocm" if args.rocm else args.toolchain, rocm=args.rocm,
                             syntax_only=args.syntax_only)
    if compiler is None:
        print("no HIP compiler found: run tools/setup-system.sh", file=sys.stderr)
        return 2
    if not shutil.which(args.nvcc):
        print(f"{args.nvcc}: not found (the CUDA originals are checked with nvcc)",
              file=sys.stderr)
        return 2
    version = args.hip_version or compiler.hip_version
    options = Options(target_version=version, defines=tuple(args.define or ()))
    print(f"HIP compiler: {compiler.description} ({compiler.label}); translated for HIP "
          f"{version}" + "".join(f" -D{d}" for d in args.define or ())
          + f"; CUDA check: {args.nvcc} -std=c++17 -arch={args.nvcc_arch} --cuda"
          + "".join(f" -I{d}" for d in args.cuda_include or ()))
    repos = [(n, args.root / n) for n in LAYOUT if (args.root / n).is_dir()
             and (not args.only or n in args.only)]
    if not repos:
        print(f"no repositories below {args.root}", file=sys.stderr)
        return 2
    work = []
    for n, r in repos:
        units = units_of(r, n)
        checked = checked_options(units, options)
        work += [(n, r, u, checked) for u in spread(units, args.max_tus)]
    start = time.perf_counter()
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(
            lambda w: run_unit(w[0], w[1], w[2], args.root, args, compiler, w[3], cache),
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
    print_naming(by_repo, args.failures)
    return 0


def print_naming(by_repo: dict[str, list[Result]], every: bool = False) -> None:
    """Per repository: failing units, how many an error finding names, and any failing
    unit whose verdict is "ports cleanly" (there must be none); then the unnamed ones
    (``every``: each failing unit with the finding that names its first error)."""
    print(f"\n{'repository':24s} {'units':>5s} {'nvcc ok':>7s} {'HIP ok':>6s} {'failing':>7s} "
          f"{'named':>5s} {'share':>7s} {'clean but failing':>17s}")
    total = collections.Counter()
    unnamed: list[Result] = []
    clean_failing: list[Result] = []
    for name, rs in by_repo.items():
        clean = [r for r in rs if r.cuda_ok]
        failing = [r for r in clean if not r.hip_ok]
        named = [r for r in failing if r.named_by]
        wrong = [r for r in failing if r.verdict == CLEAN]
        unnamed += [r for r in failing if not r.named_by]
        clean_failing += wrong
        row = (len(rs), len(clean), len(clean) - len(failing), len(failing), len(named), len(wrong))
        total.update(dict(zip(("units", "nvcc", "ok", "failing", "named", "wrong"), row)))
        print(f"{name:24s} {row[0]:5d} {row[1]:7d} {row[2]:6d} {row[3]:7d} {row[4]:5d} "
              f"{100.0 * row[4] / max(row[3], 1):6.1f}% {row[5]:17d}")
    print(f"{'overall':24s} {total['units']:5d} {total['nvcc']:7d} {total['ok']:6d} "
          f"{total['failing']:7d} {total['named']:5d} "
          f"{100.0 * total['named'] / max(total['failing'], 1):6.1f}% {total['wrong']:17d}")
    for r in clean_failing:
        print(f"  PORTS CLEANLY BUT FAILS {r.unit}: {r.where}: {r.cause[:160]}")
    # Verdicts of the nvcc-clean units against their compile results: a unit called blocked
    # that compiles is one to read (its errors may all be false positives), one called
    # clean or with warnings that fails is a verdict the report got wrong unless a finding
    # names the cause.
    print(f"\n{'repository':24s} {'clean':>5s} {'warn':>5s} {'blocked':>7s} "
          f"{'clean/warn failing':>18s} {'blocked compiling':>17s}")
    for name, rs in by_repo.items():
        clean = [r for r in rs if r.cuda_ok]
        n = collections.Counter(r.verdict for r in clean)
        lying = [r for r in clean if not r.hip_ok and r.verdict in (CLEAN, WARNINGS)]
        blocked_ok = [r for r in clean if r.hip_ok and r.verdict == BLOCKED]
        print(f"{name:24s} {n[CLEAN]:5d} {n[WARNINGS]:5d} {n[BLOCKED]:7d} {len(lying):18d} "
              f"{len(blocked_ok):17d}")
        for r in lying:
            print(f"  CALLED {r.verdict.upper()} BUT FAILS {r.where}: {r.cause[:160]}")
        for r in blocked_ok:
            print(f"  BLOCKED BUT COMPILES {r.unit}")
    if unnamed:
        print("\nfailing units no error finding names (verdict; first error):")
    for r in unnamed:
        print(f"  {r.verdict:19s} {r.where}: {r.cause[:200]}")
    if every:
        print("\nfailing units and the finding that names the first error:")
        for rs in by_repo.values():
            for r in rs:
                if r.cuda_ok and not r.hip_ok:
                    print(f"  {r.where}: {r.cause[:110]}\n      <- {r.named_by or 'NONE'}")


if __name__ == "__main__":
    sys.exit(main())
