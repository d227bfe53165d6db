"""The clang command line for one file: fixed CUDA host-parse flags, the header mode's include
folders, and the user's own flags (``-p`` compile_commands.json, ``-I``, ``-D``, ``--std``,
extra arguments after ``--``)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from ..options import Options
from .environment import HeaderSet

def base_args(headers: HeaderSet, support: Path, std: str | None) -> list[str]:
    """Flags every parse of this header set shares (the precompiled header is built with them)."""
    args = ["-x", "cuda", "--cuda-host-only", "-nocudalib", "-nocudainc",
            "-Wno-unknown-cuda-version", "-Wno-everything", "-ferror-limit=50",
            "-resource-dir", headers.resource_dir, f"-std={std or 'c++17'}",
            # instantiate the headers' pending templates once, in the PCH, not in every file
            "-fpch-instantiate-templates"]
    if headers.mode == "stub":
        args += ["-isystem", str(support / "stub")]
    else:
        args += ["-isystem", str(support / "standin"), "-isystem", headers.cuda_include]
        cccl = os.path.join(headers.cuda_include, "cccl")
        if os.path.isdir(cccl):
            args += ["-isystem", cccl]
        # CUDA 13.x wheels use this macro in crt/math_functions.hpp without defining it on
        # the path clang's wrapper takes; empty is right for glibc < 2.42.
        args += ["-D_NV_RSQRT_SPECIFIER=",
                 # library headers the toolkit lacks (cuBLAS, cuDNN ...) fall back to stubs
                 "-idirafter", str(support / "stub")]
    return args


# What the precompiled header holds. Loading a PCH costs time in proportion to what it
# must deserialize eagerly, so the base holds only cheap, common headers; two heavy groups
# (~1 s each to parse) are added only for files that use them.
BASE_HEADERS = ("cstdio", "cstdlib", "cstring", "cmath", "math.h", "ctime", "cfloat", "cassert",
                "cstdint",
                "cuda_fp16.h", "cuda_bf16.h", "curand_kernel.h")
GROUPS = {
    "cg": ("cooperative_groups.h", "cooperative_groups/reduce.h"),
    "stl": ("type_traits", "vector", "string", "algorithm", "memory", "utility", "limits"),
    "cub": ("cub/cub.cuh",),
}
def include_dirs_of(args: list[str]) -> list[str]:
    out = []
    for i, a in enumerate(args):
        if a in ("-I", "-isystem", "-iquote") and i + 1 < len(args):
            out.append(args[i + 1])
        elif a.startswith("-I") and len(a) > 2:
            out.append(a[2:])
    return out


def prelude(headers: HeaderSet, groups: tuple[str, ...] = (), anchor: str | None = None,
            stamp: str = "") -> str:
    """What the precompiled header (or -include) provides before the user's file: the CUDA
    runtime, common headers, the heavy groups the file uses and its project anchor."""
    if headers.mode == "stub":
        lines = ["#include <__cudaport_cuda_stub.h>"]
    else:
        names = list(BASE_HEADERS) + [h for g in groups for h in GROUPS[g]]
        lines = ["#include <__clang_cuda_runtime_wrapper.h>"]
        lines += [f"#include <{h}>" for h in names if "." not in h or any(
            os.path.isfile(os.path.join(headers.cuda_include, sub, h)) for sub in ("", "cccl"))]
    if anchor:
        lines += [f"/* project headers {stamp} */", f'#include "{anchor}"']
    return "\n".join(lines) + "\n"


def user_args(options: Options, path: str) -> list[str]:
    """The user's flags for ``path``: compile_commands.json entry first, then -I/-D/--."""
    args: list[str] = []
    if options.compile_commands:
        args += _from_compile_commands(options.compile_commands, os.path.abspath(path))
    args += [f"-I{d}" for d in options.include_dirs]
    args += [f"-D{d}" for d in options.defines]
    args += list(options.clang_args)
    return args


def std_of(options: Options, extra: list[str]) -> str | None:
    if options.std:
        return options.std
    for a in extra:
        if a.startswith("-std="):
            return a[5:]
    return None


def _from_compile_commands(where: str, path: str) -> list[str]:
    """The preprocessor flags compile_commands.json gives ``path`` (none if not listed)."""
    db = _load_db(os.path.abspath(where))
    return list(db.get(os.path.normpath(path)) or db.get(os.path.realpath(path)) or [])


@lru_cache(maxsize=8)
def _load_db(where: str) -> dict[str, list[str]]:
    from ..project.compile_db import CompileDbError, load

    try:
        return load(Path(where))
    except CompileDbError as exc:
        raise ValueError(str(exc)) from None
