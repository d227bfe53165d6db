"""Collect findings for files and folders without writing anything: ``cudaport check``.

One function, :func:`check_paths`, turns paths plus settings into a :class:`CheckReport`
(findings with fingerprints, the references seen, input errors) by running the same walk,
file kinds and runner as ``translate`` (see :mod:`cudaport.driver`) with the
:class:`~cudaport.policy.Policy` applied per file. Renderers in ``cudaport/report/``
format that report; they never compute findings themselves.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable

from . import own_names
from .config import Config
from .findings import Finding
from .kinds import translate_file
from .options import Options
from .policy import FileResult, Policy, Selection, exit_code, utf16_column  # noqa: F401
from .rules.compiled import get_compiled


@dataclass
class CheckReport:
    files: list[FileResult]
    errors: list[str]  # inputs that could not be checked (exit code 2)
    options: Options
    target_title: str
    notes: list[Finding] = field(default_factory=list)  # from the walk (symbolic links)

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
        return exit_code(self.findings, fail_on, len(self.errors))


def display_path(path: Path, cwd: Path) -> str:
    """Relative to ``cwd`` when inside it (stable across machines), else as given."""
    try:
        return path.resolve().relative_to(cwd).as_posix()
    except ValueError:
        return path.as_posix()


def check_paths(paths: Iterable[str], options: Options, config: Config | None = None,
                selection: Selection | None = None, warn_unused_ignores: bool = False,
                baseline: frozenset[str] = frozenset(), stdin: bytes | None = None,
                stdin_filename: str | None = None, exclude: tuple[str, ...] = (),
                jobs: int | None = 1, quiet: bool = True, named: bool = True) -> CheckReport:
    """Translate every file in memory (the tree translation's walk, file kinds and
    runner, writing nothing) and keep what the policy reports.

    A path ``-`` is ``stdin`` (bytes), reported and matched against the configuration as
    ``stdin_filename`` (default ``<stdin>``), as editors need. ``exclude``: gitignore-style
    patterns, as ``translate --exclude``; ``jobs``: worker processes; ``quiet``: no
    progress counter; ``named=False``: files given count as found by a walk (the
    pre-commit hook: a staged binary file is a finding, not an input error).
    """
    from . import driver

    config = config or Config()
    policy = Policy(config, selection or Selection(), warn_unused_ignores, baseline,
                    options.encoding)
    compiled = get_compiled(options)
    cwd = Path.cwd().resolve()
    paths = list(paths)
    errors: list[str] = []
    inputs = []
    for name in dict.fromkeys(p for p in paths if p != "-"):
        path = Path(name)
        if not (path.exists() or path.is_symlink()):
            errors.append(f"{name}: no such file or folder")
        elif not config.is_excluded(path):
            inputs.append(path)
    plan = driver.plan(inputs, None, exclude=exclude, is_excluded=config.is_excluded,
                       framework=options.framework) if inputs else driver.Plan()
    unique: dict[str, driver.Job] = {}
    for job in plan.jobs:  # shown relative to the current folder, each file once
        unique.setdefault(os.path.realpath(job.source),
                          replace(job, shown=display_path(job.source, cwd),
                                  named=job.named and named))
    job_list = sorted(unique.values(), key=lambda j: j.shown)
    request = driver.Request(options, "report", keep_references=True, policy=policy)
    progress = driver.Progress(len(job_list), enabled=False if quiet else None)
    results: list[FileResult] = []
    if "-" in paths and not (stdin_filename and config.is_excluded(Path(stdin_filename))):
        name = Path(stdin_filename or "<stdin>")
        shown = display_path(name, cwd) if stdin_filename else "<stdin>"
        data = stdin if stdin is not None else b""
        output, outcome = translate_file(data, "source", options, shown, named=True,
                                         keep_references=True)
        if outcome.status == "failed":
            errors.append(outcome.message)
        else:
            results.append(policy(data, name, outcome))
    for outcome in driver.run(job_list, request, jobs, None, progress):
        if outcome.status == "failed":
            errors.append(outcome.message)
        else:
            results.append(outcome.checked)
    own = own_names.union(r.own_names for r in results)
    if own:
        for result in results:
            result.drop_own_names(own)
    for note in plan.notes:  # what the walk met (symbolic links), as translate reports it
        link = Path(note.path)  # shown where it is, not where it points
        folder = display_path(link.parent, cwd)
        shown = link.name if folder in ("", ".") else f"{folder}/{link.name}"
        kept = policy.select_notes([replace(note, path=shown)], Path(note.path))
        if kept.findings:
            results.append(kept)
    return CheckReport(results, errors, options, compiled.target.title, plan.notes)
