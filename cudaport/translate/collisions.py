"""Many-to-one mappings must not make two definitions one, nor a definition name itself.

Several CUDA names map to one target name (``CUDA_MEMCPY3D`` and ``CUDA_MEMCPY3D_v2``
both to ``HIP_MEMCPY3D``). Where two definitions of one scope (types, typedefs,
enumerators, overloads, ``case`` labels, macros: see :func:`scopes.definitions`) were
distinct and the edits would make them identical, the second keeps its original text
and CP163 names both places. A typedef, alias or macro that the edits would turn into
``using X = X;``, ``typedef X X;`` or ``#define X X`` is dropped instead (CP165).

Only files where some edit writes a name that two of the file's CUDA names map to, or one
the file already holds, are examined.
"""

from __future__ import annotations

import bisect
import re

from ..source import edits as E
from ..source import lexer
from ..symbols import scopes
from .context import FileContext
from ..source.lazy_re import lazy

COLLISION, DROPPED = "CP163", "CP165"

# (each starts with its literal word, searched for in C; a #define must start its line)
_STATEMENTS = (
    re.compile(lexer.word(b"using") + rb"\s+[A-Za-z_]\w*\s*=[^;{}]*;"),
    re.compile(lexer.word(b"typedef") + rb"\b[^;{}]*;"),
    re.compile(rb"#[ \t]*define[ \t]+" + lexer.REST_OF_LINE),
)


def _statements(code: bytes) -> list[tuple[int, int]]:
    """(start, end) of each alias, typedef and #define line (from its line start), none
    inside another (a typedef in a macro's body is the macro's)."""
    spans = [m.span() for regex in _STATEMENTS[:2] for m in regex.finditer(code)]
    for m in _STATEMENTS[2].finditer(code):
        if lexer.starts_line(code, m.start()):
            spans.append((code.rfind(b"\n", 0, m.start()) + 1, m.end()))
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if not out or start >= out[-1][1]:
            out.append((start, end))
    return out


def shared_targets(compiled) -> frozenset[bytes]:
    """Target names that two or more CUDA names map to."""
    shared = getattr(compiled, "_shared_targets", None)
    if shared is None:
        seen: dict[bytes, int] = {}
        for name, r in compiled.identifiers.items():
            if r.renames and r.replacement:
                seen[r.replacement] = seen.get(r.replacement, 0) + 1
        shared = frozenset(t for t, n in seen.items() if n > 1)
        compiled._shared_targets = shared
    return shared


def merging_names(compiled) -> frozenset[bytes]:
    """CUDA names whose target name another CUDA name shares (cudaError_t, CUresult)."""
    names = getattr(compiled, "_merging_names", None)
    if names is None:
        shared = shared_targets(compiled)
        names = frozenset(n for n, r in compiled.identifiers.items()
                          if r.renames and r.replacement in shared)
        compiled._merging_names = names
    return names


def _within(starts: list[int], start: int, end: int) -> range:
    """Indexes of the (sorted) edits that start in ``start:end``."""
    return range(bisect.bisect_left(starts, start), bisect.bisect_left(starts, end))


def _translated(src: bytes, edits: list[E.Edit], starts: list[int], start: int,
                end: int) -> bytes:
    inside = [edits[i] for i in _within(starts, start, end) if edits[i].end <= end]
    if not inside:
        return src[start:end]
    return E.apply(src[start:end], [e._replace(start=e.start - start, end=e.end - start)
                                     for e in inside])


