"""Map CUDA headers to target headers, drop duplicates, add the main header if missing."""

from __future__ import annotations

import re

from ..context import FileContext
from ..edits import Edit
from . import register

_GUARD = re.compile(
    rb"\A(?:\s|//[^\n]*\n|/\*[\s\S]*?\*/)*"
    rb"[ \t]*#[ \t]*ifndef[ \t]+(\w+)[ \t]*(?://[^\n]*)?\r?\n"
    rb"(?:\s|//[^\n]*\n|/\*[\s\S]*?\*/)*"
    rb"[ \t]*#[ \t]*define[ \t]+(\w+)[^\n]*\n"
)
_PRAGMA_ONCE = re.compile(rb"(?m)^[ \t]*#[ \t]*pragma[ \t]+once\b[^\n]*\n?")
_LEADING_COMMENTS = re.compile(rb"\A(?:[ \t]*(?://[^\n]*|/\*[\s\S]*?\*/)?[ \t]*\r?\n)*")


@register(20, "includes")
def includes(ctx: FileContext) -> None:
    src = ctx.src
    headers = ctx.compiled.headers
    seen: list[tuple[bytes, tuple[int, ...]]] = []  # effective header, branch path
    has_main = False
    for inc in ctx.scan.includes:
        r = headers.get(inc.name)
        effective = inc.name
        translated = False
        if r is not None:
            ctx.references.append((inc.name_start, inc.name, "include", r))
            entry = r.entry
            if r.status == "drop":
                ctx.edits.append(Edit(*_line_span(src, inc.start, inc.end), b"", entry.rule_id))
                continue
            if r.status == "converted":
                effective = r.replacement
                translated = True
            elif r.status != "same":
                ctx.find("CP106", inc.name_start,
                         f"{inc.name.decode()} has no {ctx.compiled.target.title} equivalent",
                         inc.name.decode(), entry.library)
        duplicate = any(h == effective and inc.branch[:len(b)] == b for h, b in seen)
        if translated and duplicate:
            ctx.edits.append(Edit(*_line_span(src, inc.start, inc.end), b"", r.entry.rule_id))
            continue
        if translated:
            ctx.edits.append(Edit(inc.name_start, inc.name_end, effective, r.entry.rule_id))
        seen.append((effective, inc.branch))
        if effective in ctx.compiled.main_headers:
            has_main = True
    wants_main = ctx.uses_runtime or bool(ctx.scan.launches)
    if wants_main and not has_main and ctx.options.insert_main_header:
        _insert_main_header(ctx)


def _line_span(src: bytes, start: int, end: int) -> tuple[int, int]:
    """The whole line of a directive, with its line ending, if nothing else is on it."""
    line_start = src.rfind(b"\n", 0, start) + 1
    nl = src.find(b"\n", end)
    line_end = len(src) if nl < 0 else nl + 1
    rest = src[end:line_end].strip()
    if src[line_start:start].strip() or (rest and not rest.startswith((b"//", b"/*"))):
        return start, end
    return line_start, line_end


def _insert_main_header(ctx: FileContext) -> None:
    src = ctx.src
    eol = ctx.eol()
    header = ctx.compiled.target.main_header.encode()
    line = b"#include <" + header + b">" + eol
    rule_id = f"{ctx.compiled.target.name}/main-header"
    m = _PRAGMA_ONCE.search(src)
    if m is None:
        m = _GUARD.match(src)
        if m is not None and m.group(1) != m.group(2):
            m = None
    if m is not None:
        pos = m.end()
        prefix = b"" if src[pos - 1:pos] == b"\n" else eol
        ctx.edits.append(Edit(pos, pos, prefix + line, rule_id))
    elif ctx.scan.includes:
        top_level = [inc for inc in ctx.scan.includes if not inc.branch]
        first = (top_level or ctx.scan.includes)[0]
        pos = src.rfind(b"\n", 0, first.start) + 1
        ctx.edits.append(Edit(pos, pos, line, rule_id))
    else:
        pos = _LEADING_COMMENTS.match(src).end()
        ctx.edits.append(Edit(pos, pos, line, rule_id))
