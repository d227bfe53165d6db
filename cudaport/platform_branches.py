"""Spans of ``#if`` branches that a build for the target never compiles.

A project that already supports the target keeps its CUDA code in the branch the target
skips: ``#ifndef USE_ROCM`` ... ``#else`` (the ROCm code) ... ``#endif``. Findings in such
a branch are not problems of the port. The target's ``platform_macros`` (target.yaml)
name the macros only its builds define; a branch counts as the other platform's when its
condition is exactly one of them negated (``#ifndef M``, ``#if !defined(M)``), or it is
the ``#else`` of a test that one is defined (``#ifdef M``, ``#if defined(M)``). Anything
more complex (``&&``, ``||``, versions) is left alone: both branches may be compiled.
"""

from __future__ import annotations

import bisect
import re


_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$", re.M)
_DEFINED = re.compile(rb"\A(!?)\s*defined\s*(?:\(\s*(\w+)\s*\)|\s(\w+))\Z")


def _test(kind: bytes, cond: bytes, macros: frozenset[bytes]) -> bool | None:
    """True: the branch is compiled only for the target; False: only elsewhere; None:
    not a plain test of one platform macro."""
    cond = cond.strip()
    if kind in (b"ifdef", b"ifndef"):
        return (kind == b"ifdef") if cond in macros else None
    m = _DEFINED.match(cond)
    if m and (m.group(2) or m.group(3)) in macros:
        return not m.group(1)
    return None


def other_platform_spans(code: bytes, macros: frozenset[bytes]) -> list[tuple[int, int]]:
    """(start, end) byte spans of branches only another platform compiles. ``code`` has
    its comments and literals blanked (same offsets as the source)."""
    if not macros or not any(m in code for m in macros):
        return []
    spans: list[tuple[int, int]] = []
    stack: list[list] = []  # [target-only?, start of the current branch]
    for m in _DIRECTIVE.finditer(code):
        kind, cond = m.group(1), m.group(2)
        if kind in (b"if", b"ifdef", b"ifndef"):
            stack.append([_test(kind, cond, macros), m.end()])
        elif not stack:
            continue  # an unbalanced #else/#endif: nothing to say
        elif kind == b"elif":
            if stack[-1][0] is False:
                spans.append((stack[-1][1], m.start()))
            stack[-1] = [None, m.end()]  # what follows depends on another condition
        elif kind == b"else":
            if stack[-1][0] is False:
                spans.append((stack[-1][1], m.start()))
            stack[-1] = [None if stack[-1][0] is None else not stack[-1][0], m.end()]
        else:  # endif
            test, start = stack.pop()
            if test is False:
                spans.append((start, m.start()))
    merged: list[tuple[int, int]] = []  # (nested spans inside an outer one fold into it)
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def drop_other_platform(ctx) -> None:
    """Forget the findings and references of ``ctx`` in branches only another platform
    compiles."""
    macros = ctx.compiled.target.extra.get("platform_macros")
    if not macros or b"#" not in ctx.src:
        return
    wanted = frozenset(m.encode() for m in macros)
    if not any(m in ctx.src for m in wanted):
        return
    from .passes.hazards import blank_comments_and_literals
    spans = other_platform_spans(blank_comments_and_literals(ctx.src), wanted)
    if spans:
        inside = _Inside(spans)
        ctx.findings = [f for f in ctx.findings if f.offset < 0 or not inside(f.offset)]
        ctx.references = [r for r in ctx.references if not inside(r[0])]
        ctx.scan.idents[:] = [i for i in ctx.scan.idents if not inside(i[0])]
        ctx.scan.unknown[:] = [u for u in ctx.scan.unknown if not inside(u[0])]


class _Inside:
    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = spans
        self.starts = [s for s, _ in spans]

    def __call__(self, offset: int) -> bool:
        i = bisect.bisect_right(self.starts, offset) - 1
        return i >= 0 and offset < self.spans[i][1]
