"""Framework rule packs (``--framework pytorch``) and the names frameworks own.

A framework pack lives in ``rules/<target>/frameworks/<framework>/*.yaml``. It is layered
over the target's API rules with the same override mechanism as ``--rules`` files (so a
framework rule replaces an API rule of the same name, and a user's ``--rules`` file still
wins over both). ``include-paths.yaml`` in the same folder is not a rule pack: it lists the
framework's header folders whose paths are rewritten by pattern (see
:mod:`cudaport.translate.passes.framework_includes`).

Names qualified by a framework namespace (``at::cuda::getCurrentCUDAStream``,
``c10::cuda::CUDAGuard``) belong to the framework, not to the CUDA API: the API rules never
rename them; only the framework's own rules (library ``pytorch``) may.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .schema import loader, yaml
from ..source.lazy_re import lazy

FRAMEWORKS = ("pytorch",)
PATHS_FILE = "include-paths.yaml"
PYTHON_FILE = "python.yaml"  # the Python side: see python_facts
# The library id framework packs use; only rules of this library touch framework names.
FRAMEWORK_LIBRARY = "pytorch"
# Outermost namespaces of PyTorch's C++ API.
_QUALIFIED = lazy(rb"(?:^|[^\w$:])\s*(?:::\s*)?(?:at|c10|torch|caffe2)\s*::"
                  rb"(?:\s*[A-Za-z_]\w*\s*::)*\s*\Z")


def framework_dir(target_dir: Path, framework: str) -> Path:
    return target_dir / "frameworks" / framework


def framework_packs(target_dir: Path, framework: str | None) -> list[Path]:
    """The rule packs of ``framework`` for the target in ``target_dir`` (sorted)."""
    if not framework:
        return []
    folder = framework_dir(target_dir, framework)
    if not folder.is_dir():
        raise ValueError(f"--framework {framework}: target {target_dir.name} has no "
                         f"{framework} rules (expected {folder})")
    return sorted(p for p in folder.glob("*.yaml") if p.name not in (PATHS_FILE, PYTHON_FILE))


@dataclass(frozen=True)
class IncludePaths:
    """Header folders of a framework and what becomes of a header found below them."""

    folders: tuple[str, ...]  # "ATen/cuda/" ...: headers below are framework headers
    replace: tuple[tuple[str, str], ...]  # substring renames in folder and file names
    rewrite: bool  # True: rename by ``replace``; False: report headers no rule maps
    source: str


@lru_cache(maxsize=8)
def include_paths(target_dir: str, framework: str | None) -> IncludePaths | None:
    """``include-paths.yaml`` of the framework for this target, or None."""
    if not framework:
        return None
    path = framework_dir(Path(target_dir), framework) / PATHS_FILE
    if not path.is_file():
        return None
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader()) or {}
    folders = tuple(str(f).rstrip("/") + "/" for f in data.get("folders", ()))
    replace = tuple((str(k), str(v)) for k, v in (data.get("replace") or {}).items())
    return IncludePaths(folders, replace, bool(data.get("rewrite", False)),
                        str(data.get("source", "")))


@lru_cache(maxsize=8)
def python_facts_in(target_dir: str, framework: str) -> dict | None:
    """``python.yaml`` of ``framework`` in the target folder, or None."""
    path = framework_dir(Path(target_dir), framework) / PYTHON_FILE
    if not path.is_file():
        return None
    return yaml.load(path.read_text(encoding="utf-8"), Loader=loader()) or {}


def is_framework_qualified(src: bytes, start: int) -> bool:
    """Is the name at ``start`` qualified by a PyTorch namespace (``at::cuda::X``)?"""
    return _QUALIFIED.search(src, max(0, start - 120), start) is not None
