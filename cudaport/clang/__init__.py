"""The optional clang layer: parse a file as CUDA host code and return :class:`Facts`.

It never raises for a file it cannot parse or a missing libclang: the failure is recorded
in the facts (and reported as a CP90x finding) and the lexical translation goes on.
"""

from __future__ import annotations

import os
import time

from ..options import Options
from ..rules.compiled import Compiled
from .environment import ClangUnavailable, HeaderSet, header_set
from .facts import Facts, Launch, extract
from .flags import base_args, include_dirs_of, prelude, std_of, user_args
from .includes import plan

__all__ = ["Facts", "Launch", "analyze", "ClangUnavailable", "headers_for"]

MAX_ERRORS = 5


def headers_for(options: Options) -> HeaderSet:
    return header_set(options.header_mode, options.cuda_path)


def analyze(src: bytes, path: str, options: Options, compiled: Compiled,
            idents: list[tuple[int, bytes, str]], launches: list[int] = ()) -> Facts:
    """Parse ``src`` (the contents of ``path``) and extract facts; never raises."""
    started = time.perf_counter()
    facts = Facts()
    try:
        _analyze(src, path, options, compiled, idents, list(launches), facts)
    except ClangUnavailable as exc:
        facts.failure = str(exc)
    except ValueError as exc:  # unreadable compile_commands.json, bad header mode
        facts.failure = str(exc)
    except Exception as exc:  # libclang crash or binding mismatch: keep the lexical result
        facts.failure = f"libclang failed: {type(exc).__name__}: {exc}"
    facts.seconds = time.perf_counter() - started
    return facts


def _analyze(src, path, options, compiled, idents, launches, facts: Facts) -> None:
    from .parse import parse
    from .stub import support_dir

    headers = headers_for(options)
    facts.mode = headers.mode
    support = support_dir(compiled)
    extra = user_args(options, path)
    args = base_args(headers, support, std_of(options, extra))
    full_path = os.path.abspath(path if path not in ("<stdin>", "-", "") else "cudaport-stdin.cu")
    extra = [a for a in extra if not a.startswith("-std=")]
    wanted = plan(src, full_path, include_dirs_of(extra))
    preludes = [prelude(headers, wanted.groups)]
    if wanted.anchor:  # with the project's headers first; without them if that PCH fails
        preludes.insert(0, prelude(headers, wanted.groups, wanted.anchor, wanted.stamp))
    tu = parse(full_path, src, args + extra, headers, preludes)
    for d in tu.diagnostics:
        if d.severity < 3:
            continue
        if d.severity >= 4 or "too many errors" in d.spelling:
            facts.fatal = True
        if len(facts.errors) < MAX_ERRORS:
            loc = d.location
            where = loc.file.name if loc.file is not None else full_path
            shown = path if where == full_path else _relative(where)
            facts.errors.append((shown, loc.line, loc.column, d.spelling))
    facts.ok = not facts.errors
    roots = tuple(os.path.realpath(p) + os.sep for p in
                  (headers.resource_dir, str(support), headers.cuda_include) if p)

    def is_cuda_file(name: str) -> bool:
        return os.path.realpath(name).startswith(roots)

    from ..rules.hazards import device_prop_pattern

    extract(tu, full_path, src, idents, launches, is_cuda_file, facts,
            device_prop_pattern(compiled))


def _relative(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("../..") else rel
