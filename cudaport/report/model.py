"""The one report model every command produces and every format renders.

A :class:`Report` is the run's per-file records (:class:`FileReport`: what happened to the
file, its findings after the policy, its references and reference tally), the walk's
notes, the input errors and, for ``translate --check``, how many outputs are stale.
``translate``, ``check``, ``report`` and the hooks build it with :func:`collect` from the
runner's :class:`~cudaport.run.kinds.FileOutcome` values; the renderers in this package only
format it (and :mod:`.totals`, computed once from it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Iterable

from ..symbols import own_names
from . import verdict as V
from ..findings import SEVERITY_RANK, Finding, Reference
from ..options import Options

NOTE = "note"  # the kind of a record that holds the walk's findings about a path


def exit_code(findings: Iterable[Finding], fail_on: str, errors: int = 0, stale: int = 0) -> int:
    """The exit status of every command: 2 when an input, output or configuration failed;
    1 when a finding is at or above ``fail_on`` (``never``: none is) or, for
    ``translate --check``, an output is stale; else 0."""
    if errors:
        return 2
    if stale:
        return 1
    level = SEVERITY_RANK.get(fail_on)
    if level is None:
        return 0
    return int(any(SEVERITY_RANK[f.severity] >= level for f in findings))


@dataclass
class FileReport:
    path: str  # as shown in reports: relative to the current folder when inside it
    findings: list[Finding] = field(default_factory=list)
    fingerprints: list[str] = field(default_factory=list)  # parallel to findings
    utf16_columns: list[int] = field(default_factory=list)  # parallel; for SARIF and editors
    references: list[Reference] = field(default_factory=list)
    suppressed: int = 0
    baselined: int = 0
    lines: int = 0
    own_names: frozenset[bytes] = frozenset()  # see cudaport.symbols.own_names
    kind: str = "source"  # a cudaport.run.kinds kind, or NOTE
    status: str = "unchanged"  # as FileOutcome.status
    changed: bool = False
    edits: int = 0
    tally: Counter = field(default_factory=Counter)  # (library, status) -> count
    includes: tuple[str, ...] = ()  # every #include'd name, for verdicts across files
    include_lines: tuple[int, ...] = ()  # the line of each
    blockers: int = 0  # error findings no unported reference stands for (cudaport.report.verdict)
    verdict: str = ""  # cudaport.report.verdict's status, filled by collect() (not for notes)
    blocking: tuple[str, ...] = ()  # a blocked file's reasons: error codes, or the include

    def drop_own_names(self, own: frozenset[str]) -> None:
        """Forget CP105 findings and unknown references for names another file defines."""
        keep = [i for i, f in enumerate(self.findings) if not own_names.is_own(f, own)]
        if len(keep) < len(self.findings):
            self.findings = [self.findings[i] for i in keep]
            if self.fingerprints:
                self.fingerprints = [self.fingerprints[i] for i in keep]
            if self.utf16_columns:
                self.utf16_columns = [self.utf16_columns[i] for i in keep]
        self.references = own_names.other_references(self.references, own)


@dataclass
class Report:
    files: list[FileReport]
    errors: list[str]  # inputs that could not be read, translated or written (exit 2)
    options: Options
    target_title: str
    notes: list[Finding] = field(default_factory=list)  # from the walk (symbolic links)
    stale: int = 0  # translate --check: outputs that are not up to date

    @property
    def findings(self) -> list[Finding]:
        return [f for r in self.files for f in r.findings]

    def pairs(self) -> list[tuple[Finding, str]]:
        """Every finding with its fingerprint, in report order."""
        return [pair for r in self.files for pair in zip(r.findings, r.fingerprints)]

    @property
    def suppressed(self) -> int:
        return sum(r.suppressed for r in self.files)

    @property
    def baselined(self) -> int:
        return sum(r.baselined for r in self.files)

    @property
    def written(self) -> int:
        return sum(r.status == "written" for r in self.files)

    def exit_code(self, fail_on: str) -> int:
        """0 clean; 1 a finding at or above ``fail_on`` or a stale output; 2 an input
        could not be checked, translated or written."""
        return exit_code(self.findings, fail_on, len(self.errors), self.stale)


def file_report(outcome) -> FileReport:
    """The record of one :class:`~cudaport.run.kinds.FileOutcome`: the policy's record when
    the worker applied one (check, report, hooks), its blockers counted from the findings
    the policy kept, else every finding as found."""
    record = outcome.checked
    if record is None:
        record = FileReport(outcome.shown, list(outcome.findings),
                            references=list(outcome.references or ()),
                            own_names=outcome.own_names, blockers=outcome.blockers)
    else:  # (counted from the references the file had, kept or not: one share for all)
        record.blockers = V.unreferenced_blockers(record.findings, unported=outcome.unported)
    record.kind, record.status, record.changed = outcome.kind, outcome.status, outcome.changed
    record.edits, record.tally = len(outcome.edits), Counter(outcome.tally)
    record.includes, record.include_lines = outcome.includes, outcome.include_lines
    return record


def collect(outcomes: Iterable, options: Options, target_title: str, *,
            notes: Iterable[FileReport] = (), errors: Iterable[str] = (),
            walk_notes: Iterable[Finding] = ()) -> Report:
    """The report of a run: one record per translated file (copied files and failures
    are not records; a failure's message is an error), names a file defines for itself
    dropped from the others' CP105 findings, each with its verdict
    (:func:`cudaport.report.verdict.of_files`: a file that includes a blocked file is blocked),
    then the walk's ``notes`` as records of their own. Stale outputs are counted."""
    errors = list(errors)
    files: list[FileReport] = []
    stale = 0
    for outcome in outcomes:
        stale += outcome.status == "stale"
        if outcome.status == "failed":
            errors.append(outcome.message or f"{outcome.shown}: failed")
            continue
        if outcome.kind != "copy":
            files.append(file_report(outcome))
    own = own_names.union(r.own_names for r in files)
    if own:  # (the runner dropped them from the outcomes; a policy record came earlier)
        for record in files:
            record.drop_own_names(own)
    verdicts = V.of_files(((r.path, r.findings, r.includes, r.include_lines) for r in files),
                          options.include_dirs)
    for record in files:
        v = verdicts[record.path]
        record.verdict, record.blocking = v.status, v.reasons
    files += [replace(n, kind=NOTE, blockers=V.unreferenced_blockers(n.findings, n.references))
              for n in notes if n.findings]
    return Report(files, errors, options, target_title, list(walk_notes), stale)

