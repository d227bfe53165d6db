"""Code a project has already made portable: branches only a HIP (or other non-CUDA) build
compiles, and compatibility-layer files that define CUDA names in terms of the target's.

Neither is translated: a ``#if defined(USE_ROCM)`` branch already is HIP, and renaming the
CUDA side of ``#define cudaMalloc hipMalloc`` gives ``#define hipMalloc hipMalloc``. Their
findings are not CUDA problems either; each branch and layer gets one info finding
instead (CP160, CP161), so the report shows where the project's portability lives.

With ``--respect-layers`` a tree run also leaves alone, in every other file, the names the
project's layers define (CP162): the layer already maps them for the HIP build.

The guard macros and the headers that mark a layer are target facts
(``portable_guards``, ``portable_headers`` in ``rules/<target>/target.yaml``); a project
adds guards with ``portable-guards`` in its ``[tool.cudaport]`` settings.
"""

from __future__ import annotations

import bisect
import collections
import dataclasses
import functools
import re
from typing import Callable, Iterable

from ..source import lexer
from ..translate.context import FileContext
from .platform_branches import compiler_skipped_spans, retired_macros
from ..symbols.roles import target_spellings
from ..source.lazy_re import lazy

BRANCH, LAYER, LAYER_NAMES = "CP160", "CP161", "CP162"
OPTION_GUARDS, OPTION_LAYER_NAMES = "portable_guards", "layer_names"

_COND = lazy(rb"(?m)^[ \t]*#[ \t]*(ifdef|ifndef|if|elif|else|endif)\b"
             rb"(" + lexer.REST_OF_LINE + b")")
_DIRECTIVE_LINE = lazy(rb"#[ \t]*[a-z]+(" + lexer.REST_OF_LINE + b")")
_COMMENT = lazy(rb"/\*[\s\S]*?\*/|//.*")
_DEFINED = re.compile(rb"^defined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|\s([A-Za-z_]\w*))$")
_BARE = lazy(rb"^([A-Za-z_]\w*)$")
_LAYER_DEFS = (
    re.compile(rb"(?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?:\([^)\n]*\))?[ \t]+"
               rb"(?:\(\s*)?([A-Za-z_]\w*)"),
    re.compile(lexer.word(b"typedef") + rb"\s+(?:struct\s+|enum\s+)?([A-Za-z_]\w*)\s*\*?\s*([A-Za-z_]\w*)\s*;"),
    re.compile(lexer.word(b"using") + rb"\s+([A-Za-z_]\w*)\s*=\s*(?:struct\s+)?([A-Za-z_]\w*)\s*;"),
)
_REST_OF_LINE = lazy(lexer.REST_OF_LINE)


def option(options, key: str, default=()):
    return dict(options.extra).get(key, default)


def _strip(expr: bytes) -> bytes:
    expr = expr.strip()
    while expr.startswith(b"(") and expr.endswith(b")") and _balanced(expr[1:-1]):
        expr = expr[1:-1].strip()
    return expr


def _balanced(expr: bytes) -> bool:
    depth = 0
    for c in expr:
        depth += (c == 0x28) - (c == 0x29)
        if depth < 0:
            return False
    return depth == 0


def _guard(term: bytes, guards: frozenset[bytes]) -> bytes | None:
    m = _DEFINED.match(term) or _BARE.match(term)
    if m is None:
        return None
    name = m.group(1) or m.group(2) if m.re is _DEFINED else m.group(1)
    return name if name in guards else None


def classify(expr: bytes, guards: frozenset[bytes]) -> tuple[str, bytes] | None:
    """("on", G) when ``#if expr`` holds only in a build that defines guard G,
    ("off", G) when it holds only in one that does not (``!defined(G)``), else None."""
    expr = _strip(re.sub(rb"\\\r?\n", b" ", expr))
    if b"||" in expr:
        parts = [_strip(p) for p in expr.split(b"||")]
        found = [_guard(p, guards) for p in parts]
        return ("on", found[0]) if all(found) and _balanced(expr) else None
    for part in (_strip(p) for p in expr.split(b"&&")):
        g = _guard(part, guards)
        if g is not None:
            return "on", g
    if expr.startswith(b"!") and b"&&" not in expr:
        g = _guard(_strip(expr[1:]), guards)
        if g is not None:
            return "off", g
    return None


