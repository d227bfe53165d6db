"""``cudaport verify``: translate, compile with a real HIP compiler, report on CUDA lines."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
from pathlib import Path

import click

from ..cli import FAIL_LEVELS, UsageError, build_options, translation_options
from ..compile_db import CompileDbError, load
from ..policy import exit_code
from ..runner.io import OutputError, write_output
from ..verify import (DEFAULT_ARCH, INSTALL_HINT, ROCM_WRAPPER, TOOLCHAINS, Compiler, Outcome,
                      VerifyError, collect, find_compiler, rocm_dir, verify_paths)


@click.command("verify")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path),
                metavar="PATH...")
# -I, -D and -p come from the shared translation_options (they also feed --clang).
@click.option("--translated", is_flag=True,
              help="The inputs are already translated: compile them as they are.")
@click.option("--compiler", metavar="PATH", help="HIP compiler (hipcc, clang++ or a "
              "cudaport-hipcc wrapper; env CUDAPORT_HIP_COMPILER); overrides --toolchain.")
@click.option("--toolchain", type=click.Choice(TOOLCHAINS), default="auto", show_default=True,
              help="rocm: the ROCm folder tools/setup-rocm.sh installs; system: hipcc on PATH "
              "or /opt/rocm, else clang++ with HIP headers (Debian 12: clang-15, HIP 5.2); "
              "auto: rocm when it is set up, else system.")
@click.option("--rocm", "rocm", type=click.Path(file_okay=False, path_type=Path),
              metavar="DIR", help="The ROCm folder (env CUDAPORT_ROCM_DIR; default "
              "/var/cache/cudaport/rocm-6.4); implies --toolchain rocm.")
@click.option("--offload-arch", default=DEFAULT_ARCH, show_default=True,
              help="GPU architecture to check device code for.")
@click.option("-j", "--jobs", type=click.IntRange(1), help="Parallel compilations "
              "(default: number of CPUs).")
@click.option("--keep-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write the translated files here (mirroring absolute paths) and keep them.")
@click.option("--report", "report_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a JSON report of every file's result and findings.")
@click.option("--fail-on", type=click.Choice(FAIL_LEVELS), default="error", show_default=True,
              help="Exit 1 when a finding of this severity or above remains.")
@click.option("-v", "--verbose", is_flag=True,
              help="Print each compiler's output (locations mapped to the CUDA files).")
@click.option("-q", "--quiet", is_flag=True, help="Print no summary.")
@translation_options
def command(paths: tuple[Path, ...], includes: tuple[str, ...], defines: tuple[str, ...],
            compile_commands: Path | None, translated: bool, compiler: str | None,
            toolchain: str, rocm: Path | None, offload_arch: str, jobs: int | None, keep_dir: Path | None,
            report_file: Path | None, fail_on: str, verbose: bool, quiet: bool,
            **kwargs: object) -> None:
    """Translate PATHs and compile them with a real HIP compiler.

    Without --hip-version, translation targets the HIP version the compiler's headers
    declare, so names that HIP version lacks get their fallbacks.

    Errors are reported on the line of the original CUDA file. Folders are searched for
    .cu/.hip files and C++ files that use CUDA. Exit 0 when everything compiles, 1 when a
    file fails (or a finding at --fail-on remains), 2 on usage errors or without a compiler.
    """
    options = build_options(dict(kwargs))
    if rocm is not None:
        toolchain = "rocm"
    hip = find_compiler(compiler, offload_arch, toolchain, rocm)
    if hip is None:
        explicit = compiler or os.environ.get("CUDAPORT_HIP_COMPILER")
        if explicit:
            where = f"{explicit!r} is not a usable HIP compiler"
        elif toolchain == "rocm":
            folder = rocm_dir(rocm)
            where = f"no ROCm toolchain in {folder} (no {folder / ROCM_WRAPPER})"
        else:
            where = "no HIP compiler found (hipcc, or clang++ with HIP headers)"
        raise UsageError(f"{where}; {INSTALL_HINT}")
    detected = ""
    if options.target_version is None and hip.hip_version:
        # Translate for the HIP the compiler has, so version fallbacks apply.
        options = dataclasses.replace(options, target_version=hip.hip_version)
        detected = f"; HIP {hip.hip_version} detected"
    translated_for = options.target_version or "the newest version the tables know"
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise UsageError(f"{missing[0]}: no such file or folder")
    files = collect(paths)
    if not files:
        raise UsageError("no CUDA sources found in " + ", ".join(map(str, paths)))
    common = [f"-I{d}" for d in includes] + [f"-D{d}" for d in defines]
    database: dict[str, list[str]] = {}
    if compile_commands is None:  # a build folder next to the sources, as clang tools do
        compile_commands = next((p for p in (Path("compile_commands.json"),
                                             Path("build", "compile_commands.json"))
                                 if p.is_file()), None)
    if compile_commands is not None:
        try:
            database = load(compile_commands)
        except CompileDbError as exc:
            raise UsageError(str(exc)) from None

    def flags_for(path: Path) -> list[str]:
        return database.get(os.path.normpath(os.path.abspath(path)), []) + common

    start = time.perf_counter()
    try:
        outcomes = verify_paths(files, options, hip, flags_for, translate=not translated,
                                jobs=jobs, workdir=keep_dir.resolve() if keep_dir else None)
    except VerifyError as exc:
        raise UsageError(str(exc)) from None
    elapsed = time.perf_counter() - start
    for outcome in outcomes:
        for f in outcome.findings:
            click.echo(f"{f.path}:{f.line}:{f.col}: {f.code} {f.severity}: {f.message}")
        if verbose and outcome.output.strip():
            click.echo(f"--- {' '.join(outcome.command)}", err=True)
            click.echo(outcome.output.rstrip(), err=True)
    if report_file is not None:
        try:
            write_output(report_file, render_json(outcomes, hip, options.target_version).encode())
        except OutputError as exc:
            raise UsageError(str(exc)) from None
    if not quiet:
        failed = sum(not o.ok for o in outcomes)
        click.echo(f"verify: {len(outcomes)} file(s), {len(outcomes) - failed} compiled, "
                   f"{failed} failed in {elapsed:.1f} s with {hip.label}, translated for "
                   f"HIP {translated_for} ({hip.description}{detected})", err=True)
    failed = sum(not o.ok for o in outcomes) if fail_on != "never" else 0
    sys.exit(exit_code([f for o in outcomes for f in o.findings], fail_on, stale=failed))


def render_json(outcomes: list[Outcome], compiler: Compiler, target: str | None) -> str:
    return json.dumps({
        "compiler": compiler.description,
        "hip_version": compiler.hip_version,
        "translated_for": target,
        "files": [{"path": o.path, "ok": o.ok, "compiled_with": o.compiled_with,
                   "seconds": round(o.seconds, 3),
                   "findings": [f.to_dict() for f in o.findings]} for o in outcomes],
    }, indent=2) + "\n"
