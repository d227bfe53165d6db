"""The clang command line for one file: fixed CUDA host-parse flags, the header mode's include
folders, and the user's own flags (``-p`` compile_commands.json, ``-I``, ``-D``, ``--std``,
extra arguments after ``--``)."""

from __future__ import annotations

import json
import os
import re
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
            "-resource-dir", headers.resource_dir, f"-std={std or 'c++17'}"]
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
# (~1 s each to parse, ~0.06 s each to load) are added only for files that use them.
BASE_HEADERS = ("cstdio", "cstdlib", "cstring", "cmath", "math.h", "ctime", "cfloat", "cassert",
                "cstdint",
                "cuda_fp16.h", "cuda_bf16.h", "curand_kernel.h")
GROUPS = {
    "cg": ("cooperative_groups.h", "cooperative_groups/reduce.h"),
    "stl": ("type_traits", "vector", "string", "algorithm", "memory", "utility", "limits"),
}
_GROUP_TRIGGERS = {
    "cg": re.compile(rb"#[ \t]*include[ \t]*<cooperative_groups"),
    "stl": re.compile(rb"#[ \t]*include[ \t]*<(?:vector|string|algorithm|memory|map|"
                      rb"unordered_map|functional|iostream|sstream|tuple|array|utility|"
                      rb"type_traits|limits|numeric|random|chrono|thread|mutex|set)>"),
}
_LOCAL_INCLUDE = re.compile(rb'#[ \t]*include[ \t]*"([^"\r\n]+)"')


def groups_for(src: bytes, path: str, include_dirs: list[str]) -> tuple[str, ...]:
    """Heavy header groups the file uses, looking through its own quoted includes too."""
    texts = [src]
    seen: set[str] = set()
    queue = [(src, os.path.dirname(os.path.abspath(path)), 0)]
    while queue:
        text, folder, depth = queue.pop()
        if depth >= 4:
            continue
        for m in _LOCAL_INCLUDE.finditer(text):
            name = m.group(1).decode("utf-8", "replace")
            for base in [folder, *include_dirs]:
                cand = os.path.normpath(os.path.join(base, name))
                if os.path.isfile(cand):
                    if cand not in seen and len(seen) < 64:
                        seen.add(cand)
                        data = _read(cand)
                        texts.append(data)
                        queue.append((data, os.path.dirname(cand), depth + 1))
                    break
    return tuple(g for g, pattern in _GROUP_TRIGGERS.items()
                 if any(pattern.search(t) for t in texts))


@lru_cache(maxsize=512)
def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(1 << 20)
    except OSError:
        return b""


def include_dirs_of(args: list[str]) -> list[str]:
    out = []
    for i, a in enumerate(args):
        if a in ("-I", "-isystem", "-iquote") and i + 1 < len(args):
            out.append(args[i + 1])
        elif a.startswith("-I") and len(a) > 2:
            out.append(a[2:])
    return out


def prelude(headers: HeaderSet, groups: tuple[str, ...] = ()) -> str:
    """What the precompiled header (or -include) provides before the user's file."""
    if headers.mode == "stub":
        return "#include <__cudaport_cuda_stub.h>\n"
    names = list(BASE_HEADERS) + [h for g in groups for h in GROUPS[g]]
    lines = ["#include <__clang_cuda_runtime_wrapper.h>"]
    lines += [f"#include <{h}>" for h in names
              if "." not in h or os.path.isfile(os.path.join(headers.cuda_include, h))]
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
