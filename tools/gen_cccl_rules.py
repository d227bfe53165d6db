#!/usr/bin/env python3
"""Write the HIP rules for every public header of a CUDA toolkit the other packs do not map.

The CUDA side is read from the installed toolkit (``nvcc`` on PATH, CUDA 13: the toolkit's
``include/`` and CCCL below ``include/cccl/{cub,thrust,cuda,nv}``); the ROCm side from the
ROCm headers of the default target (``--rocm-include``, by default ROCm 7.2's folder that
tools/setup-rocm.sh makes, ``/var/cache/cudaport/rocm-7.2/usr/include``); a header that
only the newer ROCm ships is dated to its version when ``--older-rocm-include`` (ROCm 6.4's
folder by default, when it is there) lacks it, so ``--hip-version 6.4`` reports it. Nothing here is a list remembered from
elsewhere: a CUB header maps to ``hipcub/hipcub.hpp`` only when hipCUB ships a header of the
same stem, a Thrust header maps only to a path rocThrust ships, and a CUB macro maps to a
``HIPCUB_`` macro only when hipCUB defines one of the same shape.

Outputs (both generated; rerun the script, do not edit):
- ``rules/hip/cccl.yaml``: every public CUDA toolkit header (and CUB's macros, the
  ``<nv/target>`` macros) that no other pack defines, mapped or reported under a code;
- ``rules/hip/libcudacxx-names.txt``: the names libcu++ declares in namespace ``cuda::``,
  which ``cudaport/translate/passes/libcudacxx.py`` reports after ``cuda::``.

Usage: python3 tools/gen_cccl_rules.py [--cuda-include DIR] [--rocm-include DIR]
                                      [--older-rocm-include DIR]
"""

from __future__ import annotations

import argparse
import functools
import glob
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROCM_INCLUDE = Path("/var/cache/cudaport/rocm-7.2/usr/include")
OLDER_ROCM_INCLUDE = Path("/var/cache/cudaport/rocm-6.4/usr/include")
CCCL_LIBRARIES = ("cub", "thrust", "cuda", "nv")  # folders below include/cccl
_HEADER_SUFFIXES = (".h", ".hpp", ".cuh", ".inl")


