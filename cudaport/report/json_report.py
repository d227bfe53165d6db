"""The machine-readable translation report (``--report FILE.json``)."""

from __future__ import annotations

import json

from .. import __version__
from ..options import Options
from ..translate import Result
from .summary import summarize


def render(results: list[Result], options: Options) -> str:
    payload = {
        "tool": "cudaport",
        "version": __version__,
        "target": options.target,
        "options": {
            "launch": options.launch, "variants": dict(options.variants),
            "experimental": options.experimental,
            # the version the output is for: --hip-version, else the tables' newest
            "target_version": options.target_version or _default_version(options),
        },
        "summary": summarize(results).to_dict(),
        "files": [
            {
                "path": r.path,
                "changed": r.changed,
                "edits": len(r.edits),
                "references": [ref.to_dict() for ref in r.references],
                "unmapped": [ref.to_dict() for ref in r.references
                             if ref.status in ("unsupported", "version", "experimental")
                             and ref.context == "code"],
                "unknown": [ref.to_dict() for ref in r.references
                            if ref.status == "unknown" and ref.context == "code"],
                "findings": [f.to_dict() for f in r.findings],
            }
            for r in results
        ],
    }
    return json.dumps(payload, indent=2, sort_keys=False) + "\n"


def _default_version(options: Options) -> str | None:
    from ..rules.compiled import get_compiled

    try:
        return get_compiled(options).target.version
    except (ValueError, OSError):  # the report of a failed run still renders
        return None
