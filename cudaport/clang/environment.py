"""Where clang's pieces come from: libclang, its resource headers, and the CUDA headers.

Three header modes (see README "Clang semantic layer"):

- ``toolkit``: an installed CUDA toolkit (``--cuda-path``, ``$CUDA_PATH``/``$CUDA_HOME``, or
  ``/usr/local/cuda``);
- ``wheels``: CUDA headers from the PyPI wheels nvidia-cuda-runtime / -crt / -cccl
  (``site-packages/nvidia/cu*/include``);
- ``stub``: no CUDA at all: a header generated from the rule table (:mod:`.stub`).

``auto`` takes the first one available in that order.
"""

from __future__ import annotations

import glob
import os
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

HEADER_MODES = ("auto", "toolkit", "wheels", "stub")


class ClangUnavailable(Exception):
    """libclang or clang's resource headers are missing; the message says what to install."""


@dataclass(frozen=True)
class HeaderSet:
    """The CUDA headers one parse uses; its ``key`` names the precompiled header built for it."""

    mode: str  # toolkit, wheels, stub
    cuda_include: str  # "" in stub mode
    resource_dir: str

    @property
    def key(self) -> str:
        return f"{self.mode}:{self.cuda_include}:{self.resource_dir}"


def cindex():
    """The libclang Python bindings, loaded once; ClangUnavailable if they cannot load."""
    try:
        import clang.cindex as ci
    except ImportError as exc:
        raise ClangUnavailable(f"the libclang Python package is not installed ({exc}); "
                               "pip install libclang") from None
    try:
        ci.conf.lib  # noqa: B018 (loads the shared library)
    except Exception as exc:  # LibclangError and OSError
        raise ClangUnavailable(f"libclang could not be loaded: {exc}") from None
    return ci


@lru_cache(maxsize=1)
def resource_dir() -> str:
    """A clang resource directory with the CUDA wrapper headers.

    The ``libclang`` wheel ships no resource headers, so clang's builtin and CUDA wrapper
    headers come from a system clang (Debian's clang-15 here). ``$CUDAPORT_CLANG_RESOURCE_DIR``
    overrides the search.
    """
    env = os.environ.get("CUDAPORT_CLANG_RESOURCE_DIR")
    candidates = [env] if env else []
    candidates += sorted(glob.glob("/usr/lib/llvm-*/lib/clang/*"), key=_version_key, reverse=True)
    candidates += sorted(glob.glob("/usr/lib/clang/*"), key=_version_key, reverse=True)
    for cand in candidates:
        if cand and os.path.isfile(os.path.join(cand, "include", "__clang_cuda_runtime_wrapper.h")):
            return cand
    raise ClangUnavailable("no clang resource directory with CUDA wrapper headers found; "
                           "install clang (apt-get install clang-15) or set "
                           "CUDAPORT_CLANG_RESOURCE_DIR")


def _version_key(path: str) -> tuple[int, ...]:
    digits = [int(p) for p in path.replace("-", "/").replace(".", "/").split("/") if p.isdigit()]
    return tuple(digits)


def toolkit_include(cuda_path: str | None = None) -> str | None:
    """The include folder of an installed CUDA toolkit, or None."""
    roots = [cuda_path] if cuda_path else [
        os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME"), "/usr/local/cuda"]
    for root in roots:
        if root and os.path.isfile(os.path.join(root, "include", "cuda_runtime.h")):
            return os.path.realpath(os.path.join(root, "include"))
    return None


def wheels_include() -> str | None:
    """The include folder the nvidia-cuda-runtime/-crt/-cccl wheels install, or None."""
    for entry in sys.path:
        for inc in sorted(glob.glob(os.path.join(entry, "nvidia", "cu*", "include")), reverse=True):
            if os.path.isfile(os.path.join(inc, "cuda_runtime.h")) and os.path.isfile(
                    os.path.join(inc, "crt", "host_defines.h")):
                return os.path.realpath(inc)
        inc = os.path.join(entry, "nvidia", "cuda_runtime", "include")  # CUDA 12 wheel layout
        if os.path.isfile(os.path.join(inc, "cuda_runtime.h")):
            return os.path.realpath(inc)
    return None


def header_set(mode: str = "auto", cuda_path: str | None = None) -> HeaderSet:
    """Pick the header mode; an explicit mode whose headers are missing is an error."""
    if mode not in HEADER_MODES:
        raise ValueError(f"header mode {mode!r}: expected one of {', '.join(HEADER_MODES)}")
    res = resource_dir()
    if mode in ("auto", "toolkit"):
        inc = toolkit_include(cuda_path)
        if inc:
            return HeaderSet("toolkit", inc, res)
        if mode == "toolkit" or cuda_path:
            where = cuda_path or "$CUDA_PATH, $CUDA_HOME or /usr/local/cuda"
            raise ClangUnavailable(f"no CUDA toolkit headers (include/cuda_runtime.h) in {where}")
    if mode in ("auto", "wheels"):
        inc = wheels_include()
        if inc:
            return HeaderSet("wheels", inc, res)
        if mode == "wheels":
            raise ClangUnavailable("CUDA header wheels not installed: pip install "
                                   "nvidia-cuda-runtime nvidia-cuda-crt nvidia-cuda-cccl")
    return HeaderSet("stub", "", res)


def cache_dir() -> Path:
    """cudaport's cache folder (same rule as the rule-table cache)."""
    base = os.environ.get("CUDAPORT_CACHE_DIR")
    if base:
        return Path(base) / "clang"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "cudaport" / "clang"
