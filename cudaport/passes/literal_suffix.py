"""Separate a string literal from a CUDA qualifier written right after it,
``extern "C"__global__``.

nvcc reads ``__global__`` there as the qualifier; HIP defines ``__global__`` (and the other
execution-space and memory qualifiers) as macros, and C++11 lexes ``"C"__global__`` as one
string literal with a user-defined suffix before any macro expands, so clang rejects it
("string literal with user-defined suffix cannot be used here"). A space keeps the meaning.
"""

from __future__ import annotations

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
    src = ctx.src
    if b'"__' not in src:
        return
    rule = f"{ctx.compiled.target.name}/literal-qualifier-space"
    previous = None
    for tok in lexer.tokenize(src):
        if (tok.kind == "ident" and tok.text in _QUALIFIERS and previous is not None
                and previous.kind == "string" and previous.end == tok.start):
            ctx.edits.append(Edit(tok.start, tok.start, b" ", rule))
        previous = tok
