"""Spans of ``#if`` branches that a build for the target never compiles.

A project that already supports the target keeps its CUDA code in the branch the target
skips: ``#ifndef USE_ROCM`` ... ``#else`` (the ROCm code) ... ``#endif``. Findings in such
a branch are not problems of the port. The target's ``platform_macros`` and
``platform_macro_pattern`` (target.yaml) name the macros only its builds define (or set to
1, like bitsandbytes' ``BNB_HIP``); a branch counts as the other platform's when its
condition is exactly one of them negated (``#ifndef M``, ``#if !defined(M)``, ``#if !M``),
or it follows a branch that tests one (``#ifdef M`` / ``#if M`` ... ``#elif``/``#else``).
Anything more complex (``&&``, ``||``, versions) is left alone: both may be compiled.
"""

from __future__ import annotations

import bisect
import functools
import re


# Found from the '#' (a literal first lets the regex engine search fast), then checked to
# start its line (``_directives``).
_DIRECTIVE = re.compile(rb"#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$", re.M)


def _directives(code: bytes, end: int | None = None):
    """Conditional directives of blanked ``code`` (before ``end``): a '#' with only blanks
    before it on its line."""
    for m in _DIRECTIVE.finditer(code, 0, len(code) if end is None else end):
        start = m.start()
        line = code.rfind(b"\n", 0, start) + 1
        if start == line or not code[line:start].strip(b" \t"):
            yield m
_DEFINED = re.compile(rb"\A(!?)\s*defined\s*(?:\(\s*(\w+)\s*\)|\s(\w+))\Z")


_PLAIN = re.compile(rb"\A(!?)\s*(\w+)\Z")


def _test(kind: bytes, cond: bytes, is_platform) -> bool | None:
    """True: the branch is compiled only for the target; False: only elsewhere; None:
    not a plain test of one platform macro (``#if M`` tests a project's own switch that
    is 1 on the target, such as bitsandbytes' ``BNB_HIP``)."""
    cond = cond.strip()
    if kind in (b"ifdef", b"ifndef"):
        return (kind == b"ifdef") if is_platform(cond) else None
    m = _DEFINED.match(cond) or _PLAIN.match(cond)
    if m and is_platform(m.group(m.lastindex) if m.re is _PLAIN else m.group(2) or m.group(3)):
        return not m.group(1)
    return None


def other_platform_spans(directives, is_platform) -> list[tuple[int, int]]:
    """(start, end) byte spans of branches only another platform compiles. ``directives``
    are the (offset of '#', keyword, condition with comments blanked, end of line) of the
    file's conditional directives; ``is_platform`` tells whether a macro name is one only
    the target's builds define."""
    spans: list[tuple[int, int]] = []
    # per open group: [test of the current branch, its start, test of the #if branch]
    stack: list[list] = []
    for offset, kind, cond, line_end in directives:
        if kind in (b"if", b"ifdef", b"ifndef"):
            test = _test(kind, cond, is_platform)
            stack.append([test, line_end, test])
        elif not stack:
            continue  # an unbalanced #elif/#else/#endif: nothing to say
        elif kind in (b"elif", b"else"):
            current, start, first = stack[-1]
            if current is False:
                spans.append((start, offset))
            # after a target-only #if, every later branch is another platform's; after an
            # other-platform #if, the rest is the target's (with or without more tests)
            stack[-1] = [False if first else None, line_end, first]
        else:  # endif
            current, start, _first = stack.pop()
            if current is False:
                spans.append((start, offset))
    merged: list[tuple[int, int]] = []  # (nested spans inside an outer one fold into it)
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def drop_other_platform(ctx) -> None:
    """Forget the findings and references of ``ctx`` in branches only another platform
    compiles. When an error is forgotten in a branch that the project's own build switch
    keeps from the target (``#ifdef USE_AMD_ROCM`` ... ``#else`` CUDA), which no target
    compiler defines, say so once (CP166): compiled as translated, that branch is the one
    the target compiler takes."""
    inside = other_platform_test(ctx)
    if inside is not None:
        dropped = [f for f in ctx.findings if f.severity == "error" and f.offset >= 0
                   and inside(f.offset)]
        if dropped:
            _build_switch(ctx, dropped[0].offset)
        ctx.findings = [f for f in ctx.findings if f.offset < 0 or not inside(f.offset)]
        ctx.references = [r for r in ctx.references if not inside(r[0])]
        ctx.scan.idents[:] = [i for i in ctx.scan.idents if not inside(i[0])]
        ctx.scan.unknown[:] = [u for u in ctx.scan.unknown if not inside(u[0])]
        ctx.scan.includes[:] = [i for i in ctx.scan.includes if not inside(i.start)]


