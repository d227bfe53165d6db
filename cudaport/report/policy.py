"""Policy: what of a file's findings is reported, and the exit code every command uses.

Order, per file: the translation's findings → ``select``/``ignore`` and per-path ignores →
suppression comments (and CP910/CP911 about them) → fingerprints → baseline. The same
:class:`Policy` runs for ``check``, ``report`` and the pre-commit hook; :func:`exit_code`
(in :mod:`cudaport.report.model`) decides the exit status of every command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from . import baseline as B
from ..source import encodings
from . import suppressions as S
from ..project.config import Config
from ..findings import Finding
from .model import FileReport, exit_code  # noqa: F401  (exit_code: re-export)


class Selection:
    """Which codes are reported: the most specific matching selector wins (like ruff);
    at equal length ``ignore`` wins. ``ALL`` (or no ``select``) selects every code."""

    def __init__(self, select: Iterable[str] | None = None, ignore: Iterable[str] = ()) -> None:
        self.select = tuple(select) if select is not None else ("ALL",)
        self.ignore = tuple(ignore)
        self._cache: dict[str, bool] = {}

    @staticmethod
    def _specificity(selector: str, code: str) -> int:
        if selector == "ALL":
            return 0
        return len(selector) if code.startswith(selector) else -1

    def allows(self, code: str, extra_ignore: tuple[str, ...] = ()) -> bool:
        if any(code.startswith(x) or x == "ALL" for x in extra_ignore):
            return False
        cached = self._cache.get(code)
        if cached is None:
            best_select = max((self._specificity(s, code) for s in self.select), default=-1)
            best_ignore = max((self._specificity(s, code) for s in self.ignore), default=-1)
            cached = best_select >= 0 and best_select > best_ignore
            self._cache[code] = cached
        return cached


@dataclass(frozen=True)
class Policy:
    """check's per-file policy, run where the file was translated (in a worker)."""

    config: Config = field(default_factory=Config)
    selection: Selection = field(default_factory=lambda: Selection())
    warn_unused_ignores: bool = False
    baseline: frozenset[str] = frozenset()
    encoding: str = "auto"  # Options.encoding: suppression comments are read as translated

    def select_notes(self, notes: list[Finding], path: Path) -> FileReport:
        """Findings about a path itself rather than its text (the walk's notes)."""
        per_path = self.config.ignores_for(path)
        result = FileReport(notes[0].path if notes else str(path))
        keep(result, b"", [f for f in notes if self.selection.allows(f.code, per_path)],
             self.baseline)
        return result

    def __call__(self, src: bytes, path: Path, outcome) -> FileReport:
        """``outcome`` is the file's :class:`cudaport.run.kinds.FileOutcome`."""
        per_path = self.config.ignores_for(path)
        allows = self.selection.allows
        findings = [f for f in outcome.findings if allows(f.code, per_path)]
        hidden = 0
        if outcome.kind == "source" and outcome.status != "skipped":
            comments = S.parse(encodings.mask(src, self.encoding)[0])
            findings, hidden = S.apply(findings, comments)
            findings += [f for f in S.problems(comments, outcome.shown, self.warn_unused_ignores)
                         if allows(f.code, per_path)]
        findings.sort(key=lambda f: (f.line, f.col, f.code))
        result = FileReport(outcome.shown, references=outcome.references or [],
                            suppressed=hidden, own_names=outcome.own_names,
                            includes=outcome.includes, include_lines=outcome.include_lines,
                            lines=src.count(b"\n") + (not src.endswith(b"\n") and bool(src)))
        keep(result, src, findings, self.baseline)
        return result


def keep(result: FileReport, src: bytes, findings: list[Finding],
         baseline: frozenset[str]) -> None:
    """Fingerprint ``findings`` and add those not in the baseline to ``result``."""
    columns = Utf16Columns(src)
    for f, fp in zip(findings, B.fingerprints(findings, src)):
        if fp in baseline:
            result.baselined += 1
        else:
            result.findings.append(f)
            result.fingerprints.append(fp)
            result.utf16_columns.append(columns(f))


class Utf16Columns:
    """1-based columns in UTF-16 code units (what SARIF viewers count) of findings' byte
    columns; bytes that are not UTF-8 count as one unit each. Asked in line and column
    order (as findings are sorted), each line's text is decoded once however many
    findings it has."""

    def __init__(self, src: bytes) -> None:
        self.src = src
        self.line_starts: list[int] | None = None
        self.last = (0, 1, 1)  # (line, byte column, UTF-16 column) of the last answer

    def __call__(self, finding: Finding) -> int:
        line, col = finding.line, finding.col
        if line < 1 or col <= 1:
            return col
        if self.line_starts is None:
            self.line_starts = [0] + [m.end() for m in re.finditer(rb"\n", self.src)]
        if line > len(self.line_starts):
            return col
        start = self.line_starts[line - 1]
        last_line, done, units = self.last
        if last_line != line or done > col or 0x80 <= self.src[start + done - 1] < 0xC0:
            done, units = 1, 1  # (a column inside a UTF-8 sequence: count from the start)
        units += _utf16_units(self.src[start + done - 1:start + col - 1])
        self.last = (line, col, units)
        return units


def utf16_column(src: bytes, finding: Finding) -> int:
    """The UTF-16 column of one finding (see :class:`Utf16Columns`)."""
    return Utf16Columns(src)(finding)


def _utf16_units(text: bytes) -> int:
    if text.isascii():
        return len(text)
    return len(text.decode("utf-8", "surrogateescape").encode("utf-16-le", "surrogatepass")) // 2
