"""Totals over a check: the numbers every report format shows.

Computed once from a :class:`~cudaport.check.CheckReport` (findings and references that
``check`` already collected), so the text, Markdown and HTML reports agree by construction.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from .. import verdict as V
from ..check import CheckReport
from ..findings import CODES
from .summary import PORTED

UNMAPPED = frozenset({"unsupported", "version", "experimental"})
# Effort points per finding severity: a rough ranking of which file needs work first.
EFFORT = {"error": 5, "warning": 2, "info": 1}
MAX_LOCATIONS = 5
FOLDER_DEPTH = 2  # per-folder bars group files by their first two folders


@dataclass
class Bar:
    """One row of a bar chart: ported vs. not ported CUDA references."""

    label: str
    ported: int = 0
    unmapped: int = 0
    findings: int = 0

    @property
    def total(self) -> int:
        return self.ported + self.unmapped

    @property
    def percent(self) -> float:
        return 100.0 * self.ported / self.total if self.total else 100.0


@dataclass
class Unmapped:
    identifier: str
    library: str
    status: str
    count: int = 0
    locations: list[str] = field(default_factory=list)  # first few path:line


@dataclass
class FileEffort:
    path: str
    effort: int
    errors: int
    warnings: int
    infos: int
    unmapped: int
    lines: int


@dataclass
class CodeCount:
    code: str
    name: str
    title: str
    severity: str
    count: int
    explanation: str


@dataclass
class Totals:
    target: str
    files: int = 0
    lines: int = 0
    findings: int = 0
    suppressed: int = 0
    baselined: int = 0
    errors: list[str] = field(default_factory=list)
    by_severity: Counter = field(default_factory=Counter)
    codes: list[CodeCount] = field(default_factory=list)  # most frequent first
    references: int = 0  # known CUDA references in code and includes
    ported: int = 0
    unknown: int = 0
    libraries: list[Bar] = field(default_factory=list)
    folders: list[Bar] = field(default_factory=list)
    unmapped: list[Unmapped] = field(default_factory=list)  # most frequent first
    efforts: list[FileEffort] = field(default_factory=list)  # most effort first
    blockers: int = 0  # error findings no unported reference stands for (see verdict.py)
    verdicts: list[tuple[str, V.Verdict]] = field(default_factory=list)  # (path, verdict)

    @property
    def percent(self) -> float:
        counted = self.references + self.blockers
        return 100.0 * self.ported / counted if counted else 100.0

    @property
    def by_verdict(self) -> dict[str, int]:
        return V.counts(v for _path, v in self.verdicts)

    @property
    def not_clean(self) -> list[tuple[str, V.Verdict]]:
        """Blocked files first, then files with warnings, each by path."""
        rank = {status: i for i, status in enumerate(reversed(V.ORDER))}
        return sorted(((p, v) for p, v in self.verdicts if v.status != V.CLEAN),
                      key=lambda pv: (rank[pv[1].status], pv[0]))

    @property
    def hazards(self) -> list[CodeCount]:
        return [c for c in self.codes if c.code.startswith("CP2")]

    def to_dict(self) -> dict:
        return {
            "files": self.files, "lines": self.lines, "findings": self.findings,
            "suppressed": self.suppressed, "baselined": self.baselined,
            "by_severity": {s: self.by_severity[s] for s in ("error", "warning", "info")},
            "by_code": {c.code: c.count for c in sorted(self.codes, key=lambda c: c.code)},
            "cuda_references": self.references, "ported": self.ported,
            "percent_ported": round(self.percent, 2), "unknown_cuda_names": self.unknown,
            "blocking_without_rule": self.blockers, "verdicts": self.by_verdict,
            "files_by_verdict": [dict(v.to_dict(), path=p) for p, v in self.verdicts],
        }


def compute(report: CheckReport) -> Totals:
    t = Totals(target=report.target_title, errors=list(report.errors))
    libraries: dict[str, Bar] = {}
    folders: dict[str, Bar] = {}
    unmapped: dict[str, Unmapped] = {}
    codes: Counter = Counter()
    for r in report.files:
        t.files += 1
        t.lines += r.lines
        t.suppressed += r.suppressed
        t.baselined += r.baselined
        name = folder_of(r.path)
        folder = folders.setdefault(name, Bar(name))
        file_unmapped = 0
        for ref in r.references:
            if ref.context not in ("code", "include"):
                continue
            if ref.status == "unknown":
                t.unknown += 1
                continue
            lib = libraries.setdefault(ref.library or "?", Bar(ref.library or "?"))
            t.references += 1
            if ref.status in PORTED:
                t.ported += 1
                lib.ported += 1
                folder.ported += 1
            else:
                lib.unmapped += 1
                folder.unmapped += 1
                file_unmapped += 1
            if ref.status in UNMAPPED:
                u = unmapped.setdefault(ref.identifier,
                                        Unmapped(ref.identifier, ref.library, ref.status))
                u.count += 1
                if len(u.locations) < MAX_LOCATIONS:
                    u.locations.append(f"{r.path}:{ref.line}")
        severities = Counter(f.severity for f in r.findings)
        blockers = V.unreferenced_blockers(r.findings, r.references)
        t.blockers += blockers
        folder.unmapped += blockers
        for f in r.findings:
            codes[f.code] += 1
        t.by_severity.update(severities)
        t.findings += len(r.findings)
        folder.findings += len(r.findings)
        effort = sum(EFFORT[s] * n for s, n in severities.items())
        if effort:
            t.efforts.append(FileEffort(r.path, effort, severities["error"],
                                        severities["warning"], severities["info"],
                                        file_unmapped, r.lines))
    verdicts = V.of_files((r.path, r.findings, r.includes) for r in report.files)
    t.verdicts = list(verdicts.items())
    t.codes = [CodeCount(code, CODES[code].name, CODES[code].title,
                         CODES[code].severity, n, CODES[code].explanation)
               if code in CODES else CodeCount(code, code, code, "warning", n, "")
               for code, n in sorted(codes.items(), key=lambda kv: (-kv[1], kv[0]))]
    t.libraries = sorted(libraries.values(), key=lambda b: (-b.total, b.label))
    t.folders = sorted(folders.values(), key=lambda b: (-(b.total + b.findings), b.label))
    t.unmapped = sorted(unmapped.values(), key=lambda u: (-u.count, u.identifier))
    t.efforts.sort(key=lambda e: (-e.effort, e.path))
    return t


def folder_of(path: str, depth: int = FOLDER_DEPTH) -> str:
    """The folder a file is counted under: its first ``depth`` folders (``.`` for none)."""
    parts = PurePosixPath(path).parent.parts
    return "/".join(parts[:depth]) or "."
