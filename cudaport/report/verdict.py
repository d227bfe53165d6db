"""Findings -> a verdict per file: ports cleanly, ports with warnings, or blocked.

The rule, in one place for every report format:

- **blocked**: at least one error finding. An error means the translation does not
  compile on the target as it stands (an unmapped API or header, libcu++, PTX, CUTLASS,
  WMMA ...). The reasons are the error codes with their titles and counts.
- **ports with warnings**: no error, at least one warning (a hazard that compiles but may
  compute something else, such as 32-lane warp math on 64-lane wavefronts).
- **ports cleanly**: nothing but notes.

Checked together, a file that includes a blocked file of the same run is blocked too
(:func:`of_files`): its translation unit cannot compile either.

The headline percentage counts CUDA references ported over all references *plus* every
error finding that no unported reference stands for (a PTX statement, a ``cuda::`` use, a
CUTLASS namespace): those block compilation as surely as an unmapped API does, so a file
with an error finding never reads 100 %.
"""

from __future__ import annotations

import os
import posixpath
from collections import Counter, deque
from dataclasses import dataclass
from typing import Iterable

from ..findings import CODES, Finding, Reference
from ..project.roots import Roots, within

CLEAN = "ports cleanly"
WARNINGS = "ports with warnings"
BLOCKED = "blocked"
ORDER = (CLEAN, WARNINGS, BLOCKED)
PORTED = frozenset({"converted", "same", "drop", "fallback", "inline"})  # reference statuses
CXX_ONLY = "CP169"  # a target header that does not compile as C


@dataclass(frozen=True)
class Verdict:
    status: str
    reasons: tuple[str, ...] = ()  # for a blocked file: "CP110 libcu++ ... (3)"

    def to_dict(self) -> dict:
        return {"verdict": self.status, "blocking": list(self.reasons)}


def verdict(findings: Iterable[Finding]) -> Verdict:
    errors: Counter = Counter()
    warned = False
    for f in findings:
        if f.severity == "error":
            errors[f.code] += 1
        elif f.severity == "warning":
            warned = True
    if errors:
        return Verdict(BLOCKED, tuple(
            f"{code} {CODES[code].title if code in CODES else 'user rule'} ({n})"
            for code, n in sorted(errors.items(), key=lambda kv: (-kv[1], kv[0]))))
    return Verdict(WARNINGS if warned else CLEAN)


def unported_keys(references: Iterable[Reference]) -> tuple[tuple[int, str], ...]:
    """(line, name) of each unported reference in code or an include: what an error
    finding needs to stand for one (kept per file, so the share is the same whether or
    not a run keeps the references themselves)."""
    return tuple((r.line, r.identifier) for r in references
                 if r.status not in PORTED and r.status != "unknown"
                 and r.context in ("code", "include"))


def unreferenced_blockers(findings: Iterable[Finding], references: Iterable[Reference] = (),
                          unported: Iterable[tuple[int, str]] | None = None) -> int:
    """Error findings that no unported reference (same line and name) stands for; the
    references' :func:`unported_keys` may be given instead of them (``unported``)."""
    unported = Counter(unported_keys(references) if unported is None else unported)
    extra = 0
    for f in findings:
        if f.severity != "error":
            continue
        key = (f.line, f.identifier)
        if unported[key] > 0:
            unported[key] -= 1
        else:
            extra += 1
    return extra


def counts(verdicts: Iterable[Verdict]) -> dict[str, int]:
    c = Counter(v.status for v in verdicts)
    return {status: c[status] for status in ORDER}


def sentence(by_status: dict[str, int]) -> str:
    """``3 port cleanly, 1 with warnings, 2 blocked``."""
    return (f"{by_status[CLEAN]} port cleanly, {by_status[WARNINGS]} with warnings, "
            f"{by_status[BLOCKED]} blocked")


def pct(value: float, digits: int = 1) -> str:
    """``99.96`` -> ``99.9%``, never ``100.0%``: rounding must not call a file with
    something unported complete."""
    text = f"{value:.{digits}f}"
    if value < 100 and float(text) >= 100:
        text = f"{100 - 10 ** -digits:.{digits}f}"
    return text + "%"


