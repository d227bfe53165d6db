"""Markdown for a pull-request comment: totals, codes with counts, what is unmapped, which
files need the most work, and the findings themselves (folded, capped)."""

from __future__ import annotations

from ..version import __version__
from .model import Report
from .templating import environment
from .totals import Totals

MAX_FINDINGS = 200
MAX_ROWS = 15


def md_escape(text: str) -> str:
    """Keep table cells intact: escape pipes and backticks, drop newlines."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`") \
        .replace("\r", " ").replace("\n", " ")


def render(report: Report, totals: Totals) -> str:
    env = environment(False)
    env.filters["md"] = md_escape
    findings = sorted(report.findings, key=lambda f: (f.path, f.line, f.col, f.code))
    return env.get_template("report.md.j2").render(
        t=totals, version=__version__, findings=findings[:MAX_FINDINGS],
        more=max(0, len(findings) - MAX_FINDINGS), rows=MAX_ROWS)
