"""Drop the ``register`` storage class from C++ sources.

C++17 removed ``register``; nvcc still accepts it, while clang's HIP front end rejects it in
C++17 ("ISO C++17 does not allow 'register' storage class specifier"). Compilers have
ignored the hint for decades, so removing the keyword (and the blanks after it) keeps the
meaning. C files keep it: ``register`` is valid C.
"""

from __future__ import annotations

import re

from ..context import FileContext
from ..edits import Edit
from .registry import register

_C_SUFFIXES = (".c",)


_BLANKS = re.compile(rb"[ \t\f\v]*")
_KEYWORD = b"register"


@register(126, "register-keyword")
def drop_register_keyword(ctx: FileContext) -> None:
    """Each ``register`` the scan saw in code (not in a comment, literal or ``#include``
    name, nor inside a longer name)."""
    if ctx.path.endswith(_C_SUFFIXES):
        return
    rule = f"{ctx.compiled.target.name}/register-storage-class"
    for at in ctx.marked(_KEYWORD):
        end = at + len(_KEYWORD)
        ctx.edits.append(Edit(at, _BLANKS.match(ctx.src, end).end(), b"", rule))
