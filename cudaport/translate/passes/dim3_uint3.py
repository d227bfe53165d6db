"""uint3 values made dim3s (CP227).

CUDA's dim3 converts from uint3 (vector_types.h: ``dim3(uint3 v)``); HIP's dim3
(hip_runtime_api.h, ROCm 6.4 and 7.2) has only ``dim3(uint32_t x, uint32_t y, uint32_t
z)``, so ``dim3 g; g = make_uint3(1, 2, 3);`` and ``dim3 g = make_uint3(...)`` do not
compile there. Where the destination is a dim3 the symbol model reads (a variable declared
dim3, or the declaration itself), ``make_uint3(x, y, z)`` becomes ``dim3(x, y, z)`` (the
same three unsigned values), and a uint3 variable ``u`` that initializes a dim3 becomes
``dim3(u.x, u.y, u.z)``. ``make_uint3(...)`` stored into a destination whose type is not
read (a member, an element) is a CP227 warning that names it. (Launch configurations are
the launches pass's: ``dim3_needs_fields``.)
"""

from __future__ import annotations

import bisect
import re

from ...source import lexer
from ...source.edits import Edit
from ..context import FileContext
from .registry import register
from ...source.lazy_re import lazy

_MAKE = b"make_uint3"
_DIM3 = b"dim3"
_BEFORE_ASSIGN = frozenset(b"=!<>+-*/%&|^")
_IDENT = lazy(rb"[A-Za-z_]\w*\Z")
_NOT_TYPES = frozenset(b"return case else do throw co_return co_yield".split())
_NOT_BEFORE = lexer.IDENT_BYTES | frozenset(b".")


@register(44, "dim3-uint3")
def dim3_uint3(ctx: FileContext) -> None:
    types = ctx.compiled.target.extra.get("dim3_needs_fields") or ()
    if "uint3" not in types or b"uint3" not in ctx.src:
        return
    if _MAKE not in ctx.src and _DIM3 not in ctx.src:
        return
    code = ctx.code  # (comments and literals blanked: a name found there is code)
    rule = f"{ctx.compiled.target.name}/dim3-uint3"
    for start, name in lexer.find_words(code, (_MAKE, _DIM3), _NOT_BEFORE):
        if name == _MAKE:
            _made(ctx, code, start, rule)
        else:
            _declared(ctx, code, start, rule)
    _assigned(ctx, code, rule)


_UINT3_NAME = lazy(rb"uint3(?<![\w$]uint3)[ \t\r\n]+([A-Za-z_]\w*)")


def _assigned(ctx: FileContext, code: bytes, rule: str) -> None:
    """``g = u;`` with ``g`` declared dim3 and ``u`` declared uint3: ``u`` becomes
    ``dim3(u.x, u.y, u.z)`` (one search for simple assignments, the names the file declares
    uint3 asked of the model)."""
    names = {m.group(1) for m in _UINT3_NAME.finditer(code)}
    if not names:
        return
    callee = ctx.symbols.callee
    # (`= u;` searched for, its `=` first; the name assigned to read back from it)
    values = re.compile(rb"=[ \t]*(" + b"|".join(re.escape(n) for n in sorted(
        names, key=len, reverse=True)) + rb")[ \t]*;")
    for m in values.finditer(code):
        value = m.group(1)
        end = m.start()
        while end > 0 and code[end - 1] in b" \t":
            end -= 1
        start = end
        while start > 0 and code[start - 1] in _WORD:
            start -= 1
        if start == end or code[start] in _DIGITS \
                or code[start - 1:start] in (b".", b">", b":"):
            continue
        if callee.argument_type(start, end) == _DIM3 \
                and callee.argument_type(m.start(1), m.end(1)) == b"uint3":
            ctx.edits.append(Edit(m.start(1), m.end(1),
                                  b"dim3(" + value + b".x, " + value + b".y, " + value + b".z)",
                                  rule))


_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_DIGITS = frozenset(b"0123456789")


