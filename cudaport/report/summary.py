"""Totals over many translated files: counts per status and per library."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .. import verdict as V
from ..translate import Result
from ..verdict import PORTED  # reference statuses that mean "handled on the target"


@dataclass
class Summary:
    files: int = 0
    changed: int = 0
    references: int = 0
    by_status: Counter = field(default_factory=Counter)
    by_library: dict[str, Counter] = field(default_factory=dict)
    by_code: Counter = field(default_factory=Counter)
    blockers: int = 0  # error findings no unported reference stands for (see verdict.py)
    by_verdict: dict[str, int] = field(default_factory=lambda: V.counts(()))

    @property
    def known(self) -> int:
        return self.references - self.by_status["unknown"]

    @property
    def ported(self) -> int:
        return sum(self.by_status[s] for s in PORTED)

    @property
    def percent(self) -> float:
        counted = self.known + self.blockers
        return 100.0 * self.ported / counted if counted else 100.0

    def to_dict(self) -> dict:
        return {
            "files": self.files, "changed": self.changed, "references": self.references,
            "known_cuda_references": self.known, "ported": self.ported,
            "percent_ported": round(self.percent, 2),
            "by_status": dict(sorted(self.by_status.items())),
            "by_library": {lib: dict(sorted(c.items())) for lib, c in sorted(self.by_library.items())},
            "by_code": dict(sorted(self.by_code.items())),
            "blocking_without_rule": self.blockers, "verdicts": self.by_verdict,
        }


def summarize(results: list[Result]) -> Summary:
    s = Summary()
    for result in results:
        s.files += 1
        s.changed += result.changed
        for ref in result.references:
            if ref.context not in ("code", "include"):
                continue
            s.references += 1
            s.by_status[ref.status] += 1
            if ref.status != "unknown":
                s.by_library.setdefault(ref.library or "?", Counter())[ref.status] += 1
        for finding in result.findings:
            s.by_code[finding.code] += 1
        s.blockers += V.unreferenced_blockers(result.findings, result.references)
    for v in verdicts(results).values():
        s.by_verdict[v.status] += 1
    return s


def verdicts(results: list[Result]) -> dict[str, V.Verdict]:
    """path -> verdict of translated files (see :func:`cudaport.verdict.of_files`)."""
    return V.of_files((r.path, r.findings, [inc.name.decode("utf-8", "surrogateescape")
                                            for inc in r.scan.includes] if r.scan else [])
                      for r in results)


def render_text(s: Summary, target_title: str) -> str:
    lines = [
        f"{s.files} file(s), {s.changed} changed; {s.known} CUDA reference(s): "
        f"{s.ported} ported ({V.pct(s.percent)}), "
        f"{s.by_status['unsupported'] + s.by_status['version']} unmapped on {target_title}, "
        f"{s.by_status['experimental']} experimental-only; "
        f"{s.by_status['unknown']} unknown CUDA-looking name(s)"
        + (f"; {s.blockers} blocking construct(s) no rule maps" if s.blockers else ""),
        f"files: {V.sentence(s.by_verdict)}",
    ]
    for library, counts in sorted(s.by_library.items()):
        total = sum(counts.values())
        ported = sum(counts[x] for x in PORTED)
        lines.append(f"  {library:<10} {ported:>6}/{total:<6} ported")
    return "\n".join(lines)
