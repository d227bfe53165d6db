#!/usr/bin/env python3
"""Enumerate the public identifiers of the CUDA 13 headers and write the packs for them.

Usage:
  python tools/gen_cuda13_names.py [--cuda-include /usr/local/cuda/include]
                                   [--wheel-include /tmp/nvheaders] [--out rules/hip]

Why: HIPIFY's tables stop at CUDA 12.6, yet real code uses thousands of newer (and some
never tabled) CUDA names. Every public CUDA 13 name must be *known*, so that an unknown
name in a report really means "not CUDA API".

Inputs:
- the CUDA 13 toolkit headers (runtime, driver, device, cuComplex; ``--cuda-include``);
- the ``include/`` folders of PyPI's nvidia-* wheels (cuBLAS, cuDNN, cuFFT, cuRAND,
  cuSPARSE, cuSOLVER, NCCL, NVRTC, and NVML's nvidia-nvml-dev for CUDA 13.0), extracted
  below ``--wheel-include`` as ``<wheel name>/...`` (``--fetch-wheels`` downloads and
  extracts them with pip; ``--only LIBRARY`` enumerates one library and merges it into
  the committed cuda13-names.txt).

Method: libclang parses each library's headers twice (CUDA host and device views, so
``#if __CUDA_ARCH__`` branches count) and lists the declarations made in that library's
own files (functions, types, enums and their constants, typedefs); a regex adds every
``#define`` name, including those in branches neither parse takes. Private names are
dropped: reserved ``_X``/``__x__`` spellings, ``*_internal*`` helpers, include guards,
anything in a namespace, and C/C++ standard library names CUDA redeclares (``sin``).

Outputs (deterministic, sorted):
- ``rules/hip/cuda13-<library>.yaml``: every name the other packs lack, with no
  equivalent (or, where Debian's HIP 5.2 headers declare the very same name, mapped to
  itself), tagged ``present_in_cuda: "13"``;
- ``rules/hip/cuda13-names.txt``: every public name found (``library<TAB>name<TAB>kind``), the
  ground truth of the cross-check tests, so CI needs neither the toolkit nor the wheels.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CUDA_VERSION = "13"
HIP_INCLUDE = Path("/usr/include/hip")
CLANG_RESOURCE = sorted(Path("/usr/lib/llvm-15/lib/clang").glob("*/include"))

# Wheels whose include/ folders hold library headers (PyPI names, CUDA 13 builds).
WHEELS = ("nvidia-cuda-nvrtc", "nvidia-cublas", "nvidia-cufft", "nvidia-curand",
          "nvidia-cusparse", "nvidia-cusolver", "nvidia-nccl-cu13", "nvidia-cudnn-cu13",
          "nvidia-nvml-dev<13.1")

# library id -> (where: "toolkit" or a wheel folder, headers to parse, own-file pattern)
LIBRARIES: dict[str, tuple[str, tuple, str]] = {
    "runtime": ("toolkit", ("cuda_runtime.h", "cuda_profiler_api.h", "math_constants.h",
                            "cuda_occupancy.h"),
                r"(cuda_runtime(_api)?|driver_types|vector_types|vector_functions|surface_types"
                r"|texture_types|library_types|channel_descriptor|cuda_device_runtime_api"
                r"|cuda_profiler_api|cuda_texture_types|cuda_surface_types|surface_functions"
                r"|texture_fetch_functions|surface_indirect_functions|texture_indirect_functions"
                r"|builtin_types|math_constants|cuda_occupancy|driver_functions)\.(h|hpp)"),
    "driver": ("toolkit", ("cuda.h", "cudaProfiler.h", "cudaTypedefs.h"),
               r"(cuda|cudaProfiler|cudaTypedefs|cudaProfilerTypedefs)\.h"),
    "device": ("toolkit", ("cuda_runtime.h", "cuda_fp16.h", "cuda_bf16.h", "cuda_fp8.h",
                           "cuda_fp6.h", "cuda_fp4.h", "cuda_awbarrier.h", "cuda_pipeline.h",
                           "sm_20_intrinsics.h", "sm_32_intrinsics.h", "sm_60_atomic_functions.h"),
               r"(crt/(math_functions|device_functions|device_double_functions|sm_\w+"
               r"|common_functions|cudacc_ext)|device_atomic_functions|sm_\w+|cuda_fp(16|8|6|4)"
               r"|cuda_bf16|cuda_awbarrier\w*|cuda_pipeline\w*|device_types)\.(h|hpp)"),
    "complex": ("toolkit", ("cuComplex.h",), r"cuComplex\.h"),
    "nvrtc": ("nvidia_cuda_nvrtc", ("nvrtc.h",), r"nvrtc\.h"),
    "cublas": ("nvidia_cublas", (("cublas_v2.h", "cublasLt.h", "cublasXt.h"), ("cublas.h",)),
               r"(cublas\w*)\.h"),
    "cufft": ("nvidia_cufft", ("cufft.h", "cufftXt.h"), r"(cufft|cufftXt|cudalibxt)\.h"),
    "curand": ("nvidia_curand", ("curand.h", "curand_kernel.h"), r"curand\w*\.h"),
    "cusparse": ("nvidia_cusparse", ("cusparse.h",), r"cusparse\w*\.h"),
    "cusolver": ("nvidia_cusolver", ("cusolverDn.h", "cusolverSp.h", "cusolverRf.h",
                                     "cusolverMg.h", "cusolverSp_LOWLEVEL_PREVIEW.h"),
                 r"cusolver\w*\.h"),
    "nccl": ("nvidia_nccl_cu13", ("nccl.h",), r"nccl\.h"),
    "cudnn": ("nvidia_cudnn_cu13", ("cudnn.h", "cudnn_backend.h"), r"cudnn\w*\.h"),
    # NVML (the CUDA 13.0 toolkit's nvml.h, shipped as the nvidia-nvml-dev wheel)
    "nvml": ("nvidia_nvml_dev", ("nvml.h",), r"nvml\.h"),
}

# What the generated packs' functions of a library say in their finding (CP101).
LIBRARY_NOTES = {
    "nvml": "ROCm SMI (rocm_smi/rocm_smi.h, rsmi_*) has no call of the same meaning and "
            "shape; port it by hand",
}

DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
GUARD = re.compile(r"(_H|_HPP|_H_|_HPP_|_INCLUDED|_H__|_HPP__)\Z")
# After a leading "__": helpers behind the public intrinsics (__iAtomicAdd behind atomicAdd,
# __nv_atomic_enable_if, __float_simpl_sinf), not API.
PRIVATE = re.compile(r"_|.*[Ii]nternal|cuda|cudart|nv_static|.*_impl\Z|[a-z0-9]+Atomic"
                     r"|.*_helper\Z|.*enable_if|.*simpl_|nv_memcpy_async_")
IDENT = re.compile(r"[A-Za-z_]\w*")
# Names a pack may claim: CUDA-owned prefixes. A public name without one (``half``,
# ``QUALIFIERS``, ``temper``) stays in cuda13-names.txt but gets no rule, so a project's
# own variable of that name is never reported as CUDA API.
OWNED = re.compile(r"cu|CU|nv|NV|nccl|NCCL|pnccl|PFN_|__")
STANDARD_HEADERS = ("cmath", "cstdlib", "cstdio", "cstring", "ctime", "climits", "cfloat",
                    "cstdint", "cassert", "new", "math.h", "stdlib.h", "string.h")


def _index():
    import clang.cindex as ci
    return ci, ci.Index.create()


def _base_args(include: Path) -> list[str]:
    # Library headers include each other (cuSOLVER includes cublas_v2.h): every wheel's
    # folder is on the path.
    args = ["-x", "cuda", "-nocudainc", "-nocudalib", "--cuda-path=/usr/local/cuda",
            "-std=c++17", "-Wno-unknown-cuda-version", "-ferror-limit=0", f"-I{include}",
            "-I/usr/local/cuda/include"]
    args += [f"-I{folder}" for folder in sorted(include.parent.glob("nvidia_*"))]
    for res in CLANG_RESOURCE[-1:]:
        args += ["-isystem", str(res)]
    return args


def declared_names(include: Path, headers: tuple[tuple[str, ...], ...], own: re.Pattern[str]
                   ) -> dict[str, str]:
    """name -> kind for declarations made in the library's own files (host + device).

    Each group of headers is parsed on its own (cuBLAS's legacy cublas.h and cublas_v2.h
    cannot share a translation unit)."""
    ci, index = _index()
    K = ci.CursorKind
    kinds = {K.FUNCTION_DECL: "function", K.FUNCTION_TEMPLATE: "function",
             K.TYPEDEF_DECL: "type", K.STRUCT_DECL: "type", K.UNION_DECL: "type",
             K.ENUM_DECL: "type", K.CLASS_DECL: "type", K.CLASS_TEMPLATE: "type",
             K.VAR_DECL: "variable", K.MACRO_DEFINITION: "macro"}
    found: dict[str, str] = {}
    # Host view as a plain compiler sees it; device view as nvcc's device pass (where
    # __CUDACC__ and __CUDA_ARCH__ unlock the intrinsics).
    # sm_60 too: pre-Volta intrinsics (__shfl_down) are declared only below sm_70.
    modes = [["--cuda-host-only"]] + [
        ["--cuda-device-only", f"--cuda-gpu-arch=sm_{arch}", "-D__CUDACC__",
         f"-D__CUDA_ARCH__={arch}0"] for arch in (90, 60)]
    for mode, group in ((m, g) for g in headers for m in modes):
        source = "".join(f"#include <{h}>\n" for h in group).encode()
        tu = index.parse("enumerate.cu", args=_base_args(include) + mode,
                         unsaved_files=[("enumerate.cu", source)],
                         options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
                         | ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
                         | ci.TranslationUnit.PARSE_INCOMPLETE)
        fatal = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Fatal]
        if fatal:
            raise SystemExit(f"libclang could not parse {headers}: {fatal[0]}")

        def visit(cursor) -> None:
            for child in cursor.get_children():
                loc = child.location.file
                if loc is None or not own.search(_relative(Path(loc.name))):
                    continue
                if child.kind in (K.LINKAGE_SPEC, K.UNEXPOSED_DECL):
                    visit(child)
                    continue
                kind = kinds.get(child.kind)
                if kind is None or not child.spelling:
                    continue
                if child.kind == K.ENUM_DECL:
                    for const in child.get_children():
                        if const.kind == K.ENUM_CONSTANT_DECL:
                            found.setdefault(const.spelling, "constant")
                    if child.is_anonymous():
                        continue
                if child.kind in (K.STRUCT_DECL, K.UNION_DECL) and child.is_anonymous():
                    continue
                found.setdefault(child.spelling, kind)

        visit(tu.cursor)
    return found


def _relative(path: Path) -> str:
    parts = path.parts
    return "/".join(parts[-2:]) if len(parts) > 1 and parts[-2] == "crt" else parts[-1]


def defined_macros(include: Path, own: re.Pattern[str]) -> set[str]:
    """Every ``#define`` name in the library's own files, whatever branch it sits in."""
    names: set[str] = set()
    for path in sorted(include.rglob("*.h*")):
        if own.fullmatch(_relative(path)):
            names.update(m.group(1).decode() for m in DEFINE.finditer(path.read_bytes()))
    return names


