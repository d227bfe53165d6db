"""Hand clang's facts to a translation: computed before the passes.

The symbol model takes clang's bindings before the passes (a project's own ``cudaMalloc``
is not CUDA's: ``FileSymbols.adopt_clang``). After them, code in inactive branches stays as
it is with ``--inactive-branches keep``, an edit a pass still made at a name clang binds to
the project's is withdrawn (a pass that did not consult the model), and the clang-side
findings (CP903-CP906) join the file's report.
"""

from __future__ import annotations

from ..translate.context import FileContext
from ..findings import Finding
from . import analyze
from .facts import Facts

MAPPING_CODES = frozenset({"CP101", "CP102", "CP103", "CP104", "CP105", "CP107", "CP108",
                           "CP120"})


def before_passes(ctx: FileContext) -> None:
    # unknown CUDA-looking names too: clang can tell a project's own cudaCheck from API
    ctx.clang = analyze(ctx.src, ctx.path, ctx.options, ctx.compiled,
                        ctx.scan.idents + ctx.scan.unknown, ctx.scan.launches)


def parsed_by_clang(ctx: FileContext) -> bool:
    """Whether clang parsed the file (its facts, not a note that it could not)."""
    return isinstance(ctx.clang, Facts) and ctx.clang.parsed


def clang_finding(ctx: FileContext, code: str, offset: int, message: str,
                  identifier: str = "", severity: str = "") -> Finding:
    line, col = ctx.linecol(offset)
    finding = Finding(code, message, ctx.path, line, col, severity, identifier, "", "clang",
                      offset)
    ctx.findings.append(finding)
    return finding


def launch_start(ctx: FileContext, lt: int) -> int | None:
    """Start of the launch whose ``<<<`` is at ``lt``, as clang parsed it."""
    facts = ctx.clang
    if not isinstance(facts, Facts):
        return None
    for launch in facts.launches:
        if launch.lt == lt:
            return launch.start
    return None


def after_passes(ctx: FileContext) -> None:
    facts = ctx.clang
    if not isinstance(facts, Facts):
        return
    if facts.failure:
        clang_finding(ctx, "CP904", 0, f"clang not used: {facts.failure}; "
                      "the translation is text-only")
        return
    if facts.errors:
        first = "; ".join(f"{p}:{line}:{col}: {msg}" for p, line, col, msg in facts.errors)
        what = "stopped at" if facts.fatal else "reported"
        clang_finding(ctx, "CP903", 0, f"clang {what} errors parsing this file "
                      f"({facts.mode} headers), so facts may be incomplete: {first}",
                      severity="warning" if facts.mode != "stub" else "info")
    _withdraw_shadowed(ctx, facts)
    _inactive(ctx, facts)


def _withdraw_shadowed(ctx: FileContext, facts: Facts) -> None:
    if not facts.shadowed:
        return
    shadowed = facts.shadowed
    changed = {e.start for e in ctx.edits if e.start in shadowed}
    changed |= {f.offset for f in ctx.findings
                if f.offset in shadowed and f.code in MAPPING_CODES and f.code != "CP105"}
    ctx.edits = [e for e in ctx.edits if e.start not in shadowed]
    # references are built later from the scan's hits and the passes' extra tuples
    ctx.scan.idents = [hit for hit in ctx.scan.idents if hit[0] not in shadowed]
    ctx.scan.unknown = [hit for hit in ctx.scan.unknown if hit[0] not in shadowed]
    ctx.references = [item for item in ctx.references if item[0] not in shadowed]
    ctx.findings = [f for f in ctx.findings
                    if not (f.offset in shadowed and f.code in MAPPING_CODES)]
    named = {f.offset for f in ctx.findings if f.code == "CP906"}
    for offset, where in sorted(shadowed.items()):
        if offset not in changed or offset in named:
            continue  # maps to itself, or an unknown name now known to be the project's
        name = _ident_at(ctx, offset)
        clang_finding(ctx, "CP906", offset, f"{name} refers to the project's own declaration "
                      f"({where}), not CUDA's; left unchanged", name)


def _inactive(ctx: FileContext, facts: Facts) -> None:
    keep = ctx.options.inactive_branches == "keep"
    for start, end in facts.inactive:
        edits = [e for e in ctx.edits if start <= e.start < end]
        if not edits:
            continue
        first, _ = ctx.linecol(start)
        last, _ = ctx.linecol(max(start, end - 1))
        if keep:
            ctx.edits = [e for e in ctx.edits if not start <= e.start < end]
            done = f"{len(edits)} edit(s) not applied (--inactive-branches keep)"
        else:
            done = f"{len(edits)} edit(s) made by text only, not checked by clang"
        clang_finding(ctx, "CP905", start, f"lines {first}-{last} are inactive for the given "
                      f"flags; {done}")


def _ident_at(ctx: FileContext, offset: int) -> str:
    for start, name, _context in ctx.scan.idents:
        if start == offset:
            return name.decode()
    return "name"
