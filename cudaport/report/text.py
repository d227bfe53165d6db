"""Plain-text findings for people and editors: ``path:line:col: CODE message``.

Stable order (path, line, column, code), colour only when asked (the command asks when
stdout is a terminal), a summary line, and ``--statistics`` counts per code; and
``translate``'s summary of the references it ported (:func:`translation_summary`).
"""

from __future__ import annotations

from . import verdict as V
from .model import Report
from .totals import PORTED, Totals

_COLOURS = {"error": "31", "warning": "33", "info": "36"}


def _paint(text: str, code: str, colour: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if colour else text


def render(report: Report, totals: Totals, colour: bool = False,
           statistics: bool = False) -> str:
    lines = []
    for f in sorted(report.findings, key=lambda f: (f.path, f.line, f.col, f.code)):
        where = _paint(f"{f.path}:{f.line}:{f.col}:", "1", colour)
        lines.append(f"{where} {_paint(f.code, _COLOURS.get(f.severity, '0'), colour)}"
                     f"{fix_mark(f)} {f.message}")
    if statistics and totals.codes:
        if lines:
            lines.append("")
        width = max(len(str(c.count)) for c in totals.codes)
        for c in totals.codes:
            lines.append(f"{c.count:>{width}}  {c.code}  {c.severity:<7}  {c.name}: {c.title}")
    if statistics:
        lines.extend(verdict_lines(totals))
    lines.append(summary_line(totals))
    return "\n".join(lines) + "\n"


def summary_line(t: Totals) -> str:
    """One sentence with everything CI logs need: counts, what was hidden, % ported."""
    sev = t.by_severity
    if t.findings:
        head = (f"Found {t.findings} finding(s) ({sev['error']} error, {sev['warning']} warning, "
                f"{sev['info']} info) in {t.files} file(s)")
    else:
        head = f"No findings in {t.files} file(s)"
    hidden = []
    if t.suppressed:
        hidden.append(f"{t.suppressed} suppressed")
    if t.baselined:
        hidden.append(f"{t.baselined} in baseline")
    if t.errors:
        hidden.append(f"{len(t.errors)} input error(s)")
    tail = f"; {', '.join(hidden)}" if hidden else ""
    tail += fixes_sentence(t)
    blocking = f" and {t.blockers} blocking construct(s)" if t.blockers else ""
    return (f"{head}{tail}. {t.ported}/{t.references} CUDA reference(s){blocking} ported to "
            f"{t.target} ({V.pct(t.percent)}). Files: {V.sentence(t.by_verdict)}.")


def fix_mark(f) -> str:
    """ruff's marks: `` [*]`` a fix --fix applies, `` [-]`` one --unsafe-fixes applies,
    `` [fixed]`` one this run applied."""
    if f.fix is None:
        return ""
    if f.fix.applied:
        return " [fixed]"
    return " [*]" if f.fix.applicability == "safe" else " [-]"


def fixes_sentence(t: Totals) -> str:
    """``; 1 fixed, 2 fixable with --fix (5 with --unsafe-fixes)``: how many findings each
    flag would fix (``--unsafe-fixes`` applies the safe fixes too), never a count that
    could read as more findings."""
    parts = []
    if t.fixed:
        parts.append(f"{t.fixed} fixed")
    safe, unsafe = t.fixable["safe"], t.fixable["unsafe"]
    if safe and unsafe:
        parts.append(f"{safe} fixable with --fix ({safe + unsafe} with --unsafe-fixes)")
    elif safe:
        parts.append(f"{safe} fixable with --fix")
    elif unsafe:
        parts.append(f"{unsafe} fixable with --unsafe-fixes")
    return f"; {', '.join(parts)}" if parts else ""


def verdict_lines(t: Totals) -> list[str]:
    """``blocked: path: CP110 ... (3); ...`` per file that does not port cleanly."""
    out = [f"{v.status}: {p}" + (f": {'; '.join(v.reasons)}" if v.reasons else "")
           for p, v in t.not_clean]
    return ([""] + out) if out else []


def translation_summary(t: Totals) -> str:
    """``translate``'s summary: files, references ported and not, per library, and the
    files' verdicts."""
    unmapped = t.by_status["unsupported"] + t.by_status["version"]
    lines = [
        f"{t.files} file(s), {t.changed} changed; {t.references} CUDA reference(s): "
        f"{t.ported} ported ({V.pct(t.percent)}), {unmapped} unmapped on {t.target}, "
        f"{t.by_status['experimental']} experimental-only; "
        f"{t.unknown} unknown CUDA-looking name(s)"
        + (f"; {t.blockers} blocking construct(s) no rule maps" if t.blockers else ""),
        f"files: {V.sentence(t.by_verdict)}" + fixes_sentence(t),
    ]
    for library, counts in sorted(t.by_library.items()):
        total = sum(counts.values())
        ported = sum(counts[x] for x in PORTED)
        lines.append(f"  {library:<10} {ported:>6}/{total:<6} ported")
    return "\n".join(lines)
