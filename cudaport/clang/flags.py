"""The clang command line for one file: fixed CUDA host-parse flags, the header mode's include
folders, and the user's own flags (``-p`` compile_commands.json, ``-I``, ``-D``, ``--std``,
extra arguments after ``--``)."""

from __future__ import annotations

import json
import os
import shlex
from functools import lru_cache
from pathlib import Path

from ..options import Options
from .environment import HeaderSet

# Flags from a build's compile command that matter for parsing; everything else (nvcc's
# -arch, -Xcompiler, optimisation, output files) is dropped.
_KEEP_JOINED = ("-I", "-D", "-U", "-std=", "-isystem", "-iquote", "-idirafter")
_KEEP_SEPARATE = ("-I", "-D", "-U", "-isystem", "-iquote", "-idirafter", "-include")


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
    db = _load_db(os.path.abspath(where))
    entry = db.get(os.path.realpath(path))
    if entry is None:
        return []
    directory, argv = entry
    out: list[str] = []
    i = 0
    while i < len(argv):
        a = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if a in _KEEP_SEPARATE and nxt is not None:
            out += [a, _absolute(a, nxt, directory)]
            i += 2
            continue
        if a.startswith("-std="):
            out.append(a)
        else:
            for prefix in _KEEP_JOINED:
                if a.startswith(prefix) and len(a) > len(prefix):
                    value = a[len(prefix):]
                    out.append(prefix + _absolute(prefix, value, directory))
                    break
        i += 1
    return out


def _absolute(flag: str, value: str, directory: str) -> str:
    if flag.rstrip("=") in ("-I", "-isystem", "-iquote", "-idirafter", "-include") and \
            not os.path.isabs(value):
        return os.path.normpath(os.path.join(directory, value))
    return value


@lru_cache(maxsize=8)
def _load_db(where: str) -> dict[str, tuple[str, list[str]]]:
    """compile_commands.json (in ``where`` or ``where`` itself) → realpath → (dir, argv)."""
    db_path = where if where.endswith(".json") else os.path.join(where, "compile_commands.json")
    try:
        with open(db_path, encoding="utf-8") as fh:
            entries = json.load(fh)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{db_path}: cannot read compile commands: {exc}") from None
    if not isinstance(entries, list):
        raise ValueError(f"{db_path}: expected a JSON list of compile commands")
    out: dict[str, tuple[str, list[str]]] = {}
    for n, e in enumerate(entries):
        if not isinstance(e, dict) or "file" not in e or "directory" not in e:
            raise ValueError(f"{db_path}: entry {n} lacks 'file' or 'directory'")
        argv = e.get("arguments") or shlex.split(e.get("command", ""))
        directory = e["directory"]
        file = os.path.realpath(os.path.join(directory, e["file"]))
        out[file] = (directory, [str(a) for a in argv[1:]])
    return out
