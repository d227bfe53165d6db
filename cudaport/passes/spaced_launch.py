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
    closings = _closings(tokens)
    i = 0
    while i + 1 < len(tokens):
        if tokens[i].text == b"<<" and tokens[i + 1].text == b"<":
            close = closings.get(i)
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
    parsed = lexer.call_arguments(src, closing[1], ctx.brackets)
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


def _closings(tokens: list[lexer.Token]) -> dict[int, int | None]:
    """For each ``<< <`` (index of its ``<<``), the index of the ``>>`` of the ``>> >``
    that ends its configuration: the first at its own bracket depth, before any ``;`` and
    before its enclosing bracket closes; None when there is none. One pass for all of
    them, so a file of unclosed launches costs no more than a file of closed ones."""
    found: dict[int, int | None] = {}
    pending: list[list[int]] = [[]]  # open launches, per bracket depth
    for j, tok in enumerate(tokens):
        text = tok.text
        if text in (b"(", b"[", b"{"):
            pending.append([])
        elif text in (b")", b"]", b"}") or text == b";":
            for level in pending if text == b";" else pending[-1:]:
                found.update(dict.fromkeys(level))
                level.clear()
            if text != b";" and len(pending) > 1:
                pending.pop()
        elif text == b">>" and j + 1 < len(tokens) and tokens[j + 1].text == b">":
            found.update(dict.fromkeys(pending[-1], j))
            pending[-1].clear()
        elif text == b"<<" and j + 1 < len(tokens) and tokens[j + 1].text == b"<":
            pending[-1].append(j)
    return found