def cuda_include() -> Path | None:
    """The include folder of the toolkit whose nvcc is on PATH (nvcc may be a wrapper
    script, so the toolkit is found from the ``exec`` line it runs, if any)."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        return None
    path = Path(nvcc).resolve()
    text = path.read_bytes()[:4096]
    if text.startswith(b"#!"):
        m = re.search(rb"exec\s+(\S+/bin/nvcc)\b", text)
        if m:
            path = Path(m.group(1).decode()).resolve()
    include = path.parent.parent / "include"
    return include if include.is_dir() else None


def _private(parts: tuple[str, ...]) -> bool:
    return any(p in ("detail", "details", "nvtxDetail") or p.startswith("__") for p in parts)


def public_headers(include: Path) -> list[str]:
    """Every public header of the toolkit, spelled as code includes it: toolkit headers
    relative to ``include/``, CCCL ones relative to ``include/cccl`` (``cub/...``).
    Implementation folders (``detail``, ``__foo``) are not public. libcu++ headers have
    no suffix (``cuda/std/atomic``)."""
    out = []
    for base in (include, include / "cccl"):
        for f in base.rglob("*"):
            if not f.is_file():
                continue
            rel = f.relative_to(base)
            parts = rel.parts
            if base == include and parts[0] == "cccl":
                continue
            if base != include and parts[0] not in CCCL_LIBRARIES:
                continue
            if _private(parts):
                continue
            if rel.suffix not in _HEADER_SUFFIXES and parts[0] not in ("cuda", "nv"):
                continue
            if rel.suffix == ".inl":
                continue  # included by their header, never by users
            out.append(rel.as_posix())
    return sorted(set(out))  # nv/target ships both in include/ and include/cccl/


# Toolkit headers whose declarations hip/hip_runtime.h provides (device functions,
# intrinsics, built-in types, nvcc's own configuration headers).
_RUNTIME_PROVIDED = re.compile(
    r"(builtin_types|common_functions|device_atomic_functions|device_double_functions|"
    r"device_types|driver_functions|host_config|host_defines|math_functions|"
    r"sm_\d+_(atomic_functions|intrinsics)|surface_functions|texture_indirect_functions|"
    r"surface_indirect_functions|surface_types|texture_types|vector_functions|"
    r"cuda_device_runtime_api|cudart_platform)\.hp?p?\Z"
    r"|crt/(common_functions|cudacc_ext|device_double_functions|device_functions|"
    r"func_macro|host_config|host_defines|host_runtime|math_functions|sm_\d+_rt|"
    r"storage_class)\.hp?p?\Z")

# (pattern, code, what to use instead) for families ROCm 6.4 has no counterpart of.
_FAMILIES = [
    (r"nv/", "CP111", "select code with __HIP_DEVICE_COMPILE__ or __gfx*__ macros"),
    (r"cupti|nvperf|Openacc/|Openmp/", "CP106",
     "CUPTI/NVPerf profiling; use rocprofiler-sdk (rocprofiler-sdk/rocprofiler.h) or roctracer"),
    (r"nvtx3/", "CP106",
     "NVTX; use roctx (roctracer/roctx.h: roctxRangePushA, roctxRangePop, roctxMarkA)"),
    (r"cuda(_egl_interop|EGL|EGLTypedefs|_vdpau_interop|VDPAU|VDPAUTypedefs)\.h\Z", "CP106",
     "HIP has no EGL or VDPAU interoperability"),
    (r"cuda_(awbarrier|pipeline)", "CP106",
     "asynchronous copies and arrive/wait barriers; use plain loads with __syncthreads()"),
    (r"cuda_fp[46]\.hp?p?\Z", "CP106",
     "4- and 6-bit floats; ROCm 6.4 has only hip/hip_fp8.h (OCP FP8)"),
    (r"cuda_occupancy\.h\Z", "CP106",
     "use hipOccupancyMaxActiveBlocksPerMultiprocessor from hip/hip_runtime.h"),
    (r"\w+Typedefs\.h\Z", "CP106",
     "declare the PFN_ function-pointer types you use yourself (HIP ships no typedef headers)"),
    (r"nvvm\.h\Z", "CP106", "libNVVM; on ROCm compile at run time with hipRTC (hip/hiprtc.h)"),
    (r"(generated_\w+_meta|fatbinary_section|nv_decode)\.h\Z", "CP106",
     "nvcc and CUPTI implementation detail with no HIP counterpart"),
    (r"crt/(cuda_tile|device_fp128_functions)\.h\Z", "CP106",
     "HIP has no counterpart (no tile programming model, no 128-bit float device math)"),
]
_SAME_AS = {  # headers whose .h sibling another pack maps: the .hpp goes the same way
    "cuda_fp16.hpp": "cuda_fp16.h", "cuda_bf16.hpp": "cuda_bf16.h", "cuda_fp8.hpp": "cuda_fp8.h",
    "cudaProfiler.h": "cuda_profiler_api.h", "cuda_stdint.h": None,
}


def _libcudacxx_note(name: str) -> str:
    rest = name.split("/", 1)[1]
    if rest.startswith("std/"):
        std = rest[4:]
        return (f"use <{std}> and std:: where the code is constexpr or host-only; HIP has no "
                f"device std::{std.split('/')[0]} beyond that")
    hints = {
        "atomic": "use HIP atomics (atomicAdd, __hip_atomic_fetch_add with __HIP_MEMORY_SCOPE_*)",
        "barrier": "use __syncthreads() or cooperative groups' sync()",
        "pipeline": "use plain loads with __syncthreads()",
        "ptx": "PTX wrappers; use HIP intrinsics",
        "annotated_ptr": "drop the access-property hint (no HIP counterpart)",
        "discard_memory": "drop the hint (no HIP counterpart)",
        "memory_resource": "use hipMallocAsync/hipMemPool* or your own allocator",
        "stream_ref": "pass hipStream_t",
        "warp": "use __shfl_*_sync and warpSize",
    }
    if rest in hints:
        return hints[rest]
    if any(Path(d, rest).is_file() for d in glob.glob("/usr/include/c++/*")):
        return f"use the C++ standard <{rest}> where it is host-only or constexpr"
    return "no ROCm counterpart"


@functools.cache
def rocm_version(rocm: Path) -> str:
    """MAJOR.MINOR of the HIP headers below the include folder ``rocm`` (read once)."""
    sys.path.insert(0, str(ROOT))
    from cudaport.run.verify import hip_version
    return hip_version(str(rocm.parent))


def classify(name: str, rocm: Path, hipcub_stems: set[str]) -> dict:
    """The rule for one CUDA header, decided from what the ROCm headers ship."""
    version = rocm_version(rocm)
    lib = name.split("/", 1)[0]
    if lib == "cub":
        stem = Path(name).stem
        if stem in hipcub_stems or name.count("/") == 1:  # (hipcub.hpp has CUB's utilities)
            return {"to": "hipcub/hipcub.hpp", "main": False}
        return {"code": "CP114", "note": f"hipCUB {version} ships no {stem}; use the algorithms of "
                "hipcub/hipcub.hpp or rocPRIM (rocprim/rocprim.hpp)"}
    if lib == "thrust":
        hip = name.replace("thrust/system/cuda/", "thrust/system/hip/")
        for candidate in (hip, name):
            if (rocm / candidate).is_file():
                return {"to": candidate}
        return {"code": "CP114", "note": f"rocThrust {version} ships no such header; use the generic "
                "thrust/ algorithm headers with thrust::hip::par"}
    if lib == "cuda":
        return {"code": "CP110", "note": _libcudacxx_note(name)}
    if name == "cudaTypedefs.h":
        # Only PFN_ function-pointer types of driver entry points: the pointers come from
        # hipGetProcAddress (hip/hip_runtime_api.h), and each PFN_ name a file uses is
        # ported (decltype of the HIP function) or reported by its own rule.
        return {"to": "hip/hip_runtime_api.h"}
    for pattern, code, note in _FAMILIES:
        if re.match(pattern, name):
            return {"code": code, "note": note}
    if _RUNTIME_PROVIDED.match(name):
        hip = f"hip/{Path(name).name}"
        if Path(name).name in ("math_functions.h", "surface_types.h", "texture_types.h") \
                and (rocm / hip).is_file():
            return {"to": hip}
        return {"to": "hip/hip_runtime.h", "main": True}
    if name == "cuda_stdint.h":
        return {"to": "stdint.h"}
    if name == "cuda_gl_interop.h" or name == "cudaGL.h":
        return {"to": "hip/hip_gl_interop.h"}
    return {"code": "CP106", "note": "no HIP counterpart"}


def hipcub_stems(rocm: Path) -> set[str]:
    return {f.stem for f in (rocm / "hipcub").rglob("*.hpp")}


def _macros(folder: Path, prefix: str) -> dict[str, bool]:
    """``#define PREFIX...`` in every file below ``folder``: name -> function-like?"""
    out: dict[str, bool] = {}
    pattern = re.compile(rb"^\s*#\s*define\s+(" + prefix.encode() + rb"\w*)(\()?", re.M)
    for f in sorted(folder.rglob("*")):
        if f.is_file():
            for m in pattern.finditer(f.read_bytes()):
                out.setdefault(m.group(1).decode(), m.group(2) is not None)
    return out


