"""``cudaport report``: the check's findings as documents for people, an HTML page with
charts and a Markdown summary for a pull-request comment."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..main import FAIL_LEVELS
from .check import emit, given, project_options, run_check


@click.command("report")
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@click.option("--html", "html_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a self-contained HTML report to this file.")
@click.option("--markdown", "markdown_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a Markdown summary ('-' for stdout; the default without --html).")
@click.option("--title", default="", help="Title of the report.")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Leave out findings recorded in this baseline file.")
@click.option("--fail-on", type=click.Choice(FAIL_LEVELS), default="never", show_default=True,
              help="Exit 1 when a finding of this severity or above is reported.")
@project_options
def command(paths: tuple[str, ...], html_file: Path | None, markdown_file: Path | None,
            title: str, baseline_file: Path | None, fail_on: str, **kwargs: object) -> None:
    """Write reports of what will not port: --html FILE and/or --markdown FILE."""
    from ...report import html, markdown
    from ...report import totals as T

    paths = paths or (".",)
    report, config = run_check(paths, dict(kwargs), baseline_file)
    if not given("fail_on") and config.fail_on:
        fail_on = config.fail_on
    for error in report.errors:
        click.echo(f"cudaport: error: {error}", err=True)
    totals = T.compute(report)
    if html_file is not None:
        emit(html.render(report, totals, title, paths), html_file)
        click.echo(f"cudaport: wrote {html_file}", err=True)
    if markdown_file is not None or html_file is None:
        emit(markdown.render(report, totals), markdown_file)
    sys.exit(report.exit_code(fail_on))
