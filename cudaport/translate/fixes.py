"""Fixes attached to findings (CP2xx), applied with ``--fix`` / ``--unsafe-fixes``.

As in ruff, a finding may carry a fix: edits that remove the problem. A *safe* fix keeps
the code's meaning on the target's wider wavefront in every use (storing a ballot in 64
bits); an *unsafe* one probably does what the author meant but must be reviewed (lane math
rewritten on ``warpSize``: arrays sized for 32 lanes stay as they were). Fixes are edits
on the same edit list as every other change, added after the passes, so the output is
still spliced once; a fix whose edits overlap another edit, or that lies in a branch only
another platform compiles, is not applied.
"""

from __future__ import annotations

import bisect
import dataclasses
from ..preprocessor import platform_branches
from ..source.edits import Edit
from ..findings import Fix  # noqa: F401  (the data a finding carries; re-exported)

LEVELS = ("none", "safe", "unsafe")  # what --fix / --unsafe-fixes ask for


def wanted(fix: Fix, level: str) -> bool:
    return level == "unsafe" or level == "safe" and fix.applicability == "safe"


def apply_fixes(ctx) -> None:
    """Turn the fixes ``ctx.options.fix`` asks for into edits, marking their findings."""
    level = ctx.options.fix
    if level == "none" or not any(f.fix is not None for f in ctx.findings):
        return
    taken = sorted((e.start, e.end) for e in ctx.edits)
    starts = [s for s, _ in taken]
    elsewhere = platform_branches.other_platform_test(ctx)
    for i, finding in enumerate(ctx.findings):
        fix = finding.fix
        if fix is None or not wanted(fix, level):
            continue
        if elsewhere is not None and elsewhere(finding.offset):
            continue
        if any(_overlaps(taken, starts, s, e) for s, e, _ in fix.edits):
            continue
        for s, e, replacement in fix.edits:
            ctx.edits.append(Edit(s, e, replacement, f"fix/{finding.code}"))
            j = bisect.bisect_left(starts, s)
            starts.insert(j, s)
            taken.insert(j, (s, e))
        ctx.findings[i] = dataclasses.replace(finding, fix=dataclasses.replace(fix, applied=True))


def _overlaps(taken: list[tuple[int, int]], starts: list[int], start: int, end: int) -> bool:
    j = bisect.bisect_left(starts, end)
    for s, e in taken[max(0, j - 64):j + 1]:  # neighbours only: edits are short
        if s < end and start < e or s == start:
            return True
    return False