def directives(src: bytes) -> list[tuple[int, bytes]]:
    """(offset of '#', word) of each conditional directive (the scan has the same list)."""
    return [(m.start(), m.group(1)) for m in _COND.finditer(src)]


def guarded_spans(src: bytes, guards: frozenset[bytes],
                  conds: list[tuple[int, bytes]] | None = None,
                  conditions: list[tuple[int, int]] | None = None
                  ) -> list[tuple[int, int, bytes]]:
    """(start, end, guard) of each ``#if`` branch only a build defining a guard compiles:
    from the end of its directive line to the start of the next directive of the same
    ``#if``. ``conds`` are the file's conditional directives (see :func:`directives`).

    ``conditions``, when given, receives the (start, end) of the directive lines that
    come before such a branch in its ``#if`` chain (g-truc/glm: ``#elif defined(__CUDACC__)``
    before ``#elif defined(__HIP__)``): on the target those conditions are false as
    written, which is what sends the build to its branch; translated (``__CUDACC__`` to
    ``__HIPCC__``) they would take it first. A branch whose condition names CUDA is
    given whole: only CUDA builds compile it."""
    spans: list[tuple[int, int, bytes]] = []
    # per open #if: [guard of the branch being read or None, guard if later branches are on,
    # the chain's directive lines so far]
    stack: list[list] = []
    markers = _markers(guards)
    for offset, word in directives(src) if conds is None else conds:
        # Most directives name no guard: only their nesting counts, told without parsing
        # the condition (a continued line takes the long way).
        nl = src.find(b"\n", offset)
        line = src[offset:len(src) if nl < 0 else nl]
        rest = None  # the condition, comments blanked; None: it names no guard
        if line.endswith((b"\\", b"\\\r")) or any(g in line for g in markers):
            m = _DIRECTIVE_LINE.match(src, offset)
            if m is None:
                continue
            rest = _COMMENT.sub(b" ", m.group(1))
            line_end = m.end()
        else:
            line_end = offset + len(line)
        if word in (b"if", b"ifdef", b"ifndef"):
            kind = None
            if rest is not None and word == b"if":
                kind = classify(rest, guards)
            elif rest is not None:
                g = _guard(rest.strip(), guards)
                kind = (("on" if word == b"ifdef" else "off"), g) if g else None
            on = kind[1] if kind and kind[0] == "on" else None
            later = kind[1] if kind and kind[0] == "off" else None
            stack.append([(line_end, on) if on else None, later,
                          [(offset, line_end, b"CUDA" in line)]])
            continue
        if not stack:
            continue
        frame = stack[-1]
        if frame[0] is not None:
            spans.append((frame[0][0], offset, frame[0][1]))
            frame[0] = None
        if word == b"endif":
            stack.pop()
        elif frame[1] is not None:
            frame[0] = (line_end, frame[1])
        elif word == b"elif" and rest is not None:
            kind = classify(rest, guards)
            if kind and kind[0] == "on":
                frame[0] = (line_end, kind[1])
                if conditions is not None:
                    ends = [start for start, _e, _c in frame[2][1:]] + [offset]
                    conditions += [(start, body_end if cuda else end) for (start, end, cuda),
                                   body_end in zip(frame[2], ends)]
        frame[2].append((offset, line_end, b"CUDA" in line))
    for frame in stack:  # unterminated #if: the branch runs to the end
        if frame[0] is not None:
            spans.append((frame[0][0], len(src), frame[0][1]))
    return spans