def check(ctx: FileContext, kept: list[E.Edit]) -> list[E.Edit]:
    """``kept`` (resolved edits) without the ones that would collide, plus deletions of
    self-aliases they would create; findings for both go to ``ctx``."""
    src = ctx.src
    # Two definitions can become one only where a target name has two spellings in the
    # file: two CUDA names that map to it (cudaStream_t, CUstream), or one and the target
    # name itself. A file with only cudaStream_t has nothing to merge. (One pass over the
    # edits in the usual case: a file has thousands, and none of these names.)
    written = {e.replacement for e in kept}
    risky = {r for r in written if ctx.holds(r)}
    several = written & shared_targets(ctx.compiled)
    if several:
        spellings: dict[bytes, set[bytes]] = {}
        for e in kept:
            if e.replacement in several:
                spellings.setdefault(e.replacement, set()).add(src[e.start:e.end])
        risky.update(r for r, seen in spellings.items() if len(seen) > 1)
    if not risky or not any(e.replacement in risky and _maybe_definition(src, e.start, e.end)
                            for e in kept):
        return kept
    starts = [e.start for e in kept]
    code = ctx.code
    drop: list[tuple[int, int]] = []  # spans whose edits are withdrawn
    add: list[E.Edit] = []
    # 1. self-aliases the edits create
    for a, b in _statements(code):
        if not _within(starts, a, b):
            continue
        after = _translated(src, kept, starts, a, b)
        was = src[a:b]
        if _names_itself(after) and not _names_itself(was):
            start, end = _whole_lines(src, a, b)
            add.append(E.Edit(start, end, b"", "self-alias"))  # replaces the edits inside
            name = _names_itself(after).decode()
            ctx.find(DROPPED, a, f"dropped `{_one_line(was)}`: translated it would only "
                     f"name itself ({name})", name)
    # 2. definitions the edits make identical
    groups: dict[tuple, scopes.Definition] = {}
    dropped = _Spans()  # (the definitions left as they were so far)
    added = _Spans(sorted((e.start, e.end) for e in add))
    for d in scopes.definitions(src, code, ctx.branch_tree):
        edited = bool(_within(starts, d.start, d.end)) and not dropped.holds(d.start) \
            and not added.holds(d.start)
        key = d.prefix + scopes.key_text(_translated(src, kept, starts, d.start, d.end)) \
            if edited else d.key
        group = (d.kind if d.kind not in ("typedef", "alias") else "typedef", d.scope, key)
        first = groups.get(group)
        if first is None:
            groups[group] = d
        elif first.key != d.key:  # distinct before, one after: leave one as it was
            kept_one, other = (d, first) if edited else (first, d)
            groups[group] = other
            drop.append((kept_one.start, kept_one.end))
            dropped.add(kept_one.start, kept_one.end)
            line, _ = ctx.linecol(other.name_start)
            ctx.find(COLLISION, kept_one.name_start,
                     f"`{_one_line(src[kept_one.start:kept_one.end])}` would become "
                     f"`{_one_line(key)}`, like the definition on line {line} "
                     f"(`{_one_line(src[other.start:other.end])}`): left as it was",
                     kept_one.key.decode(errors="replace"))
    if not drop and not add:
        return kept
    gone = _Spans()
    for a, b in drop + [(e.start, e.end) for e in add]:
        gone.add(a, b)
    out = [e for e in kept if not gone.holds(e.start)
           and not (e.end > e.start and gone.holds(e.end - 1))]
    return E.resolve(out + add) if add else out


class _Spans:
    """Spans added in any order; whether an offset falls in one is a bisect (and a look
    at the few spans before it: definitions nest a level or two at most)."""

    def __init__(self, spans: list[tuple[int, int]] = ()) -> None:
        self.spans = sorted(spans)

    def add(self, start: int, end: int) -> None:
        bisect.insort(self.spans, (start, end))

    def holds(self, offset: int) -> bool:
        """Whether ``start <= offset < end`` for one of the spans."""
        i = bisect.bisect_right(self.spans, (offset, float("inf"))) - 1
        return any(self.spans[j][1] > offset for j in range(i, max(-1, i - 8), -1))


_DEFINING_LINE = lazy(rb"#[ \t]*define\b|\b(?:typedef|using|case|struct|class|union|enum)\b")
_BODY_AFTER = lazy(rb"[^;{}()]*\)\s*(?:const\s*)?(?:noexcept\s*)?\{")


def _maybe_definition(src: bytes, start: int, end: int) -> bool:
    """A cheap look around an edit: could it be inside a definition's key (a macro, type,
    typedef, alias, case label, enumerator, or the parameters of a function definition)?"""
    window = max(0, start - 200)  # bounded: a 1 MB line must not cost 1 MB per edit
    before = src[src.rfind(b"\n", window, start) + 1 or window:start]
    if _DEFINING_LINE.search(before):
        return True
    after = src[end:end + 4].lstrip()
    if not before.strip() and after[:1] in (b"=", b",", b"}", b""):
        return True  # an enumerator on its own line
    return _BODY_AFTER.match(src, end, min(len(src), end + 300)) is not None


def _names_itself(statement: bytes) -> bytes | None:
    code = scopes.blank(statement)
    found = scopes.self_aliases(code) + scopes.self_macros(code)
    return found[0][2] if found else None


def _whole_lines(src: bytes, start: int, end: int) -> tuple[int, int]:
    """``start:end`` widened to its whole line when nothing else is on it."""
    line_start = src.rfind(b"\n", 0, start) + 1
    line_end = src.find(b"\n", end)
    line_end = len(src) if line_end < 0 else line_end
    if src[line_start:start].strip() or src[end:line_end].strip():
        return start, end
    return line_start, min(len(src), line_end + 1)


def _one_line(text: bytes, width: int = 60) -> str:
    flat = scopes.key_text(text).decode(errors="replace")
    return flat if len(flat) <= width else flat[:width - 3] + "..."
