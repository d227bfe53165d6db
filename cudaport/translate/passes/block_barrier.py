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

import bisect
import re

from ..context import FileContext
from ...source.edits import Edit
from ...source.lazy_re import lazy

_CUDA = rb"(?:::[ \t]*)?cuda[ \t]*::[ \t]*"
_DECLARATION = lazy(
    rb"__shared__[ \t\r\n]+" + _CUDA + rb"barrier[ \t]*<[ \t]*" + _CUDA
    + rb"thread_scope_block[ \t]*>[ \t\r\n]+([A-Za-z_]\w*)[ \t]*;")
_DIM = rb"blockDim[ \t]*\.[ \t]*([xyz])"
_INIT = lazy(rb"(?<![\w.:>])(?:" + _CUDA + rb")?init[ \t]*\([ \t]*&[ \t]*(\w+)[ \t]*,[ \t]*"
             + _DIM + rb"[ \t]*\*[ \t]*" + _DIM + rb"[ \t]*\*[ \t]*" + _DIM
             + rb"[ \t]*\)")
_WAIT = rb"[ \t]*\.[ \t]*arrive_and_wait[ \t]*\([ \t]*\)"


def provable(ctx: FileContext) -> list[tuple[re.Match, re.Match, list[re.Match]]]:
    """(declaration, init call, arrive_and_wait calls) of each block-wide barrier. A
    barrier's uses are those in its block, after its declaration (the file's skeleton):
    kernels that each declare a barrier of the same name are told apart."""
    if b"thread_scope_block" not in ctx.src or b"arrive_and_wait" not in ctx.src:
        return []
    code = ctx.code
    decls = list(_DECLARATION.finditer(code))
    if not decls:
        return []
    names = sorted({d.group(1) for d in decls}, key=len, reverse=True)
    alternation = b"|".join(map(re.escape, names))
    uses = occurrences(re.compile(rb"(?<![\w$])(" + alternation + rb")(?![\w$])"), code)
    waits = occurrences(re.compile(rb"(?<![\w$.>])(" + alternation + rb")" + _WAIT), code)
    inits = occurrences(_INIT, code)
    found = []
    for decl in decls:
        name = decl.group(1)
        start, end = scope_of(ctx, decl.start())
        here = uses.within(name, start, end)
        mine = [m for m in inits.within(name, start, end)
                if sorted(m.group(2, 3, 4)) == [b"x", b"y", b"z"]]
        wait = waits.within(name, start, end)
        known = {decl.start(1)} | {m.start(1) for m in mine} | {m.start() for m in wait}
        if len(mine) == 1 and wait and {m.start() for m in here} == known:
            found.append((decl, mine[0], wait))
    return found


class Occurrences(dict):
    """Matches of a regex by their first group, in order, with their starts (for
    :func:`in_scope`): one pass over the file."""

    def __init__(self, regex: re.Pattern, code: bytes) -> None:
        super().__init__()
        for m in regex.finditer(code):
            self.setdefault(m.group(1), []).append(m)
        self.starts = {name: [m.start() for m in found] for name, found in self.items()}

    def within(self, name: bytes, start: int, end: int) -> list[re.Match]:
        found = self.get(name)
        if not found:
            return []
        starts = self.starts[name]
        return found[bisect.bisect_left(starts, start):bisect.bisect_left(starts, end)]


def occurrences(regex: re.Pattern, code: bytes) -> Occurrences:
    return Occurrences(regex, code)


def scope_of(ctx: FileContext, declared: int) -> tuple[int, int]:
    """From ``declared`` to the end of the block around it (or of the file)."""
    block = ctx.skeleton.at(declared)
    return declared, ctx.skeleton.blocks[block].close if block >= 0 else len(ctx.src)


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
