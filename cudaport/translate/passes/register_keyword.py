"""Drop the ``register`` storage class from C++ sources.

C++17 removed ``register``; nvcc still accepts it, while clang's HIP front end rejects it in
C++17 ("ISO C++17 does not allow 'register' storage class specifier"). Compilers have
ignored the hint for decades, so removing the keyword (and the blanks after it) keeps the
meaning. C files keep it: ``register`` is valid C.
"""

from __future__ import annotations


from ...source import lexer
from ..context import FileContext
from ...source.edits import Edit
from .registry import register
from ...source.lazy_re import lazy

_C_SUFFIXES = (".c",)


_BLANKS = lazy(rb"[ \t\f\v]*")
_KEYWORD = b"register"
CUDA_FREE = "CP182"


@register(126, "register-keyword")
def drop_register_keyword(ctx: FileContext) -> None:
    """Each whole word ``register`` in code: found with ``bytes.find`` (most files that
    have the word have it only in comments, "registers"), kept when the scan saw no
    comment, literal or ``#include`` name around it."""
    src = ctx.src
    if _KEYWORD not in src or ctx.path.endswith(_C_SUFFIXES):
        return
    edit = ctx.uses_cuda  # (a file with no CUDA is named, not edited: CP182)
    rule = f"{ctx.compiled.target.name}/register-storage-class"
    word = lexer.IDENT_BYTES
    headers = [(i.name_start, i.name_end) for i in ctx.scan.includes]
    at = src.find(_KEYWORD)
    while at >= 0:
        end = at + len(_KEYWORD)
        if (at == 0 or src[at - 1] not in word) and (end == len(src) or src[end] not in word) \
                and ctx.in_code(at, end) \
                and not any(start <= at < stop for start, stop in headers):
            if not edit:
                ctx.find(CUDA_FREE, at, "register: hipcc's clang rejects the storage class in "
                         "C++17; this file uses no CUDA, so it is left as written (a HIP "
                         "unit that includes it fails here unless the keyword is dropped)",
                         "register")
                return
            ctx.edits.append(Edit(at, _BLANKS.match(src, end).end(), b"", rule))
        at = src.find(_KEYWORD, end)
