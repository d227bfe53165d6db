"""Findings as JSON for scripts: every finding with its fingerprint, plus the totals."""

from __future__ import annotations

import json

from ..version import __version__
from .model import Report
from .totals import Totals


def render(report: Report, totals: Totals) -> str:
    payload = {
        "tool": "cudaport",
        "version": __version__,
        "target": report.options.target,
        "summary": totals.to_dict(),
        "errors": list(report.errors),
        "findings": [dict(f.to_dict(), fingerprint=fp) for f, fp in report.pairs()],
    }
    return json.dumps(payload, indent=2) + "\n"
