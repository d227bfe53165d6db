"""Rewrite ``kernel<<<grid, block[, shmem[, stream]]>>>(args)`` to the target's launch
function when ``--launch=hip`` asks for it (HIP's compiler accepts ``<<<>>>`` as is)."""

from __future__ import annotations

import re

from ...source import lexer
from ..context import FileContext
from ...source.edits import Edit
from .registry import register
from ...source.lazy_re import lazy

_SPACE = frozenset(b" \t\r\n\\")


@register(30, "launches")
def launches(ctx: FileContext) -> None:
    if not ctx.scan.launches:
        return
    ctx.uses_runtime = True  # a launch needs the main header, rewritten or not
    ctx.uses_device = True
    _vector_dims(ctx)
    if ctx.options.launch == "cuda" or not ctx.compiled.target.launch_function:
        return
    open_: list[tuple[int, int]] = []  # spans of rewritten launches, each inside the one below
    for lt in ctx.scan.launches:
        parsed = parse_launch(ctx, lt)
        edits = launch_edits(ctx, *parsed) if parsed is not None else None
        if edits is not None:
            start, close = parsed[0], parsed[-1]
            while open_ and open_[-1][1] <= start:
                open_.pop()  # ended before this one
            while open_ and start <= open_[-1][0] and open_[-1][1] <= close:
                open_.pop()  # inside this one's kernel expression
            if open_ and not (open_[-1][0] <= start and close <= open_[-1][1]):
                edits = None  # crosses another launch
            else:
                open_.append((start, close))
        if edits is None:
            ctx.find("CP109", lt, _why_not_rewritten(ctx, lt))
            continue
        ctx.edits += edits


def _why_not_rewritten(ctx: FileContext, lt: int) -> str:
    config = lexer.split_arguments(ctx.src, lt, end_token=b">>>", brackets=ctx.brackets)
    if config is not None and len(config[0]) == 1:
        a, b = config[0][0]
        return (f"kernel launch configuration <<<{ctx.src[a:b].decode('latin-1')}>>> is one "
                "expression (a macro?): its grid, block, memory and stream cannot be told "
                "apart from the text; left as <<<...>>>, which HIP accepts")
    return "kernel launch could not be parsed; left as <<<...>>>"


_IDENT = lazy(rb"[A-Za-z_]\w*\Z")


def _vector_dims(ctx: FileContext) -> None:
    """Grid and block arguments that are variables of a vector type the target's dim3
    does not convert from (``dim3_needs_fields`` in target.yaml): ``dim3(v.x, v.y, v.z)``.
    Only where the variable's nearest declaration before the launch gives it that type
    (another function may declare the same name as a dim3)."""
    types = [t.encode() for t in ctx.compiled.target.extra.get("dim3_needs_fields") or ()]
    src = ctx.src
    types = [t for t in types if t in src]
    if not types:
        return
    rule = f"{ctx.compiled.target.name}/launch-dims"
    for lt in ctx.scan.launches:
        config = lexer.split_arguments(src, lt, end_token=b">>>", brackets=ctx.brackets)
        if config is None or not ctx.in_code(lt, lt + 3):
            continue
        for start, end in config[0][:2]:
            var = src[start:end]
            if _IDENT.match(var) and _declared_type(src, types, var, lt) in types:
                ctx.edits.append(Edit(start, end, b"dim3(" + var + b".x, " + var + b".y, "
                                      + var + b".z)", rule))


def _declared_type(src: bytes, types: list[bytes], var: bytes, before: int) -> bytes | None:
    """The type of the last ``TYPE a, b = ..., VAR`` before ``before`` (TYPE one of
    ``types`` or dim3), if any."""
    pattern = re.compile(rb"(" + b"|".join(map(lexer.word, types + [b"dim3"])) + rb")\s+"
                         rb"(?:\w+\s*(?:=[^,;(){}]*)?,\s*)*" + re.escape(var) + rb"\b")
    found = None
    for m in pattern.finditer(src, 0, before):
        found = m.group(1)
    return found


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
            colons = k - 2
            k = _skip_space_back(src, colons)
            if k == 0 or src[k - 1] not in lexer.IDENT_BYTES and src[k - 1] != ord(">"):
                return colons  # `::ns::kernel`: qualified from the global namespace
            if k > 0 and src[k - 1] == ord(">"):
                m = _match_back(src, k, ord(">"), ord("<"))
                if m is None:
                    return None
                k = _skip_space_back(src, m)
            j = k
            continue
        return j


