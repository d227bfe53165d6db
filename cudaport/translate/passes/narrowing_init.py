"""A negative constant in braces converted to an unsigned type, ``size_type {-1}`` (CP181).

nvcc's front end accepts the narrowing of a constant in a braced functional cast (the value
converts modulo 2**N, the type's largest value for -1); clang, hipcc's compiler, rejects it
("constant expression evaluates to -1 which cannot be narrowed to type 'size_type'").
Taskflow's ``cudaDeviceAllocator::max_size`` returns ``size_type {-1}`` in a header every
CUDA unit of the project includes. The braces become parentheses, ``size_type(-1)``: the
conversion nvcc makes, the same value.

The type is a builtin unsigned integer spelled as one name (``unsigned``, ``size_t``,
``std::uint32_t`` ...) or an alias of one the file declares (``using size_type =
std::size_t;``, ``typedef unsigned int uint;``): for a class type braces and parentheses
may pick other constructors, so any other name is left as written. One search of the
code for the braces, one for the aliases.
"""

from __future__ import annotations

import re

from ..context import FileContext
from ...source.edits import Edit
from .registry import register
from ...source.lazy_re import lazy

CODE, CUDA_FREE = "CP181", "CP182"
_UNSIGNED = (rb"unsigned(?:\s+(?:char|short|int|long(?:\s+long)?)(?:\s+int)?)?"
             rb"|(?:std\s*::\s*)?(?:size_t|uintptr_t|uintmax_t|uint(?:8|16|32|64)_t)")
# `{-1}`, `{ -0x1 }`: braces holding a negative integer literal (the type is read backwards
# from the brace: a regex that tried the name at every byte cost a scan of each word)
_BRACES = lazy(rb"\{[ \t]*-[ \t]*(?:0[xX][0-9a-fA-F']+|\d[\d']*)[lL]*[ \t]*\}")
_NAME_BEFORE = lazy(rb"((?:\w+[ \t]*::[ \t]*)*\w+)[ \t]*\Z")
_WINDOW = 80  # bytes read back from the brace for the type's name
_ALIAS = lazy(rb"\busing\s+(\w+)\s*=\s*(?:" + _UNSIGNED + rb")\s*;"
              rb"|\btypedef\s+(?:" + _UNSIGNED + rb")\s+(\w+)\s*;")
_ONE_NAME = lazy(rb"(?:std\s*::\s*)?(?:unsigned|size_t|uintptr_t|uintmax_t|"
                 rb"uint(?:8|16|32|64)_t)\Z")


@register(125, "narrowing-init")
def narrowing_init(ctx: FileContext) -> None:
    """Each braced negative literal after a name that is an unsigned integer type."""
    if b"{" not in ctx.src or b"-" not in ctx.src or ctx.path.endswith(".c"):
        return
    code = ctx.code
    found = list(_BRACES.finditer(code))
    if not found:
        return
    aliases = {a or b for a, b in _ALIAS.findall(code)}
    rule = f"{ctx.compiled.target.name}/narrowing-braced-cast"
    edit = ctx.uses_cuda  # (a file with no CUDA is named, not edited: CP182)
    for m in found:
        open_at, close_at = m.start(), m.end() - 1
        before = code[max(0, open_at - _WINDOW):open_at]
        n = _NAME_BEFORE.search(before)
        if n is None:
            continue
        start = open_at - len(before) + n.start(1)
        if start > 0 and code[start - 1:start] in (b".", b">", b":"):
            continue  # (a member, or a name the window cut)
        name = re.sub(rb"\s+", b"", n.group(1))
        if not (_ONE_NAME.match(name) or name in aliases):
            continue
        shown = name.decode()
        value = re.sub(rb"\s+", b"", code[open_at + 1:close_at]).decode()
        if not edit:
            ctx.find(CUDA_FREE, start, f"{shown}{{{value}}}: a negative constant narrowed to "
                     "an unsigned type in braces, which hipcc's clang rejects; this file "
                     "uses no CUDA, so it is left as written (a HIP unit that includes it "
                     f"fails here unless it is written {shown}({value}))", shown)
            continue
        ctx.edits.append(Edit(open_at, open_at + 1, b"(", rule))
        ctx.edits.append(Edit(close_at, close_at + 1, b")", rule))
        ctx.find(CODE, start, f"{shown}{{{value}}}: a negative constant narrowed to an "
                 "unsigned type in braces, which nvcc accepts and hipcc's clang rejects: "
                 "written with parentheses, the conversion nvcc makes (same value)",
                 shown, "", "info")
