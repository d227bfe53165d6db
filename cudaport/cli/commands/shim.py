"""``cudaport shim``: compatibility headers with which hipcc builds the unmodified CUDA
sources (see :mod:`cudaport.shim`)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from ..main import FAIL_LEVELS, UsageError, build_options, translation_options
from ...report.policy import exit_code


@click.command("shim")
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@click.option("--out", "-o", "out", required=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write the headers into (created; files cudaport shim did not "
                   "generate are never overwritten).")
@click.option("--check", "check_only", is_flag=True,
              help="Write nothing; exit 1 when the folder is not what this run would write "
                   "(for CI: the shim is up to date with the sources).")
@click.option("--exclude", "exclude", multiple=True, metavar="GLOB",
              help="Skip files and folders matching this pattern (gitignore syntax).")
@click.option("--fail-on", type=click.Choice(FAIL_LEVELS), default="error", show_default=True,
              help="Exit 1 when a finding of this severity or above is reported.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: number of cores).")
@click.option("-q", "--quiet", is_flag=True, help="Print no summary or build lines.")
@translation_options
def command(paths: tuple[str, ...], out: Path, check_only: bool, exclude: tuple[str, ...],
            fail_on: str, jobs: int | None, quiet: bool, **kwargs: object) -> None:
    """Write compatibility headers that build the unmodified CUDA sources with hipcc.

    Reads PATHs (default: the current folder) as `check` does and writes into --out one
    header per CUDA header the project includes (cuda_runtime.h always), each including
    its HIP counterpart and mapping the CUDA names the project uses: renames as macros,
    calls whose HIP form differs as function-like macros, device functions HIP lacks from
    cudaport's portable header. Build with `hipcc -I OUT -include cuda_runtime.h -x hip`.
    What a header cannot port is reported (CP701: needs a source edit; `cudaport
    translate` rewrites it). The folder is regenerated, not edited.
    """
    from .check import load_settings
    from ...shim import ShimError, generate, write

    paths = paths or (".",)
    config = load_settings(paths, None, False)
    options = build_options(dict(kwargs), config)
    out_abs = out.resolve()

    def is_excluded(path: Path) -> bool:
        try:
            path.resolve().relative_to(out_abs)
            return True  # the shim folder is no part of the project
        except ValueError:
            return config.is_excluded(path)

    try:
        shim = generate(list(paths), options, exclude=exclude,
                        jobs=jobs, is_excluded=is_excluded)
    except ValueError as exc:  # options the target cannot honour
        raise UsageError(str(exc)) from None
    for error in shim.errors:
        click.echo(f"cudaport: error: {error}", err=True)
    if shim.errors:  # (a shim of part of the project would be wrong for the rest)
        raise UsageError(f"{len(shim.errors)} input(s) could not be read; nothing written")
    for f in shim.findings:
        click.echo(f"{f.path}:{f.line}:{f.col}: {f.code} {f.severity}: {f.message}")
    if check_only:
        stale = _stale(shim.files, out)
        for rel in stale:
            click.echo(f"cudaport: {out / rel}: not up to date", err=True)
        if not quiet:
            click.echo(f"shim: {len(shim.files)} header(s), {len(stale)} not up to date in "
                       f"{out}", err=True)
        sys.exit(1 if stale else exit_code(shim.findings, fail_on))
    try:
        written, removed = write(shim, out)
    except ShimError as exc:
        raise UsageError(str(exc)) from None
    if not quiet:
        from ...rules.compiled import get_compiled

        _summary(shim, out, written, removed, get_compiled(options))
    sys.exit(exit_code(shim.findings, fail_on))


def _stale(files: dict[str, bytes], out: Path) -> list[str]:
    from ...shim import _generated_files

    stale = []
    for rel, data in sorted(files.items()):
        try:
            if (out / rel).read_bytes() != data:
                stale.append(rel)
        except OSError:
            stale.append(rel)
    stale += [rel for rel in _generated_files(out) if rel not in files]
    return stale


def _summary(shim, out: Path, written: list[str], removed: list[str], compiled) -> None:
    needs = shim.needs_edit()
    compiler = compiled.target.extra.get("compiler") or {}
    command = str(compiler.get("command") or "CC")
    language = " ".join(compiler.get("args") or ())
    flags = f"-I {shlex.quote(str(out.resolve()))} -include cuda_runtime.h"
    echo = lambda text="": click.echo(text, err=True)  # noqa: E731
    echo(f"shim: {len(shim.uses)} file(s) read, {len(shim.project.names)} CUDA name(s) "
         f"mapped, {len(shim.files)} header(s) in {out} ({len(written)} written, "
         f"{len(removed)} removed, {len(shim.files) - len(written)} unchanged)")
    if needs:
        echo(f"shim: {len(needs)} file(s) need a source edit (CP701/CP702): "
             + ", ".join(sorted(needs)[:5]) + (" ..." if len(needs) > 5 else ""))
    echo()
    echo("Build the unmodified sources with:")
    echo(f"  {command} {flags} {language} -c file.cu")
    echo("Makefile:")
    echo(f"  CUDAPORT_SHIM_FLAGS := {flags}")
    echo(f"  CUDAPORT_CC ?= {command}")
    echo("  %.o: %.cu")
    echo(f"  \t$(CUDAPORT_CC) $(CUDAPORT_SHIM_FLAGS) {language} $(CFLAGS) -c $< -o $@")
    echo("CMake (the CUDA sources compiled as HIP):")
    echo("  enable_language(HIP)")
    echo("  set_source_files_properties(${CUDA_SOURCES} PROPERTIES LANGUAGE HIP)")
    echo(f"  include_directories(BEFORE {out.resolve()})")
    echo('  add_compile_options("$<$<COMPILE_LANGUAGE:HIP>:SHELL:-include cuda_runtime.h>")')
