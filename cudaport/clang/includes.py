"""Which headers to precompile for a file, read from its include lines (never parsed).

Two decisions, both about speed only:

- heavy header groups (cooperative groups, C++ containers, CUB) the file or its own
  headers use;
- an *anchor*: the project header the file includes first that pulls in the most other
  project headers (ggml's ``common.cuh``, llm.c's ``common.h``). Precompiling it once per
  project makes each file that includes it parse in milliseconds; the file's own
  ``#include`` of it is then a no-op, so only guarded headers qualify, and only when no
  ``#define``/``#undef`` precedes the include in the file.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from ..source.lazy_re import lazy

_LOCAL_INCLUDE = lazy(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\r\n]+)"', re.M)
_DEFINE = lazy(rb"^[ \t]*#[ \t]*(?:define|undef)\b", re.M)
_GUARD = lazy(rb"^[ \t]*#[ \t]*pragma[ \t]+once|^[ \t]*#[ \t]*ifndef[ \t]+(\w+)\s*\n"
              rb"[ \t]*#[ \t]*define[ \t]+\1\b", re.M)
GROUP_TRIGGERS = {
    "cg": re.compile(rb"#[ \t]*include[ \t]*<cooperative_groups"),
    "stl": re.compile(rb"#[ \t]*include[ \t]*<(?:vector|string|algorithm|memory|map|"
                      rb"unordered_map|functional|iostream|sstream|tuple|array|utility|"
                      rb"type_traits|limits|numeric|random|chrono|thread|mutex|set)>"),
    "cub": re.compile(rb"#[ \t]*include[ \t]*<cub/"),
}
MAX_FILES = 200


@dataclass(frozen=True)
class IncludePlan:
    groups: tuple[str, ...] = ()
    anchor: str | None = None  # absolute path of a project header to precompile
    stamp: str = ""  # changes when any header in the anchor's closure changes


def plan(src: bytes, path: str, include_dirs: list[str]) -> IncludePlan:
    folder = os.path.dirname(os.path.abspath(path))
    me = os.path.abspath(path)
    dirs = tuple(os.path.abspath(d) for d in include_dirs)
    first_define = _DEFINE.search(src)
    limit = first_define.start() if first_define else len(src)
    closure: set[str] = set()
    eligible: set[str] = set()  # headers pulled in before any #define of the file
    for m in _LOCAL_INCLUDE.finditer(src):
        header = _resolve(m.group(1).decode("utf-8", "replace"), folder, dirs)
        if header is None:
            continue
        files = _closure(header, dirs)
        closure |= files
        if m.start() < limit:
            eligible |= files
    candidates = {h for h in eligible if me not in _closure(h, dirs) and _GUARD.search(_read(h))}
    anchor = max(candidates, key=lambda h: (len(_closure(h, dirs)), h)) if candidates else None
    # Step inside thin wrappers (ggml's convert.cuh around common.cuh): the inner header's
    # PCH then serves every file of the project that includes it.
    visited: set[str] = set()
    while anchor is not None:
        visited.add(anchor)
        size = len(_closure(anchor, dirs))
        inner = [h for h in candidates & _closure(anchor, dirs)
                 if h not in visited and len(_closure(h, dirs)) >= max(size - 2, 0.75 * size)]
        if not inner:
            break
        anchor = max(inner, key=lambda h: (len(_closure(h, dirs)), h))
    texts = [src] + [_read(f) for f in closure]
    groups = tuple(g for g, pattern in GROUP_TRIGGERS.items()
                   if any(pattern.search(t) for t in texts))
    stamp = ""
    if anchor is not None:
        digest = hashlib.sha256()
        for f in sorted(_closure(anchor, dirs)):
            st = _stat(f)
            digest.update(f"{f}:{st[0]}:{st[1]}\n".encode())
        stamp = digest.hexdigest()[:16]
    return IncludePlan(groups, anchor, stamp)


def _resolve(name: str, folder: str, dirs: tuple[str, ...]) -> str | None:
    for base in (folder, *dirs):
        cand = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(cand):
            return cand
    return None


@lru_cache(maxsize=1024)
def _direct(header: str, dirs: tuple[str, ...]) -> tuple[str, ...]:
    """The project headers ``header`` includes itself."""
    folder = os.path.dirname(header)
    found = (_resolve(m.group(1).decode("utf-8", "replace"), folder, dirs)
             for m in _LOCAL_INCLUDE.finditer(_read(header)))
    return tuple(f for f in found if f is not None)


@lru_cache(maxsize=1024)
def _closure(header: str, dirs: tuple[str, ...]) -> frozenset[str]:
    """``header`` and every project header it includes (quoted includes that resolve)."""
    seen = {header}
    queue = [header]
    while queue and len(seen) < MAX_FILES:
        for found in _direct(queue.pop(), dirs):
            if found not in seen:
                seen.add(found)
                queue.append(found)
    return frozenset(seen)


@lru_cache(maxsize=1024)
def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(1 << 21)
    except OSError:
        return b""


def _stat(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (0, 0)
    return (st.st_mtime_ns, st.st_size)
