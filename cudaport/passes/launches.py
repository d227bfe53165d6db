"""Rewrite ``kernel<<<grid, block[, shmem[, stream]]>>>(args)`` to the target's launch
function when ``--launch=hip`` asks for it (HIP's compiler accepts ``<<<>>>`` as is)."""

from __future__ import annotations

import re

from .. import lexer
from ..context import FileContext
from ..edits import Edit
from . import register

_SPACE = frozenset(b" \t\r\n\\")


@register(30, "launches")
def launches(ctx: FileContext) -> None:
    if ctx.options.launch == "cuda" or not ctx.scan.launches:
        return
    info = ctx.compiled.target
    function = info.launch_function
    if not function:
        return
    done: list[Edit] = []  # this pass's rewrites, in order
    replaced: set[int] = set()  # ids of rewrites a later, enclosing one replaced
    for lt in ctx.scan.launches:
        if done and lt < done[-1].end:
            continue  # inside a launch already rewritten (its pieces were translated)
        edit = _rewrite(ctx, lt, function.encode(),
                        (info.launch_template_wrapper or "").encode())
        # A launch inside this one's kernel expression came first (its '<<<' is earlier);
        # this rewrite translated it as a piece, so it replaces it.
        inner = 0
        while edit is not None and inner < len(done) and done[-1 - inner].start >= edit.start:
            inner += 1
        if edit is None or inner < len(done) and edit.start < done[-1 - inner].end:
            ctx.find("CP109", lt, "kernel launch could not be parsed; left as <<<...>>>")
            continue
        for _ in range(inner):
            replaced.add(id(done.pop()))
        done.append(edit)
        ctx.edits.append(edit)
    if replaced:
        ctx.edits[:] = [e for e in ctx.edits if id(e) not in replaced]


def _skip_space_back(src: bytes, i: int) -> int:
    while i > 0 and src[i - 1] in _SPACE:
        i -= 1
    return i


def _match_back(src: bytes, i: int, close: int, open_: int) -> int | None:
    """Index of the bracket opening the one that ends just before ``i``."""
    depth = 0
    k = i - 1
    while k >= 0:
        c = src[k]
        if c == close:
            depth += 1
        elif c == open_:
            depth -= 1
            if depth == 0:
                return k
        elif c in b";{}" and close != ord(")"):
            return None
        k -= 1
    return None


def kernel_start(src: bytes, lt: int) -> int | None:
    """Start of the kernel expression that precedes ``<<<`` at ``lt``."""
    j = _skip_space_back(src, lt)
    if j > 0 and src[j - 1] == ord(">"):
        k = _match_back(src, j, ord(">"), ord("<"))
        if k is None:
            return None
        j = _skip_space_back(src, k)
    if j > 0 and src[j - 1] == ord(")"):
        k = _match_back(src, j, ord(")"), ord("("))
        if k is not None:
            before = _skip_space_back(src, k)
            if before > 0 and src[before - 1] in lexer.IDENT_BYTES:
                return None  # a call's result as the kernel: left as written (CP109)
        return k
    while True:
        end = j
        while j > 0 and src[j - 1] in lexer.IDENT_BYTES:
            j -= 1
        if j == end:
            return None
        k = _skip_space_back(src, j)
        if src[k - 2:k] == b"::":
            k = _skip_space_back(src, k - 2)
            if k > 0 and src[k - 1] == ord(">"):
                m = _match_back(src, k, ord(">"), ord("<"))
                if m is None:
                    return None
                k = _skip_space_back(src, m)
            j = k
            continue
        return j


_LINE_END = re.compile(rb"(?<!\\)\r?\n")


def _leaves_directive(src: bytes, start: int, lt: int) -> bool:
    """A kernel expression that starts on a directive line (after its '#') and runs on
    past that line's end is no kernel: the text belongs to the directive."""
    line_start = src.rfind(b"\n", 0, start) + 1
    return b"#" in src[line_start:start] and _LINE_END.search(src, start, lt) is not None


def _rewrite(ctx: FileContext, lt: int, function: bytes, wrapper: bytes) -> Edit | None:
    from ..translate import translate_fragment

    src = ctx.src
    start = kernel_start(src, lt)
    if ctx.clang is not None:  # clang's exact launch range wins where it has one
        from ..clang.apply import launch_start

        start = launch_start(ctx, lt) or start
    if start is None or _leaves_directive(src, start, lt) or not ctx.in_code(start, lt):
        return None
    config = lexer.split_arguments(src, lt, end_token=b">>>", brackets=ctx.brackets)
    if config is None:
        return None
    params, after_config = config
    if not 2 <= len(params) <= 4:
        return None
    parsed = lexer.call_arguments(src, after_config, ctx.brackets)
    if parsed is None:
        return None
    args, close = parsed
    if lexer.contains_directive(src, start, close):
        return None
    kernel = translate_fragment(ctx, start, _skip_space_back(src, lt))
    if b"<" in kernel and wrapper:
        kernel = wrapper + b"(" + kernel + b")"
    pieces = [translate_fragment(ctx, a, b) for a, b in params]
    grid, block = (_dim3(p) for p in pieces[:2])
    shmem = pieces[2] if len(pieces) > 2 else b"0"
    stream = pieces[3] if len(pieces) > 3 else b"0"
    out = [kernel, grid, block, shmem, stream]
    if args:
        out.append(translate_fragment(ctx, args[0][0], args[-1][1]))
    return Edit(start, close, function + b"(" + b", ".join(out) + b")",
                f"{ctx.compiled.target.name}/launch", compound=True)


def _dim3(text: bytes) -> bytes:
    if text.startswith(b"dim3(") and text.endswith(b")"):
        inner = lexer.split_arguments(text, 4)
        if inner is not None and inner[1] == len(text):
            return text
    return b"dim3(" + text + b")"
