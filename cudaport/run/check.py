"""Collect findings for files and folders without writing anything: ``cudaport check``.

One function, :func:`check_paths`, turns paths plus settings into the one report model,
a :class:`~cudaport.report.model.Report` (findings with fingerprints, the references seen,
input errors), by running the same walk, file kinds and runner as ``translate`` (see
:mod:`cudaport.run.driver`) with the :class:`~cudaport.report.policy.Policy` applied per file.
Renderers in ``cudaport/report/`` format that report; they never compute findings.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from ..project.config import Config
from .kinds import translate_file
from ..options import Options
from ..report.policy import Policy, Selection, exit_code, utf16_column  # noqa: F401
from ..report.model import FileReport, Report, collect
from ..rules.compiled import get_compiled


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
                jobs: int | None = 1, quiet: bool = True, named: bool = True) -> Report:
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
    outcomes = []
    if "-" in paths and not (stdin_filename and config.is_excluded(Path(stdin_filename))):
        name = Path(stdin_filename or "<stdin>")
        shown = display_path(name, cwd) if stdin_filename else "<stdin>"
        data = stdin if stdin is not None else b""
        _, outcome = translate_file(data, "source", options, shown, named=True,
                                    keep_references=True)
        if outcome.status != "failed":
            outcome.checked = policy(data, name, outcome)
        outcomes.append(outcome)
    outcomes += driver.run(job_list, request, jobs, None, progress)
    notes: list[FileReport] = []
    for note in plan.notes:  # what the walk met (symbolic links), as translate reports it
        link = Path(note.path)  # shown where it is, not where it points
        folder = display_path(link.parent, cwd)
        shown = link.name if folder in ("", ".") else f"{folder}/{link.name}"
        notes.append(policy.select_notes([replace(note, path=shown)], Path(note.path)))
    return collect(outcomes, options, compiled.target.title, notes=notes, errors=errors,
                   walk_notes=plan.notes)
