"""CUDA functions the target lacks that a file defines itself (a polyfill).

ROCm/aiter's csrc/cpp_itfs/sampling/vec_dtypes.cuh defines ``__float2bfloat162_rn`` and
``make_bfloat162`` for its HIP build, since HIP's bf16 header has neither: every call in
that file reaches the project's definition, so none is an unmapped API (CP101). A name
counts when the file defines it as a function with a body outside any class and any named
namespace (``T name(params) {`` at global scope); uses in other files are still reported,
as they may not see it. A definition in ``namespace mine`` is ``mine::name``: an unqualified
call outside that namespace still reaches CUDA's function, so such a definition counts only
when every use of the name in the file is the definition, ``mine::name`` or inside
``namespace mine`` (flashinfer's scale_convert.cuh: ``detail::float_as_uint(v)``).
"""

from __future__ import annotations

from ..source import lexer
from .project_names import _in_class_body
from .roles import qualifier
from .scopes import is_declaration

_AFTER_PARAMETERS = frozenset((b"const", b"noexcept", b"override", b"final", b"volatile"))


def defined_functions(ctx, candidates: set[bytes]) -> dict[bytes, int]:
    """name -> offset of its definition, for the ``candidates`` the file defines."""
    code = ctx.code
    found: dict[bytes, int] = {}
    skeleton = ctx.skeleton if b"namespace" in code else None
    inside: dict[bytes, tuple[int, bytes]] = {}  # name -> (definition, its namespace)
    for start, name, context in ctx.scan.idents:
        if context != "code" or name not in candidates or name in found:
            continue
        if not is_declaration(code, start, len(name)) or _in_class_body(ctx, start):
            continue
        space = skeleton.namespace_at(start) if skeleton is not None else b""
        if space and name in inside:
            continue
        paren = lexer.next_token(code, start + len(name))
        close = ctx.brackets.close_end(paren.start) if paren is not None else None
        if close is None:
            continue
        after = lexer.next_token(code, close)
        while after is not None and after.text in _AFTER_PARAMETERS:
            after = lexer.next_token(code, after.end)
        if after is not None and after.text == b"{":
            if space:
                inside[name] = (start, space)
            else:
                found[name] = start
    if not inside:
        return found
    uses: dict[bytes, list[int]] = {}
    for at, n, context in ctx.scan.idents:
        if n in inside and context == "code":
            uses.setdefault(n, []).append(at)
    for name, (start, space) in inside.items():
        if name not in found and all(
                at == start or qualifier(code, at) == space.rsplit(b"::", 1)[-1]
                or skeleton.namespace_at(at) == space for at in uses.get(name, ())):
            found[name] = start
    return found
