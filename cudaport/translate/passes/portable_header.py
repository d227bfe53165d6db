"""Copy the portable header's functions that a translation calls into the file."""

from __future__ import annotations

from .. import portable
from ..context import FileContext
from .registry import register_final


@register_final("portable-header")
def portable_header(ctx: FileContext) -> None:
    portable.insert(ctx)
