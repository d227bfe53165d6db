"""Command line: a thin click layer over the library.

Exit codes (all commands): 0 clean, 1 findings at or above ``--fail-on``, 2 usage, config
or input error. Status and summaries go to stderr; translated code and reports to stdout.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..project.files import mirror_path, read_input
from ..run.runner.io import OutputError, write_output
from ..project.config import FAIL_LEVELS
from ..options import LAUNCH_STYLES, Options
from ..rules.roots import variant_options
from ..version import __version__
from .commands import LazyGroup
from ..rules.frameworks import FRAMEWORKS
from ..rules import RuleError, get_compiled


class UsageError(click.ClickException):
    exit_code = 2

    def show(self, file=None) -> None:  # no "Usage:" banner, just the message
        click.echo(f"cudaport: error: {self.format_message()}", err=True)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="cudaport")
def main() -> None:
    """Port CUDA C++ to other GPU back ends (HIP first)."""


CLANG_OPTIONS = [
    click.option("--clang/--no-clang", "clang", default=None,
                 help="Parse with clang to confirm CUDA references, find exact launches, "
                      "inactive branches and more hazards (on when -p, --cuda-path or "
                      "--header-mode is given)."),
    click.option("-p", "--compile-commands", "compile_commands", type=click.Path(path_type=Path),
                 help="compile_commands.json (or its folder): -I/-D/-std flags per file "
                      "(verify defaults to ./compile_commands.json or ./build/...)."),
    click.option("-I", "includes", multiple=True, metavar="DIR",
                 help="Include folder (repeatable)."),
    click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]",
                 help="Macro (repeatable)."),
    click.option("--std", metavar="STD", help="C++ standard for clang (default c++17)."),
    click.option("--clang-arg", "clang_args", multiple=True, metavar="ARG",
                 help="Extra clang argument (repeatable)."),
    click.option("--cuda-path", type=click.Path(file_okay=False, path_type=Path),
                 help="CUDA toolkit whose headers clang uses."),
    click.option("--header-mode", type=click.Choice(("auto", "toolkit", "wheels", "stub")),
                 default=None, help="CUDA headers for clang: installed toolkit, PyPI wheels, or "
                                    "a stub generated from the rules (default auto)."),
    click.option("--inactive-branches", type=click.Choice(("translate", "keep")),
                 default="translate", show_default=True,
                 help="With clang: translate code in inactive #if branches too, or keep it."),
    click.option("--warp-size", type=click.IntRange(1, 1024), default=None,
                 help="Threads per warp on the target (default from the target: 64 for HIP)."),
    click.option("--hazards/--no-hazards", default=True, show_default=True,
                 help="Report portability hazards (CP2xx); translation is the same either way "
                      "unless fixes are asked for."),
    click.option("--main-header", type=click.Choice(("needed", "always")), default="needed",
                 show_default=True,
                 help="Add the target's main header (hip/hip_runtime.h) only where the file "
                      "uses runtime or device code, or to every changed .cu/.cuh file."),
    click.option("--fix", is_flag=True, default=False,
                 help="Apply the safe fixes of CP2xx findings to the translation (marked [*])."),
    click.option("--unsafe-fixes", is_flag=True, default=False,
                 help="Apply their unsafe fixes too (marked [-]): review what they change."),
]


def _clang_fields(kwargs: dict) -> dict:
    """Options fields of the clang layer, taken out of ``kwargs``."""
    clang = kwargs.pop("clang", None)
    fields = {
        "compile_commands": kwargs.pop("compile_commands", None),
        "include_dirs": tuple(str(d) for d in kwargs.pop("includes", ()) or ()),
        "defines": tuple(kwargs.pop("defines", ()) or ()),
        "std": kwargs.pop("std", None),
        "clang_args": tuple(kwargs.pop("clang_args", ()) or ()),
        "cuda_path": kwargs.pop("cuda_path", None),
        "header_mode": kwargs.pop("header_mode", None),
        "inactive_branches": kwargs.pop("inactive_branches", None) or "translate",
        "warp_size": kwargs.pop("warp_size", None),
        "hazards": kwargs.pop("hazards", True),
        "fix": _fix_level(kwargs.pop("fix", False), kwargs.pop("unsafe_fixes", False)),
        "main_header": kwargs.pop("main_header", None) or "needed",
    }
    if clang is None:
        clang = bool(fields["compile_commands"] or fields["cuda_path"] or fields["header_mode"])
    fields["clang"] = clang
    fields["header_mode"] = fields["header_mode"] or "auto"
    for key in ("compile_commands", "cuda_path"):
        if fields[key] is not None:
            fields[key] = str(fields[key])
    if fields["compile_commands"]:
        where = Path(fields["compile_commands"])
        db = where if where.suffix == ".json" else where / "compile_commands.json"
        if not db.is_file():
            raise UsageError(f"-p {where}: no compile_commands.json there")
    return fields


def _fix_level(fix: bool, unsafe: bool) -> str:
    return "unsafe" if unsafe else "safe" if fix else "none"


def _portability_fields(kwargs: dict) -> tuple[tuple[str, object], ...]:
    """Options of cudaport.preprocessor.portability_layers (kept in Options.extra)."""
    guards = tuple(kwargs.pop("portable_guards", None) or ())
    respect = bool(kwargs.pop("respect_layers", None))
    return ((("portable_guards", guards),) if guards else ()) + \
        ((("respect_layers", True),) if respect else ())


def translation_options(fn):
    """Options shared by every command that translates or checks code."""
    decorators = [
        click.option("--target", "-t", default="hip", show_default=True,
                     help="Target back end (hip; dcu is an alias of hip)."),
        click.option("--launch", type=click.Choice(LAUNCH_STYLES), default="cuda",
                     show_default=True,
                     help="Keep <<<...>>> launches (cuda) or rewrite them to the target's "
                          "launch function (hip)."),
        click.option("--rewrite-comments", is_flag=True, help="Also rename CUDA names in comments."),
        click.option("--rewrite-strings", is_flag=True,
                     help="Also rename CUDA names in string literals."),
        click.option("--encoding", default="auto", show_default=True, metavar="NAME",
                     help="Source encoding. auto detects GBK/GB18030, Big5 and Shift-JIS, "
                          "whose characters may end in a backslash byte; name one (gbk, "
                          "shift_jis, latin-1, utf-8, ...) to say what the files are."),
        click.option("--experimental", is_flag=True,
                     help="Translate APIs whose target equivalent is experimental."),
        click.option("--hip-version", "target_version", metavar="X.Y",
                     help="Target (HIP) version the output is for: header paths, API "
                          "generations, warp-sync handling; names added later are "
                          "unavailable. Default: 7.2 for hip, checked with a real compiler "
                          "(as are 6.4 and 5.2); the tables describe up to 10.1 (10.x from "
                          "ROCm's sources), and a newer version is refused."),
        click.option("--rules", "rule_files", multiple=True,
                     type=click.Path(dir_okay=False, path_type=Path),
                     help="Extra rule pack (YAML), layered over the target's rules."),
        click.option("--framework", type=click.Choice(FRAMEWORKS),
                     help="Framework the code is written against (pytorch: ROCm PyTorch or "
                          "torch_musa names, headers and, for musa, Python files)."),
        click.option("--respect-layers", is_flag=True, default=None,
                     help="Leave alone, in every file, the CUDA names the project's "
                          "compatibility layers define (translate only what they miss)."),
        click.option("--offload-arch", "offload_arch", metavar="GFX", default=None,
                     help="The GPU architecture (gfx942, gfx90a, ...) translated Makefiles "
                          "and CMake files build for and verify compiles for; one setting "
                          "for all (config: offload-arch). Default: the target's (gfx90a)."),
        click.option("--rules-dir", "rules_dirs", multiple=True,
                     type=click.Path(file_okay=False, path_type=Path),
                     help="Extra folder of targets, searched before the built-in one."),
    ] + CLANG_OPTIONS + [
        click.option(f"--{group}", f"variant_{group}", type=click.Choice(choices),
                     help=f"{group} library variant (default {choices[0]}).")
        for group, choices in variant_options().items()  # (from rules/<target>/target.yaml)
    ]
    for deco in reversed(decorators):
        fn = deco(fn)
    return fn


def build_options(kwargs: dict, config=None) -> Options:
    """Options from a command's keyword arguments; values from the project configuration
    (``config``, else the one found from the command's paths) fill what the command line
    did not set."""
    _apply_config(kwargs, config)
    groups = variant_options()
    variants = tuple((g, kwargs.pop(f"variant_{g}")) for g in groups
                     if kwargs.get(f"variant_{g}"))
    for g in groups:
        kwargs.pop(f"variant_{g}", None)
    version = kwargs.get("target_version")
    if version and not all(part.isdigit() for part in version.split(".")):
        raise UsageError(f"--hip-version {version!r}: expected a version like 5.2 or 6.1.0")
    options = Options(
        target=kwargs.pop("target"), launch=kwargs.pop("launch"),
        rewrite_comments=kwargs.pop("rewrite_comments"),
        rewrite_strings=kwargs.pop("rewrite_strings"),
        encoding=_encoding(kwargs.pop("encoding", "auto")),
        experimental=kwargs.pop("experimental"), target_version=kwargs.pop("target_version"),
        variants=variants,
        rule_files=tuple(str(p) for p in kwargs.pop("rule_files")),
        rules_dirs=tuple(str(p) for p in kwargs.pop("rules_dirs")),
        framework=kwargs.pop("framework", None),
        offload_arch=kwargs.pop("offload_arch", None) or None,
        extra=_portability_fields(kwargs),
        **_clang_fields(kwargs),
    )
    try:
        get_compiled(options)
    except (RuleError, ValueError, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    return options


def _encoding(name: str) -> str:
    from ..source.encodings import check_name

    try:
        return check_name(name)
    except ValueError as exc:
        raise UsageError(f"--encoding: {exc}") from None
_CONFIG_ONLY = ("portable_guards",)  # settings with no command-line flag


def _apply_config(kwargs: dict, config) -> None:
    from ..project.config import ConfigError, load_config

    ctx = click.get_current_context(silent=True)
    if config is None:
        if ctx is None:  # called as a library: no command line, no implicit config
            return
        paths = ctx.params.get("inputs") or ctx.params.get("paths") or ()
        try:
            config = load_config(tuple(str(p) for p in paths))
        except ConfigError as exc:
            raise UsageError(str(exc)) from None
    for key, value in config.option_defaults().items():
        if key not in kwargs:
            if key in _CONFIG_ONLY:
                kwargs[key] = value
            continue
        source = ctx.get_parameter_source(key) if ctx is not None else None
        given = (source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")) \
            or (source is None and kwargs[key] not in (None, False, ()))
        if not given:
            kwargs[key] = value


@main.command()
@click.argument("inputs", nargs=-1, required=True, metavar="INPUT...")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Output file (one input only; '-' for stdout).")
@click.option("--out-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write translated files below this folder, mirroring their paths.")
@click.option("--in-place", is_flag=True,
              help="Overwrite the inputs, keeping their mode, owner and links. Refuses "
                   "read-only files, and files with uncommitted git changes (or a folder "
                   "outside git) unless --backup or --backup-dir.")
@click.option("--check", is_flag=True,
              help="Write nothing; exit 1 if translating would change a file (or, with "
                   "--out-dir, if the mirror there is missing or stale).")
@click.option("--diff", is_flag=True,
              help="Write nothing; print a unified diff of what would change.")
@click.option("--copy-all/--no-copy-all", "copy_all", default=None,
              help="With --out-dir: copy the files that need no translation too, so the "
                   "output folder is the whole project and builds as it is (the default "
                   "for folders); --no-copy-all writes only the files that use CUDA.")
@click.option("--rename", is_flag=True,
              help="Give translated files the target's extensions (.cu -> .hip) and fix "
                   "local #include paths and CMake source lists.")
@click.option("--include", "include", multiple=True, metavar="GLOB",
              help="Only files matching this pattern (gitignore syntax); repeatable.")
@click.option("--exclude", "exclude", multiple=True, metavar="GLOB",
              help="Skip files and folders matching this pattern (gitignore syntax).")
@click.option("--backup", is_flag=True, help="With --in-place, keep each original as NAME.orig.")
@click.option("--backup-dir", type=click.Path(file_okay=False, path_type=Path),
              help="With --in-place, keep the originals below this folder.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: number of cores).")
@click.option("--no-cache", is_flag=True, help="Ignore and do not update the incremental cache.")
@click.option("--report", "report_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a JSON report of every CUDA reference and finding.")
@click.option("--fail-on", type=click.Choice(FAIL_LEVELS), default="error", show_default=True,
              help="Exit 1 when a finding of this severity or above remains.")
@click.option("-q", "--quiet", is_flag=True, help="Print no summary.")
@translation_options
def translate(inputs: tuple[str, ...], output: Path | None, out_dir: Path | None,
              in_place: bool, check: bool, diff: bool, copy_all: bool | None, rename: bool,
              include: tuple[str, ...], exclude: tuple[str, ...], backup: bool,
              backup_dir: Path | None, jobs: int | None, no_cache: bool,
              report_file: Path | None, fail_on: str, quiet: bool, **kwargs: object) -> None:
    """Translate CUDA sources or whole folders.

    With one file and no -o/--out-dir, print to stdout. A folder is walked (respecting
    .gitignore, --include and --exclude) and needs --out-dir, --in-place, --check or --diff.
    """
    modes = sum(x is not None and x is not False for x in (output, out_dir, in_place or None))
    if modes > 1:
        raise UsageError("choose one of -o, --out-dir and --in-place")
    if check and diff:
        raise UsageError("choose one of --check and --diff")
    if (check or diff) and (output is not None or in_place):
        raise UsageError("--check and --diff write nothing; use them alone or with --out-dir")
    if output is not None and len(inputs) != 1:
        raise UsageError("-o takes exactly one input; use --out-dir for several")
    if (backup or backup_dir) and not in_place:
        raise UsageError("--backup and --backup-dir only go with --in-place")
    if copy_all and out_dir is None:
        raise UsageError("--copy-all needs --out-dir")
    if copy_all is None:  # a folder below --out-dir is the whole project: it must build
        copy_all = out_dir is not None and any(
            name != "-" and Path(name).is_dir() for name in inputs)
    if "-" in inputs and (in_place or check or diff or len(inputs) > 1 or rename):
        raise UsageError("standard input can only be translated alone, to stdout, -o or --out-dir")
    folders = [name for name in inputs if name != "-" and Path(name).is_dir()]
    if folders and (output is not None or modes == 0) and not (check or diff):
        raise UsageError(f"{folders[0]}: is a directory; translating a folder needs "
                         "--out-dir, --in-place, --check or --diff")
    if modes == 0 and len(inputs) != 1 and not (check or diff):
        raise UsageError("several inputs need --out-dir or --in-place")
    options = build_options(dict(kwargs))
    if "-" not in inputs and (out_dir is not None or in_place or check or diff):
        from .tree import TreeError, translate_tree

        try:
            translate_tree(
                [Path(name) for name in inputs], options, out_dir=out_dir, in_place=in_place,
                check=check, diff=diff, copy_all=copy_all, rename=rename, include=include,
                exclude=exclude, backup=backup, backup_dir=backup_dir, jobs=jobs,
                use_cache=not no_cache, report_file=report_file, fail_on=fail_on, quiet=quiet,
                is_excluded=_config_excludes(inputs))
        except TreeError as exc:
            raise UsageError(str(exc)) from None
        return
    from ..run.kinds import kind_of, translate_file
    from .tree import finish, suppressing

    policy = suppressing(options)

    outcomes = []
    errors: list[str] = []  # shown as they happen
    base = Path.cwd()
    for name in inputs:
        try:
            if name == "-":
                data = sys.stdin.buffer.read()
                path = Path("<stdin>")
            else:
                path = Path(name)
                data = read_input(path)
        except OSError as exc:
            click.echo(f"cudaport: error: {exc}", err=True)
            errors.append(str(exc))
            continue
        kind = kind_of(path.name, options.framework) if name != "-" else "source"
        translated, outcome = translate_file(data, "source" if kind == "copy" else kind,
                                             options, str(path), named=True,
                                             keep_references=report_file is not None)
        if translated is None:
            click.echo(f"cudaport: error: {outcome.message}", err=True)
            errors.append(outcome.message)
            continue
        outcome.checked = policy(data, path, outcome)
        outcomes.append(outcome)
        try:
            _emit(translated, name, path, output, out_dir, base)
        except OutputError as exc:
            click.echo(f"cudaport: error: {exc}", err=True)
            errors.append(str(exc))
    sys.exit(finish(outcomes, [], options, report_file=report_file, quiet=quiet,
                    fail_on=fail_on, errors=tuple(errors), mode="stdout"))


def _config_excludes(inputs: tuple[str, ...]):
    """The project configuration's ``exclude`` globs as a predicate (None when unset)."""
    from ..project.config import ConfigError, load_config

    try:
        config = load_config(inputs)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    return config.is_excluded if config.exclude else None


def _emit(translated: bytes, name: str, path: Path, output: Path | None,
          out_dir: Path | None, base: Path) -> None:
    """Write one translation of the single-file path (stdin, or ``-o``); ``--in-place``
    and folders never come here: they run through :func:`cudaport.cli.tree.translate_tree`."""
    if out_dir is not None:
        target = mirror_path(out_dir, path, base) if name != "-" else out_dir / "stdin.hip"
    elif output is not None and str(output) != "-":
        target = output
    else:
        sys.stdout.buffer.write(translated)
        sys.stdout.buffer.flush()
        return
    if name != "-" and target.exists() and os.path.samefile(target, path):
        raise OutputError(f"{target}: refusing to overwrite the input (use --in-place)")
    write_output(target, translated, mode_from=path if name != "-" else None)


if __name__ == "__main__":  # pragma: no cover
    main()
