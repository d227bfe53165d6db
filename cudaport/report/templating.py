"""The jinja2 environment for the report templates shipped in ``report/templates``."""

from __future__ import annotations

from functools import lru_cache

import jinja2

from .verdict import pct
from .text import fix_mark


@lru_cache(maxsize=None)
def environment(autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("cudaport.report", "templates"),
        autoescape=autoescape, undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )
    env.filters["pct"] = pct
    env.filters["tail"] = tail
    env.filters["fix_mark"] = fix_mark
    return env


def tail(text: str, width: int) -> str:
    """Keep the end of a long path label, whole folders first: ``…/deep/folder``."""
    if len(text) <= width:
        return text
    parts = text.split("/")
    while len(parts) > 1 and len("…/" + "/".join(parts)) > width:
        parts.pop(0)
    short = "…/" + "/".join(parts)
    return short if len(short) <= width else "…" + text[-(width - 1):]
