"""SARIF 2.1.0 for code-scanning services: one run, every registered code as a rule with
help text and a help URI, every finding as a result with its location and a fingerprint
that survives line shifts (the same one the baseline uses)."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath
from urllib.parse import quote

from ..version import __version__
from .model import Report
from ..findings import CODES, Code
from .totals import Totals

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
PROJECT_URI = "https://github.com/cudaport/cudaport"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def help_uri(code: str) -> str:
    return f"{PROJECT_URI}/blob/main/docs/codes.md#{code.lower()}"


def artifact(path: str) -> dict:
    """A URI for a reported path: relative ones against %SRCROOT% (the current folder),
    absolute ones as file: URIs; spaces and other characters percent-encoded."""
    if PurePosixPath(path).is_absolute():
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(path, safe="/"), "uriBaseId": "%SRCROOT%"}


def _rule(c: Code) -> dict:
    return {
        "id": c.code,
        "name": "".join(part.capitalize() for part in c.name.split("-")),
        "shortDescription": {"text": c.title},
        "fullDescription": {"text": c.explanation.splitlines()[0]},
        "help": {"text": c.explanation,
                 "markdown": f"**{c.code} {c.name}**: {c.title}\n\n{c.explanation}"},
        "helpUri": help_uri(c.code),
        "defaultConfiguration": {"level": _LEVEL[c.severity]},
        "properties": {"tags": ["portability", c.name]},
    }


def _user_rule(code: str, severity: str) -> dict:
    """A code from a user's check rule (not in the registry): the id and level only."""
    return {"id": code, "shortDescription": {"text": f"user check rule {code}"},
            "defaultConfiguration": {"level": _LEVEL.get(severity, "warning")}}


def _fix(f) -> dict:
    """A SARIF fix: the finding's edits as replacements (regions in the source's lines;
    columns count bytes, as cudaport's fix regions do), and whether this run applied it."""
    return {
        "description": {"text": f"{f.fix.description} ({f.fix.applicability} fix"
                                f"{', applied' if f.fix.applied else ''})"},
        "artifactChanges": [{
            "artifactLocation": artifact(f.path),
            "replacements": [{
                "deletedRegion": {"startLine": line, "startColumn": col,
                                  "endLine": end_line, "endColumn": end_col},
                "insertedContent": {"text": text},
            } for (line, col, end_line, end_col), text in zip(
                f.fix.regions, (r.decode("utf-8", "replace") for _s, _e, r in f.fix.edits))],
        }],
    }


def render(report: Report, totals: Totals) -> str:
    user = {f.code: f.severity for f in report.findings if f.code not in CODES}
    codes = sorted(CODES) + sorted(user)
    index = {code: i for i, code in enumerate(codes)}
    results = []
    columns = [c for r in report.files for c in (r.utf16_columns or [f.col for f in r.findings])]
    for (f, fp), column in zip(report.pairs(), columns):
        result = {
            "ruleId": f.code,
            "level": _LEVEL.get(f.severity, "warning"),
            "message": {"text": f.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": artifact(f.path),
                "region": {"startLine": max(f.line, 1), "startColumn": max(column, 1)},
            }}],
            "partialFingerprints": {"cudaportFingerprint/v1": fp},
        }
        result["ruleIndex"] = index[f.code]
        if f.fix is not None:
            result["fixes"] = [_fix(f)]
        if f.identifier:
            result["properties"] = {"identifier": f.identifier, "library": f.library,
                                    "engine": f.engine}
        results.append(result)
    run = {
        "tool": {"driver": {
            "name": "cudaport", "version": __version__, "semanticVersion": __version__,
            "informationUri": PROJECT_URI, "rules": [_rule(CODES[c]) if c in CODES else _user_rule(c, user[c])
                                      for c in codes],
        }},
        "columnKind": "utf16CodeUnits",
        "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().resolve().as_uri() + "/"}},
        "invocations": [{
            "executionSuccessful": not report.errors,
            "toolExecutionNotifications": [
                {"level": "error", "message": {"text": e}} for e in report.errors],
        }],
        "results": results,
        "properties": {"target": report.options.target, "summary": totals.to_dict()},
    }
    return json.dumps({"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}, indent=2) + "\n"
