"""``thrust::cuda::par`` -> ``thrust::hip::par``: the device backend's namespace.

Thrust names its CUDA backend ``thrust::cuda`` (execution policies ``par``,
``par_nosync``); rocThrust names its device backend after the target (``thrust::hip``) and
a HIP build has no ``thrust::cuda``. The target's name for it is data:
``thrust-backend.txt`` in its rule folder (a target without the file is left alone).
"""

from __future__ import annotations


from ...source import lexer
from ..context import FileContext
from ...source.edits import Edit
from .data import target_data
from .registry import register
from ...source.lazy_re import lazy

_USE = lazy(lexer.word(b"thrust") + rb"[ \t]*::[ \t]*(cuda)[ \t]*::")


@register(33, "thrust-backend")
def thrust_backend(ctx: FileContext) -> None:
    uses = ctx.marked(b"thrust")
    if not uses:
        return
    backend = target_data(ctx, "thrust-backend.txt")
    if not backend:
        return
    new = backend[0].strip().encode()
    for m in (_USE.match(ctx.src, at) for at in uses):
        if m is not None and ctx.in_code(m.start(), m.end()):
            ctx.edits.append(Edit(m.start(1), m.end(1), new,
                                  f"{ctx.compiled.target.name}/thrust-backend"))
