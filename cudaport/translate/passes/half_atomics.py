"""atomicAdd on 16-bit floating-point values: ``__half2``, ``__half``, ``__nv_bfloat162`` and
``__nv_bfloat16`` (cuda_fp16.h, cuda_bf16.h).

HIP 6.4 and 7.2 declare no atomicAdd for these types, so such a call fails to compile on
the target. Where the symbol model reads the pointer argument's type (a declared pointer,
``&array[i]``, ``&value``, a cast ``(__half2*)p``) as one of them, the call becomes the
portable header's ``cudaport_atomic_add`` (section half_atomics), which computes the same
(see the header). A call of the project's own ``atomicAdd`` stays as written.
"""

from __future__ import annotations

import re

from ...source import lexer
from ...source.edits import Edit
from ..context import FileContext
from ..portable import header_path, load
from .registry import register

_NAME = b"atomicAdd"
_TO = b"cudaport_atomic_add"
# the pointee types (CUDA's spellings, and HIP's for a file already half ported)
_TYPES = frozenset(b"""__half2 half2 __half half __nv_bfloat162 nv_bfloat162 __nv_bfloat16
nv_bfloat16 __hip_bfloat162 __hip_bfloat16 hip_bfloat16""".split())
_CAST = re.compile(rb"\(\s*(?:const\s+|volatile\s+)*([A-Za-z_]\w*)\s*\*\s*\)|"
                   rb"reinterpret_cast\s*<\s*(?:const\s+|volatile\s+)*([A-Za-z_]\w*)\s*\*\s*>")
_ADDRESS = re.compile(rb"&\s*([A-Za-z_]\w*)\s*(\[[^\[\]]*\])?\s*\Z")
_PLUS = re.compile(rb"([A-Za-z_]\w*)\s*\+")


@register(34, "half-atomics")
def half_atomics(ctx: FileContext) -> None:
    hits = [start for start, name, where in ctx.scan.idents if name == _NAME and where == "code"]
    if not hits or (b"half" not in ctx.src and b"bfloat16" not in ctx.src):
        return
    header = load(header_path(ctx.compiled.table.files))
    if header is None or _TO not in header.provides:
        return  # (a target whose portable header has no such function)
    symbols = ctx.symbols
    code = ctx.code
    for start in hits:
        ref = symbols.ref(start)
        if ref is not None and ref.owner == "project":
            continue
        paren = lexer.next_token(code, start + len(_NAME))
        if paren is None or paren.text != b"(":
            continue
        parsed = lexer.split_arguments(code, paren.start)
        if parsed is None or len(parsed[0]) != 2:
            continue
        pointee = _pointee(symbols.callee, code, *parsed[0][0])
        # (the value's type only where the pointer is a member, `s.p`: each reading is a
        # search of the function back to a few kilobytes)
        if pointee in _TYPES or pointee is None and _is_member(code, *parsed[0][0]) \
                and _value_type(symbols.callee, code, *parsed[0][1]) in _TYPES:
            ctx.edits.append(Edit(start, start + len(_NAME), _TO,
                                  f"{ctx.compiled.target.name}/half-atomics"))


def _pointee(callee, code: bytes, a: int, b: int) -> bytes | None:
    """The type the pointer argument ``code[a:b]`` points to, where it is read: a cast, the
    address of a declared value or array element, a declared pointer (plus an offset)."""
    text = code[a:b].strip()
    cast = _CAST.match(text)
    if cast is not None:
        return cast.group(1) or cast.group(2)
    address = _ADDRESS.match(text)
    if address is not None:
        at = a + code[a:b].find(address.group(1))
        declared = callee.argument_type(at, at + len(address.group(1)))
        if declared is None:
            return None
        if address.group(2) is not None:  # (&p[i] of a pointer, &a[i] of an array)
            declared = declared[:-1] if declared.endswith(b"*") else declared
        return None if declared.endswith(b"*") else _base(declared)
    plus = _PLUS.match(text)
    end = a + (code[a:b].find(plus.group(1)) + len(plus.group(1)) if plus else len(code[a:b]))
    begin = end - len(plus.group(1)) if plus else a
    declared = callee.argument_type(begin, end)
    if declared is None or not declared.endswith(b"*") or declared.endswith(b"**"):
        return None
    return _base(declared[:-1])


def _is_member(code: bytes, a: int, b: int) -> bool:
    return _MEMBER.fullmatch(code[a:b].strip()) is not None


_MEMBER = re.compile(rb"[A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*)+")


def _value_type(callee, code: bytes, a: int, b: int) -> bytes | None:
    """The declared type of the value argument ``code[a:b]`` when it is one name: where the
    pointer's type is not read (a member ``s.p``), a half value still picks CUDA's half
    overload."""
    text = code[a:b].strip()
    if _ONE_NAME.fullmatch(text) is None:
        return None
    at = a + code[a:b].find(text)
    declared = callee.argument_type(at, at + len(text))
    return None if declared is None or declared.endswith(b"*") else _base(declared)


_ONE_NAME = re.compile(rb"[A-Za-z_]\w*")


def _base(declared: bytes) -> bytes:
    """``__half2 __restrict__`` -> ``__half2``."""
    words = [w for w in declared.split(b" ") if w not in _QUALIFIERS]
    return words[-1] if words else b""


_QUALIFIERS = frozenset(b"__restrict__ __restrict restrict const volatile".split())
