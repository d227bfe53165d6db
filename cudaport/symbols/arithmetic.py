"""The integer type of a simple argument, as far as the text gives it: ``int`` or
``unsigned int``.

Used where CUDA and HIP resolve a call differently by its argument types: CUDA's
``min``/``max`` have overloads for an ``int`` beside an ``unsigned int`` (they compare as
``unsigned int``, crt/math_functions.hpp); HIP's have none (clang's __clang_hip_math.h: a
template for two arguments of one type, and ``int``, ``float``, ``double`` pairs), so
``min(numPts1-1, blockIdx.x*16 + ty)`` picks ``min(double, double)`` there (CudaSift's
matching.cu:45, "array subscript is not an integer").

Only what the text decides: literals, the built-in index variables, and names declared
(in a bounded window before the use) with ``int`` or ``unsigned int``, joined by ``+ - *
/ %`` and parentheses. Anything else (a call, a member, a cast, a shift, a comparison) is
None: not decided.
"""

from __future__ import annotations

import functools
import re
from ..source.lazy_re import lazy

INT, UNSIGNED = "int", "unsigned int"

_TOKEN = lazy(rb"\s*(?:([A-Za-z_]\w*)(?:\s*\.\s*([xyz])\b)?|(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)"
              rb"(?![\w.])|([-+*/%()]))")
_BUILTIN_INDEX = frozenset((b"threadIdx", b"blockIdx", b"blockDim", b"gridDim"))
_TYPES = {b"int": INT, b"signed": INT, b"signed int": INT, b"int32_t": INT,
          b"unsigned": UNSIGNED, b"unsigned int": UNSIGNED, b"uint32_t": UNSIGNED,
          b"uint": UNSIGNED}
_LOOK_BACK = 4000  # bytes read back from a use for its name's declaration


def integer_type(code: bytes, a: int, b: int) -> str | None:
    """INT or UNSIGNED for the expression ``code[a:b]``, or None when the text does not
    decide it (see the module)."""
    pos = a
    unsigned = False
    leaves = 0
    while pos < b:
        m = _TOKEN.match(code, pos, b)
        if m is None:
            return None if code[pos:b].strip() else _result(leaves, unsigned)
        pos = m.end()
        name, member, number, suffix = m.group(1), m.group(2), m.group(3), m.group(4)
        if name is not None:
            if member is not None:
                if name not in _BUILTIN_INDEX:
                    return None
                unsigned = True
            else:
                if name in _TYPES or re.match(rb"\s*(?:\(|\[|->|\.|::)", code[pos:b]):
                    return None  # (a cast, a call, an element, a member)
                found = _declared(code, name, a)
                if found is None:
                    return None
                unsigned |= found == UNSIGNED
            leaves += 1
        elif number is not None:
            if suffix.lower() not in (b"", b"u"):
                return None
            value = int(number, 16) if number[:2].lower() == b"0x" else int(number, 8) \
                if len(number) > 1 and number.startswith(b"0") else int(number)
            if value > 0xFFFFFFFF or (value > 0x7FFFFFFF and not suffix
                                      and not number.startswith(b"0")):
                return None  # (a long)
            unsigned |= bool(suffix) or value > 0x7FFFFFFF
            leaves += 1
    return _result(leaves, unsigned)


def _result(leaves: int, unsigned: bool) -> str | None:
    return (UNSIGNED if unsigned else INT) if leaves else None


def _declared(code: bytes, name: bytes, at: int) -> str | None:
    """INT or UNSIGNED when the last declaration of ``name`` before ``at`` (a parameter
    or a local, read back at most ``_LOOK_BACK`` bytes) gives it that type."""
    pattern, candidate = _declaration(name)
    low = max(0, at - _LOOK_BACK)
    # A declaration holds nothing but words and blanks before its last byte: the window's
    # declarations are those of its pieces between other bytes, read from the window's end
    # where the name stands after a blank and before a `= ; , ) [` (a candidate).
    read = at  # (pieces from here on are read)
    for q in reversed([m.start() for m in candidate.finditer(code, low, at)]):
        if q >= read:
            continue
        lo = q
        while lo > low and code[lo - 1] in _WORD_OR_BLANK:
            lo -= 1
        hi = q + len(name)
        while hi < at and code[hi] in _WORD_OR_BLANK:
            hi += 1
        last = None
        for m in pattern.finditer(code, lo, min(hi + 1, at)):
            last = m
        if last is not None:
            return _TYPES.get(re.sub(rb"\s+", b" ", last.group(1)))
        read = lo
    return None


@functools.lru_cache(maxsize=256)
def _declaration(name: bytes) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """A declaration of ``name`` with its type, and a candidate for its name."""
    word = re.escape(name)
    return (re.compile(rb"(?<![\w:])((?:unsigned|signed)(?:\s+int)?|int|int32_t|uint32_t|uint"
                       rb"|[A-Za-z_]\w*)\s+(?:const\s+)?" + word + rb"\s*[=;,)\[]"),
            re.compile(word + rb"(?<=\s" + word + rb")(?=\s*[=;,)\[])"))


_WORD_OR_BLANK = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ \t\n\r\f\v")


def declared_functions(code: bytes, names: tuple[bytes, ...]) -> frozenset[bytes]:
    """Which of ``names`` the file declares as functions of its own (``__device__ int
    min(int a, unsigned b)``: a name after a type, with declared parameters): a call of
    such a name may reach the project's overload, which the text does not tell apart.
    (The symbol model records the names the rule scan sees; ``min`` and ``max``, which the
    tables map to themselves, are not among them.)"""
    words = b"|".join(re.escape(n) for n in names)
    pattern = re.compile(rb"(?<![\w.>:])(?!return\b|else\b|case\b)[A-Za-z_][\w:<>]*[\s*&]+(" + words
                         + rb")\s*\(\s*(?:const\s+)?[A-Za-z_][\w:<>]*[\s*&]+[A-Za-z_]\w*\s*[,)=]")
    # Searched from every byte, the pattern is slow: its part from the name on is looked
    # for first (a literal leads it), and the part before read back from each name found.
    # No match holds a `(` before its name's, so a match's name is never inside another's
    # and each is found as it would be from the file's start; the part before the name is
    # a run of `[\w:<>]` bytes and one of blanks, `*`, `&`, so a match starts in that run.
    tail = re.compile(b"(" + b"|".join(re.escape(n) + rb"(?<=[\s*&]" + re.escape(n) + b")"
                                       for n in names)
                      + rb")\s*\(\s*(?:const\s+)?[A-Za-z_][\w:<>]*[\s*&]+[A-Za-z_]\w*\s*[,)=]")
    found = set()
    for t in tail.finditer(code):
        name = t.group(1)
        if name in found:
            continue
        end = t.start()
        while end > 0 and code[end - 1] in _BLANK_STAR_AMP:
            end -= 1
        begin = end
        while begin > 0 and code[begin - 1] in _TYPE_BYTES:
            begin -= 1
        for s in range(begin, end):
            m = pattern.match(code, s)
            if m is not None and m.start(1) == t.start():
                found.add(name)
                break
    return frozenset(found)


_BLANK_STAR_AMP = frozenset(b" \t\n\r\f\v*&")
_TYPE_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:<>")
