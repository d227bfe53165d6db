"""Which project a file belongs to, when one run covers a folder holding several.

A folder of checkouts (cuda-samples beside rodinia beside llama.cpp) has headers of the
same name in each: ``#include <helper_cuda.h>`` in cuda-samples must not be resolved to
rodinia's copy. A file's project root is the highest folder above it, up to the top of
the run, that holds a project marker (``CMakeLists.txt``, ``setup.py``, ``pyproject.toml``,
``Makefile``, ``meson.build``, ``configure.ac``), or the nearest that holds ``.git`` (a
repository's top, whatever is above it); without any marker, the top of the run.
"""

from __future__ import annotations

import os
import posixpath

MARKERS = ("CMakeLists.txt", "setup.py", "pyproject.toml", "Makefile", "meson.build",
           "configure.ac")


class Roots:
    """``roots(path)``: the project root of ``path`` (a folder, ``/``-separated as the
    paths given), below ``top``; answers are kept per folder."""

    def __init__(self, paths) -> None:
        folders = [posixpath.dirname(p) or "." for p in paths]
        self.top = _common_folder(folders)
        self._known: dict[str, str] = {}

    def __call__(self, path: str) -> str:
        folder = posixpath.dirname(path) or "."
        known = self._known.get(folder)
        if known is None:
            known = self._known[folder] = self._find(folder)
        return known

    def _find(self, folder: str) -> str:
        root = self.top
        chain = []
        current = folder
        while True:
            chain.append(current)
            if current == self.top or not _below(current, self.top):
                break
            parent = posixpath.dirname(current) or "."
            if parent == current:
                break
            current = parent
        for candidate in chain:  # innermost first
            if os.path.exists(os.path.join(candidate, ".git")):
                return candidate
        for candidate in chain:  # the highest with a marker wins
            if any(os.path.isfile(os.path.join(candidate, m)) for m in MARKERS):
                root = candidate
        return root


def _below(path: str, top: str) -> bool:
    return top in (".", "") or path == top or path.startswith(top.rstrip("/") + "/")


def _common_folder(folders: list[str]) -> str:
    if not folders:
        return "."
    try:
        common = posixpath.commonpath(folders)
    except ValueError:  # absolute and relative paths mixed
        return ""
    return common or ("/" if folders[0].startswith("/") else ".")


def within(path: str, root: str) -> bool:
    """Whether ``path`` lies in the folder ``root``."""
    return root in ("", ".") and not path.startswith("/") or root == "/" \
        or path.startswith(root.rstrip("/") + "/")
