"""A thread-scope ``cuda::pipeline`` used only to stage copies becomes synchronous copies.

libcu++ (CUDA C++ Programming Guide, "Asynchronous Data Copies using cuda::pipeline"):
``cuda::make_pipeline()`` with no argument makes a pipeline of the calling thread alone;
``cuda::memcpy_async(dst, src, size, pipe)`` copies ``size`` bytes (a ``size_t`` or a
``cuda::aligned_size_t<N>(size)``, which only promises alignment) as part of the stage being
produced; ``producer_acquire``/``producer_commit`` open and close a stage;
``consumer_wait`` returns once the oldest committed stage's copies are complete and
``consumer_release`` frees it. Reading a destination before its ``consumer_wait`` is a race,
so a copy made at once, where ``memcpy_async`` is, gives every read the same bytes: the
stage calls then have nothing to do. Rewritten only when the text proves it: the pipeline is
``auto NAME = cuda::make_pipeline();`` and otherwise named only in those four calls and as
the last of the four arguments of ``cuda::memcpy_async``. Then the declaration goes, each
stage call becomes ``(void)0`` and each copy the portable header's
``cudaport_pipeline_memcpy_async(dst, src, size)`` (CP231: the overlap is lost). Anything
else (a block-scope pipeline, a copy with a group or a barrier, the pipeline passed on) is
left as it is and reported (CP110).
"""

from __future__ import annotations

import bisect
import re

from ...source import lexer
from ..context import FileContext
from ...source.edits import Edit
from .block_barrier import _line_of, occurrences, scope_of
from ...source.lazy_re import lazy

_CUDA = rb"(?:::[ \t]*)?cuda[ \t]*::[ \t]*"
_DECLARATION = lazy(rb"(?<![\w$.>])auto[ \t]+([A-Za-z_]\w*)[ \t]*=[ \t]*" + _CUDA
                    + rb"make_pipeline[ \t]*\([ \t]*\)[ \t]*;")
_STAGE = rb"[ \t]*\.[ \t]*(?:producer_acquire|producer_commit|consumer_wait|consumer_release)" \
         rb"[ \t]*\([ \t]*\)"
_COPY = lazy(rb"(?<![\w$.>])" + _CUDA + rb"memcpy_async[ \t]*\(")
_ALIGNED = lazy(rb"\s*" + _CUDA + rb"aligned_size_t[ \t]*<")


def plan(ctx: FileContext) -> list[tuple[int, int, object, bool]]:
    """(start, end, replacement, is_copy) of every rewrite a provable pipeline needs."""
    if b"make_pipeline" not in ctx.src:
        return []
    code = ctx.code
    out: list[tuple[int, int, object, bool]] = []
    decls = list(_DECLARATION.finditer(code))
    if not decls:
        return []
    copies = [(m, lexer.split_arguments(ctx.src, m.end() - 1, brackets=ctx.brackets))
              for m in _COPY.finditer(code)]
    copy_starts = [m.start() for m, _ in copies]
    names = sorted({d.group(1) for d in decls}, key=len, reverse=True)
    alternation = b"|".join(map(re.escape, names))
    all_uses = occurrences(re.compile(rb"(?<![\w$.>:])(" + alternation + rb")(?![\w$])"), code)
    all_stages = occurrences(re.compile(rb"(?<![\w$.>:])(" + alternation + rb")" + _STAGE), code)
    for decl in decls:
        name = decl.group(1)
        start, end = scope_of(ctx, decl.start())
        uses = {u.start() for u in all_uses.within(name, start, end)}
        uses.discard(decl.start(1))
        edits: list[tuple[int, int, object, bool]] = [
            (*_line_of(ctx.src, decl.start(), decl.end()), b"", False)]
        for m in all_stages.within(name, start, end):
            uses.discard(m.start())
            edits.append((m.start(), m.end(), b"(void)0", False))
        first = bisect.bisect_left(copy_starts, start)
        for m, parsed in copies[first:bisect.bisect_left(copy_starts, end, first)]:
            if parsed is None or len(parsed[0]) != 4:
                continue
            args, close = parsed
            if ctx.src[args[3][0]:args[3][1]] != name:
                continue
            uses.discard(args[3][0])
            edits.append((m.start(), close, (b"cudaport_pipeline_memcpy_async(", args[0],
                                             b", ", args[1], b", ", *_size(ctx, args[2]),
                                             b")"), True))
        if not uses:
            out.extend(edits)
    return out


def _size(ctx: FileContext, span: tuple[int, int]) -> tuple:
    """``cuda::aligned_size_t<N>(x)`` -> ``(x)``; any other size as it is."""
    m = _ALIGNED.match(ctx.code, *span)
    targs = lexer.template_arguments(ctx.code, m.end() - 1) if m is not None else None
    paren = lexer.next_token(ctx.src, targs[-1][1] + 1) if targs else None
    if paren is not None and paren.text == b"(":
        parsed = lexer.split_arguments(ctx.src, paren.start, brackets=ctx.brackets)
        if parsed is not None and len(parsed[0]) == 1 and parsed[1] == span[1]:
            return (b"(", parsed[0][0], b")")
    return (span,)


def thread_pipelines(ctx: FileContext) -> list[tuple[int, int]]:
    """Add the rewrites of every provable thread-scope pipeline; return the spans rewritten
    (where the libcu++ names are no longer the file's). Each copy is CP231."""
    rule = f"{ctx.compiled.target.name}/thread-pipeline"
    spans = []
    for start, end, new, is_copy in plan(ctx):
        ctx.edits.append(Edit(start, end, new, rule))
        spans.append((start, end))
        if is_copy:
            ctx.find("CP231", start, "cuda::memcpy_async on a thread's cuda::pipeline: made "
                     "synchronous (cudaport's portable header copies at once; the stage calls "
                     "do nothing): the result is the same, but the copy no longer overlaps "
                     "the work issued after it", "cuda::memcpy_async", "cccl")
    return spans
