"""cudaport's portable header: device functions CUDA has and a target lacks, written here
from CUDA's documented definitions (``rules/<target>/ports/cudaport_portable.h``).

Rules rename a CUDA call to one of the header's functions (``__vadd4`` ->
``cudaport_vadd4``); after the passes, :func:`portable_functions` sees which of the
header's functions the edits of a file call and copies those functions' sections into
the file, once, before the first call. The header is split into sections by lines
``//@ ID needs=ID,... provides=NAME,...`` (ended by ``//@ end``); each section's text is
guarded, so a translation unit that includes several translated files compiles it once.
``cudaport portable-header`` writes the whole file.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from ..source import lexer
from .context import FileContext
from ..source.edits import Edit
from ..source.lazy_re import lazy

HEADER_NAME = "cudaport_portable.h"
_SECTION = lazy(rb"(?m)^//@ (\w+)((?: [a-z]+=[\w,]*)*)[ \t]*\r?\n")
_END = lazy(rb"(?m)^//@ end[ \t]*(?:\r?\n|\Z)")
_NAME = lazy(rb"\bcudaport_\w+")
_MARK = lazy(rb"(?m)^//@ .*\r?\n")  # (section lines are not copied)


@dataclass(frozen=True)
class Header:
    text: bytes  # the whole file
    sections: dict[str, tuple[bytes, tuple[str, ...]]]  # id -> (text, needs), file order
    provides: dict[bytes, str]  # function name -> section id


class HeaderError(ValueError):
    pass


_CACHE: dict[tuple[str, int, int], Header | None] = {}


@functools.lru_cache(maxsize=16)
def header_path(rules_files: tuple[str, ...]) -> Path:
    """Where a target's portable header lives: ``ports/`` next to its target.yaml (the
    first of the table's files)."""
    return Path(rules_files[0]).parent / "ports" / HEADER_NAME


def load(path: Path) -> Header | None:
    """The parsed header at ``path`` (None when the target has none), read once per
    file version."""
    try:
        st = path.stat()
    except OSError:
        return None
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _CACHE:
        _CACHE[key] = parse(path.read_bytes(), str(path))
    return _CACHE[key]


def parse(text: bytes, where: str = "<header>") -> Header:
    sections: dict[str, tuple[bytes, tuple[str, ...]]] = {}
    provides: dict[bytes, str] = {}
    pos = 0
    while True:
        m = _SECTION.search(text, pos)
        if m is None:
            break
        ident = m.group(1).decode()
        if ident == "end":
            raise HeaderError(f"{where}: '//@ end' without a section")
        end = _END.search(text, m.end())
        if end is None:
            raise HeaderError(f"{where}: section {ident} has no '//@ end'")
        inner = _SECTION.search(text, m.end(), end.start())
        if inner is not None:
            raise HeaderError(f"{where}: section {inner.group(1).decode()} starts inside "
                              f"section {ident}")
        fields = dict(f.split(b"=", 1) for f in m.group(2).split())
        needs = tuple(n.decode() for n in fields.get(b"needs", b"").split(b",") if n)
        for need in needs:
            if need not in sections:
                raise HeaderError(f"{where}: section {ident} needs {need}, which is not "
                                  "defined before it")
        body = text[m.start():end.end()]
        for name in fields.get(b"provides", b"").split(b","):
            if name:
                if name not in body[m.end() - m.start():]:
                    raise HeaderError(f"{where}: section {ident} provides {name.decode()} "
                                      "but does not define it")
                provides[name] = ident
        sections[ident] = (body, needs)
        pos = end.end()
    return Header(text, sections, provides)


def closure(header: Header, names: set[bytes]) -> list[str]:
    """The sections that define ``names``, with the sections they need, in file order."""
    wanted: set[str] = set()
    todo = [header.provides[n] for n in names if n in header.provides]
    while todo:
        ident = todo.pop()
        if ident not in wanted:
            wanted.add(ident)
            todo.extend(header.sections[ident][1])
    return [ident for ident in header.sections if ident in wanted]