def of_files(files: Iterable[tuple], include_dirs: Iterable[str] = ()) -> dict[str, Verdict]:
    """path -> verdict for a set of files checked together, given as (path, findings,
    names the file ``#include``s[, the line of each include]). A file that includes a
    blocked file of the set, however indirectly, is blocked too: the translation unit
    cannot compile. Its reason names the whole chain to the root cause, each include on
    its line and the first error of the file that is blocked by itself
    (``includes b.cuh, which is blocked: a.cu:3 -> b.cuh:7 -> c.cuh:12:5 CP101 ...``).
    An include resolves as :func:`_resolve` says, never to a file of another project of
    the set."""
    verdicts: dict[str, Verdict] = {}
    includes: dict[str, list[str]] = {}
    lines: dict[str, dict[str, int]] = {}  # path -> include name -> its first line
    first_error: dict[str, Finding] = {}
    cxx_only: dict[str, str] = {}  # path -> the C++-only target header it includes (CP169)
    for path, findings, names, *rest in files:
        findings = list(findings)
        verdicts[path] = verdict(findings)
        includes[path] = list(names)
        if rest and rest[0]:
            at = lines[path] = {}
            for name, line in zip(includes[path], rest[0]):
                at.setdefault(name, line)
        errors = [f for f in findings if f.severity == "error"]
        if errors:
            first_error[path] = min(errors, key=lambda f: (f.line, f.col, f.code))
        header = next((f.identifier for f in findings if f.code == CXX_ONLY), None)
        if header is not None:
            cxx_only[path] = header
    included_by: dict[str, dict[str, str]] = {}  # target -> includer -> include name
    for path, targets in resolve_includes(includes, include_dirs, named=True).items():
        for name, target in targets:
            included_by.setdefault(target, {}).setdefault(path, name)
    _c_units_reaching_cxx_headers(verdicts, cxx_only, included_by)
    # Breadth first from the files blocked by themselves, so each chain is a shortest one.
    chains: dict[str, str] = {}  # blocked path -> "b.cuh:7 -> c.cuh:12:5 CP101 ..."
    queue = deque()
    for path, v in verdicts.items():
        if v.status == BLOCKED and not _via(v) and path in first_error:
            f = first_error[path]
            chains[path] = f"{path}:{f.line}:{f.col} {f.code} {f.message}"
            queue.append(path)
    while queue:
        blocked = queue.popleft()
        for user, name in sorted(included_by.get(blocked, {}).items()):
            if verdicts[user].status != BLOCKED:
                line = lines.get(user, {}).get(name)
                chains[user] = f"{user}:{line}" if line else user
                chains[user] += " -> " + chains[blocked]
                verdicts[user] = Verdict(BLOCKED, (
                    f"includes {blocked}, which is blocked: {chains[user]}",))
                queue.append(user)
    return verdicts


def resolve_includes(includes: dict[str, list[str]], include_dirs: Iterable[str] = (),
                     named: bool = False) -> dict[str, list]:
    """path -> the files of the set (the keys) that its ``#include`` names read, as
    :func:`_resolve` finds them (itself left out); ``named``: (include name, file) pairs."""
    by_suffix: dict[str, list[str]] = {}
    for path in includes:
        parts = path.split("/")
        for i in range(len(parts)):
            by_suffix.setdefault("/".join(parts[i:]), []).append(path)
    roots = Roots(includes)
    # (the folders as given and absolute, since the paths may be either)
    dirs = list(dict.fromkeys(form.replace(os.sep, "/").rstrip("/") or "/" for d in include_dirs
                              for form in (d, os.path.abspath(d))))
    return {path: [(name, t) if named else t for name in names
                   for t in _resolve(path, name, includes, by_suffix, roots, dirs) if t != path]
            for path, names in includes.items()}


def _resolve(path: str, name: str, files, by_suffix: dict[str, list[str]], roots: Roots,
             dirs: list[str]) -> list[str]:
    """The files of the set that ``#include NAME`` in ``path`` reads, searched as a
    compiler would with the project's include paths: next to the includer, in the include
    folders given (-I), in the includer's folder's ancestors up to its project root
    (:mod:`cudaport.project.roots`); else the files of that project whose path ends with the
    name (``cuco/detail/__config`` is ``include/cuco/detail/__config``), the nearest to
    the includer. A sibling project's file of the same name (cuda-samples' helper_cuda.h
    for rodinia, a cuda-samples common.h for llama.cpp) is never one."""
    folder = posixpath.dirname(path)
    near = posixpath.normpath(posixpath.join(folder, name))
    if near in files:
        return [near]
    for d in dirs:
        candidate = posixpath.normpath(posixpath.join(d, name))
        if candidate in files:
            return [candidate]
    root = roots(path)
    ancestor = folder
    while ancestor and ancestor != root and within(ancestor, root):
        ancestor = posixpath.dirname(ancestor)
        candidate = posixpath.normpath(posixpath.join(ancestor, name))
        if candidate in files:
            return [candidate]
    mine = [c for c in by_suffix.get(name, ()) if within(c, root) or c == root]
    if len(mine) < 2:
        return mine
    shared = [_shared_length(c, path) for c in mine]
    best = max(shared)
    return [c for c, n in zip(mine, shared) if n == best]


def _shared_length(a: str, b: str) -> int:
    try:
        return len(posixpath.commonpath([a, b]))
    except ValueError:  # an absolute and a relative path
        return 0


def _c_units_reaching_cxx_headers(verdicts: dict[str, Verdict], cxx_only: dict[str, str],
                                  included_by: dict[str, dict[str, str]]) -> None:
    """A C file that includes, however indirectly, a file of the set whose translation
    includes a target header that does not compile as C (CP169: pjreddie/darknet's .c
    files include darknet.h, which includes curand.h, hiprand/hiprand.h on HIP) is
    blocked: its translation unit cannot compile."""
    for header_file, header in cxx_only.items():
        seen, queue = {header_file}, [header_file]
        while queue:
            current = queue.pop()
            if current.endswith(".c") and verdicts[current].status != BLOCKED:
                via = "" if current == header_file else f"includes {header_file}, which "
                verdicts[current] = Verdict(BLOCKED, (
                    f"{via}includes {header}, which does not compile as C",))
            for user in included_by.get(current, ()):
                if user not in seen:
                    seen.add(user)
                    queue.append(user)


def _via(v: Verdict) -> bool:
    return bool(v.reasons) and v.reasons[0].startswith("includes ")