@functools.lru_cache(maxsize=8)
def _markers(guards: frozenset[bytes]) -> tuple[bytes, ...]:
    """Three-byte pieces such that every guard holds one ("HIP", "ROC", "MUS" for 14
    guards): a line without any of them names no guard, told in three searches."""
    left, out = set(guards), []
    while left:
        counts = collections.Counter(g[i:i + 3] for g in left for i in range(len(g) - 2))
        if not counts:  # (a guard shorter than three bytes is its own marker)
            out += sorted(left)
            break
        best = max(sorted(counts), key=counts.__getitem__)
        out.append(best)
        left = {g for g in left if best not in g}
    return tuple(out)


def layer_definitions(src: bytes, compiled, idents=None) -> list[tuple[int, int, bytes]]:
    """(start, end, CUDA name) of each definition of a CUDA name in terms of a target one
    (``#define cudaMalloc hipMalloc``, ``typedef hipStream_t cudaStream_t;``,
    ``using cudaStream_t = hipStream_t;``): translating one only makes it name itself.
    ``idents``, the scan's table names, lets a file without such a shape be skipped fast."""
    if idents is not None and not any(_may_define(src, s, len(n)) for s, n, _ in idents):
        return []
    code = src
    cuda = compiled.identifiers
    target = target_spellings(compiled)
    prefixes = tuple(p.encode() for p in compiled.target.extra.get("portable_prefixes") or ())
    out = []
    for i, regex in enumerate(_LAYER_DEFS):
        for m in regex.finditer(code):
            new, old = (m.group(2), m.group(1)) if i == 1 else (m.group(1), m.group(2))
            if new in cuda and old not in cuda and (old in target or old.startswith(prefixes)):
                end = m.end()
                if i == 0:  # the whole logical line of the #define
                    end = _REST_OF_LINE.match(code, end).end()
                out.append((m.start(), end, new))
    return sorted(out)


_DEFINE_BEFORE = lazy(rb"#[ \t]*define[ \t]+\Z")


def _may_define(src: bytes, start: int, length: int) -> bool:
    """A cheap look around a name: ``#define NAME``, ``NAME;`` or ``using NAME``."""
    after = src[start + length:start + length + 2].lstrip()
    if after.startswith(b";"):
        return b"typedef" in src[max(0, start - 200):start]
    before = src[max(0, start - 24):start].rstrip()
    if before and not before.endswith((b"define", b"using")):
        return False  # (the usual case, told without finding the line)
    window = max(0, start - 200)  # bounded: a 1 MB line must not cost 1 MB per name
    line = src[src.rfind(b"\n", window, start) + 1 or window:start]
    return _DEFINE_BEFORE.search(line) is not None or line.rstrip().endswith(b"using")


def is_layer_file(src: bytes, compiled, defs, outside) -> bool:
    """A file that includes a target header and defines CUDA names in terms of the
    target's, both outside guarded branches: a compatibility layer as a whole."""
    headers = tuple(h.encode() for h in compiled.target.extra.get("portable_headers") or ())
    inside = _Spans(outside)
    return bool(headers) and any(a not in inside for a, _, _ in defs) and any(
        i.name.startswith(headers) and i.start not in inside for i in _includes(src))


class _Include:
    __slots__ = ("start", "name")

    def __init__(self, start: int, name: bytes) -> None:
        self.start, self.name = start, name


_INCLUDE = lazy(rb'(?m)^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]')


def _includes(src: bytes) -> Iterable[_Include]:
    return (_Include(m.start(), m.group(1)) for m in _INCLUDE.finditer(src))


def guards_of(ctx: FileContext) -> frozenset[bytes]:
    return _guards(tuple(ctx.compiled.target.extra.get("portable_guards") or ()),
                   tuple(option(ctx.options, OPTION_GUARDS)))


@functools.lru_cache(maxsize=8)
def _guards(listed: tuple[str, ...], given: tuple[str, ...]) -> frozenset[bytes]:
    return frozenset(g.encode() for g in listed + given)


