"""Separate a string literal from a CUDA qualifier written right after it,
``extern "C"__global__``.

nvcc reads ``__global__`` there as the qualifier; HIP defines ``__global__`` (and the other
execution-space and memory qualifiers) as macros, and C++11 lexes ``"C"__global__`` as one
string literal with a user-defined suffix before any macro expands, so clang rejects it
("string literal with user-defined suffix cannot be used here"). A space keeps the meaning.
"""

from __future__ import annotations

import bisect

from .. import lexer
from ..context import FileContext
from ..edits import Edit
from .registry import register

_QUALIFIERS = frozenset({
    b"__global__", b"__device__", b"__host__", b"__shared__", b"__constant__",
    b"__managed__", b"__forceinline__", b"__noinline__", b"__launch_bounds__",
})


@register(125, "literal-suffix")
def separate_literal_qualifiers(ctx: FileContext) -> None:
    """Each ``"__qualifier`` whose quote closes a string literal the scan found (not an
    ``#include`` name): a find per occurrence instead of tokenizing the file."""
    src = ctx.src
    at = src.find(b'"__')
    if at < 0:
        return
    rule = f"{ctx.compiled.target.name}/literal-qualifier-space"
    literals = ctx.scan.literals
    headers = {i.name_end for i in ctx.scan.includes}
    while at >= 0:
        word = lexer.IDENT_RE.match(src, at + 1)
        if word is not None and word.group() in _QUALIFIERS and at not in headers:
            i = bisect.bisect_right(literals, (at, len(src))) - 1
            if i >= 0 and literals[i][1] == at + 1:
                ctx.edits.append(Edit(at + 1, at + 1, b" ", rule))
        at = src.find(b'"__', at + 1)
