"""Baselines: record today's findings so CI fails only on new ones.

A finding's fingerprint hashes its path, code, identifier (or message) and the text of its
source line with whitespace removed, plus how many identical ones came before it in the
file. Adding or deleting other lines moves line numbers but changes no fingerprint; editing
the flagged line itself, or adding another identical occurrence, makes a new finding.
A line longer than ``LONG_LINE`` characters (minified or generated code) enters as its
SHA-256, so that many findings on one long line cost no more than the line itself.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..findings import Finding

FORMAT_VERSION = 1
LONG_LINE = 512


class BaselineError(Exception):
    """The baseline file is missing or malformed; the message names it."""


def fingerprints(findings: list[Finding], src: bytes | None) -> list[str]:
    """One fingerprint per finding of one file (``src`` is its text, if readable)."""
    lines = src.splitlines() if src is not None else []
    seen: dict[str, int] = {}
    squeezed: dict[int, str] = {}  # line number -> its text without whitespace
    out = []
    for f in findings:
        text = squeezed.get(f.line)
        if text is None:
            raw = lines[f.line - 1] if 0 < f.line <= len(lines) else b""
            text = "".join(raw.decode("utf-8", "surrogateescape").split())
            if len(text) > LONG_LINE:
                text = hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
            squeezed[f.line] = text
        key = "\0".join([f.path, f.code, f.identifier or f.message, text])
        n = seen.get(key, 0)
        seen[key] = n + 1
        out.append(hashlib.sha256(f"{key}\0{n}".encode("utf-8", "surrogateescape"))
                   .hexdigest()[:32])
    return out


def render(findings: list[Finding], prints: list[str]) -> str:
    """The baseline file's text: sorted so it diffs well under version control."""
    entries = sorted(
        ({"fingerprint": fp, "path": f.path, "code": f.code, "line": f.line,
          "message": f.message} for f, fp in zip(findings, prints)),
        key=lambda e: (e["path"], e["line"], e["code"], e["fingerprint"]))
    payload = {"tool": "cudaport", "baseline_version": FORMAT_VERSION, "findings": entries}
    import json  # (imported where a baseline is used: most checks have none)

    return json.dumps(payload, indent=2) + "\n"


def load(path: Path) -> frozenset[str]:
    """The fingerprints recorded in a baseline file."""
    import json

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BaselineError(f"{path}: no such baseline file (create it with "
                            "--write-baseline)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BaselineError(f"{path}: cannot read baseline: {exc}") from None
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{path}:{exc.lineno}: baseline is not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("tool") != "cudaport" or \
            not isinstance(data.get("findings"), list):
        raise BaselineError(f"{path}: not a cudaport baseline (expected an object with "
                            "\"tool\": \"cudaport\" and a \"findings\" list)")
    if data.get("baseline_version") != FORMAT_VERSION:
        raise BaselineError(f"{path}: baseline version {data.get('baseline_version')!r} is not "
                            f"supported (expected {FORMAT_VERSION}); write it again")
    prints = set()
    for i, entry in enumerate(data["findings"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("fingerprint"), str):
            raise BaselineError(f"{path}: findings[{i}] has no \"fingerprint\" string")
        prints.add(entry["fingerprint"])
    return frozenset(prints)
