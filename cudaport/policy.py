"""Policy: what of a file's findings is reported, and the exit code every command uses.

Order, per file: the translation's findings → ``select``/``ignore`` and per-path ignores →
suppression comments (and CP910/CP911 about them) → fingerprints → baseline. The same
:class:`Policy` runs for ``check``, ``report`` and the pre-commit hook; :func:`exit_code`
decides the exit status of every command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from . import baseline as B
from . import encodings
from . import own_names
from . import suppressions as S
from .config import Config
from .findings import SEVERITY_RANK, Finding, Reference


def exit_code(findings: Iterable[Finding], fail_on: str, errors: int = 0, stale: int = 0) -> int:
    """2 when an input, output or configuration failed; 1 when a finding is at or above
    ``fail_on`` (``never``: none is) or, for ``translate --check``, an output is stale;
    else 0."""
    if errors:
        return 2
    if stale:
        return 1
    level = SEVERITY_RANK.get(fail_on)
    if level is None:
        return 0
    return int(any(SEVERITY_RANK[f.severity] >= level for f in findings))


@dataclass
class FileResult:
    path: str  # as shown in reports: relative to the current folder when inside it
    findings: list[Finding] = field(default_factory=list)
    fingerprints: list[str] = field(default_factory=list)  # parallel to findings
    utf16_columns: list[int] = field(default_factory=list)  # parallel; for SARIF and editors
    references: list[Reference] = field(default_factory=list)
    suppressed: int = 0
    baselined: int = 0
    lines: int = 0
    own_names: frozenset[bytes] = frozenset()  # see cudaport.own_names
    includes: tuple[str, ...] = ()  # every #include'd name, for verdicts across files

    def drop_own_names(self, own: frozenset[str]) -> None:
        """Forget CP105 findings and unknown references for names another file defines."""
        keep = [i for i, f in enumerate(self.findings) if not own_names.is_own(f, own)]
        if len(keep) < len(self.findings):
            self.findings = [self.findings[i] for i in keep]
            self.fingerprints = [self.fingerprints[i] for i in keep]
            self.utf16_columns = [self.utf16_columns[i] for i in keep]
        self.references = own_names.other_references(self.references, own)


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

    def select_notes(self, notes: list[Finding], path: Path) -> FileResult:
        """Findings about a path itself rather than its text (the walk's notes)."""
        per_path = self.config.ignores_for(path)
        result = FileResult(notes[0].path if notes else str(path))
        keep(result, b"", [f for f in notes if self.selection.allows(f.code, per_path)],
             self.baseline)
        return result

    def __call__(self, src: bytes, path: Path, outcome) -> FileResult:
        """``outcome`` is the file's :class:`cudaport.kinds.FileOutcome`."""
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
        result = FileResult(outcome.shown, references=outcome.references or [],
                            suppressed=hidden, own_names=outcome.own_names,
                            includes=outcome.includes,
                            lines=src.count(b"\n") + (not src.endswith(b"\n") and bool(src)))
        keep(result, src, findings, self.baseline)
        return result


def keep(result: FileResult, src: bytes, findings: list[Finding],
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
