"""A project class built from one number, which HIP's ``__half2`` makes ambiguous (CP176).

The model (:mod:`cudaport.symbols.conversions`) names the project's classes with
constructors from both ``__half2`` and ``__half``; where one is built from a single number
(``halfx2 one(1.f)``), nvcc calls the ``__half`` constructor and hipcc finds both viable.
The number is made a ``__half`` (``halfx2 one(__half(1.f))``), the call nvcc makes: the
same value, and it compiles for HIP.
"""

from __future__ import annotations

from ...rules.hazards import target_facts
from ...source.edits import Edit
from ...symbols import conversions
from ..context import FileContext
from .registry import register

CODE = "CP176"


@register(44, "half-pairs")
def half_pairs(ctx: FileContext) -> None:
    if not ctx.holds(b"half") or "half_pair_from_number" not in target_facts(ctx.compiled.target):
        return
    classes = conversions.carried(ctx.options)
    if b"half2" in ctx.src:
        classes = {**conversions.half_pair_classes(ctx.code), **classes}
    if not classes or not any(ctx.holds(n) for n in classes):
        return
    rule = f"{ctx.compiled.target.name}/half-pair-constructor"
    for start, end, name in conversions.one_number_builds(ctx.code, classes):
        element = classes[name]
        number = ctx.src[start:end]
        ctx.edits.append(Edit(start, start, element + b"(", rule))
        ctx.edits.append(Edit(end, end, b")", rule))
        ctx.find(CODE, start, f"{name.decode()} built from {number.decode()}: nvcc calls its "
                 f"{element.decode()} constructor (CUDA's __half2 takes no number); HIP's "
                 f"__half2 converts from a number too, so the call is ambiguous there: the "
                 f"number is made a {element.decode()}, as nvcc does (same value)",
                 name.decode(), "", "info")