def block(header: Header, idents: list[str], eol: bytes = b"\n") -> bytes:
    """The text copied into a translated file for these sections."""
    out = [b"// cudaport: functions of its portable header (" + HEADER_NAME.encode()
           + b"), from CUDA's documented definitions\n"]
    out += [_MARK.sub(b"", header.sections[i][0]).rstrip(b"\r\n").replace(b"\r\n", b"\n")
            + b"\n" for i in idents]
    return b"".join(out).replace(b"\n", eol)


def _called(ctx: FileContext, header: Header) -> dict[bytes, int]:
    """The header's functions the file's edits put in, each with the offset of its first
    edit (an edit rebuilt from parts counts its literal parts)."""
    first: dict[bytes, int] = {}
    for edit in ctx.edits:
        parts = edit[2] if type(edit[2]) is tuple else (edit[2],)
        for part in parts:
            if type(part) is bytes and b"cudaport_" in part:
                for m in _NAME.finditer(part):
                    name = m.group()
                    if name in header.provides and edit[0] < first.get(name, len(ctx.src) + 1):
                        first[name] = edit[0]
    return first


def _calls_portable(edits) -> bool:
    """Whether some edit's replacement holds a ``cudaport_`` name at all."""
    for edit in edits:
        new = edit[2]
        if type(new) is bytes:
            if b"cudaport_" in new:
                return True
        elif type(new) is tuple and any(type(p) is bytes and b"cudaport_" in p for p in new):
            return True
    return False


_DIRECTIVE = lazy(lexer.LOGICAL_LINE_START + lexer.CONDITIONAL)


def _inside_conditional(ctx: FileContext, start: int, pos: int) -> bool:
    """Whether ``pos`` is inside an ``#if`` block opened after ``start`` (the end of an
    include guard, or the file's start)."""
    depth = 0
    for m in _DIRECTIVE.finditer(ctx.code, start, pos):
        cond = m.group("cond")
        if cond in (b"if", b"ifdef", b"ifndef"):
            depth += 1
        elif cond == b"endif":
            depth = max(0, depth - 1)
    return depth > 0


def insert(ctx: FileContext) -> None:
    """Copy the sections of the portable header the file's edits call into the file,
    before the top-level declaration of the first call; at the top (where the main
    header goes) when that declaration is inside a conditional block. Sections whose
    guard the file already holds (a second run) are not copied again."""
    if not _calls_portable(ctx.edits):
        return  # (no edit puts in a cudaport_ function: nothing to read)
    header = load(header_path(ctx.compiled.table.files))
    if header is None:
        return
    first = _called(ctx, header)
    if not first:
        return
    idents = [i for i in closure(header, set(first))
              if _guard(header, i) is None or _guard(header, i) not in ctx.src]
    if not idents or all(i == "prelude" for i in idents):
        return
    from .passes.includes import (OutsideBlocks, _after_guard_or_pragma, _insertion_before,
                                  top_insertion_point)
    at = min(first.values())
    pos = _insertion_before(ctx, OutsideBlocks(ctx.src, ctx.code, ctx.scan.literals), at)
    guard_end = _after_guard_or_pragma(ctx.src, ctx.in_code) or 0
    prefix = b""
    if pos >= guard_end and _inside_conditional(ctx, guard_end, pos):
        # before the outermost conditional block around it, below the includes before
        # that block (a section may need one: labeled_partition HIP's cooperative groups,
        # in a block the translation now compiles: README "Which #if branch a HIP build
        # takes")
        tree = ctx.branch_tree
        starts = [tree.branches[tree.groups[tree.branches[i].group].branches[0]].start
                  for i in tree.path(pos)]
        outer = next((s for s in starts if s >= guard_end), None)
        if outer is not None:
            before = _insertion_before(ctx, OutsideBlocks(ctx.src, ctx.code, ctx.scan.literals), outer)
            if before >= guard_end and not _inside_conditional(ctx, guard_end, before):
                pos = before
    if pos < guard_end or _inside_conditional(ctx, guard_end, pos):
        pos, prefix = top_insertion_point(ctx)
    ctx.edits.append(Edit(pos, pos, prefix + block(header, idents, ctx.eol()),
                          f"{ctx.compiled.target.name}/portable-header"))


_GUARD = lazy(rb"#ifndef (CUDAPORT_PORTABLE_\w+)")


def _guard(header: Header, ident: str) -> bytes | None:
    m = _GUARD.search(header.sections[ident][0])
    return m.group(1) if m else None