def standard_names() -> set[str]:
    """Names the C/C++ standard headers declare; CUDA redeclares many (sin, malloc)."""
    ci, index = _index()
    source = "".join(f"#include <{h}>\n" for h in STANDARD_HEADERS).encode()
    tu = index.parse("std.cpp", args=["-x", "c++", "-std=c++17"],
                     unsaved_files=[("std.cpp", source)],
                     options=ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
                     | ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
    names: set[str] = set()

    def visit(cursor, depth: int) -> None:
        for child in cursor.get_children():
            if child.spelling:
                names.add(child.spelling)
            if child.kind in (ci.CursorKind.NAMESPACE, ci.CursorKind.LINKAGE_SPEC,
                              ci.CursorKind.UNEXPOSED_DECL) and depth < 3:
                visit(child, depth + 1)

    visit(tu.cursor, 0)
    return names


def is_public(name: str, kind: str, standard: set[str]) -> bool:
    # glibc declares internals such as __expf that are also CUDA intrinsics: only names
    # without a leading underscore are dropped for being standard.
    if (name in standard and not name.startswith("_")) or not IDENT.fullmatch(name):
        return False
    if kind == "macro" and GUARD.search(name):
        return False
    if name.startswith("__"):
        # Device intrinsics (__shfl_sync, __half, __nv_bfloat16) are public; helpers are not.
        return kind != "macro" and not name.endswith("__") and not PRIVATE.match(name[2:])
    return not name.startswith("_")


def enumerate_all(cuda_include: Path, wheel_include: Path,
                  only: tuple[str, ...] = ()) -> dict[str, dict[str, str]]:
    """library -> {name: kind} of every public CUDA 13 identifier (of ``only``'s
    libraries, when given)."""
    standard = standard_names()
    out: dict[str, dict[str, str]] = {}
    for library, (where, headers, own_pattern) in LIBRARIES.items():
        if only and library not in only:
            continue
        include = cuda_include if where == "toolkit" else wheel_include / where
        if not include.is_dir():
            raise SystemExit(f"error: {include} not found (see --fetch-wheels)")
        own = re.compile(own_pattern)
        groups = headers if isinstance(headers[0], tuple) else (headers,)
        names = declared_names(include, groups, own)
        for macro in defined_macros(include, own):
            names.setdefault(macro, "macro")
        # C/C++ standard names CUDA redeclares (sin, malloc) are listed as kind "standard":
        # they exist in the CUDA headers, but no pack claims them.
        out[library] = {n: ("standard" if n in standard and not n.startswith("_") else k)
                        for n, k in names.items()
                        if is_public(n, k, standard) or (n in standard and IDENT.fullmatch(n)
                                                         and not n.startswith("_"))}
    # A name belongs to the first library that declares it (device helpers reach the
    # runtime's parse through cuda_runtime.h).
    seen: set[str] = set()
    for library in dict.fromkeys(("runtime", "driver", "complex", "device", *LIBRARIES)):
        lib = out.get(library, {})
        for name in sorted(lib):
            if name in seen:
                del lib[name]
            seen.add(name)
    return out


def hip_names() -> set[str]:
    """Identifiers that appear in Debian's HIP 5.2 headers (for same-name equivalents).

    The nvidia_detail/nvcc_detail headers are HIP's layer over CUDA itself: a CUDA name
    found there (CUDART_VERSION, CUDART_CB) is not available on AMD."""
    names: set[str] = set()
    for path in sorted(HIP_INCLUDE.rglob("*.h*")):
        if {"nvidia_detail", "nvcc_detail"} & set(path.parts):
            continue
        names.update(re.findall(r"[A-Za-z_]\w*", path.read_text(encoding="latin-1")))
    return names


def write_outputs(found: dict[str, dict[str, str]], out_dir: Path, wheel_versions: str) -> None:
    from cudaport.rules import load_table

    names_file = out_dir / "cuda13-names.txt"
    lines = [f"{library}\t{name}\t{found[library][name]}"
             for library in sorted(found) for name in sorted(found[library])]
    names_file.write_text(
        "# Generated by tools/gen_cuda13_names.py: every public identifier of the CUDA 13\n"
        f"# headers ({wheel_versions}).\n# library<TAB>name<TAB>kind\n"
        + "\n".join(lines) + "\n", encoding="utf-8")
    for old in out_dir.glob("cuda13-*.yaml"):
        old.unlink()
    known = set(load_table("hip", [out_dir.parent], use_cache=False).identifiers)
    same = hip_names()
    for library in sorted(found):
        new = {n: k for n, k in found[library].items()
               if n not in known and OWNED.match(n) and k != "standard"}
        if not new:
            continue
        body = [
            "# Generated by tools/gen_cuda13_names.py from the CUDA 13 headers",
            f"# ({wheel_versions}). Do not edit: rerun the script.",
            "# Names HIPIFY's tables lack; none has a known HIP equivalent unless Debian's",
            "# HIP 5.2.3 headers declare the very same name (then it maps to itself).",
            f"library: {library}",
            f'title: "CUDA {CUDA_VERSION} names not in the HIPIFY tables ({library})"',
            f'source: "CUDA {CUDA_VERSION} headers"',
            "generated: true",
            f'present_in_cuda: "{CUDA_VERSION}"',
            "identifiers:",
        ]
        note = LIBRARY_NOTES.get(library)
        for name in sorted(new):
            to = f", to: {name}" if name in same and library in ("device", "runtime") else ""
            extra = f', note: "{note}"' if note and new[name] == "function" else ""
            body.append(f"  {name}: {{kind: {new[name]}{to}{extra}}}")
        (out_dir / f"cuda13-{library}.yaml").write_text("\n".join(body) + "\n", encoding="utf-8")


def read_names(path: Path) -> tuple[dict[str, dict[str, str]], str]:
    """What ``write_outputs`` wrote to cuda13-names.txt: library -> name -> kind, and the
    header versions its second line names."""
    found: dict[str, dict[str, str]] = {}
    versions = ""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if number == 1:
            versions = line.removeprefix("# headers (").removesuffix(").")
        if line.startswith("#") or not line:
            continue
        library, name, kind = line.split("\t")
        found.setdefault(library, {})[name] = kind
    return found, versions


def fetch_wheels(dest: Path, wheels: tuple[str, ...] = WHEELS) -> None:
    """Download the wheels with pip and keep only their include/ folders."""
    download = dest / "wheels"
    download.mkdir(parents=True, exist_ok=True)
    for wheel in wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary",
                        ":all:", "--platform", "manylinux_2_27_x86_64", "--platform",
                        "manylinux2014_x86_64", "--python-version", "3.11", "-d",
                        str(download), wheel], check=True)
    for path in sorted(download.glob("*.whl")):
        folder = dest / path.name.split("-")[0]
        with zipfile.ZipFile(path) as archive:
            for member in archive.infolist():
                if "/include/" in member.filename and not member.is_dir():
                    target = folder / member.filename.split("/include/", 1)[1]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(archive.read(member))