_LINE_END = lazy(rb"(?<!\\)\r?\n")


def _leaves_directive(src: bytes, start: int, lt: int) -> bool:
    """A kernel expression that starts on a directive line (after its '#') and runs on
    past that line's end is no kernel: the text belongs to the directive."""
    line_start = src.rfind(b"\n", 0, start) + 1
    return b"#" in src[line_start:start] and _LINE_END.search(src, start, lt) is not None


Parsed = tuple  # (start, kernel end, config spans, argument spans, end)


def parse_launch(ctx: FileContext, lt: int,
                 config: tuple[list[tuple[int, int]], int] | None = None) -> Parsed | None:
    """The parts of the launch whose ``<<<`` starts at ``lt``: where the kernel
    expression starts and ends, the spans of the configuration (``config`` when the
    caller parsed it, else read after ``lt``), the spans of the call arguments
    and the offset past the call's ``)``. None if it is no launch that can be rewritten."""
    src = ctx.src
    start = kernel_start(src, lt)
    if ctx.clang is not None:  # clang's exact launch range wins where it has one
        from ...clang.apply import launch_start

        start = launch_start(ctx, lt) or start
    if start is None or _leaves_directive(src, start, lt) or not ctx.in_code(start, lt):
        return None
    if config is None:
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
    return start, _skip_space_back(src, lt), params, args, close


def launch_edits(ctx: FileContext, start: int, kernel_end: int, params: list[tuple[int, int]],
                 args: list[tuple[int, int]], close: int) -> list[tuple] | None:
    """``kernel<<<grid, block[, shmem[, stream]]>>>(args)`` as the target's launch call,
    ``function(kernel, dim3(grid), dim3(block), shmem, stream, args)``, by edits at the
    boundaries only: the call head, the chevrons and separators. The text between them
    (kernel expression, configuration, arguments) keeps its own edits."""
    src = ctx.src
    info = ctx.compiled.target
    rule = f"{info.name}/launch"
    wrapper = (info.launch_template_wrapper or "").encode()
    wrap = bool(wrapper) and b"<" in src[start:kernel_end]
    head = info.launch_function.encode() + b"(" + (wrapper + b"(" if wrap else b"")
    edits = [(start, start, head, rule)]
    closer = b")" if wrap else b""  # what the previous piece still needs closed
    for i, (a, b) in enumerate(params):
        pos = kernel_end if i == 0 else params[i - 1][1]
        dim3 = i < 2 and not _is_dim3(src[a:b])
        edits.append(_gap(src, pos, a, closer + b", " + (b"dim3(" if dim3 else b""), rule))
        closer = b")" if dim3 else b""
    defaults = b", 0" * (4 - len(params))
    if args:
        edits.append(_gap(src, params[-1][1], args[0][0], closer + defaults + b", ", rule))
        edits.append(_gap(src, args[-1][1], close, b")", rule))
    else:
        edits.append(_gap(src, params[-1][1], close, closer + defaults + b")", rule))
    return [e for e in edits if src[e[0]:e[1]] != e[2]]


def _gap(src: bytes, a: int, b: int, text: bytes, rule: str) -> tuple:
    """Replace the separator ``src[a:b]``; a comment in it goes too (with any rename a
    comment option made in it), as parts so that such edits are dropped with it."""
    return (a, b, (text,) if b"/" in src[a:b] else text, rule)


def _is_dim3(text: bytes) -> bool:
    """Whether a launch dimension is written ``dim3(...)`` already."""
    if text.startswith(b"dim3(") and text.endswith(b")"):
        inner = lexer.split_arguments(text, 4)
        return inner is not None and inner[1] == len(text)
    return False
