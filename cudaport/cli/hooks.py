"""pre-commit hooks (see .pre-commit-hooks.yaml), run as ``python -m cudaport.cli.hooks``.

``check FILE...``: fail when a file uses CUDA that cannot be ported (findings at or above
``--fail-on``, default error), exactly as ``cudaport translate`` would report them.

``translate-check --source SRC --mirror OUT FILE...``: fail when the committed translation
below OUT of a changed file below SRC is missing or stale.

Kept free of click and other heavy imports: a commit touching one file should cost about
the interpreter's start-up plus one translation.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..options import Options


def _options(ns: argparse.Namespace) -> Options:
    variants = tuple(tuple(v.split("=", 1)) for v in ns.variant)
    return Options(target=ns.target, launch=ns.launch, variants=variants,  # type: ignore[arg-type]
                   target_version=ns.hip_version)


def check(files: list[str], options: Options, fail_on: str) -> int:
    """``cudaport check`` on the staged files: the same walk, kinds and policy (project
    configuration, ``// cudaport: ignore[...]`` comments), findings at or above
    ``fail_on`` printed one a line."""
    from ..run.check import check_paths
    from ..project.config import ConfigError, load_config
    from ..findings import SEVERITY_RANK
    from ..report.policy import Selection

    try:
        config = load_config(files)
    except ConfigError as exc:
        print(f"cudaport: error: {exc}", file=sys.stderr)
        return 2
    report = check_paths(files, options, config, Selection(config.select, config.ignore),
                         bool(config.warn_unused_ignores), named=False)
    for error in report.errors:
        print(f"cudaport: error: {error}", file=sys.stderr)
    level = SEVERITY_RANK.get(fail_on, 99)
    for f in report.findings:
        if SEVERITY_RANK[f.severity] >= level:
            print(f"{f.path}:{f.line}:{f.col}: {f.code} [{f.severity}] {f.message}")
    return report.exit_code(fail_on)


def translate_check(files: list[str], options: Options, source: Path, mirror: Path,
                    rename: bool) -> int:
    from ..run import driver
    from ..run.kinds import kind_of

    real_source = source.resolve()
    jobs = []
    suffixes: dict[str, str] = {}
    renamed: frozenset[str] = frozenset()
    if rename:
        from ..rules import get_compiled
        from ..project.walk import list_tree
        from ..project.ignore import PatternList

        suffixes = {k: v for k, v in get_compiled(options).target.extensions.items() if k != v}
        listing = list_tree(source, PatternList([]))
        renamed = frozenset(r for r in listing.files if driver.renamed_rel(r, suffixes) != r)
    for name in files:
        path = Path(name)
        try:
            rel = path.resolve().relative_to(real_source).as_posix()
        except ValueError:
            continue  # not part of the translated tree
        kind = kind_of(path.name, options.framework)
        if kind == "copy":
            continue
        target = mirror / driver.renamed_rel(rel, suffixes)
        jobs.append(driver.Job(path, name, rel, kind, target))
    request = driver.Request(options, "check", rename=tuple(sorted(suffixes.items())),
                             renamed=renamed)
    outcomes = []
    for job in jobs:
        outcome = driver.run_job(job, request)
        outcomes.append(outcome)
        if outcome.status == "failed":
            print(f"{job.shown}: error: {outcome.message or 'cannot read'}", file=sys.stderr)
        elif outcome.status == "stale":
            what = "missing" if not job.target or not job.target.exists() else "out of date"
            print(f"{job.shown}: CP933 translated mirror {job.target} is {what}; run "
                  f"cudaport translate {source} --out-dir {mirror}"
                  + (" --rename" if rename else ""))
    from ..report.model import collect
    from ..rules import get_compiled

    # Findings do not fail this hook (the check hook reports them): errors and stale do.
    return collect(outcomes, options, get_compiled(options).target.title).exit_code("never")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cudaport.cli.hooks")
    sub = parser.add_subparsers(dest="hook", required=True)
    for name in ("check", "translate-check"):
        p = sub.add_parser(name)
        p.add_argument("--target", default="hip")
        p.add_argument("--launch", default="cuda", choices=("cuda", "hip"))
        p.add_argument("--hip-version", default=None)
        p.add_argument("--variant", action="append", default=[], metavar="GROUP=CHOICE",
                       help="library variant, e.g. blas=rocblas")
        p.add_argument("files", nargs="*")
        if name == "check":
            p.add_argument("--fail-on", default="error",
                           choices=("error", "warning", "info", "never"))
        else:
            p.add_argument("--source", required=True, type=Path,
                           help="the CUDA tree that is translated")
            p.add_argument("--mirror", required=True, type=Path,
                           help="where its committed translation lives")
            p.add_argument("--rename", action="store_true")
    ns = parser.parse_args(argv)
    try:
        options = _options(ns)
        if ns.hook == "check":
            return check(ns.files, options, ns.fail_on)
        return translate_check(ns.files, options, ns.source, ns.mirror, ns.rename)
    except Exception as exc:  # configuration problems: a message, not a traceback
        from ..rules import RuleError

        if isinstance(exc, (RuleError, ValueError, FileNotFoundError)):
            print(f"cudaport: error: {exc}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    sys.exit(main())
