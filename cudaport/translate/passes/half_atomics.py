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
from ...source.lazy_re import lazy

_NAME = b"atomicAdd"
_TO = b"cudaport_atomic_add"
# the pointee types (CUDA's spellings, and HIP's for a file already half ported)
_TYPES = frozenset(b"""__half2 half2 __half half __nv_bfloat162 nv_bfloat162 __nv_bfloat16
nv_bfloat16 __hip_bfloat162 __hip_bfloat16 hip_bfloat16""".split())
_CAST = lazy(rb"\(\s*(?:const\s+|volatile\s+)*([A-Za-z_]\w*)\s*\*\s*\)|"
             rb"reinterpret_cast\s*<\s*(?:const\s+|volatile\s+)*([A-Za-z_]\w*)\s*\*\s*>")


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
        if pointee in _TYPES or pointee == MEMBER \
                and _value_type(symbols.callee, code, *parsed[0][1]) in _TYPES:
            ctx.edits.append(Edit(start, start + len(_NAME), _TO,
                                  f"{ctx.compiled.target.name}/half-atomics"))


MEMBER = b"<member>"  # (the pointer is a member, `s.p`, plus an offset: its type not read)


def _pointee(callee, code: bytes, a: int, b: int) -> bytes | None:
    """The type the pointer argument ``code[a:b]`` points to, where it is read: a cast, the
    address of a declared value or array element, a declared pointer plus or minus integer
    offsets (``p + i``, ``i + p``, ``p - 2``, parenthesized or not); MEMBER where the
    pointer is a member (``s.p``, ``s->p + i``, ``&s.p[i]``) with offsets no other pointer
    can stand in; None when not read."""
    toks = _strip(_tokens(code, a, b))
    if not toks:
        return None
    text = code[toks[0].start:toks[-1].end]
    cast = _CAST.match(text)
    if cast is not None:
        return cast.group(1) or cast.group(2)
    if toks[0].text == b"&":
        return _address(callee, code, _strip(toks[1:]))
    terms = _terms(toks)
    if terms is None:
        return None
    others_are_offsets = True
    pointer = None  # (the one term that may be the pointer, with its sign)
    for sign, term in terms:
        term = _strip(term)
        if term and term[0].kind == "ident" and (len(term) == 1 or term[1].text == b"[" and (
                _closing(term, 1) == len(term) - 1)):  # (`p`, `rows[r]`)
            declared = callee.argument_type(term[0].start, term[-1].end)
            if declared is not None and declared.endswith(b"*"):
                if declared.endswith(b"**") or sign != b"+":
                    return None  # (`q + i` of a pointer to pointers; `i - p`)
                return _base(declared[:-1])
            if declared is not None and _integer(declared) and len(terms) > 1:
                continue
        elif len(terms) > 1 and _offset(term):
            continue
        if pointer is not None:
            others_are_offsets = False
        pointer = (sign, term)
    if pointer is None or not others_are_offsets or pointer[0] != b"+":
        return None
    return MEMBER if _member(pointer[1]) else None


def _address(callee, code: bytes, toks) -> bytes | None:
    """The pointee of ``&operand``: a declared value, an element of a declared array or
    pointer, a member or an element of one (MEMBER)."""
    if not toks:
        return None
    if toks[-1].text == b"]":
        open_at = _opening(toks)
        if open_at is None:
            return None
        operand, indexed = toks[:open_at], True
    else:
        operand, indexed = toks, False
    if _member(operand):
        return MEMBER
    if len(operand) != 1 or operand[0].kind != "ident":
        return None
    declared = callee.argument_type(operand[0].start, operand[0].end)
    if declared is None:
        return None
    if indexed:  # (&p[i] of a pointer, &a[i] of an array)
        declared = declared[:-1] if declared.endswith(b"*") else declared
    return None if declared.endswith(b"*") else _base(declared)


def _tokens(code: bytes, a: int, b: int):
    return [t for t in lexer.tokenize(code, a, b) if t.kind not in lexer.TRIVIA]


