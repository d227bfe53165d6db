"""The machine-readable translation report (``translate --report FILE.json``)."""

from __future__ import annotations

import json

from ..options import Options
from ..version import __version__
from .model import NOTE, Report
from .totals import Totals

UNMAPPED = ("unsupported", "version", "experimental")


def render(report: Report, totals: Totals) -> str:
    """Every translated file with its references and findings (the walk's notes are
    counted in the summary only)."""
    options = report.options
    payload = {
        "tool": "cudaport",
        "version": __version__,
        "target": options.target,
        "options": {
            "launch": options.launch, "variants": dict(options.variants),
            "experimental": options.experimental,
            # the version the output is for: --hip-version, else the default (target.yaml)
            "target_version": options.target_version or _default_version(options),
        },
        "summary": totals.translation_dict(),
        "files": [_file(r) for r in report.files if r.kind != NOTE],
    }
    return json.dumps(payload, indent=2, sort_keys=False) + "\n"


def _file(r) -> dict:
    entry = {
        "path": r.path,
        "changed": r.changed,
        "edits": r.edits,
        "references": [ref.to_dict() for ref in r.references],
        "unmapped": [ref.to_dict() for ref in r.references
                     if ref.status in UNMAPPED and ref.context == "code"],
        "unknown": [ref.to_dict() for ref in r.references
                    if ref.status == "unknown" and ref.context == "code"],
        "findings": [f.to_dict() for f in r.findings],
    }
    if r.verdict:
        entry.update(verdict=r.verdict, blocking=list(r.blocking))
    return entry


def _default_version(options: Options) -> str | None:
    from ..rules.compiled import get_compiled

    try:
        return get_compiled(options).target.version
    except (ValueError, OSError):  # the report of a failed run still renders
        return None
