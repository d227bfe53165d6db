"""Close up kernel-launch chevrons written with spaces, ``k << < g, b >> > (args)``.

nvcc accepts the spaced form (some formatters produce it, and rodinia ships it); clang's
HIP front end only knows ``<<<`` and ``>>>``. ``<<`` followed by a lone ``<`` is not
valid C++ otherwise, so the rewrite cannot touch anything but a launch.
"""

from __future__ import annotations


from ...source import lexer
from ..context import FileContext
from ...source.edits import Edit
from .registry import register
from ...source.lazy_re import lazy

_CANDIDATE = lazy(rb"<<[ \t]+<(?![<=])")


@register(120, "spaced-launch")
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
    """With ``--launch hip``: rewrite the spaced launch to the launch call, by the edits
    the launches pass makes for ``<<<``. False if it does not parse."""
    from .launches import launch_edits, parse_launch

    src = ctx.src
    # The configuration parsed with its chevrons closed up, offsets mapped back.
    inner = src[opening[1]:closing[0]]
    config = lexer.split_arguments(b"<<<" + inner + b">>>", 0, end_token=b">>>")
    if config is None or config[1] != len(inner) + 6:
        return False
    shift = opening[1] - 3
    params = [(a + shift, b + shift) for a, b in config[0]]
    parsed = parse_launch(ctx, opening[0], (params, closing[1]))
    edits = launch_edits(ctx, *parsed) if parsed is not None else None
    if edits is None:
        return False
    ctx.edits += edits
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
