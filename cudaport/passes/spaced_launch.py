"""Close up kernel-launch chevrons written with spaces, ``k << < g, b >> > (args)``.

nvcc accepts the spaced form (some formatters produce it, and rodinia ships it); clang's
HIP front end only knows ``<<<`` and ``>>>``. ``<<`` followed by a lone ``<`` is not
valid C++ otherwise, so the rewrite cannot touch anything but a launch.
"""

from __future__ import annotations

import re

from .. import lexer
from ..context import FileContext
from ..edits import Edit
from . import register

_CANDIDATE = re.compile(rb"<<[ \t]+<(?![<=])")


@register(120, "spaced-launch")  # whole files only
def close_spaced_chevrons(ctx: FileContext) -> None:
    src = ctx.src
    if _CANDIDATE.search(src) is None:
        return
    tokens = [t for t in lexer.tokenize(src) if t.kind not in lexer.TRIVIA]
    rule = f"{ctx.compiled.target.name}/launch-chevrons"
    i = 0
    while i + 1 < len(tokens):
        if tokens[i].text == b"<<" and tokens[i + 1].text == b"<":
            close = _closing(tokens, i + 2)
            if close is not None:
                opening = (tokens[i].start, tokens[i + 1].end)
                closing = (tokens[close].start, tokens[close + 1].end)
                if not (ctx.options.launch == "hip" and _rewrite_launch(ctx, opening, closing)):
                    ctx.edits.append(Edit(*opening, b"<<<", rule))
                    ctx.edits.append(Edit(*closing, b">>>", rule))
                i = close + 2
                continue
        i += 1


def _rewrite_launch(ctx: FileContext, opening: tuple[int, int],
                    closing: tuple[int, int]) -> bool:
    """With ``--launch hip``: rewrite the whole spaced launch in one compound edit, by
    translating the launch with its chevrons closed up. False if it does not parse."""
    from ..translate import translate_piece
    from .launches import kernel_start

    src = ctx.src
    start = kernel_start(src, opening[0])
    parsed = lexer.call_arguments(src, closing[1])
    if start is None or parsed is None or not ctx.in_code(start, opening[0]):
        return False
    end = parsed[1]
    piece = (src[start:opening[0]] + b"<<<" + src[opening[1]:closing[0]] + b">>>"
             + src[closing[1]:end])
    new = translate_piece(ctx, piece)
    if b"<<<" in new:
        return False
    ctx.edits.append(Edit(start, end, new, f"{ctx.compiled.target.name}/launch", compound=True))
    return True


def _closing(tokens: list[lexer.Token], j: int) -> int | None:
    """Index of the ``>>`` of the ``>> >`` that ends the launch configuration."""
    depth = 0
    while j + 1 < len(tokens):
        text = tokens[j].text
        if text in (b"(", b"[", b"{"):
            depth += 1
        elif text in (b")", b"]", b"}"):
            depth -= 1
            if depth < 0:
                return None
        elif text == b";":
            return None
        elif depth == 0 and text == b">>" and tokens[j + 1].text == b">":
            return j
        j += 1
    return None
