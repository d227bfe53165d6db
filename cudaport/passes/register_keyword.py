"""Drop the ``register`` storage class from C++ sources.

C++17 removed ``register``; nvcc still accepts it, while clang's HIP front end rejects it in
C++17 ("ISO C++17 does not allow 'register' storage class specifier"). Compilers have
ignored the hint for decades, so removing the keyword (and the blanks after it) keeps the
meaning. C files keep it: ``register`` is valid C.
"""

from __future__ import annotations

from .. import lexer
from ..context import FileContext
from ..edits import Edit
from .registry import register

_C_SUFFIXES = (".c",)


@register(126, "register-keyword")
def drop_register_keyword(ctx: FileContext) -> None:
    src = ctx.src
    if b"register" not in src or ctx.path.endswith(_C_SUFFIXES):
        return
    rule = f"{ctx.compiled.target.name}/register-storage-class"
    tokens = list(lexer.tokenize(src))
    for i, tok in enumerate(tokens):
        if tok.kind != "ident" or tok.text != b"register":
            continue
        end = tok.end
        if i + 1 < len(tokens) and tokens[i + 1].kind == "ws":
            end = tokens[i + 1].end
        ctx.edits.append(Edit(tok.start, end, b"", rule))
