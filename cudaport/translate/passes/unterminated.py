"""Comments and literals that never close (CP907): everything after them up to the end
of the file (block comment, raw string) or of the line (string) is not read as code, so
CUDA names there are neither translated nor reported."""

from __future__ import annotations

from ..context import FileContext
from .registry import register

_REACH = {"block comment": "the rest of the file", "raw string": "the rest of the file",
          "string": "the rest of its line"}


@register(110, "unterminated")
def unterminated(ctx: FileContext) -> None:
    for offset, what in ctx.scan.unterminated:
        ctx.find("CP907", offset, f"unterminated {what}: {_REACH[what]} is not read as code, "
                 "so CUDA names there are not translated")