def _strip(toks):
    """The tokens without parentheses around them all: ``((p + i))`` -> ``p + i``."""
    while len(toks) >= 2 and toks[0].text == b"(" and toks[-1].text == b")" \
            and _closing(toks, 0) == len(toks) - 1:
        toks = toks[1:-1]
    return toks


def _closing(toks, i: int) -> int | None:
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j].text
        if t in (b"(", b"[", b"{"):
            depth += 1
        elif t in (b")", b"]", b"}"):
            depth -= 1
            if depth == 0:
                return j
    return None


def _opening(toks) -> int | None:
    """The index of the `[` that the last token, `]`, closes."""
    depth = 0
    for j in range(len(toks) - 1, -1, -1):
        t = toks[j].text
        if t in (b")", b"]", b"}"):
            depth += 1
        elif t in (b"(", b"[", b"{"):
            depth -= 1
            if depth == 0:
                return j if t == b"[" else None
    return None


def _terms(toks):
    """``p + i * 2 - 1`` -> the terms with the sign before each ([(+, p), (+, i * 2),
    (-, 1)]); None where the expression holds another operator at its top level (a
    conditional, an assignment, a comma)."""
    terms, sign, begin, depth = [], b"+", 0, 0
    for j, t in enumerate(toks):
        if t.text in (b"(", b"[", b"{"):
            depth += 1
        elif t.text in (b")", b"]", b"}"):
            depth -= 1
        elif depth == 0 and t.text in (b"+", b"-") and j > begin \
                and (toks[j - 1].kind in ("ident", "number") or toks[j - 1].text in (b")", b"]")):
            terms.append((sign, toks[begin:j]))
            sign, begin = t.text, j + 1
        elif depth == 0 and t.kind == "punct" and t.text not in _IN_TERM:
            return None
    if depth != 0 or begin >= len(toks):
        return None
    terms.append((sign, toks[begin:]))
    return terms


# operators a term of an offset expression holds at its top level (`.`/`->` of a member,
# `::` of a qualified name, a product's)
_IN_TERM = frozenset(b". -> :: * / % + -".split())


def _member(toks) -> bool:
    """``s.p``, ``s->a.p``: a member of a named object."""
    return len(toks) >= 3 and len(toks) % 2 == 1 and all(
        t.kind == "ident" if i % 2 == 0 else t.text in (b".", b"->") for i, t in enumerate(toks))


def _offset(toks) -> bool:
    """A term that is no pointer: an integer literal, a product or quotient, a thread or
    block index."""
    if len(toks) == 1:
        return toks[0].kind == "number" and re.fullmatch(rb"(?:0[xX][0-9a-fA-F]+|[0-9]+)"
                                                         rb"[uUlL]*", toks[0].text) is not None
    if len(toks) == 3 and toks[0].text in _BUILTIN_INDEX and toks[1].text == b"." \
            and toks[2].text in (b"x", b"y", b"z"):
        return True
    depth = 0
    for t in toks:
        if t.text in (b"(", b"[", b"{"):
            depth += 1
        elif t.text in (b")", b"]", b"}"):
            depth -= 1
        elif depth == 0 and t.text in (b"*", b"/", b"%") and t is not toks[0]:
            return True  # (a product: no pointer is one)
    return False


_BUILTIN_INDEX = frozenset(b"threadIdx blockIdx blockDim gridDim".split())
_INTEGER_WORDS = frozenset(b"""int unsigned signed long short char size_t ptrdiff_t int8_t
int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t uint""".split())


def _integer(declared: bytes) -> bool:
    words = _base_words(declared)
    return bool(words) and all(w in _INTEGER_WORDS for w in words)


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


_ONE_NAME = lazy(rb"[A-Za-z_]\w*")


def _base(declared: bytes) -> bytes:
    """``__half2 __restrict__`` -> ``__half2``."""
    words = _base_words(declared)
    return words[-1] if words else b""


def _base_words(declared: bytes) -> list[bytes]:
    return [w for w in declared.split(b" ") if w not in _QUALIFIERS]


_QUALIFIERS = frozenset(b"__restrict__ __restrict restrict const volatile".split())