# (CCCL 3 spells the macros _CCCL_BEGIN_NAMESPACE_CUDA / _CCCL_END_NAMESPACE_CUDA: cuda::minimum
# and cuda::maximum of <cuda/functional> are declared between those)
_CUDA_REGION = re.compile(rb"_(?:LIBCUDACXX|CCCL)_BEGIN_NAMESPACE_CUDA\b(.*?)"
                          rb"_(?:LIBCUDACXX|CCCL)_END_NAMESPACE_CUDA\b", re.S)
_DECLARED = re.compile(
    rb"\b(?:struct|class|union|concept)\s+(?:_(?:CCCL|LIBCUDACXX)_[A-Z_]+\s+)*([a-z]\w*)\s*[:{<;]"
    rb"|\busing\s+([a-z]\w*)\s*="
    rb"|\busing\s+[\w:]*::([a-z]\w*)\s*;"
    rb"|\benum\s+(?:class\s+)?([a-z]\w*)"
    rb"|\b(thread_scope_\w+|memory_order_\w+)\b"
    rb"|\b(?:_CCCL_API|_CCCL_HOST_API|_CCCL_DEVICE_API|_LIBCUDACXX_HIDE_FROM_ABI|_CCCL_HOST_DEVICE)"
    rb"\b[^;{()]*?\b([a-z]\w*)\s*\(")


