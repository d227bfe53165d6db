"""Findings that come from the rule table itself rather than from a mapping: user
check-only rules (``checks:`` in a ``--rules`` file) and notices about the target."""

from __future__ import annotations

from ..context import FileContext
from .registry import register


@register(25, "rule-checks")
def rule_checks(ctx: FileContext) -> None:
    lookup = ctx.compiled.identifiers
    for start, name, context in ctx.scan.idents:
        entry = lookup[name].entry
        check = entry.check if entry is not None else None
        if check is not None and context == "code":
            ctx.find(check.code, start, check.message, name.decode(), entry.library,
                     check.severity)
    info = ctx.compiled.target
    if info.extra.get("experimental"):
        uses = [start for start, _name, _context in ctx.scan.idents]
        uses += [inc.name_start for inc in ctx.scan.includes
                 if inc.name in ctx.compiled.headers]
        if uses:
            ctx.find("CP150", min(uses),
                     f"the {info.title} target is experimental: its rules cover only the names "
                     "verified in public sources (see rules/README.md)")
