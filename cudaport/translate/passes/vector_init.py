"""Braced initializers of CUDA vector types that the target's vector types reject (CP222).

CUDA's ``float4``, ``uint2`` ... are plain structs, so aggregate initialization fills the
components given and zeroes the rest: ``float4 v = {0};``, ``float4 v = {1, 2};``, and for
arrays the braces may be elided, ``uint2 a[25] = {0};`` (tpruvot/ccminer) or
``uint2 a[2] = {1, 2, 3, 4};``. HIP's are classes with constructors
(``hip/amd_detail/amd_hip_vector_types.h``): one taking a value for every component and an
explicit one taking a single value, so each of those forms fails to compile (``no viable
conversion from 'int' to 'uint2'``, ``chosen constructor is explicit in
copy-initialization``; ``float1 v = {0.f};`` too). ``{}`` value-initializes on both, so a list of one literal zero
becomes ``{}`` (information); the other forms are errors that say what to write.

Only lists the text decides are reported: a single value that is not a number literal may
be a vector itself (``float2 v = {other};`` copies on both).
"""

from __future__ import annotations

import functools

from ...source import lexer
from ..context import FileContext
from ...source.edits import Edit
from ...rules.hazards import target_facts
from .registry import register
from ...source.lazy_re import lazy

CODE = "CP222"
# Found from the `= {` backwards, a few bytes read per brace: a regex that tried the type
# names at every byte of a file cost more than the whole text engine.
_BRACED = lazy(rb"=[ \t\r\n]*\{")
_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_BLANKS = b" \t\r\n"
_NUMBER = lazy(rb"[-+]?(?:\d[\w.']*|\.\d[\w']*)\Z")
_ZERO = lazy(rb"(?:0[xX]0+|0+|0*\.0*|0+\.0*)(?:[eE][-+]?\d+)?[fFuUlL]*\Z")


@register(44, "vector-init")
def vector_init(ctx: FileContext) -> None:
    facts = target_facts(ctx.compiled.target).get("vector_init")
    if not facts or not ctx.options.hazards:
        return
    types = _type_names(tuple(facts["types"]))
    src = ctx.src  # (the raw bytes first: most files have no such list, and no need of code)
    if not any(_declared_type(src, b.start(), types) for b in _BRACED.finditer(src)):
        return
    code = ctx.code
    for brace in _BRACED.finditer(code):
        declared = _declared_type(code, brace.start(), types)
        if declared is None:
            continue
        name, array = declared
        open_brace = brace.end() - 1
        parsed = lexer.split_arguments(ctx.src, open_brace, b"}", brackets=ctx.brackets)
        if parsed is None:
            continue
        values = [ctx.src[a:b] for a, b in parsed[0] if b > a]  # (not a trailing comma's)
        close = parsed[1]
        problem = _problem(values, int(name[-1:]), array)
        if problem is None:
            continue
        shown = name.decode()
        why = (f"{ctx.compiled.target.title}'s {shown} is a class with constructors "
               f"({facts['header']}), not an aggregate: {problem}")
        if len(values) == 1 and _ZERO.match(values[0]):
            ctx.edits.append(Edit(open_brace, close, b"{}",
                                  f"{ctx.compiled.target.name}/vector-init"))
            ctx.find(CODE, open_brace, f"{why}; the translation writes {{}}, which zeroes "
                     "every component on both", shown, "device", "info")
        else:
            ctx.find(CODE, open_brace, f"{why}; give every component, grouped per element "
                     "for an array ({1, 2}, {{1, 2}, {3, 4}}), or {} for zeros", shown, "device")


@functools.cache
def _type_names(types: tuple[str, ...]) -> frozenset[bytes]:
    return frozenset(t.encode() for t in types)


def _declared_type(code: bytes, at: int, types: frozenset[bytes]) -> tuple[bytes, bool] | None:
    """(vector type, whether an array) of ``TYPE name[...] =`` ending at ``at``, else None."""
    if at and code[at - 1] in b"=!<>+-*/%&|^":  # (`==`, `+=` ...)
        return None
    end = _skip_blanks(code, at)
    array = end > 0 and code[end - 1] == 0x5D  # "]"
    if array:
        end = code.rfind(b"[", max(0, end - 200), end)
        if end < 0:
            return None
        end = _skip_blanks(code, end)
    variable = _word_before(code, end)
    if variable == end:
        return None
    end = _skip_blanks(code, variable)
    start = _word_before(code, end)
    if end == variable or start == end:  # (no blank between type and name; no type)
        return None
    word = code[start:end]
    if word not in types or start and code[start - 1] in b"$.>:":
        return None
    return word, array


def _skip_blanks(code: bytes, end: int) -> int:
    while end > 0 and code[end - 1] in _BLANKS:
        end -= 1
    return end


def _word_before(code: bytes, end: int) -> int:
    """Start of the identifier that ends at ``end`` (``end`` when there is none)."""
    start = end
    while start > 0 and code[start - 1] in _WORD_BYTES:
        start -= 1
    return start if start == end or not code[start:start + 1].isdigit() else end


def _problem(values: list[bytes], components: int, array: bool) -> str | None:
    """What the list does that the target's constructors reject (None: nothing the text
    shows: a full list, nested lists, or one value that may be a vector)."""
    if not values or any(v.startswith(b"{") for v in values):
        return None
    if array:
        if any(_NUMBER.match(v) for v in values):
            return "the array's values are not grouped per element"
        return None
    if len(values) == 1:  # (float1 too: that constructor is explicit)
        if _NUMBER.match(values[0]):
            return "a single value initializes it only through an explicit constructor"
        return None  # (maybe a vector: copied on both)
    if len(values) < components:
        return f"{len(values)} of its {components} components are given"
    return None
