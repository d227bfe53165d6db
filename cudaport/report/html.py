"""One self-contained HTML page (inline CSS, inline SVG charts, a few lines of inline
script, no network) that shows a team how far a code base is from the target."""

from __future__ import annotations

import datetime as _dt

from ..version import __version__
from .model import Report
from .templating import environment
from .totals import Totals

MAX_FINDINGS = 5000
MAX_ROWS = 25


def render(report: Report, totals: Totals, title: str = "", paths: tuple[str, ...] = (),
           now: _dt.datetime | None = None) -> str:
    findings = sorted(report.findings, key=lambda f: (f.path, f.line, f.col, f.code))
    stamp = (now or _dt.datetime.now(_dt.timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    return environment(True).get_template("report.html.j2").render(
        t=totals, version=__version__, title=title or f"{totals.target} portability report",
        paths=paths, generated=stamp, findings=findings[:MAX_FINDINGS],
        more=max(0, len(findings) - MAX_FINDINGS), rows=MAX_ROWS)