_DEFINED_ANY = re.compile(rb"\bdefined\s*(?:\(\s*(\w+)\s*\)|\s(\w+))")


def _build_switch(ctx, before: int) -> None:
    """CP166 at the last directive before ``before`` that tests whether a switch of the
    project's own is defined (``#ifdef M``, ``defined(M)``) - a macro the target's
    ``platform_macro_pattern`` matches but no target compiler defines (not one of its
    ``platform_macros``). A switch the project computes itself (``#define BNB_HIP 1``,
    tested by value as ``#if BNB_HIP``), or one the user gave with ``-D``, is not one."""
    extra = ctx.compiled.target.extra
    builtin = frozenset(m.encode() for m in extra.get("platform_macros") or ())
    pattern = extra.get("platform_macro_pattern")
    if not pattern:
        return
    own = _platform_test((), pattern)
    given = {d.split("=")[0].encode() for d in ctx.options.defines}
    code = ctx.code
    found = None
    for m in _directives(code, before):
        kind, cond = m.group(1), m.group(2)
        if kind in (b"ifdef", b"ifndef"):
            names = [cond.strip()]
        elif kind in (b"if", b"elif"):
            names = [a or b for a, b in _DEFINED_ANY.findall(cond)]
        else:
            continue
        for name in names:
            if own(name) and name not in builtin and name not in given and not re.search(
                    rb"^[ \t]*#[ \t]*define[ \t]+" + re.escape(name) + rb"\b", code, re.M):
                found = (m.start(), name.decode())
    if found is not None:
        target = ctx.compiled.target.title
        ctx.find("CP166", found[0], f"{found[1]} selects this file's {target} code, but no "
                 f"{target} compiler defines it: compiled as translated, the CUDA branch is "
                 f"taken and does not compile; build with -D{found[1]} (and pass "
                 f"-D {found[1]} to cudaport)", found[1])


def other_platform_test(ctx) -> "_Inside | None":
    """A test of offsets: inside a branch only another platform compiles (None: there is
    no such branch in ``ctx``)."""
    extra = ctx.compiled.target.extra
    macros = extra.get("platform_macros")
    if not macros or not ctx.scan.directives:
        return None
    is_platform = _platform_test(tuple(macros), extra.get("platform_macro_pattern"))
    # the scan's directives, each condition blanked of comments as the code is
    directives = []
    src = ctx.src
    for offset, word in ctx.scan.directives:
        if word in (b"else", b"endif"):  # (no condition: only where the line ends)
            end = src.find(b"\n", offset)
            directives.append((offset, word, b"", len(src) if end < 0 else end))
            continue
        m = _DIRECTIVE.match(src, offset)
        if m is not None:
            directives.append((offset, m.group(1), ctx.code_at(*m.span(2)), m.end()))
    spans = other_platform_spans(directives, is_platform)
    return _Inside(spans) if spans else None


@functools.cache
def _platform_test(macros: tuple[str, ...], pattern: str | None):
    names = frozenset(m.encode() for m in macros)
    regex = re.compile(pattern.encode()) if pattern else None
    return lambda name: name in names or regex is not None and regex.fullmatch(name) is not None


class _Inside:
    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = spans
        self.starts = [s for s, _ in spans]

    def __call__(self, offset: int) -> bool:
        i = bisect.bisect_right(self.starts, offset) - 1
        return i >= 0 and offset < self.spans[i][1]
