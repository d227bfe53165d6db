"""Findings that come from the rule table itself rather than from a mapping: user
check-only rules (``checks:`` in a ``--rules`` file) and notices about the target."""

from __future__ import annotations

from ..context import FileContext
from . import register


@register(25, "rule-checks")
def rule_checks(ctx: FileContext) -> None:
    if ctx.fragment:
        return
    lookup = ctx.compiled.identifiers
    for start, _end, name, context in ctx.scan.idents:
        entry = lookup[name].entry
        check = entry.check if entry is not None else None
        if check is not None and context == "code":
            ctx.find(check.code, start, check.message, name.decode(), entry.library,
                     check.severity)
    info = ctx.compiled.target
    if info.extra.get("experimental") and ctx.references:
        ctx.find("CP150", min(r.offset for r in ctx.references),
                 f"the {info.title} target is experimental: its rules cover only the names "
                 "verified in public sources (see rules/README.md)", library="")