def libcudacxx_names(cccl: Path) -> list[str]:
    """Names libcu++ declares directly in namespace ``cuda`` (at brace depth zero):
    types, aliases, using declarations and functions between ``_LIBCUDACXX_BEGIN_NAMESPACE_CUDA`` and its end in
    every header below ``cccl/cuda``, the scope and order enumerators (``cuda::`` brings
    them in from ``cuda::std``), plus its nested namespaces."""
    names = {"std", "ptx", "mr", "device", "experimental"}
    for f in sorted((cccl / "cuda").rglob("*")):
        if not f.is_file():
            continue
        text = f.read_bytes()
        regions = [m.group(1) for m in _CUDA_REGION.finditer(text)]
        if b"thread_scope_" in text:
            regions.append(b" ".join(re.findall(rb"\bthread_scope_\w+", text)))
        for region in regions:
            depth, done = 0, 0
            for m in _DECLARED.finditer(region):
                depth += region.count(b"{", done, m.start()) - region.count(b"}", done, m.start())
                done = m.start()
                name = next(g for g in m.groups() if g).decode()
                if depth <= 0 and len(name) > 2 and not name.startswith("_") \
                        and name not in _KEYWORDS:
                    names.add(name)  # (members of classes are not names of the namespace)
    return sorted(names)


_KEYWORDS = {"operator", "if", "for", "while", "return", "sizeof", "decltype", "noexcept",
             "static_assert", "alignas", "alignof", "switch", "typename", "template", "const",
             "constexpr", "explicit", "static", "inline", "friend", "void", "bool", "int",
             "auto", "unsigned", "char", "long", "short", "double", "float", "class", "struct"}


_FOLDER_RULES = {
    "cub": '{code: "CP114", note: "an internal CUB header; use hipcub/hipcub.hpp"}',
    "cuda": '{code: "CP110", note: "libcu++ has no ROCm port; use std:: and HIP atomics"}',
    "nv": '{code: "CP111", note: "select code with __HIP_DEVICE_COMPILE__ or __gfx*__ macros"}',
}


def folder_entries(cccl: Path) -> list[str]:
    """A folder entry for every folder of CUB, libcu++ and nv/ holding headers (the
    implementation headers below them are not listed one by one); Thrust's are not
    needed, rocThrust keeps them."""
    out = []
    for library, rule in _FOLDER_RULES.items():
        for folder in sorted(p for p in (cccl / library).rglob("*") if p.is_dir()):
            out.append(f"  {folder.relative_to(cccl).as_posix()}/: {rule}")
    return out


def _yaml_value(d: dict) -> str:
    parts = []
    for key in ("to", "main", "code", "note"):
        if key == "main" and not d.get("main"):
            continue
        if key in d:
            value = d[key]
            if isinstance(value, bool):
                parts.append(f"{key}: {'true' if value else 'false'}")
            else:
                parts.append(f'{key}: "{value}"')
    return "{" + ", ".join(parts) + "}"


