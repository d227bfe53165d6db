"""GitHub Actions workflow commands: each finding becomes an annotation on the pull
request (``::error file=...,line=...,col=...,title=CP101::message``)."""

from __future__ import annotations

from .model import Report
from .text import summary_line
from .totals import Totals

_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report, totals: Totals) -> str:
    lines = []
    for f in sorted(report.findings, key=lambda f: (f.path, f.line, f.col, f.code)):
        where = [f"file={_escape_property(f.path)}"]
        if f.line > 0:  # a finding about the whole file has no line
            where += [f"line={f.line}", f"col={max(f.col, 1)}"]
        props = ",".join(where + [f"title={_escape_property(f.code)}"])
        lines.append(f"::{_LEVEL.get(f.severity, 'warning')} {props}::{_escape_data(f.message)}")
    for error in report.errors:
        lines.append(f"::error title=cudaport::{_escape_data(error)}")
    lines.append(summary_line(totals))
    return "\n".join(lines) + "\n"
