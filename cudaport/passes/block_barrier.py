"""``cuda::barrier<cuda::thread_scope_block>`` used as the block-wide barrier becomes
``__syncthreads()``.

CUDA C++ Programming Guide ("Asynchronous Barrier"): a barrier initialized with the
number of threads expected (``init(&bar, count)``) completes a phase when that many
arrivals have come; ``bar.arrive_and_wait()`` arrives and blocks until the phase
completes. With the count equal to every thread of the block, and ``arrive_and_wait`` as
the only operation, each phase is exactly ``__syncthreads()``: every thread waits until
every thread has arrived, and memory written before is visible after.

Only that is rewritten, and only when the text proves it: the barrier is a ``__shared__``
variable declared ``cuda::barrier<cuda::thread_scope_block> NAME;``, initialized with
``init(&NAME, blockDim.x * blockDim.y * blockDim.z)`` (the factors in any order), and
otherwise named only in ``NAME.arrive_and_wait()``. Then the declaration goes, the
``init`` call becomes ``(void)0`` (the thread that made it keeps its branch) and each
``arrive_and_wait`` becomes ``__syncthreads()``. Any other use (``arrive``/``wait``
tokens, a count that is not the whole block such as ``blockDim.x`` alone, a barrier
passed to ``memcpy_async``) leaves everything as it is, reported as libcu++ (CP110).
"""

from __future__ import annotations

import re

from ..context import FileContext
from ..edits import Edit

_CUDA = rb"(?:::[ \t]*)?cuda[ \t]*::[ \t]*"
_DECLARATION = re.compile(
    rb"__shared__[ \t\r\n]+" + _CUDA + rb"barrier[ \t]*<[ \t]*" + _CUDA
    + rb"thread_scope_block[ \t]*>[ \t\r\n]+([A-Za-z_]\w*)[ \t]*;")
_DIM = rb"blockDim[ \t]*\.[ \t]*([xyz])"
_INIT = re.compile(rb"(?<![\w.:>])(?:" + _CUDA + rb")?init[ \t]*\([ \t]*&[ \t]*(\w+)[ \t]*,[ \t]*"
                   + _DIM + rb"[ \t]*\*[ \t]*" + _DIM + rb"[ \t]*\*[ \t]*" + _DIM
                   + rb"[ \t]*\)")
_WAIT = rb"[ \t]*\.[ \t]*arrive_and_wait[ \t]*\([ \t]*\)"


def provable(ctx: FileContext) -> list[tuple[re.Match, re.Match, list[re.Match]]]:
    """(declaration, init call, arrive_and_wait calls) of each block-wide barrier."""
    if b"thread_scope_block" not in ctx.src or b"arrive_and_wait" not in ctx.src:
        return []
    code = ctx.code
    found = []
    for decl in _DECLARATION.finditer(code):
        name = decl.group(1)
        uses = [m.start() for m in re.finditer(rb"(?<![\w$])" + re.escape(name) + rb"(?![\w$])",
                                               code)]
        inits = [m for m in _INIT.finditer(code) if m.group(1) == name
                 and sorted(m.group(2, 3, 4)) == [b"x", b"y", b"z"]]
        waits = list(re.finditer(rb"(?<![\w$.>])" + re.escape(name) + _WAIT, code))
        known = {decl.start(1)} | {m.start(1) for m in inits} | {m.start() for m in waits}
        if len(inits) == 1 and waits and set(uses) == known:
            found.append((decl, inits[0], waits))
    return found


def block_barriers(ctx: FileContext) -> list[tuple[int, int]]:
    """Add the rewrite of every provably block-wide barrier; return the spans rewritten
    (where the libcu++ names are no longer the file's)."""
    rewritten: list[tuple[int, int]] = []
    rule = f"{ctx.compiled.target.name}/block-barrier"
    for decl, init, waits in provable(ctx):
        edits = [Edit(*_line_of(ctx.src, decl.start(), decl.end()), b"", rule),
                 Edit(init.start(), init.end(), b"(void)0", rule)]
        edits += [Edit(m.start(), m.end(), b"__syncthreads()", rule) for m in waits]
        ctx.edits.extend(edits)
        rewritten += [(e.start, e.end) for e in edits]
        ctx.find("CP117", decl.start(), f"cuda::barrier<cuda::thread_scope_block> "
                 f"{decl.group(1).decode()} counts every thread of the block and is only "
                 "arrive_and_wait()-ed: it became __syncthreads()", "cuda::barrier", "cccl")
    return rewritten


def _line_of(src: bytes, start: int, end: int) -> tuple[int, int]:
    """The span to delete for ``src[start:end]``: its whole line when nothing else is on it."""
    line = src.rfind(b"\n", 0, start) + 1
    stop = src.find(b"\n", end)
    stop = len(src) if stop < 0 else stop + 1
    if src[line:start].strip(b" \t") or src[end:stop].strip(b" \t\r\n"):
        return start, end
    return line, stop