def build(include: Path, rocm: Path, older: Path | None = None) -> tuple[str, str]:
    sys.path.insert(0, str(ROOT))
    from cudaport.rules import loader
    folder = ROOT / "rules" / "hip"
    # The other packs only: what they define is skipped here (this script's own output
    # may be stale, or define a name another pack now defines).
    files = [folder / "target.yaml"] + sorted(
        p for p in folder.glob("*.yaml") if p.name not in ("target.yaml", "cccl.yaml")) + sorted(
        folder.glob("ports/*.yaml"))  # (read as rule packs too, as the loader does)
    others = loader.build_table(files, [p.read_bytes() for p in files], "gen_cccl_rules")
    headers = others.headers
    identifiers = others.identifiers
    stems = hipcub_stems(rocm)
    version = rocm_version(rocm)
    old_stems = hipcub_stems(older) if older else set()
    olds = f" (a header ROCm {rocm_version(older)} lacks is dated {version})" if older else ""
    lines = [
        "# Generated by tools/gen_cccl_rules.py from the CUDA 13 toolkit headers (nvcc's",
        f"# include/ and include/cccl) and the ROCm {version} headers (hipCUB, rocThrust, HIP).",
        "# Do not edit: rerun the script. Every public toolkit header no other pack defines is",
        f"# either mapped to a header ROCm {version} ships or reported under the code given here",
        f"#{olds}.",
        "library: cccl",
        'title: "CUDA C++ libraries (CCCL) and the other toolkit headers"',
        f'source: "CUDA 13.0 toolkit headers; ROCm {version} hipCUB/rocThrust/HIP headers"',
        "generated: true",
        'present_in_cuda: "13"',
        "headers:",
    ]
    for name in public_headers(include):
        if name in headers:
            continue
        if name in _SAME_AS and _SAME_AS[name] in headers:
            h = headers[_SAME_AS[name]]
            entry = {"to": h.main.to}
            line = f"  {name}: {_yaml_value(entry)}"
            if h.main.since:
                line = line[:-1] + f', to_since: "{h.main.since}"}}'
            lines.append(line)
            continue
        rule = classify(name, rocm, stems)
        if older and "to" in rule and "to" not in classify(name, older, old_stems):
            lines.append(f"  {name}: {_yaml_value(rule)[:-1]}, to_since: \"{version}.0\"}}")
            continue
        lines.append(f"  {name}: {_yaml_value(rule)}")
    # Implementation headers of these families, by the folders the toolkit has (a project's
    # own `cuda/kernels.cuh` is in none of them).
    lines += folder_entries(include / "cccl")
    lines.append("identifiers:")
    hip_macros = _macros(rocm / "hipcub", "HIPCUB_")
    for name, function_like in sorted(_macros(include / "cccl" / "cub", "CUB_").items()):
        if name in identifiers:
            continue
        hip = "HIPCUB_" + name[4:]
        if hip in hip_macros and hip_macros[hip] == function_like:
            lines.append(f"  {name}: {{kind: macro, to: {hip}}}")
        elif name in ("CUB_WARP_THREADS", "CUB_LOG_WARP_THREADS"):
            lines.append(f'  {name}: {{kind: macro, code: "CP114", note: "use '
                         f'HIPCUB_DEVICE_WARP_THREADS (no argument; 64 lanes on CDNA)"}}')
        else:
            lines.append(f'  {name}: {{kind: macro, code: "CP114", note: "hipCUB defines no '
                         f'{hip}"}}')
    for name in sorted(_macros(include / "cccl" / "nv", "NV_")):
        lines.append(f'  {name}: {{kind: macro, code: "CP111", note: "use #if '
                     f'defined(__HIP_DEVICE_COMPILE__) or __gfx*__ macros"}}')
    names = ["# Generated by tools/gen_cccl_rules.py: names libcu++ (CUDA 13.0) declares in",
             "# namespace cuda:: (outside cuda::std); reported after `cuda::` (CP110)."]
    names += libcudacxx_names(include / "cccl")
    return "\n".join(lines) + "\n", "\n".join(names) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cuda-include", type=Path, default=None)
    ap.add_argument("--rocm-include", type=Path, default=ROCM_INCLUDE)
    ap.add_argument("--older-rocm-include", type=Path,
                    default=OLDER_ROCM_INCLUDE if (OLDER_ROCM_INCLUDE / "hipcub").is_dir() else None)
    args = ap.parse_args(argv)
    include = args.cuda_include or cuda_include()
    if include is None or not (include / "cccl").is_dir():
        print("gen_cccl_rules: no CUDA 13 include folder with cccl/ (pass --cuda-include)",
              file=sys.stderr)
        return 2
    if not (args.rocm_include / "hipcub").is_dir():
        print(f"gen_cccl_rules: {args.rocm_include} has no hipcub/ (pass --rocm-include)",
              file=sys.stderr)
        return 2
    rules, names = build(include, args.rocm_include, args.older_rocm_include)
    (ROOT / "rules" / "hip" / "cccl.yaml").write_text(rules)
    (ROOT / "rules" / "hip" / "libcudacxx-names.txt").write_text(names)
    print(f"wrote rules/hip/cccl.yaml ({rules.count(chr(10))} lines) and "
          f"rules/hip/libcudacxx-names.txt ({names.count(chr(10)) - 2} names)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
