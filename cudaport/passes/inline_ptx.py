"""Report inline PTX assembly (CP503): the translation cannot port it, and the HIP
compiler's syntax check would not notice it either."""

from __future__ import annotations

from ..context import FileContext
from ..ptx import PTX_MESSAGE, inline_ptx
from . import register


@register(110, "inline-ptx")  # whole files only, not fragments
def report_inline_ptx(ctx: FileContext) -> None:
    for offset in inline_ptx(ctx.src):
        ctx.find("CP503", offset, PTX_MESSAGE)
