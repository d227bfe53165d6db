"""Block-level code sized for 32-lane warps (CP217, CP218), on targets with wider warps.

- CP217: ``BlockLoad``/``BlockStore`` with a ``*_WARP_TRANSPOSE`` algorithm and a block of
  threads that is not a multiple of the wavefront. hipCUB runs them on rocPRIM, whose
  ``block_load``/``block_store`` static_assert "BlockSize must be a multiple of hardware
  warpsize" (rocprim/block/block_load.hpp, ROCm 6.4), so the file does not compile. The
  block size is read where the file spells it: a number, a ``constexpr``/``#define`` name,
  or a template parameter (``kNThreads``/``kNThreads_``) that the file instantiates with a
  number (``launch<32, 4>(...)``).
- CP218: per-warp storage sized ``[THREADS / 32]`` (or ``>> 5``): a 64-lane wavefront fills
  only half its slots, and a loop over all of them reads the rest uninitialised.
"""

from __future__ import annotations

import re

from ...source import lexer
from ..context import FileContext
from .registry import register
from ...source.lazy_re import lazy

_BLOCK_IO = lazy(rb"\b(BlockLoad|BlockStore)\s*<")
_TEMPLATE_HEAD = lazy(
    rb"template\s*<\s*(?:const\s+)?(?:int|unsigned(?:\s+int)?|size_t|uint32_t|int32_t)\s+(\w+)"
    rb"\s*[,>=]")
_DECLARED_NAME = lazy(rb"(?:struct|class)\s+(\w+)|(\w+)\s*\(")
_PER_WARP = lazy(rb"__shared__[^;{}()]*?\b(\w+)\s*\[\s*([A-Za-z_][\w:]*)\s*(/\s*32|>>\s*5)\s*\]")


def _sizes(code: bytes, name: bytes) -> list[tuple[int, int]]:
    """(value, offset) for what ``name`` can be in this file: its constant definitions,
    and the numbers a template whose first parameter is ``name`` is instantiated with."""
    out = []
    word = re.escape(name)
    for m in re.finditer(rb"(?:#\s*define\s+" + word + rb"\s+|\b" + word + rb"\s*=\s*)(\d+)\b", code):
        out.append((int(m.group(1)), m.start(1)))
    params = {name, name + b"_", name.rstrip(b"_")}
    for m in _TEMPLATE_HEAD.finditer(code):
        if m.group(1) not in params:
            continue
        close = code.find(b">", m.end() - 1)
        declared = _DECLARED_NAME.search(code, close if close >= 0 else m.end())
        if declared is None:
            continue
        template = declared.group(1) or declared.group(2)
        for use in re.finditer(rb"\b" + re.escape(template) + rb"\s*<\s*(\d+)\s*[,>]", code):
            out.append((int(use.group(1)), use.start(1)))
    return out


@register(41, "wavefront-blocks")
def wavefront_blocks(ctx: FileContext) -> None:
    if not ctx.options.hazards:
        return
    warp = ctx.options.warp_size or ctx.compiled.target.warp_size
    src = ctx.src
    if warp <= 32 or not (b"__shared__" in ctx.names or b"WARP_TRANSPOSE" in src):
        return
    code = ctx.code
    title = ctx.compiled.target.title
    seen: set[int] = set()
    for m in _BLOCK_IO.finditer(code) if b"WARP_TRANSPOSE" in code else ():
        spans = lexer.template_arguments(code, m.end() - 1)
        args = [code[a:b].strip() for a, b in spans] if spans else None
        if not args or len(args) < 3 or not any(b"WARP_TRANSPOSE" in a for a in args[2:]):
            continue
        block = args[1]
        sizes = [(int(block), m.start())] if block.isdigit() else \
            _sizes(code, block) if re.fullmatch(rb"[A-Za-z_]\w*", block) else []
        for value, offset in sizes:
            if value % warp and offset not in seen:
                seen.add(offset)
                ctx.find("CP217", offset,
                         f"{m.group(1).decode()} with a WARP_TRANSPOSE algorithm and {value} "
                         f"threads per block: {title}'s hipCUB (rocPRIM) requires a multiple of "
                         f"the {warp}-lane wavefront and does not compile; use {warp} threads "
                         f"or more, or the DIRECT/STRIPED algorithm", m.group(1).decode(), "cub")
    for m in _PER_WARP.finditer(code) if b"__shared__" in ctx.names else ():
        op = re.sub(rb"\s+", b" ", m.group(3)).decode()
        ctx.find("CP218", m.start(1),
                 f"__shared__ {m.group(1).decode()}[{m.group(2).decode()} {op}] holds one slot "
                 f"per 32-lane warp; a {warp}-lane wavefront fills half of them, so reading all "
                 f"slots reads uninitialised ones: size and index it with warpSize",
                 m.group(1).decode())
