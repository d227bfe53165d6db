"""``min``/``max`` of an ``int`` and an ``unsigned int`` (CP177).

CUDA has overloads for the pair that compare as ``unsigned int``; HIP's set has none, so
the call picks ``min(double, double)`` or another floating pair there (a result of
another type and value: CudaSift's ``sift1[min(numPts1-1, blockIdx.x*16 + ty)]`` is "array
subscript is not an integer"). The ``int`` argument is made ``unsigned int``, the
conversion CUDA's overload makes: the same result, on both. Types come from the text
(:mod:`cudaport.symbols.arithmetic`); a call they do not decide is left as written.
"""

from __future__ import annotations


from ...rules.hazards import target_facts
from ...source import lexer
from ...source.edits import Edit
from ...symbols import arithmetic
from ..context import FileContext
from .registry import register
from ...source.lazy_re import lazy

CODE = "CP177"
# (not a member, not std::min or another namespace's: the byte before is read apart, as a
# pattern starting with a look-behind is tried at every byte of the file)
_CALL = lazy(rb"(min|max)[ \t]*\(")
_NOT_BEFORE = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.>:")


@register(44, "mixed-min-max")
def mixed_min_max(ctx: FileContext) -> None:
    if not ctx.uses_device or not (b"min" in ctx.src or b"max" in ctx.src) \
            or "mixed_min_max" not in target_facts(ctx.compiled.target):
        return
    code = ctx.code
    rule = f"{ctx.compiled.target.name}/mixed-min-max"
    # (the scan does not record min and max, which the table maps to themselves: one
    # search of the code, comments and literals blanked)
    own = arithmetic.declared_functions(code, (b"min", b"max"))
    for m in _CALL.finditer(code):
        start, name = m.start(1), m.group(1)
        if start and code[start - 1] in _NOT_BEFORE:
            continue
        if name in own or ctx.skeleton.host_only(start) or ctx.symbols.is_project(start):
            continue  # (the project's own min, host code)
        parsed = lexer.split_arguments(code, m.end() - 1, brackets=ctx.brackets)
        if parsed is None or len(parsed[0]) != 2:
            continue
        (a1, b1), (a2, b2) = parsed[0]
        types = arithmetic.integer_type(code, a1, b1), arithmetic.integer_type(code, a2, b2)
        if set(types) != {arithmetic.INT, arithmetic.UNSIGNED}:
            continue
        a, b = (a1, b1) if types[0] == arithmetic.INT else (a2, b2)
        ctx.edits.append(Edit(a, a, b"static_cast<unsigned int>(", rule))
        ctx.edits.append(Edit(b, b, b")", rule))
        call = name.decode()
        ctx.find(CODE, start, f"{call}({types[0]}, {types[1]}): CUDA's overload compares as "
                 f"unsigned int; HIP has no {call} for an int and an unsigned int and picks a "
                 f"floating-point one: the int argument is made unsigned int, as CUDA's "
                 f"overload does (same result)", call, "", "info")