def portable_spans(ctx: FileContext) -> list[tuple[int, int, str]]:
    """(start, end, why) of the file's already-portable regions (the whole file when it
    is a compatibility layer); also adds the info findings that name them."""
    src = ctx.src
    if b"#" not in src:
        return []
    conditions: list[tuple[int, int]] = []
    spans = guarded_spans(src, guards_of(ctx), ctx.scan.directives, conditions)
    defs = layer_definitions(src, ctx.compiled, ctx.scan.idents)
    if defs:
        names = sorted({n.decode() for _, _, n in defs})
        shown = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
        if is_layer_file(src, ctx.compiled, defs, spans):
            ctx.find(LAYER, defs[0][0], f"compatibility layer: defines {len(names)} CUDA "
                     f"name(s) in terms of the target's ({shown}); file left as it is")
            return [(0, len(src), "layer")]
    out = []
    # (a guard the target version no longer defines is renamed to the one it does, CP170:
    # the branch is built with that one)
    renamed = retired_macros(ctx.compiled, ctx.compiled.version) if spans else {}
    seen: set[tuple[int, int]] = set()
    for start, end, guard in spans:
        # (spans come as their branches end, so one is only ever inside an earlier one
        # when it is the same span)
        if (start, end) in seen:
            continue
        seen.add((start, end))
        first, _ = ctx.linecol(min(start + 1, end))  # the line after the directive
        last, _ = ctx.linecol(max(start, end - 1))
        shown = renamed.get(guard.decode(), guard.decode())
        ctx.find(BRANCH, start, f"lines {first}-{last} are built only with {shown} "
                 "defined: already portable, left as they are")
        out.append((start, end, guard.decode()))
    out += _portable_header_spans(ctx)  # (no finding: cudaport's own text)
    for start, end, macro in compiler_skipped_spans(ctx):
        first, _ = ctx.linecol(start)
        last, _ = ctx.linecol(max(start, end - 1))
        ctx.find(BRANCH, start, f"lines {first}-{last} are built only by compilers that do not "
                 f"define {macro.decode()}, which {ctx.compiled.target.title}'s compiler "
                 "defines: the project's code for them, left as it is")
        out.append((start, end, "other compilers"))
    out += [(a, b, "condition") for a, b in sorted(set(conditions))]  # (no finding of their own)
    inside = _Spans(spans) if spans and defs else None
    loose = [(a, b, "definition") for a, b, _ in defs if inside is None or a not in inside]
    if loose:
        ctx.find(LAYER, loose[0][0], f"{len(loose)} definition(s) of CUDA names in terms of "
                 f"the target's ({shown}) left as they are")
    return out + loose


def _portable_header_spans(ctx: FileContext) -> list[tuple[int, int, str]]:
    """The sections of cudaport's portable header a first translation copied in (each
    under ``#ifndef CUDAPORT_PORTABLE_...``): its own output, which a second run leaves as
    it is, comments included (``--rewrite-comments`` rewrote the CUDA names they quote)."""
    if b"CUDAPORT_PORTABLE_" not in ctx.src:
        return []
    tree = ctx.branch_tree
    out = []
    for group in tree.groups:
        first = tree.branches[group.branches[0]]
        if first.word != b"ifndef" or group.endif < 0 or not tree.condition(
                group.branches[0]).strip().startswith(b"CUDAPORT_PORTABLE_"):
            continue
        if out and first.start < out[-1][1]:
            continue  # (nested in one already taken)
        end = ctx.src.find(b"\n", group.endif)
        out.append((first.start, len(ctx.src) if end < 0 else end + 1, "portable header"))
    return out


