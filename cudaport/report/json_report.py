"""The machine-readable translation report (``--report FILE.json``)."""

from __future__ import annotations

import json

from ..version import __version__
from ..options import Options
from .summary import summarize, verdicts


def render(outcomes: list, options: Options) -> str:
    """The report of a run's :class:`cudaport.kinds.FileOutcome` values (translated with
    their references kept); copied files are left out."""
    outcomes = [o for o in outcomes if o.kind != "copy"]
    by_path = verdicts(outcomes)
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
        "summary": summarize(outcomes).to_dict(),
        "files": [
            {
                "path": o.shown,
                "changed": o.changed,
                "edits": len(o.edits),
                "references": [ref.to_dict() for ref in o.references or ()],
                "unmapped": [ref.to_dict() for ref in o.references or ()
                             if ref.status in ("unsupported", "version", "experimental")
                             and ref.context == "code"],
                "unknown": [ref.to_dict() for ref in o.references or ()
                            if ref.status == "unknown" and ref.context == "code"],
                "findings": [f.to_dict() for f in o.findings],
                **by_path[o.shown].to_dict(),
            }
            for o in outcomes
        ],
    }
    return json.dumps(payload, indent=2, sort_keys=False) + "\n"


def _default_version(options: Options) -> str | None:
    from ..rules.compiled import get_compiled

    try:
        return get_compiled(options).target.version
    except (ValueError, OSError):  # the report of a failed run still renders
        return None
