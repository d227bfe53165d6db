"""``cudaport translate`` on folders and in the writing modes (--out-dir, --in-place,
--check, --diff): the click layer calls :func:`translate_tree`, which plans with the
driver, runs it, prints status to stderr (diffs to stdout) and exits with the code."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..run import driver
from ..options import Options


class TreeError(Exception):
    """The request cannot be carried out (the CLI reports it as a usage error, exit 2)."""


def _fail(message: str) -> None:
    raise TreeError(message)


def translate_tree(inputs: list[Path], options: Options, *, out_dir: Path | None,
                   in_place: bool, check: bool, diff: bool, copy_all: bool, rename: bool,
                   include: tuple[str, ...], exclude: tuple[str, ...], backup: bool,
                   backup_dir: Path | None, jobs: int | None, use_cache: bool,
                   report_file: Path | None, fail_on: str, quiet: bool,
                   extra_excludes: tuple[str, ...] = (), is_excluded=None) -> None:
    """Run a tree translation and exit. --in-place refuses files with uncommitted git
    changes unless backed up (a folder outside git too; files named one by one outside
    git are overwritten as asked); the driver refuses each read-only file it would change. ``is_excluded``: the project
    configuration's excludes ([tool.cudaport] exclude), a predicate on paths."""
    from ..rules import get_compiled

    compiled = get_compiled(options)
    suffixes = dict(compiled.target.extensions) if rename else {}
    suffixes = {k: v for k, v in suffixes.items() if k != v}
    try:
        the_plan = driver.plan(inputs, out_dir, in_place=in_place, copy_all=copy_all,
                               rename=suffixes, exclude=exclude, include=include,
                               extra_excludes=extra_excludes, is_excluded=is_excluded,
                               framework=options.framework)
    except driver.PlanError as exc:
        _fail(str(exc))
    jobs_list = the_plan.jobs
    mode = "check" if check else "diff" if diff else "in-place" if in_place else "write"
    if mode == "in-place" and backup_dir is None and not backup:
        _require_clean_git(jobs_list)
    renamed = frozenset(j.rel for j in jobs_list
                        if j.kind == "source" and driver.renamed_rel(j.rel, suffixes) != j.rel)
    request = driver.Request(options, mode, copy_all, tuple(sorted(suffixes.items())), renamed,
                             keep_references=report_file is not None, backup_dir=backup_dir,
                             backup_beside=backup, policy=suppressing(options))
    scope = repr(([str(p.resolve()) for p in inputs], str(out_dir.resolve()) if out_dir else ""))
    try:
        outcomes = driver.run(jobs_list, request, jobs, scope if use_cache else None,
                              driver.Progress(len(jobs_list), enabled=False if quiet else None))
    except KeyboardInterrupt:
        click.echo("cudaport: interrupted; every file written is complete", err=True)
        sys.exit(130)
    out = sys.stdout.buffer
    for outcome in outcomes:
        if outcome.status == "failed" and outcome.message:
            click.echo(f"cudaport: error: {outcome.message}", err=True)
        if outcome.status == "stale" and mode == "check" and not quiet:
            click.echo(f"would translate {outcome.shown}", err=True)
        if outcome.diff:
            out.write(outcome.diff)
    out.flush()
    errors = _make_links(the_plan.links, out_dir) if mode == "write" and out_dir else ()
    sys.exit(finish(outcomes, the_plan.notes, options, report_file=report_file, quiet=quiet,
                    fail_on=fail_on, errors=errors, mode=mode))


def _make_links(links: list[tuple[Path, str]], out_dir: Path) -> tuple[str, ...]:
    """The tree's links to its own folders, made again in the output (after the files,
    so no file is written through one); each refusal is printed and returned."""
    from ..run.runner.io import OutputError, write_link

    errors = []
    for path, text in links:
        try:
            write_link(path, text, len(path.relative_to(out_dir).parts) - 1)
        except OutputError as exc:
            click.echo(f"cudaport: error: {exc}", err=True)
            errors.append(str(exc))
    return tuple(errors)


def suppressing(options: Options):
    """The policy a translation's findings pass through: the file's suppression comments
    (``// cudaport: ignore[CP101]``), as ``check`` reads them, so both give one verdict and
    exit code for one file; no selection, configuration or baseline (those are check's)."""
    from ..report.policy import Policy

    return Policy(encoding=options.encoding)


def finish(outcomes: list[driver.Outcome], notes: list, options: Options, *,
           report_file: Path | None, quiet: bool, fail_on: str, errors: tuple[str, ...] = (),
           mode: str = "write") -> int:
    """What every translate run ends with: the run's report (the one model, see
    :mod:`cudaport.report.model`), written as JSON when asked, its findings and summary
    on stderr (unless quiet), and its exit code. ``errors``: failures already shown."""
    from ..report.model import FileReport, collect
    from ..report.text import fix_mark, translation_summary
    from ..report.totals import compute
    from ..rules import get_compiled

    report = collect(outcomes, options, get_compiled(options).target.title,
                     notes=[FileReport(n.path, [n]) for n in notes], errors=errors,
                     walk_notes=notes)
    if mode != "check":
        report.stale = 0  # (--diff shows the differences; only --check fails on them)
    if report_file is not None:
        _write_report(report_file, report, compute(report))
    if not quiet:
        totals = compute(report)  # (the summary's; -q with no report needs only the exit code)
        for f in list(notes) + [f for r in report.files if r.kind != "note" for f in r.findings]:
            if f.code == "CP901":
                continue  # already printed as an error
            where = f"{f.path}:{f.line}:{f.col}" if f.line else f.path
            click.echo(f"{where}: {f.code}{fix_mark(f)} {f.message}", err=True)
        click.echo(translation_summary(totals), err=True)
        if mode in ("write", "in-place"):
            click.echo(f"{report.written} file(s) written, {len(outcomes) - report.written} "
                       "unchanged or not needed", err=True)
        elif mode == "check":
            click.echo(f"{report.stale} file(s) would be translated" if report.stale
                       else "all files up to date", err=True)
    return report.exit_code(fail_on)


def _require_clean_git(jobs: list[driver.Job]) -> None:
    walked = [j.source for j in jobs if not j.named]
    dirty = driver.dirty_files(walked) if walked else []
    if dirty is None:
        _fail("--in-place outside a git work tree needs --backup or --backup-dir "
              "(the originals would be lost)")
    by_folder: dict = {}
    for job in jobs:
        if job.named:
            by_folder.setdefault(job.source.parent, []).append(job.source)
    for paths in by_folder.values():
        dirty += driver.dirty_files(paths) or []  # (outside git: overwritten as asked)
    if dirty:
        shown = ", ".join(dirty[:5]) + (" ..." if len(dirty) > 5 else "")
        _fail(f"--in-place: {len(dirty)} file(s) have uncommitted changes ({shown}); commit "
              "or stash them, or pass --backup")


def _write_report(path: Path, report, totals) -> None:
    from ..report.json_report import render
    from ..run.runner.io import OutputError, write_output

    try:
        write_output(path, render(report, totals).encode())
    except OutputError as exc:
        click.echo(f"cudaport: error: {exc}", err=True)
        report.errors.append(str(exc))
