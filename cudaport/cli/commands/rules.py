"""``cudaport rules``: look inside the rule tables (list, explain, check, stats).

Every answer comes from the same compiled table a translation would use, so
``rules explain cublasGemmEx --blas rocblas`` says exactly what ``translate --blas
rocblas`` will do with that name.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..main import UsageError, build_options, translation_options
from ...rules import RuleError, get_compiled, load_table
from ...rules.compiled import Compiled
from ...rules.describe import (LIST_STATUSES, coverage, cuda_history, equivalent_counts,
                              explain_header, explain_identifier, matches_status)
from ...rules.loader import default_rules_root, resolve_target_dir


def compiled_for(kwargs: dict) -> Compiled:
    """The compiled table a ``translate`` with the same options would use."""
    options = build_options({k: v for k, v in kwargs.items()})
    return get_compiled(options)


@click.group("rules")
def command() -> None:
    """Inspect and validate the rule tables."""


@command.command("list")
@click.option("--library", "-l", multiple=True, help="Only these libraries (cublas, runtime ...).")
@click.option("--status", "-s", type=click.Choice(LIST_STATUSES),
              help="Only names with this status under the chosen options.")
@click.option("--kind", help="Only this kind (function, type, constant, macro ...).")
@click.option("--format", "fmt", type=click.Choice(("text", "json")), default="text",
              show_default=True)
@translation_options
def list_rules(library: tuple[str, ...], status: str | None, kind: str | None, fmt: str,
               **kwargs: object) -> None:
    """List CUDA names with their status and target name, one per line."""
    compiled = compiled_for(kwargs)
    known = {e.library for e in compiled.table.identifiers.values()}
    for lib in library:
        if lib not in known:
            raise UsageError(f"--library {lib}: no such library (known: {', '.join(sorted(known))})")
    rows = []
    for name in sorted(compiled.table.identifiers):
        entry = compiled.table.identifiers[name]
        if library and entry.library not in library:
            continue
        if kind and entry.kind != kind:
            continue
        if status and not matches_status(compiled, entry, status):
            continue
        r = compiled.identifiers[name.encode()]
        target = r.replacement.decode() if r.replacement else ""
        rows.append({"name": name, "library": entry.library, "kind": entry.kind,
                     "status": r.status, "to": target, "cuda": cuda_history(entry),
                     "rule": entry.rule_id})
    out = sys.stdout
    if fmt == "json":
        out.write(json.dumps(rows, indent=1) + "\n")
    else:
        for row in rows:
            out.write(f"{row['name']}\t{row['library']}\t{row['status']}\t{row['to']}\n")
    click.echo(f"{len(rows)} name(s)", err=True)


@command.command("explain")
@click.argument("names", nargs=-1, required=True, metavar="NAME...")
@translation_options
def explain(names: tuple[str, ...], **kwargs: object) -> None:
    """Everything the table knows about identifiers or headers: status, versions,
    target and variant names, notes, templates and where the rule is written.

    Exit code 1 when a name is not in the table."""
    compiled = compiled_for(kwargs)
    missing = 0
    for i, name in enumerate(names):
        if i:
            click.echo("")
        if name in compiled.table.identifiers:
            lines = explain_identifier(compiled, name)
        elif name in compiled.table.headers:
            lines = explain_header(compiled, name)
        else:
            missing += 1
            looks = compiled.unknown.fullmatch(name.encode()) is not None
            lines = [f"{name}: not in the {compiled.target.title} rule table"
                     + ("; it has a CUDA-like name but is not a public name of the CUDA 13 "
                        "headers (a project's own name, or a newer API: add a rule with --rules)"
                        if looks else "; cudaport leaves it unchanged")]
        click.echo("\n".join(lines))
    sys.exit(1 if missing else 0)


@command.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--target", "-t", default="hip", show_default=True,
              help="Target whose schema and names the pack is checked against.")
def check(files: tuple[Path, ...], target: str) -> None:
    """Validate rule packs (or a target.yaml) against the schema and the target's table.

    Errors name the file and line. Exit code 0 when every file is valid, 2 otherwise."""
    roots = [default_rules_root()]
    errors = 0
    for path in files:
        if not path.is_file():
            click.echo(f"{path}:0: no such rule file", err=True)
            errors += 1
            continue
        try:
            _check_one(path, target, roots)
        except RuleError as exc:
            click.echo(str(exc), err=True)
            errors += 1
        else:
            click.echo(f"{path}: ok", err=True)
    sys.exit(2 if errors else 0)


def _check_one(path: Path, target: str, roots: list[Path]) -> None:
    """A pack of the target itself is checked in place; any other is layered on top."""
    try:
        folder = resolve_target_dir(target, roots)
    except RuleError:
        folder = None
    if path.name == "target.yaml" or (folder and path.resolve().parent == folder.resolve()):
        load_table(path.resolve().parent.name, [path.resolve().parent.parent])
    else:
        load_table(target, roots, [path])  # a valid result is cached by content, as usual


@command.command("stats")
@click.option("--format", "fmt", type=click.Choice(("text", "json")), default="text",
              show_default=True)
@translation_options
def stats(fmt: str, **kwargs: object) -> None:
    """Coverage per library: names known, ported, unsupported, experimental, ..."""
    compiled = compiled_for(kwargs)
    per_library = coverage(compiled)
    totals = equivalent_counts(compiled)
    if fmt == "json":
        click.echo(json.dumps({
            "target": compiled.target.name,
            "libraries": {k: vars(v) for k, v in per_library.items()},
            "totals": {"cuda_names": totals.get("cuda", 0),
                       "with_hip_equivalent": totals.get("hip", 0),
                       "with_roc_or_miopen_equivalent": totals.get("roc", 0),
                       "headers": len(compiled.table.headers)},
        }, indent=1))
        return
    title = compiled.target.title
    click.echo(f"{'library':10} {'names':>6} {'ported':>7} {'%':>5} {'none':>6} {'exp':>5} "
               f"{'depr':>5} {'rem':>5} {'variant':>7} {'cuda13':>6}")
    for s in per_library.values():
        pct = 100.0 * s.supported / s.names if s.names else 0.0
        click.echo(f"{s.library:10} {s.names:6} {s.supported:7} {pct:5.1f} {s.unsupported:6} "
                   f"{s.experimental:5} {s.deprecated:5} {s.removed:5} {s.variant_names:7} "
                   f"{s.cuda13_only:6}")
    click.echo(f"{totals.get('cuda', 0)} CUDA names; {totals.get('hip', 0)} with a {title} API "
               f"equivalent, {totals.get('roc', 0)} with a ROC-library or MIOpen equivalent; "
               f"{len(compiled.table.headers)} headers")
