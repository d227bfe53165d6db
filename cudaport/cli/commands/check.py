"""``cudaport check``: list what will not port, for people and for CI. Writes no sources.

Exit codes: 0 nothing at or above ``--fail-on``, 1 findings, 2 usage, config or input error.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ...report.baseline import BaselineError
from ..main import FAIL_LEVELS, UsageError, build_options, translation_options
from ...project.config import CODE_SELECTOR, Config, ConfigError, load_config
from ...run.runner.io import OutputError, write_output

FORMATS = ("text", "json", "sarif", "github", "markdown")


def split_codes(values: tuple[str, ...], flag: str) -> tuple[str, ...]:
    """``--select CP1,CP2 --select CP9`` → ("CP1", "CP2", "CP9"); rejects non-codes."""
    codes = tuple(c.strip() for v in values for c in v.split(",") if c.strip())
    for code in codes:
        if not CODE_SELECTOR.match(code):
            raise UsageError(f"{flag} {code!r}: expected a code or code prefix such as CP101, "
                             "CP1 or ALL (or a user rule's code)")
    return codes


def load_settings(paths: tuple[str, ...], config_file: Path | None, no_config: bool) -> Config:
    if no_config:
        return Config()
    try:
        return load_config(paths, config_file)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def given(name: str) -> bool:
    """Whether the user set option ``name`` on the command line (not a default)."""
    source = click.get_current_context().get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def emit(text: str, output: Path | None) -> None:
    if output is None or str(output) == "-":
        click.echo(text, nl=False)
        return
    try:
        write_output(output, text.encode("utf-8", "surrogateescape"))
    except OutputError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"{output}: {exc.strerror or exc}") from None


def project_options(fn):
    """Options shared by ``check`` and ``report``: config file, selection, baseline."""
    decorators = [
        click.option("--config", "config_file", type=click.Path(dir_okay=False, path_type=Path),
                     help="Use this .cudaport.toml or pyproject.toml instead of searching."),
        click.option("--no-config", is_flag=True, help="Ignore configuration files."),
        click.option("--select", multiple=True, metavar="CODES",
                     help="Report only these codes or prefixes (comma-separated; default ALL)."),
        click.option("--ignore", multiple=True, metavar="CODES",
                     help="Do not report these codes or prefixes (the more specific of "
                          "--select and --ignore wins)."),
        click.option("--warn-unused-ignores", is_flag=True, default=None,
                     help="Report suppression comments that hid nothing (CP910)."),
        click.option("--stdin-filename", metavar="PATH",
                     help="With PATH '-': the name standard input is reported and "
                          "configured as (for editors)."),
        click.option("--exclude", "exclude", multiple=True, metavar="GLOB",
                     help="Skip files and folders matching this pattern (gitignore syntax)."),
        click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
                     help="Worker processes (default: number of cores)."),
        click.option("-q", "--quiet", is_flag=True, help="Show no progress counter."),
    ]
    for deco in reversed(decorators):
        fn = deco(fn)
    return translation_options(fn)


def run_check(paths: tuple[str, ...], kwargs: dict, baseline_file: Path | None = None):
    """Settings → :func:`cudaport.run.check.check_paths`; shared by ``check`` and ``report``.
    Returns the report and the loaded configuration."""
    from ...report import baseline as B
    from ...run.check import Selection, check_paths

    stdin_filename = kwargs.pop("stdin_filename")
    exclude, jobs, quiet = kwargs.pop("exclude"), kwargs.pop("jobs"), kwargs.pop("quiet")
    where = tuple(stdin_filename if p == "-" and stdin_filename else p for p in paths)
    config = load_settings(where, kwargs.pop("config_file"), kwargs.pop("no_config"))
    cli_select = split_codes(kwargs.pop("select"), "--select")
    select = cli_select or config.select
    # A code named on the command line beats the same selector in the file's ignore.
    ignore = tuple(c for c in config.ignore if c not in cli_select) \
        + split_codes(kwargs.pop("ignore"), "--ignore")
    warn_unused = kwargs.pop("warn_unused_ignores")
    if warn_unused is None:
        warn_unused = bool(config.warn_unused_ignores)
    options = build_options(kwargs, config)
    prints: frozenset[str] = frozenset()
    if baseline_file is not None:
        try:
            prints = B.load(baseline_file)
        except BaselineError as exc:
            raise UsageError(str(exc)) from None
    stdin = sys.stdin.buffer.read() if "-" in paths else None
    report = check_paths(paths, options, config, Selection(select, ignore), warn_unused, prints,
                         stdin=stdin, stdin_filename=stdin_filename, exclude=exclude,
                         jobs=jobs, quiet=quiet)
    return report, config


@click.command("check")
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Output format.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the output to this file (atomically) instead of stdout.")
@click.option("--statistics", is_flag=True, help="Show counts per code.")
@click.option("--fail-on", type=click.Choice(FAIL_LEVELS), default="error", show_default=True,
              help="Exit 1 when a finding of this severity or above is reported.")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Report only findings that are not in this baseline file.")
@click.option("--write-baseline", type=click.Path(dir_okay=False, path_type=Path),
              help="Record the current findings in this file and exit 0.")
@project_options
def command(paths: tuple[str, ...], fmt: str, output: Path | None, statistics: bool,
            fail_on: str, baseline_file: Path | None, write_baseline: Path | None,
            **kwargs: object) -> None:
    """Report CUDA code that will not port (no files are written).

    PATHs are files or folders (default: the current folder); folders are searched for
    CUDA, HIP, C and C++ sources and headers. Settings come from [tool.cudaport] in
    pyproject.toml or from .cudaport.toml, found by walking up from the first PATH.
    """
    from ...report import totals as T

    paths = paths or (".",)
    if baseline_file is not None and write_baseline is not None:
        raise UsageError("use either --baseline or --write-baseline, not both")
    report, config = run_check(paths, dict(kwargs), baseline_file)
    if not given("fail_on") and config.fail_on:
        fail_on = config.fail_on
    for error in report.errors:
        click.echo(f"cudaport: error: {error}", err=True)
    if write_baseline is not None:
        from ...report import baseline as B

        findings, prints = zip(*report.pairs()) if report.findings else ((), ())
        emit(B.render(list(findings), list(prints)), write_baseline)
        click.echo(f"cudaport: wrote {len(findings)} finding(s) to baseline {write_baseline}",
                   err=True)
        sys.exit(2 if report.errors else 0)
    totals = T.compute(report)
    emit(render(fmt, report, totals, statistics, output), output)
    sys.exit(report.exit_code(fail_on))


def render(fmt: str, report, totals, statistics: bool, output: Path | None) -> str:
    if fmt == "text":
        from ...report import text

        colour = output is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        return text.render(report, totals, colour=colour, statistics=statistics)
    if fmt == "json":
        from ...report import findings_json

        return findings_json.render(report, totals)
    if fmt == "sarif":
        from ...report import sarif

        return sarif.render(report, totals)
    if fmt == "github":
        from ...report import github

        return github.render(report, totals)
    from ...report import markdown

    return markdown.render(report, totals)