def _made(ctx: FileContext, code: bytes, start: int, rule: str) -> None:
    """``X = make_uint3(...)``, ``dim3 X = make_uint3(...)``, ``dim3 X(make_uint3(...))``."""
    paren = lexer.next_token(code, start + len(_MAKE))
    if paren is None or paren.text != b"(":
        return
    parsed = lexer.split_arguments(code, paren.start)
    if parsed is None:
        return
    after = lexer.next_token(code, parsed[1])
    if after is None or after.text not in (b";", b",", b")", b"}", b">>>"):
        return  # (not the whole value: make_uint3(...).x, a sum)
    before = _token_before(code, start)
    if before is None:
        return
    at, text = before
    if text in (b"<", b",") and (after.text == b"," or after.text[:1] == b">") \
            and _in_launch_config(ctx, code, start):
        # (a whole argument of a launch configuration, `k<<<make_uint3(2, 1, 1), b>>>`)
        ctx.edits.append(Edit(start, start + len(_MAKE), _DIM3, rule))
        return
    if text == b"=" and (at == 0 or code[at - 1] not in _BEFORE_ASSIGN):
        target = _token_before(code, at)
        if target is None:
            return
        t_at, t_text = target
        if _IDENT.match(t_text) is None:
            if t_text == b"]":
                ctx.find("CP227", start, "make_uint3(...) stored into an array element: if "
                         "it is a dim3, HIP's dim3 has no conversion from uint3; write "
                         "dim3(x, y, z)", "make_uint3", "device")
            return
        prior = _token_before(code, t_at)
        if prior is not None and prior[1] in (b".", b"->", b"::"):
            ctx.find("CP227", start, f"make_uint3(...) stored into a member "
                     f"({t_text.decode()}): if it is a dim3, HIP's dim3 has no conversion "
                     "from uint3; write dim3(x, y, z)",
                     "make_uint3", "device")
            return
        if prior is not None and prior[1] == _DIM3:
            ctx.edits.append(Edit(start, start + len(_MAKE), _DIM3, rule))
            return
        if prior is not None and _IDENT.match(prior[1]) and prior[1] not in _NOT_TYPES:
            return  # (`uint3 u = make_uint3(...)`, `auto u = ...`: a declaration of its own type)
        declared = ctx.symbols.callee.argument_type(t_at, t_at + len(t_text))
        if declared is None:
            ctx.find("CP227", start, f"make_uint3(...) stored into {t_text.decode()}, whose "
                     "type cudaport does not read: if it is a dim3, HIP's dim3 has no "
                     "conversion from uint3; write dim3(x, y, z)", "make_uint3", "device")
        elif declared == _DIM3:
            ctx.edits.append(Edit(start, start + len(_MAKE), _DIM3, rule))
    elif text in (b"(", b"{") and after.text in (b")", b"}"):
        target = _token_before(code, at)
        prior = _token_before(code, target[0]) if target is not None else None
        outer = _token_before(code, prior[0]) if prior is not None else None
        if prior is not None and prior[1] == _DIM3 and (outer is None or outer[1] not in (
                b".", b"->", b"::")):
            ctx.edits.append(Edit(start, start + len(_MAKE), _DIM3, rule))


def _declared(ctx: FileContext, code: bytes, start: int, rule: str) -> None:
    """``dim3 X = u;``, ``dim3 X(u);``, ``dim3 X{u};`` with ``u`` declared uint3."""
    name = lexer.next_token(code, start + len(_DIM3))
    if name is None or name.kind != "ident":
        return
    open_ = lexer.next_token(code, name.end)
    if open_ is None or open_.text not in (b"=", b"(", b"{"):
        return
    value = lexer.next_token(code, open_.end)
    if value is None or value.kind != "ident":
        return
    close = lexer.next_token(code, value.end)
    want = {b"=": (b";", b","), b"(": (b")",), b"{": (b"}",)}[open_.text]
    if close is None or close.text not in want:
        return
    declared = ctx.symbols.callee.argument_type(value.start, value.end)
    if declared == b"uint3":
        v = value.text
        ctx.edits.append(Edit(value.start, value.end,
                              b"dim3(" + v + b".x, " + v + b".y, " + v + b".z)", rule))


def _in_launch_config(ctx: FileContext, code: bytes, start: int) -> bool:
    """Whether ``start`` is between a ``<<<`` of the scan and its ``>>>``."""
    i = bisect.bisect_right(ctx.scan.launches, start) - 1
    if i < 0:
        return False
    opened = ctx.scan.launches[i]
    close = code.find(b">>>", opened + 3)
    return close > start and b";" not in code[opened:start]


def _token_before(code: bytes, at: int) -> tuple[int, bytes] | None:
    """The token that ends before ``at`` (skipping blanks): (start, text); an identifier
    whole, ``->``/``::`` as one, else one byte."""
    i = at
    while i > 0 and code[i - 1] in b" \t\r\n":
        i -= 1
    if i == 0:
        return None
    c = code[i - 1:i]
    if c.isalnum() or c == b"_":
        j = i
        while j > 0 and (code[j - 1:j].isalnum() or code[j - 1:j] == b"_"):
            j -= 1
        return j, code[j:i]
    if i >= 2 and code[i - 2:i] in (b"->", b"::"):
        return i - 2, code[i - 2:i]
    return i - 1, c
