"""``cudaport verify``: translate, compile with a real HIP compiler, report on CUDA lines."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
from pathlib import Path

import click

from ..main import FAIL_LEVELS, UsageError, build_options, translation_options
from ...project.compile_db import CompileDbError, load
from ...report.policy import exit_code
from ...rules.compiled import get_compiled
from ...rules.model import version_tuple
from ...run.runner.io import OutputError, write_output
from ...rules.compiled import offload_arch
from ...run.verify import (INSTALL_HINT, ROCM_WRAPPER, TOOLCHAINS, Compiler, Outcome, VerifyError,
                      collect, find_compiler, rocm_dir, verify_paths)


@click.command("verify")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path),
                metavar="PATH...")
# -I, -D and -p come from the shared translation_options (they also feed --clang).
@click.option("--translated", is_flag=True,
              help="The inputs are already translated: compile them as they are.")
@click.option("--shim", "shim", type=click.Path(file_okay=False, path_type=Path),
              metavar="DIR", help="Compile the inputs unmodified through this folder of "
              "`cudaport shim` headers (-I DIR -include cuda_runtime.h) instead of "
              "translating them; with --build, the sources stay as they are and only the "
              "build files are ported.")
@click.option("--compiler", metavar="PATH", help="HIP compiler (hipcc, clang++ or a "
              "cudaport-hipcc wrapper; env CUDAPORT_HIP_COMPILER); overrides --toolchain.")
@click.option("--toolchain", type=click.Choice(TOOLCHAINS), default="auto", show_default=True,
              help="rocm: the ROCm folder tools/setup-rocm.sh installs; system: hipcc on PATH "
              "or /opt/rocm, else clang++ with HIP headers (Debian 12: clang-15, HIP 5.2); "
              "auto: rocm when it is set up, else system.")
@click.option("--rocm", "rocm", metavar="DIR|VERSION", help="The ROCm folder, or the "
              "ROCm line of one tools/setup-rocm.sh installs (7.2, 6.4); env CUDAPORT_ROCM_DIR; "
              "default: the newest installed (/var/cache/cudaport/rocm-7.2, then rocm-6.4). "
              "Implies --toolchain rocm.")
@click.option("--syntax-only", is_flag=True, help="Check syntax and types only "
              "(-fsyntax-only: quicker, but no device code is generated, so inline assembly "
              "is never assembled). Default: compile to object code (-c).")
@click.option("-j", "--jobs", type=click.IntRange(1), help="Parallel compilations "
              "(default: number of CPUs).")
@click.option("--keep-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write the translated files here (mirroring absolute paths) and keep them.")
@click.option("--report", "report_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a JSON report of every file's result and findings.")
@click.option("--fail-on", type=click.Choice(FAIL_LEVELS), default="error", show_default=True,
              help="Exit 1 when a finding of this severity or above remains.")
@click.option("--build", "build_project", is_flag=True,
              help="Translate each folder and run its own build (make, or CMake's configure "
              "and build) against ROCm 7.2 (the folder `tools/setup-rocm.sh 7.2` installs, "
              "env CUDAPORT_ROCM72_DIR, or --rocm); report each project: built, or its first "
              "error on the CUDA line with the finding that explains it.")
@click.option("-v", "--verbose", is_flag=True,
              help="Print each compiler's output (locations mapped to the CUDA files).")
@click.option("-q", "--quiet", is_flag=True, help="Print no summary.")
@translation_options
def command(paths: tuple[Path, ...], includes: tuple[str, ...], defines: tuple[str, ...],
            compile_commands: Path | None, translated: bool, shim: Path | None,
            compiler: str | None,
            toolchain: str, rocm: str | None, syntax_only: bool,
            jobs: int | None, keep_dir: Path | None, report_file: Path | None, fail_on: str,
            build_project: bool, verbose: bool, quiet: bool, **kwargs: object) -> None:
    """Translate PATHs and compile them with a real HIP compiler.

    Without --hip-version, translation targets the HIP version the compiler's headers
    declare, so names that HIP version lacks get their fallbacks.

    Errors are reported on the line of the original CUDA file, after what `cudaport check`
    reports for the same files (the units and the project headers they include). Folders
    are searched for .cu/.hip files and C++ files that use CUDA. Exit 0 when everything
    compiles and no finding at --fail-on remains, 1 when a file fails to compile (whatever
    --fail-on says) or such a finding remains, 2 on usage errors or without a compiler.
    """
    options = build_options(dict(kwargs))
    if shim is not None and not (shim / "cuda_runtime.h").is_file():
        raise UsageError(f"--shim {shim}: no cuda_runtime.h there; write it with "
                         f"`cudaport shim PATH... --out {shim}`")
    if build_project:  # (Makefiles get HIP_ARCH=... only when an architecture was named)
        sys.exit(run_builds(paths, options, rocm, options.offload_arch, jobs, keep_dir,
                            report_file, fail_on, translated, verbose, quiet, shim))
    if rocm is not None:
        toolchain = "rocm"
    hip = find_compiler(compiler, offload_arch(options), toolchain, rocm, syntax_only)
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
        # Translate for the HIP the compiler has, so version fallbacks apply; a HIP newer
        # than the tables describe gets the newest they describe.
        info = get_compiled(options).target
        newest = info.newest_described or info.version
        if newest and version_tuple(hip.hip_version)[:2] > version_tuple(newest)[:2]:
            options = dataclasses.replace(options, target_version=newest)
            detected = (f"; HIP {hip.hip_version} detected, newer than the tables describe: "
                        f"translated for {newest}")
        else:
            options = dataclasses.replace(options, target_version=hip.hip_version)
            detected = f"; HIP {hip.hip_version} detected"
    translated_for = options.target_version or "the default version (target.yaml)"
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
        outcomes = verify_paths(files, options, hip, flags_for,
                                translate=not translated and shim is None, jobs=jobs,
                                workdir=keep_dir.resolve() if keep_dir else None, shim=shim)
    except VerifyError as exc:
        raise UsageError(str(exc)) from None
    elapsed = time.perf_counter() - start
    checked = None if translated or shim is not None else _check(outcomes, options)
    if checked is not None:  # what check says about these files, first
        from ...report.totals import compute
        from ...report.verdict import BLOCKED

        for f in sorted(checked.findings, key=lambda f: (f.path, f.line, f.col, f.code)):
            click.echo(f"{f.path}:{f.line}:{f.col}: {f.code} {f.severity}: {f.message}")
        for path, v in compute(checked).not_clean:  # (a chain through includes, whole)
            if v.status == BLOCKED:
                click.echo(f"blocked: {path}: {'; '.join(v.reasons)}")
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
    failed = sum(not o.ok for o in outcomes)
    if not quiet:
        if checked is not None:
            from ...report.text import summary_line
            from ...report.totals import compute

            click.echo(f"check: {summary_line(compute(checked))}", err=True)
        mode = "object code" if hip.objects else "syntax only"
        how = (f"unmodified through the shim in {shim}" if shim is not None
               else f"translated for HIP {translated_for}")
        click.echo(f"verify: {len(outcomes)} file(s), {len(outcomes) - failed} compiled, "
                   f"{failed} failed in {elapsed:.1f} s with {hip.label} ({mode}), {how} "
                   f"({hip.description}{detected})", err=True)
    sys.exit(verify_exit_code(outcomes, checked, fail_on))


def verify_exit_code(outcomes: list[Outcome], checked, fail_on: str) -> int:
    """The one contract of check, translate and verify: 1 when a finding at ``fail_on``
    remains (check's findings for the files, the compiler's), and in verify also when a
    unit failed to compile, whatever ``fail_on`` says: a compile failure is a failure."""
    findings = [f for o in outcomes for f in o.findings]
    if checked is not None:
        findings += checked.findings
    return max(exit_code(findings, fail_on), int(any(not o.ok for o in outcomes)))


def _check(outcomes: list[Outcome], options):
    """``cudaport check`` of the files the units' translations read (each unit and the
    project headers it includes), with the project's configuration: its findings, verdicts
    (a unit blocked through an include names the chain) and ported share."""
    from ...run.check import check_paths
    from ...report.policy import Selection
    from .check import load_settings

    paths = list(dict.fromkeys(t.shown for o in outcomes for t in o.translated))
    if not paths:
        return None
    config = load_settings(tuple(paths), None, False)
    return check_paths(paths, options, config, Selection(config.select, config.ignore),
                       bool(config.warn_unused_ignores))


def run_builds(paths: tuple[Path, ...], options, rocm: Path | None, arch: str | None,
               jobs: int | None, keep_dir: Path | None, report_file: Path | None,
               fail_on: str, translated: bool, verbose: bool, quiet: bool,
               shim: Path | None = None) -> int:
    """``verify --build``: translate each folder, build its projects, print one line each."""
    import shutil
    import tempfile

    from ...builds.build import BuildError, build_tree, rocm72_dir

    root = rocm72_dir(rocm)
    if options.target_version is None:
        from ...run.verify import hip_version

        options = dataclasses.replace(options, target_version=hip_version(str(root / "usr")))
    results = []
    start = time.perf_counter()
    for path in paths:
        if not path.is_dir():
            raise UsageError(f"{path}: --build needs a folder (the project to build)")
        out = (keep_dir / path.resolve().name) if keep_dir else Path(
            tempfile.mkdtemp(prefix="cudaport-build-"))
        try:
            built, outcomes = build_tree(path, out if not translated else path, options, root,
                                         jobs or 2, arch, translate=not translated, shim=shim)
        except BuildError as exc:
            raise UsageError(str(exc)) from None
        finally:
            if not keep_dir and not translated:
                shutil.rmtree(out, ignore_errors=True)
        results += built
    for b in results:
        if b.ok:
            click.echo(f"{b.folder}: built ({b.system}, {b.seconds:.1f} s)")
        else:
            e = b.error
            click.echo(f"{e.path}:{e.line}:{e.col}: {e.code} {e.severity}: {e.message} "
                       f"[{b.folder}, {b.system}]")
            for f in b.explained_by:
                click.echo(f"  explained by {f.path}:{f.line}:{f.col}: {f.code} {f.message}")
        if verbose and b.output.strip():
            click.echo(f"--- {b.command}", err=True)
            click.echo(b.output.rstrip(), err=True)
    if report_file is not None:
        doc = {"rocm": str(root), "translated_for": options.target_version,
               "projects": [{"folder": b.folder, "system": b.system, "ok": b.ok,
                             "seconds": round(b.seconds, 1), "command": b.command,
                             "error": b.error.to_dict() if b.error else None,
                             "explained_by": [f.to_dict() for f in b.explained_by]}
                            for b in results]}
        try:
            write_output(report_file, (json.dumps(doc, indent=2) + "\n").encode())
        except OutputError as exc:
            raise UsageError(str(exc)) from None
    failed = sum(not b.ok for b in results)
    if not quiet:
        click.echo(f"verify --build: {len(results)} project(s), {len(results) - failed} built, "
                   f"{failed} failed in {time.perf_counter() - start:.1f} s with ROCm in {root}, "
                   + (f"sources unmodified through the shim in {shim}" if shim is not None
                      else f"translated for HIP {options.target_version}"), err=True)
    # (a build that fails is a failure whatever --fail-on says, as a unit that fails to compile)
    return max(exit_code([b.error for b in results if b.error], fail_on), int(failed > 0))


def render_json(outcomes: list[Outcome], compiler: Compiler, target: str | None) -> str:
    return json.dumps({
        "compiler": compiler.description,
        "hip_version": compiler.hip_version,
        "object_code": compiler.objects,
        "translated_for": target,
        "files": [{"path": o.path, "ok": o.ok, "compiled_with": o.compiled_with,
                   "seconds": round(o.seconds, 3),
                   "findings": [f.to_dict() for f in o.findings]} for o in outcomes],
    }, indent=2) + "\n"
