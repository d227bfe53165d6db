"""Collect findings for files and folders without writing anything: ``cudaport check``.

One function, :func:`check_paths`, turns paths plus settings into a :class:`CheckReport`
(findings with fingerprints, the references seen, input errors). Renderers in
``cudaport/report/`` format that report; they never compute findings themselves.
The folder walk (:func:`walk_sources`) is deliberately small and replaceable.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from . import baseline as B
from . import suppressions as S
from . import own_names, portability_layers, project_names
from .config import Config
from .files import read_input
from .findings import SEVERITY_RANK, Finding, Reference
from .options import Options
from .rules.compiled import get_compiled
from .translate import InputError, translate_bytes

SOURCE_SUFFIXES = frozenset({".cu", ".cuh", ".hip", ".h", ".hh", ".hpp", ".hxx", ".c", ".cc",
                             ".cpp", ".cxx", ".inl", ".ipp", ".tcc"})
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", "node_modules", ".tox", ".venv"})


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

    def drop_own_names(self, own: frozenset[str]) -> None:
        """Forget CP105 findings and unknown references for names another file defines."""
        keep = [i for i, f in enumerate(self.findings) if not own_names.is_own(f, own)]
        if len(keep) < len(self.findings):
            self.findings = [self.findings[i] for i in keep]
            self.fingerprints = [self.fingerprints[i] for i in keep]
            self.utf16_columns = [self.utf16_columns[i] for i in keep]
        self.references = own_names.other_references(self.references, own)


@dataclass
class CheckReport:
    files: list[FileResult]
    errors: list[str]  # inputs that could not be checked (exit code 2)
    options: Options
    target_title: str

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

    def exit_code(self, fail_on: str) -> int:
        """0 clean, 1 a finding at or above ``fail_on``, 2 an input could not be checked."""
        if self.errors:
            return 2
        if fail_on == "never":
            return 0
        level = SEVERITY_RANK[fail_on]
        return int(any(SEVERITY_RANK[f.severity] >= level for f in self.findings))


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


def display_path(path: Path, cwd: Path) -> str:
    """Relative to ``cwd`` when inside it (stable across machines), else as given."""
    try:
        return path.resolve().relative_to(cwd).as_posix()
    except ValueError:
        return path.as_posix()


def utf16_column(src: bytes, finding: Finding) -> int:
    """The 1-based column in UTF-16 code units (what SARIF viewers count) of a finding's
    byte column; bytes that are not UTF-8 count as one unit each."""
    col = finding.col
    if finding.line < 1 or col <= 1:
        return col
    if 0 <= finding.offset <= len(src):
        start = src.rfind(b"\n", 0, finding.offset) + 1
    else:
        start = 0
        for _ in range(finding.line - 1):
            start = src.find(b"\n", start) + 1
            if start == 0:
                return col
    prefix = src[start:start + col - 1]
    if prefix.isascii():
        return col
    text = prefix.decode("utf-8", "surrogateescape")
    return len(text.encode("utf-16-le", "surrogatepass")) // 2 + 1


def walk_sources(paths: Iterable[str], config: Config) -> tuple[list[Path], list[str]]:
    """Files to check: given files as they are, folders walked for C/C++/CUDA sources;
    config excludes, hidden folders and symlinked folders are skipped. Returns the files
    (sorted, no duplicates) and errors for paths that do not exist."""
    files: list[Path] = []
    errors: list[str] = []
    for name in paths:
        path = Path(name)
        if config.is_excluded(path):
            continue
        if path.is_dir():
            for folder, dirs, names in os.walk(path, onerror=lambda e: errors.append(
                    f"{e.filename}: cannot read folder: {e.strerror or e}")):
                base = Path(folder)
                dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")
                                 and not (base / d).is_symlink()
                                 and not config.is_excluded(base / d))
                for n in sorted(names):
                    candidate = base / n
                    if candidate.suffix.lower() in SOURCE_SUFFIXES and \
                            not config.is_excluded(candidate):
                        files.append(candidate)
        elif path.exists():
            files.append(path)
        else:
            errors.append(f"{name}: no such file or folder")
    unique: dict[Path, Path] = {}
    for f in files:
        unique.setdefault(f.resolve(), f)
    return sorted(unique.values(), key=lambda p: p.as_posix()), errors


def check_paths(paths: Iterable[str], options: Options, config: Config | None = None,
                selection: Selection | None = None, warn_unused_ignores: bool = False,
                baseline: frozenset[str] = frozenset(),
                walk: Callable[[Iterable[str], Config], tuple[list[Path], list[str]]] = walk_sources,
                stdin: bytes | None = None, stdin_filename: str | None = None) -> CheckReport:
    """Translate every source in memory and keep what should be reported.

    A path ``-`` is ``stdin`` (bytes), reported and matched against the configuration as
    ``stdin_filename`` (default ``<stdin>``), as editors need.
    """
    config = config or Config()
    selection = selection or Selection()
    compiled = get_compiled(options)
    cwd = Path.cwd().resolve()
    paths = list(paths)
    files, errors = walk([p for p in paths if p != "-"], config)
    inputs: list[tuple[Path, str, bytes | None]] = []
    if "-" in paths and not (stdin_filename and config.is_excluded(Path(stdin_filename))):
        name = Path(stdin_filename or "<stdin>")
        inputs.append((name, display_path(name, cwd) if stdin_filename else "<stdin>",
                       stdin if stdin is not None else b""))
    inputs += [(path, display_path(path, cwd), None) for path in files]
    named = {Path(p) for p in paths if p != "-"}
    options = project_names.project_options(options, lambda: portability_layers.read_all(
        path if data is None else data for path, _, data in inputs), compiled)
    results: list[FileResult] = []
    for path, shown, data in inputs:
        try:
            src = read_input(path) if data is None else data
            result = check_source(src, path, shown, options, compiled, config, selection,
                                  warn_unused_ignores, baseline)
        except OSError as exc:
            errors.append(str(exc))
            continue
        except InputError as exc:
            if data is not None or path in named:  # the user named it: an input error
                errors.append(str(exc))
                continue
            # Found by walking a folder (a binary file with a source suffix): a finding
            # that CI can see, select, ignore per path or record in a baseline.
            result = not_text(src, path, shown, str(exc), config, selection, baseline)
        results.append(result)
    own = own_names.union(r.own_names for r in results)
    if own:
        for result in results:
            result.drop_own_names(own)
    return CheckReport(results, errors, options, compiled.target.title)


def not_text(src: bytes, path: Path, shown: str, reason: str, config: Config,
             selection: Selection, baseline: frozenset[str]) -> FileResult:
    """The result for a walked file that is not C/C++ text: one CP902 finding."""
    nul = src.find(b"\0")
    line = src.count(b"\n", 0, nul) + 1 if nul >= 0 else 1
    finding = Finding("CP902", f"not C/C++ text, skipped: {reason.split(': ', 1)[-1]}",
                      shown, line, 1)
    result = FileResult(shown)
    if selection.allows("CP902", config.ignores_for(path)):
        keep(result, src, [finding], baseline)
    return result


def check_source(src: bytes, path: Path, shown: str, options: Options, compiled,
                 config: Config, selection: Selection, warn_unused_ignores: bool,
                 baseline: frozenset[str]) -> FileResult:
    """One file. Order: translation findings → ``select``/``ignore`` and per-path ignores →
    suppression comments (and CP910/CP911 about them) → fingerprints → baseline."""
    translated = translate_bytes(src, options, shown, compiled)
    per_path = config.ignores_for(path)
    findings = [f for f in translated.findings if selection.allows(f.code, per_path)]
    comments = S.parse(src)
    findings, hidden = S.apply(findings, comments)
    findings += [f for f in S.problems(comments, shown, warn_unused_ignores)
                 if selection.allows(f.code, per_path)]
    findings.sort(key=lambda f: (f.line, f.col, f.code))
    result = FileResult(shown, references=translated.references, suppressed=hidden,
                        lines=src.count(b"\n") + (not src.endswith(b"\n") and bool(src)),
                        own_names=translated.own_names)
    keep(result, src, findings, baseline)
    return result


def keep(result: FileResult, src: bytes, findings: list[Finding],
         baseline: frozenset[str]) -> None:
    """Fingerprint ``findings`` and add those not in the baseline to ``result``."""
    for f, fp in zip(findings, B.fingerprints(findings, src)):
        if fp in baseline:
            result.baselined += 1
        else:
            result.findings.append(f)
            result.fingerprints.append(fp)
            result.utf16_columns.append(utf16_column(src, f))
