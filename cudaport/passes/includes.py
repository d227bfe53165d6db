"""Map CUDA headers to target headers, drop duplicates, add the main header if missing."""

from __future__ import annotations

import re

from .. import lexer
from ..context import FileContext
from ..edits import Edit
from ..rules.compiled import RUNTIME_LIBRARIES
from . import register

# (a line comment may continue over a backslash-newline: lexer.LINE_COMMENT knows that)
_LEADING_COMMENTS = re.compile(rb"\A(?:\xef\xbb\xbf)?(?:[ \t]*(?:" + lexer.LINE_COMMENT
                               + rb"|/\*[\s\S]*?\*/)?[ \t]*\r?\n)*")


@register(20, "includes")
def includes(ctx: FileContext) -> None:
    if ctx.fragment:
        return  # a piece of a call or launch has no includes of its own to manage
    src = ctx.src
    headers = ctx.compiled.headers
    seen_in: dict[bytes, list[tuple[int, ...]]] = {}  # effective header -> branch paths
    has_main = False
    # A target header translated before the main one: some need the main header first
    # (HIP 5.2's hip_cooperative_groups.h uses macros only hip_runtime.h defines).
    early = None
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
        duplicate = translated and any(inc.branch[:len(b)] == b
                                       for b in seen_in.get(effective, ()))
        if translated and duplicate:
            ctx.edits.append(Edit(*_line_span(src, inc.start, inc.end), b"", r.entry.rule_id))
            continue
        if translated:
            ctx.edits.append(Edit(inc.name_start, inc.name_end, effective, r.entry.rule_id))
        seen_in.setdefault(effective, []).append(inc.branch)
        if effective in ctx.compiled.main_headers:
            has_main = True
        elif (translated and not has_main and early is None and not inc.branch
              and r.entry.library in RUNTIME_LIBRARIES):
            early = inc
    wants_main = ctx.uses_runtime or bool(ctx.scan.launches)
    if has_main and early is not None and ctx.options.insert_main_header:
        pos = src.rfind(b"\n", 0, early.start) + 1
        header = ctx.compiled.target.main_header.encode()
        ctx.edits.append(Edit(pos, pos, b"#include <" + header + b">" + ctx.eol(),
                              f"{ctx.compiled.target.name}/main-header"))
    elif wants_main and not has_main and ctx.options.insert_main_header:
        _insert_main_header(ctx)


def _line_span(src: bytes, start: int, end: int) -> tuple[int, int]:
    """The whole line of a directive, with its line ending, if nothing else is on it."""
    line_start = src.rfind(b"\n", 0, start) + 1
    nl = src.find(b"\n", end)
    line_end = len(src) if nl < 0 else nl + 1
    rest = src[end:line_end].strip()
    # A trailing block comment goes with the line only if it closes there too.
    whole_comment = rest.startswith(b"//") or rest.startswith(b"/*") and b"*/" in rest
    if src[line_start:start].strip() or (rest and not whole_comment):
        return start, end
    return line_start, line_end


def _insert_main_header(ctx: FileContext) -> None:
    """Insert the target's main header after ``#pragma once`` or the include guard, else
    before the first include, else after the leading comments. Directives are found with
    the full tokenizer, so text inside comments or strings never counts."""
    src = ctx.src
    eol = ctx.eol()
    header = ctx.compiled.target.main_header.encode()
    line = b"#include <" + header + b">" + eol
    rule_id = f"{ctx.compiled.target.name}/main-header"
    pos = _after_guard_or_pragma(src)
    if pos is not None:
        prefix = b"" if pos == 0 or src[pos - 1:pos] == b"\n" else eol
        ctx.edits.append(Edit(pos, pos, prefix + line, rule_id))
    elif ctx.scan.includes:
        top_level = [inc for inc in ctx.scan.includes if not inc.branch]
        first = (top_level or ctx.scan.includes)[0]
        pos = src.rfind(b"\n", 0, first.start) + 1
        ctx.edits.append(Edit(pos, pos, line, rule_id))
    else:
        pos = _LEADING_COMMENTS.match(src).end()
        ctx.edits.append(Edit(pos, pos, line, rule_id))


def _after_guard_or_pragma(src: bytes) -> int | None:
    """Offset of the line after ``#pragma once`` or after a leading ``#ifndef X`` /
    ``#define X`` guard; None if the file has neither."""
    # Tokens are made lazily: the walk stops at `#pragma once` (usually near the top), or
    # after four code tokens when the text has no "pragma" and "once" at all. Tokenizing
    # every file whole made this pass most of the translation time on real trees.
    may_have_pragma = b"pragma" in src and b"once" in src
    code: list[lexer.Token] = []
    for tok in lexer.tokenize(src):
        if tok.kind in lexer.TRIVIA:
            continue
        if code and tok.text == b"once" and code[-1].kind == "directive" \
                and code[-1].text.split(b"#", 1)[1].strip() == b"pragma":
            return _next_line(src, tok.end)
        code.append(tok)
        if len(code) >= 4 and not may_have_pragma:
            break
    if len(code) >= 4 and code[0].kind == "directive" and code[2].kind == "directive":
        first = code[0].text.split(b"#", 1)[1].strip()
        second = code[2].text.split(b"#", 1)[1].strip()
        if first == b"ifndef" and second == b"define" and code[1].text == code[3].text:
            return _next_line(src, code[3].end)
    return None


def _next_line(src: bytes, pos: int) -> int:
    """Start of the line after the logical line containing ``pos``."""
    while True:
        nl = src.find(b"\n", pos)
        if nl < 0:
            return len(src)
        if src[nl - 1:nl] == b"\\" or src[nl - 2:nl] == b"\\\r":
            pos = nl + 1
            continue
        return nl + 1
