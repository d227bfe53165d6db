"""Separate a string literal from a CUDA qualifier written right after it,
``extern "C"__global__``.

nvcc reads ``__global__`` there as the qualifier; HIP defines ``__global__`` (and the other
execution-space and memory qualifiers) as macros, and C++11 lexes ``"C"__global__`` as one
string literal with a user-defined suffix before any macro expands, so clang rejects it
("string literal with user-defined suffix cannot be used here"). A space keeps the meaning.
"""

from __future__ import annotations

import bisect

from ..context import FileContext
from ...source.edits import Edit
from .registry import register

_QUALIFIERS = frozenset({
    b"__global__", b"__device__", b"__host__", b"__shared__", b"__constant__",
    b"__managed__", b"__forceinline__", b"__noinline__", b"__launch_bounds__",
})


@register(125, "literal-suffix")
def separate_literal_qualifiers(ctx: FileContext) -> None:
    """Each qualifier the scan saw in code right after the closing quote of a string
    literal it saw (not an ``#include`` name): no search of the file."""
    src = ctx.src
    starts = [s for s, name, where in ctx.scan.idents if name in _QUALIFIERS and where == "code"]
    starts += ctx.marked(*_QUALIFIERS)
    starts = [s for s in starts if src[s - 1:s] == b'"']
    if not starts:
        return
    rule = f"{ctx.compiled.target.name}/literal-qualifier-space"
    literals = ctx.scan.literals
    headers = {i.name_end + 1 for i in ctx.scan.includes}
    for at in sorted(starts):
        i = bisect.bisect_right(literals, (at - 1, len(src))) - 1
        if i >= 0 and literals[i][1] == at and at not in headers:
            ctx.edits.append(Edit(at, at, b" ", rule))
