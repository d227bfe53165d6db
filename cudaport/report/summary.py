"""Totals over many translated files: counts per status and per library."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .. import verdict as V
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


def summarize(outcomes: list) -> Summary:
    """The totals of a run from its :class:`cudaport.kinds.FileOutcome` values (which
    carry tallies, not every reference); copied files do not count."""
    total = Summary()
    for outcome in outcomes:
        if outcome.kind == "copy":
            continue
        total.files += 1
        total.changed += outcome.changed
        for (library, status), count in outcome.tally.items():
            total.references += count
            total.by_status[status] += count
            if status != "unknown":
                total.by_library.setdefault(library or "?", Counter())[status] += count
        for finding in outcome.findings:
            total.by_code[finding.code] += 1
        total.blockers += outcome.blockers
    for v in verdicts(outcomes).values():
        total.by_verdict[v.status] += 1
    return total


def verdicts(outcomes: list) -> dict[str, V.Verdict]:
    """shown path -> verdict of translated files (see :func:`cudaport.verdict.of_files`)."""
    return V.of_files((o.shown, o.findings, o.includes) for o in outcomes if o.kind != "copy")


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
