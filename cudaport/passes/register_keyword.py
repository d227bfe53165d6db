"""Drop the ``register`` storage class from C++ sources.

C++17 removed ``register``; nvcc still accepts it, while clang's HIP front end rejects it in
C++17 ("ISO C++17 does not allow 'register' storage class specifier"). Compilers have
ignored the hint for decades, so removing the keyword (and the blanks after it) keeps the
meaning. C files keep it: ``register`` is valid C.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .. import lexer
from ..context import FileContext
from ..edits import Edit
from .registry import register

_C_SUFFIXES = (".c",)


_BLANKS = re.compile(rb"[ \t\f\v]*")


@lru_cache(maxsize=1)
def _keyword_scanner() -> re.Pattern[bytes]:
    """The fast scanner (comments and literals skipped inside the regex engine) stopping
    only at identifiers starting with ``register``: tokenizing every file that merely
    mentions the word in a comment cost as much as the rest of the translation."""
    return lexer.scanner([b"register"])


@register(126, "register-keyword")
def drop_register_keyword(ctx: FileContext) -> None:
    src = ctx.src
    if b"register" not in src or ctx.path.endswith(_C_SUFFIXES):
        return
    rule = f"{ctx.compiled.target.name}/register-storage-class"
    ident = lexer.K_IDENT
    for m in _keyword_scanner().finditer(src):
        if m.group() != b"register" or lexer.SCAN_KIND[src[m.start()]] != ident:
            continue
        end = _BLANKS.match(src, m.end()).end()
        ctx.edits.append(Edit(m.start(), end, b"", rule))
