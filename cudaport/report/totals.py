"""Totals over a run: the numbers every report format shows, for every command.

Computed once from a :class:`~cudaport.report.model.Report` (the per-file reference
tallies, findings, blockers, verdicts and, when kept, references), so ``translate``'s summary and JSON report
and ``check``'s text, JSON, SARIF, Markdown and HTML reports agree by construction.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from . import verdict as V
from ..findings import CODES
from .verdict import PORTED  # reference statuses that mean "handled on the target"
from .model import NOTE, Report

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
    files: int = 0  # translated files (not copies, not the walk's notes)
    changed: int = 0  # of which the translation differs from the input
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
    by_status: Counter = field(default_factory=Counter)  # every reference, unknown included
    by_library: dict[str, Counter] = field(default_factory=dict)  # known ones, per status
    libraries: list[Bar] = field(default_factory=list)
    folders: list[Bar] = field(default_factory=list)
    unmapped: list[Unmapped] = field(default_factory=list)  # most frequent first
    efforts: list[FileEffort] = field(default_factory=list)  # most effort first
    blockers: int = 0  # error findings no unported reference stands for (see verdict.py)
    verdicts: list[tuple[str, V.Verdict]] = field(default_factory=list)  # (path, verdict)
    fixed: int = 0  # findings whose fix was applied (--fix, --unsafe-fixes)
    fixable: Counter = field(default_factory=Counter)  # not applied, by applicability

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
            "fixes": self.fixes_dict(),
        }

    def fixes_dict(self) -> dict:
        return {"applied": self.fixed, "safe_available": self.fixable["safe"],
                "unsafe_available": self.fixable["unsafe"]}

    def translation_dict(self) -> dict:
        """The ``summary`` of ``translate --report``."""
        return {
            "files": self.files, "changed": self.changed,
            "references": self.references + self.unknown, "known_cuda_references": self.references,
            "ported": self.ported, "percent_ported": round(self.percent, 2),
            "by_status": dict(sorted(self.by_status.items())),
            "by_library": {lib: dict(sorted(c.items())) for lib, c in sorted(self.by_library.items())},
            "by_code": {c.code: c.count for c in sorted(self.codes, key=lambda c: c.code)},
            "blocking_without_rule": self.blockers, "verdicts": self.by_verdict,
            "fixes": self.fixes_dict(),
        }


def compute(report: Report) -> Totals:
    t = Totals(target=report.target_title, errors=list(report.errors))
    folders: dict[str, Bar] = {}
    unmapped: dict[str, Unmapped] = {}
    codes: Counter = Counter()
    for r in report.files:
        if r.kind != NOTE:
            t.files += 1
            t.changed += r.changed
        t.lines += r.lines
        t.suppressed += r.suppressed
        t.baselined += r.baselined
        name = folder_of(r.path)
        folder = folders.setdefault(name, Bar(name))
        file_unmapped = 0
        for (library, status), count in r.tally.items():
            t.by_status[status] += count
            if status == "unknown":
                t.unknown += count
                continue
            t.by_library.setdefault(library or "?", Counter())[status] += count
            t.references += count
            if status in PORTED:
                t.ported += count
                folder.ported += count
            else:
                folder.unmapped += count
                file_unmapped += count
        for ref in r.references:
            if ref.context in ("code", "include") and ref.status in UNMAPPED:
                u = unmapped.setdefault(ref.identifier,
                                        Unmapped(ref.identifier, ref.library, ref.status))
                u.count += 1
                if len(u.locations) < MAX_LOCATIONS:
                    u.locations.append(f"{r.path}:{ref.line}")
        severities = Counter(f.severity for f in r.findings)
        t.blockers += r.blockers
        folder.unmapped += r.blockers
        for f in r.findings:
            codes[f.code] += 1
            if f.fix is not None:
                if f.fix.applied:
                    t.fixed += 1
                else:
                    t.fixable[f.fix.applicability] += 1
        t.by_severity.update(severities)
        t.findings += len(r.findings)
        folder.findings += len(r.findings)
        effort = sum(EFFORT[s] * n for s, n in severities.items())
        if effort:
            t.efforts.append(FileEffort(r.path, effort, severities["error"],
                                        severities["warning"], severities["info"],
                                        file_unmapped, r.lines))
    t.verdicts = [(r.path, V.Verdict(r.verdict, r.blocking)) for r in report.files
                  if r.verdict]
    t.codes = [CodeCount(code, CODES[code].name, CODES[code].title,
                         CODES[code].severity, n, CODES[code].explanation)
               if code in CODES else CodeCount(code, code, code, "warning", n, "")
               for code, n in sorted(codes.items(), key=lambda kv: (-kv[1], kv[0]))]
    t.libraries = sorted((Bar(lib, sum(c[s] for s in PORTED), sum(c.values())
                              - sum(c[s] for s in PORTED))
                          for lib, c in t.by_library.items()), key=lambda b: (-b.total, b.label))
    t.folders = sorted(folders.values(), key=lambda b: (-(b.total + b.findings), b.label))
    t.unmapped = sorted(unmapped.values(), key=lambda u: (-u.count, u.identifier))
    t.efforts.sort(key=lambda e: (-e.effort, e.path))
    return t


def folder_of(path: str, depth: int = FOLDER_DEPTH) -> str:
    """The folder a file is counted under: its first ``depth`` folders (``.`` for none)."""
    parts = PurePosixPath(path).parent.parts
    return "/".join(parts[:depth]) or "."
