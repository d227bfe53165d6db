"""Plan a run before anything is written: which files take part (the one walker,
:mod:`cudaport.project.walk`), of which kind (:mod:`cudaport.run.kinds`), and where each output goes;
every unsafe request (an output folder inside the tree, two inputs on one output, an
output that is also an input) is refused here with :class:`PlanError`."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ...findings import Finding
from ...project.ignore import PatternList, matches_any
from ..kinds import kind_of
from ...options import Options


class PlanError(Exception):
    """The request cannot be carried out safely; nothing has been written."""


@dataclass(frozen=True)
class Job:
    source: Path
    shown: str  # the path as the user would name it
    rel: str  # POSIX path below the output root (before renaming)
    kind: str  # see kinds.KINDS
    target: Path | None  # where the result goes; None: compare with / rewrite the source
    named: bool = False  # given by name on the command line: always part of the output


@dataclass(frozen=True)
class Request:
    """Everything a worker needs; inherited by forked workers, pickled otherwise."""

    options: Options
    mode: str = "write"
    copy_all: bool = False
    rename: tuple[tuple[str, str], ...] = ()  # suffix map, e.g. ((".cu", ".hip"),)
    renamed: frozenset[str] = frozenset()  # rels of inputs whose name changes
    keep_references: bool = False
    backup_dir: Path | None = None
    backup_beside: bool = False
    # check and report: findings → selection, suppressions, baseline, for each file in
    # the worker, as (bytes, path, outcome) -> cudaport.report.model.FileReport
    policy: Callable | None = None


@dataclass
class Plan:
    jobs: list[Job] = field(default_factory=list)
    notes: list[Finding] = field(default_factory=list)
    # links to folders inside an input folder, made again below --out-dir so the
    # output builds like the tree (``-Iinclude`` through ``include -> src/include``):
    # (where the link goes, its text: relative, to the same folder of the output)
    links: list[tuple[Path, str]] = field(default_factory=list)


def is_bare(rel: str) -> bool:
    """A file name without an extension (libcu++'s ``detail/__config``, ``LICENSE``): a
    header when a source includes it (see :func:`cudaport.run.driver.run`), else a copy."""
    return "." not in rel.rsplit("/", 1)[-1]


def renamed_rel(rel: str, rename: dict[str, str]) -> str:
    stem, suffix = os.path.splitext(rel)
    return stem + rename[suffix] if suffix in rename else rel


def plan(inputs: list[Path], out_dir: Path | None, *, in_place: bool = False,
         copy_all: bool = False, rename: dict[str, str] | None = None,
         exclude: tuple[str, ...] = (), include: tuple[str, ...] = (),
         extra_excludes: tuple[str, ...] = (), base: Path | None = None,
         is_excluded: Callable[[Path], bool] | None = None,
         framework: str | None = None) -> Plan:
    """Decide every job and refuse unsafe requests (:class:`PlanError`).

    Seams for configuration files: ``extra_excludes`` (gitignore-syntax patterns relative
    to each input folder, added to ``exclude``) and ``is_excluded`` (a predicate on paths,
    such as a config's own exclude globs relative to its folder). ``framework``: its
    Python side is translated too (see :func:`cudaport.run.kinds.kind_of`).
    """
    from ...project.walk import git_ignored, list_tree

    rename = rename or {}
    base = base or common_folder(inputs)
    excludes = PatternList(list(exclude) + list(extra_excludes))
    includes = PatternList(list(include)) if include else None
    result = Plan()
    for given in inputs:
        if given.is_dir():
            prefix = _relative_to(given, base)
            prune: tuple[str, ...] = ()
            if out_dir is not None:
                prune = _check_out_dir(
                    given, out_dir, excludes,
                    lambda rel, root=given: git_ignored(root, rel) or (
                        is_excluded is not None and is_excluded(root / rel)))
            listing = list_tree(given, excludes, includes, prune, str(given).rstrip("/"))
            result.notes.extend(listing.notes)
            if out_dir is not None and not in_place:
                for rel, folder in listing.folder_links:
                    if folder in ("", ".") or rel.startswith(folder + "/"):
                        continue  # (a loop, `loop -> .`: never made, as never followed)
                    link = f"{prefix}/{rel}" if prefix else rel
                    named = f"{prefix}/{folder}" if prefix else folder
                    result.links.append((out_dir / link, os.path.relpath(
                        named, os.path.dirname(link) or ".")))
            for rel in listing.files:
                if is_excluded is not None and is_excluded(given / rel):
                    continue
                full = f"{prefix}/{rel}" if prefix else rel
                kind = kind_of(rel.rsplit("/", 1)[-1], framework)
                if kind == "copy" and not copy_all and not is_bare(rel):
                    continue  # (a name without an extension may be a header: kept)
                result.jobs.append(Job(given / rel, f"{str(given).rstrip('/')}/{rel}", full,
                                       kind, None))
        elif given.exists() or given.is_symlink():
            rel = _relative_to(given, base)
            kind = kind_of(given.name, framework)  # named: C/C++ unless known otherwise
            result.jobs.append(Job(given, str(given), rel, "source" if kind == "copy" else kind,
                                   None, True))
        else:
            raise PlanError(f"{given}: no such file or folder")
    result.jobs = _place(result.jobs, out_dir, in_place, rename)
    return result


def common_folder(inputs: list[Path]) -> Path:
    """The folder an output root stands for: the deepest folder holding every input, an
    input folder counting as itself and a file as its folder. So one folder's contents
    land directly below ``--out-dir`` (it is the translated folder); several folders or
    files keep their places relative to each other (``src/`` and ``include/`` become
    ``OUT/src/`` and ``OUT/include/``, and ``#include "../include/x.h"`` still reads the
    translated header); one file lands as ``OUT/NAME``."""
    folders = [os.path.abspath(p if p.is_dir() else os.path.dirname(os.path.abspath(p)))
               for p in inputs]
    return Path(os.path.commonpath(folders)) if folders else Path.cwd()


def _relative_to(path: Path, base: Path) -> str:
    """``path`` below ``base`` (both as given, links not resolved: the names the user
    sees); "" for ``base`` itself."""
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(base))
    if rel == ".":
        return ""
    if rel.startswith(".."):
        return path.name
    return Path(rel).as_posix()


def _check_out_dir(root: Path, out_dir: Path, excludes: PatternList, ignored) -> tuple[str, ...]:
    real_root, real_out = root.resolve(), out_dir.resolve()
    if real_root == real_out:
        raise PlanError(f"--out-dir {out_dir} is the input folder itself; use --in-place "
                        "to overwrite the inputs")
    try:
        rel = real_out.relative_to(real_root).as_posix()
    except ValueError:
        return ()
    if matches_any(excludes, rel, True) or ignored(rel):
        return (rel,)
    raise PlanError(f"--out-dir {out_dir} is inside the input folder {root}; exclude it "
                    f"(--exclude {rel}/ or .gitignore) or choose a folder outside")


def _place(jobs: list[Job], out_dir: Path | None, in_place: bool,
           rename: dict[str, str]) -> list[Job]:
    """Give every job its target path; two jobs on one target or a target that is also
    an input are refused."""
    placed: list[Job] = []
    seen: dict[str, Job] = {}
    folders: dict[str, str] = {}

    def real(path: Path) -> str:  # realpath of the folder (cached) + the name: fast
        folder, name = os.path.split(os.path.abspath(path))
        if folder not in folders:
            folders[folder] = os.path.realpath(folder)
        return os.path.join(folders[folder], name)

    inputs = {real(j.source) for j in jobs}
    for job in jobs:
        rel = renamed_rel(job.rel, rename) if job.kind in ("source", "cmake") else job.rel
        if out_dir is not None:
            target: Path | None = out_dir / rel
            key = real(target)
            if key in inputs:
                raise PlanError(f"{job.shown}: its output {target} is one of the inputs; "
                                "choose an --out-dir outside the inputs")
        elif in_place and rel != job.rel:
            target = job.source.with_name(rel.rsplit("/", 1)[-1])
            key = real(target)
        else:
            target = None
            key = real(job.source)
        other = seen.get(key)
        if other is not None and real(other.source) == real(job.source):
            continue  # one file given twice (a folder and a file in it): one job
        if other is not None:
            raise PlanError(f"{other.shown} and {job.shown} would both be written to "
                            f"{target or job.source}; rename one or exclude it")
        seen[key] = job
        placed.append(Job(job.source, job.shown, job.rel, job.kind, target, job.named))
    if in_place and rename:
        for job in placed:
            if job.target is not None and real(job.target) in inputs:
                raise PlanError(f"{job.shown}: renaming it would overwrite the input "
                                f"{job.target}")
    return placed