def _wheel_versions(wheel_include: Path) -> str:
    wheels = sorted((wheel_include / "wheels").glob("*.whl"))
    found = [p.name.split("-")[0] + " " + p.name.split("-")[1] for p in wheels]
    return "toolkit headers 13.0; wheels: " + ", ".join(found) if found else "toolkit 13.0"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuda-include", type=Path, default=Path("/usr/local/cuda/include"))
    parser.add_argument("--wheel-include", type=Path, default=Path("/tmp/nvheaders"))
    parser.add_argument("--fetch-wheels", action="store_true",
                        help="download the nvidia-* wheels with pip first")
    parser.add_argument("--out", type=Path, default=ROOT / "rules" / "hip")
    parser.add_argument("--from-names", action="store_true",
                        help="rewrite only the cuda13-*.yaml packs from the committed "
                             "cuda13-names.txt (after a hand-written pack took over names), "
                             "without the toolkit or the wheels")
    parser.add_argument("--only", action="append", default=[], metavar="LIBRARY",
                        help="enumerate only this library (repeatable) and merge its names "
                             "into the committed cuda13-names.txt (nvml: from the "
                             "nvidia-nvml-dev wheel)")
    args = parser.parse_args(argv)
    if args.only:
        found, versions = read_names(args.out / "cuda13-names.txt")
        if args.fetch_wheels:
            wanted = {LIBRARIES[library][0] for library in args.only}
            fetch_wheels(args.wheel_include, tuple(
                w for w in WHEELS if w.split("<")[0].replace("-", "_") in wanted))
        found.update(enumerate_all(args.cuda_include, args.wheel_include, tuple(args.only)))
        for library in args.only:
            wheel = LIBRARIES[library][0]
            shown = next((p.name.split("-")[0] + " " + p.name.split("-")[1] for p in sorted(
                (args.wheel_include / "wheels").glob(f"{wheel}-*.whl"))), wheel)
            if shown not in versions:
                versions += f"; {library}: {shown}"
        write_outputs(found, args.out, versions)
        return 0
    if args.from_names:
        found, versions = read_names(args.out / "cuda13-names.txt")
        write_outputs(found, args.out, versions)
        return 0
    if args.fetch_wheels:
        fetch_wheels(args.wheel_include)
    found = enumerate_all(args.cuda_include, args.wheel_include)
    write_outputs(found, args.out, _wheel_versions(args.wheel_include))
    for library in sorted(found):
        print(f"{library}: {len(found[library])} public names")
    return 0


if __name__ == "__main__":
    sys.exit(main())