def before_passes(ctx: FileContext) -> list[tuple[int, int, str]]:
    """Drop what the scan found inside already-portable regions, and names the project's
    layers define (with --respect-layers), so the passes leave them alone."""
    spans = portable_spans(ctx)
    scan = ctx.scan
    if spans:
        inside = _Spans(spans)

        def keep(item) -> bool:
            offset = item[0] if isinstance(item, tuple) else getattr(item, "start", item)
            return offset not in inside

        scan.idents[:] = [i for i in scan.idents if keep(i)]
        scan.unknown[:] = [i for i in scan.unknown if keep(i)]
        scan.launches[:] = [i for i in scan.launches if keep(i)]
        # (a branch the target's compiler itself selects, `#ifdef __HIPCC__`: a reserved
        # name no project defines, unlike USE_ROCM, which a build may leave undefined)
        compiler = _Spans([s for s in spans if s[2].startswith("__")])
        ctx.portable_includes = [i for i in scan.includes if i.start in compiler]
        scan.includes[:] = [i for i in scan.includes if keep(i)]
    layer_names = option(ctx.options, OPTION_LAYER_NAMES)
    if layer_names and scan.idents:
        names = frozenset(n.encode() for n in layer_names)
        left = [i for i in scan.idents if i[1] in names and i[2] == "code"]
        if left:
            scan.idents[:] = [i for i in scan.idents if i[1] not in names]
            shown = sorted({i[1].decode() for i in left})
            ctx.find(LAYER_NAMES, left[0][0], f"{len(left)} use(s) of {len(shown)} name(s) the "
                     f"project's compatibility layer defines ({', '.join(shown[:4])}"
                     f"{', ...' if len(shown) > 4 else ''}): left for the layer")
    return spans


class _Spans:
    """``offset in spans`` in log time: the spans merged into sorted disjoint ones."""

    def __init__(self, spans: list[tuple[int, int, str]]) -> None:
        merged: list[list[int]] = []
        for a, b, _ in sorted(spans):
            if merged and a <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        self.starts = [a for a, _ in merged]
        self.ends = [b for _, b in merged]

    def __contains__(self, offset: int) -> bool:
        i = bisect.bisect_right(self.starts, offset) - 1
        return i >= 0 and offset < self.ends[i]


def after_passes(ctx: FileContext, spans: list[tuple[int, int, str]]) -> None:
    """Drop edits and findings that passes working on the raw text made inside the
    already-portable regions (hazards, the main-header insertion of a layer file)."""
    if not spans:
        return
    if spans[0][2] == "layer":
        ctx.edits = []
        ctx.uses_runtime = ctx.uses_device = False
        ctx.findings = [f for f in ctx.findings if f.code == LAYER]
        return

    inside = _Spans(spans)
    ctx.edits = [e for e in ctx.edits if e[0] not in inside]
    ctx.findings = [f for f in ctx.findings
                    if f.code in (BRANCH, LAYER) or f.offset not in inside]


def project_layer_names(sources: Iterable[bytes], compiled) -> frozenset[str]:
    """CUDA names the compatibility layers among ``sources`` define, in a whole layer file
    or in a guarded branch that includes a target header (for --respect-layers)."""
    out: set[str] = set()
    for src in sources:
        if b"#" in src and b"include" in src:
            out.update(n.decode() for _, _, n in layer_definitions(src, compiled))
    return frozenset(out)


def with_layer_names(options, sources: Callable[[], Iterable[bytes]], compiled):
    """``options`` with the names the project's layers define (with --respect-layers);
    ``sources`` yields every file's bytes, read before any file is translated, since any
    file may use the names."""
    if not option(options, "respect_layers", False):
        return options
    names = tuple(sorted(project_layer_names(sources(), compiled)))
    extra = tuple(kv for kv in options.extra if kv[0] != OPTION_LAYER_NAMES)
    return dataclasses.replace(options, extra=extra + ((OPTION_LAYER_NAMES, names),))


def read_all(items: Iterable) -> Iterable[bytes]:
    """The bytes of each item, one per item: bytes as they are, paths read (an unreadable
    one is empty here, and reported when its file is run)."""
    for item in items:
        if isinstance(item, bytes):
            yield item
            continue
        try:
            yield item.read_bytes()
        except OSError:
            yield b""
