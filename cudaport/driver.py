"""Translate whole trees: plan the jobs, run them (in a process pool), write atomically,
consult the incremental cache, and collect one outcome per file.

Planning happens up front in the parent, so every refusal (an output folder inside the
tree, two inputs that would land on one output path, an output that is also an input)
is raised before a single byte is written. Workers never raise: each file ends as an
:class:`Outcome` (written, unchanged, stale, skipped or failed) carrying its findings.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from . import __version__, own_names, portability_layers, project_names
from .findings import Finding, Reference
from .ignore import PatternList, matches_any
from .options import Options

SOURCE_SUFFIXES = frozenset({
    ".cu", ".cuh", ".hip", ".h", ".hh", ".hpp", ".hxx", ".h++", ".c", ".cc", ".cpp", ".cxx",
    ".c++", ".inl", ".inc", ".ipp", ".tcc", ".tpp", ".cuinl",
})
ALWAYS_WRITTEN = frozenset({".cu", ".cuh", ".hip"})  # GPU sources by name: always mirrored
MODES = ("write", "in-place", "check", "diff")


class PlanError(Exception):
    """The request cannot be carried out safely; nothing has been written."""


def is_cmake(name: str) -> bool:
    return name == "CMakeLists.txt" or name.endswith(".cmake")


def is_python_side(name: str) -> bool:
    """Python files and ``pyproject.toml``: translated with ``--framework`` (see
    :mod:`cudaport.python_side`), else copied like any other file."""
    return name.endswith(".py") or name == "pyproject.toml"


def kind_of(name: str) -> str:
    if is_cmake(name):
        return "cmake"
    return "source" if os.path.splitext(name)[1].lower() in SOURCE_SUFFIXES else "copy"


@dataclass(frozen=True)
class Job:
    source: Path
    shown: str  # the path as the user would name it
    rel: str  # POSIX path below the output root (before renaming)
    kind: str  # source, cmake, copy
    target: Path | None  # where the result goes; None: compare with / rewrite the source
    named: bool = False  # given by name on the command line: always part of the output


@dataclass
class Outcome:
    shown: str
    kind: str
    status: str = "unchanged"  # written, unchanged, stale, skipped, failed, cached
    changed: bool = False  # translation differs from the input
    wanted: bool = False  # the file belongs in the output (uses CUDA, or --copy-all)
    findings: list[Finding] = field(default_factory=list)
    tally: Counter = field(default_factory=Counter)  # (library, status) -> count
    references: list[Reference] | None = None
    edits: list = field(default_factory=list)  # kept only with the references (reports)
    diff: bytes = b""
    message: str = ""
    digest: bytes = b""  # of the input, for the cache
    own_names: frozenset[bytes] = frozenset()  # see cudaport.own_names


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


@dataclass
class Plan:
    jobs: list[Job] = field(default_factory=list)
    notes: list[Finding] = field(default_factory=list)


def renamed_rel(rel: str, rename: dict[str, str]) -> str:
    stem, suffix = os.path.splitext(rel)
    return stem + rename[suffix] if suffix in rename else rel


def plan(inputs: list[Path], out_dir: Path | None, *, in_place: bool = False,
         copy_all: bool = False, rename: dict[str, str] | None = None,
         exclude: tuple[str, ...] = (), include: tuple[str, ...] = (),
         extra_excludes: tuple[str, ...] = (), base: Path | None = None,
         is_excluded: Callable[[Path], bool] | None = None,
         python_side: bool = False) -> Plan:
    """Decide every job and refuse unsafe requests (:class:`PlanError`).

    Seams for configuration files: ``extra_excludes`` (gitignore-syntax patterns relative
    to each input folder, added to ``exclude``) and ``is_excluded`` (a predicate on paths,
    such as a config's own exclude globs relative to its folder).
    """
    from .walk import git_ignored, list_tree

    rename = rename or {}
    base = base or Path.cwd()
    excludes = PatternList(list(exclude) + list(extra_excludes))
    includes = PatternList(list(include)) if include else None
    result = Plan()
    single = len(inputs) == 1
    for given in inputs:
        if given.is_dir():
            prefix = "" if single else _relative_to(given, base)
            prune: tuple[str, ...] = ()
            if out_dir is not None:
                prune = _check_out_dir(
                    given, out_dir, excludes,
                    lambda rel, root=given: git_ignored(root, rel) or (
                        is_excluded is not None and is_excluded(root / rel)))
            listing = list_tree(given, excludes, includes, prune, str(given).rstrip("/"))
            result.notes.extend(listing.notes)
            for rel in listing.files:
                if is_excluded is not None and is_excluded(given / rel):
                    continue
                full = f"{prefix}/{rel}" if prefix else rel
                kind = kind_of(rel.rsplit("/", 1)[-1])
                if kind == "copy" and not copy_all and not (
                        python_side and is_python_side(rel.rsplit("/", 1)[-1])):
                    continue
                result.jobs.append(Job(given / rel, f"{str(given).rstrip('/')}/{rel}", full,
                                       kind, None))
        elif given.exists() or given.is_symlink():
            rel = _relative_to(given, base)
            result.jobs.append(Job(given, str(given), rel, kind_of(given.name), None, True))
        else:
            raise PlanError(f"{given}: no such file or folder")
    result.jobs = _place(result.jobs, out_dir, in_place, rename)
    return result


def _relative_to(path: Path, base: Path) -> str:
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return path.name


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
        rel = renamed_rel(job.rel, rename) if job.kind != "copy" else job.rel
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


# ---------------------------------------------------------------------------------------
# Running one job (in a worker or in-process)

_REQUEST: Request | None = None


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def run_job(job: Job, request: Request, cached_hash: bytes | None = None) -> Outcome:
    """Translate one file and act on it according to the request's mode."""
    from .files import OutputError

    outcome = Outcome(job.shown, job.kind)
    try:
        data = job.source.read_bytes()
    except OSError as exc:
        outcome.status = "failed"
        outcome.message = f"{job.shown}: cannot read: {exc.strerror or exc}"
        outcome.findings.append(Finding("CP901", f"cannot read: {exc.strerror or exc}",
                                        job.shown))
        return outcome
    outcome.digest = _digest(data)
    try:
        output = _translate(job, data, request, outcome)
        _act(job, data, output, request, outcome)
    except OutputError as exc:
        outcome.status = "failed"
        outcome.message = str(exc)
    except Exception as exc:  # a bug must not take the whole run down
        outcome.status = "failed"
        outcome.message = f"{job.shown}: internal error: {type(exc).__name__}: {exc}"
    return outcome


def _translate(job: Job, data: bytes, request: Request, outcome: Outcome) -> bytes | None:
    """The translated bytes, or None for a skipped file."""
    from .translate import InputError, translate_bytes

    if job.kind == "copy":
        if request.options.framework and is_python_side(job.source.name):
            return _translate_python_side(job, data, request, outcome)
        outcome.wanted = request.copy_all or job.named
        return data
    if job.kind == "cmake":
        from .cmake import translate_cmake

        result = translate_cmake(data, request.options, job.shown, bool(request.rename))
        outcome.findings.extend(result.findings)
        outcome.changed = result.output != data
        outcome.wanted = outcome.changed or request.copy_all or result.uses_cuda or job.named
        return result.output
    try:
        result = translate_bytes(data, request.options, job.shown)
    except InputError as exc:
        if job.named:  # asked for by name: an input error, as for a single file
            outcome.status = "failed"
            outcome.message = str(exc)
            return None
        outcome.findings.append(Finding("CP930", "binary file; not translated", job.shown))
        outcome.status = "skipped"
        outcome.wanted = request.copy_all
        return data if request.copy_all else None
    output = result.output
    if request.renamed:
        from .renames import rewrite_includes

        output = rewrite_includes(output, job.rel, request.renamed, dict(request.rename))
    outcome.findings.extend(result.findings)
    outcome.own_names = result.own_names
    _tally(result, outcome.tally)
    if request.keep_references:
        outcome.references, outcome.edits = result.references, result.edits
    outcome.changed = output != data
    outcome.wanted = (outcome.changed or bool(outcome.tally) or request.copy_all or job.named
                      or os.path.splitext(job.source.name)[1] in ALWAYS_WRITTEN)
    return output


def _translate_python_side(job: Job, data: bytes, request: Request, outcome: Outcome) -> bytes:
    """A ``.py`` file, ``setup.py`` or ``pyproject.toml`` under ``--framework``; a file that
    does not parse is copied as it is, with the reason."""
    from .python_side import translate_python_file
    from .translate import InputError

    try:
        result = translate_python_file(data, request.options, job.shown)
    except InputError as exc:
        outcome.message = str(exc)
        outcome.wanted = request.copy_all or job.named
        return data
    outcome.findings.extend(result.findings)
    outcome.changed = result.output != data
    outcome.wanted = outcome.changed or request.copy_all or job.named
    return result.output


def _tally(result, tally: Counter) -> None:
    """Count (library, status) of the file's code and include references, from the raw
    scan hits when the result has them: building every Reference object only to count
    them cost more than the rest of a warm run."""
    raw = getattr(result, "extra_references", None)
    scan = getattr(result, "scan", None)
    if raw is None or scan is None:
        for ref in result.references:
            if ref.context in ("code", "include"):
                tally[(ref.library, ref.status)] += 1
        return
    lookup = result.lookup or {}
    for _, name, context, resolved in raw:
        if context in ("code", "include"):
            tally[(resolved.entry.library, resolved.status) if resolved is not None
                  else ("", "unknown")] += 1
    for _, name, context in scan.idents:
        if context in ("code", "include"):
            resolved = lookup.get(name)
            tally[(resolved.entry.library, resolved.status) if resolved is not None
                  else ("", "unknown")] += 1
    for _, _, context in scan.unknown:
        if context in ("code", "include"):
            tally[("", "unknown")] += 1


def _act(job: Job, data: bytes, output: bytes | None, request: Request,
         outcome: Outcome) -> None:
    if output is None:
        return
    mode = request.mode
    target = job.target if job.target is not None else job.source
    if mode in ("check", "diff"):
        if not outcome.wanted and job.target is not None:
            return
        try:
            current = target.read_bytes()
        except OSError:
            current = None
        if current != output:
            outcome.status = "stale"
            if mode == "diff":
                outcome.diff = _unified(current or b"", output, str(target),
                                        "missing" if current is None else "")
        return
    if mode == "in-place":
        if output == data and target == job.source:
            return
        _backup(job, data, request)
        _write(target, output, mode_from=job.source)
        if target != job.source:
            os.unlink(job.source)
        outcome.status = "written"
        return
    if not outcome.wanted:
        return
    try:
        if target.read_bytes() == output:
            return  # already up to date: keep its timestamp, save a write
    except OSError:
        pass
    _write(target, output, mode_from=job.source, durable=False)
    outcome.status = "written"


def _backup(job: Job, data: bytes, request: Request) -> None:
    from .files import OutputError

    if request.backup_dir is not None:
        _write(request.backup_dir / job.rel, data, mode_from=job.source)
    elif request.backup_beside:
        beside = job.source.with_name(job.source.name + ".orig")
        if beside.exists():
            raise OutputError(f"{beside}: backup already exists; remove it first")
        _write(beside, data, mode_from=job.source)


def _unified(before: bytes, after: bytes, name: str, note: str) -> bytes:
    lines = difflib.diff_bytes(
        difflib.unified_diff, before.splitlines(keepends=True), after.splitlines(keepends=True),
        fromfile=(name + (f" ({note})" if note else "")).encode("utf-8", "surrogateescape"),
        tofile=(name + " (translated)").encode("utf-8", "surrogateescape"))
    out = []
    for line in lines:
        out.append(line if line.endswith(b"\n") else line + b"\n\\ No newline at end of file\n")
    return b"".join(out)


# ---------------------------------------------------------------------------------------
# The incremental cache: per (tool version, rule table, options, request) a dictionary
# source path -> (size, mtime_ns, content digest, target stat, outcome).

def _cache_file(request: Request, digest: str, roots: str) -> Path:
    from .rules.loader import _cache_dir

    key = hashlib.sha256(repr((__version__, digest, request.options, request.mode,
                                request.copy_all, request.rename, sorted(request.renamed),
                                roots)).encode()).hexdigest()[:32]
    return _cache_dir() / "tree" / f"{key}.pickle"


def _load_cache(path: Path) -> dict:
    try:
        with open(path, "rb") as fh:
            data = pickle.load(fh)
        return data if isinstance(data, dict) else {}
    except Exception:  # missing or corrupt: start afresh
        return {}


def _save_cache(path: Path, entries: dict) -> None:
    from .files import OutputError, write_atomic

    try:
        write_atomic(path, pickle.dumps(entries, protocol=pickle.HIGHEST_PROTOCOL))
    except OutputError:
        pass  # a read-only cache folder must not fail the run


def _stat_key(path: Path | None) -> tuple | None:
    if path is None:
        return None
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


# ---------------------------------------------------------------------------------------
# Interruption: a signal that arrives while a file is being written takes effect right
# after the write, so no temporary file is left behind and no output is half-written.

_WRITING = False
_DEFERRED: list[int] = []


def _write(path: Path, data: bytes, **kwargs) -> None:
    from .files import write_atomic

    global _WRITING
    _WRITING = True
    try:
        write_atomic(path, data, **kwargs)
    finally:
        _WRITING = False
    if _DEFERRED:
        _raise_for(_DEFERRED.pop())


def _raise_for(signum: int) -> None:
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise SystemExit(128 + signum)


def _on_signal(signum, frame) -> None:
    if _WRITING:
        _DEFERRED.append(signum)
    else:
        _raise_for(signum)


# ---------------------------------------------------------------------------------------
# Running many jobs

def _worker_init(request: Request) -> None:
    global _REQUEST
    _REQUEST = request
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides about Ctrl-C
    signal.signal(signal.SIGTERM, _on_signal)  # the parent's terminate() after Ctrl-C


def _work(batch: list[tuple[int, Job, bytes | None]]) -> list[tuple[int, Outcome, tuple]]:
    assert _REQUEST is not None
    out = []
    for index, job, _ in batch:
        outcome = run_job(job, _REQUEST)
        out.append((index, outcome, _fingerprint(job, outcome)))
    return out


def _fingerprint(job: Job, outcome: Outcome) -> tuple:
    """What the cache stores to recognise this job as done next time (nothing for a
    failed job, or one whose input was just rewritten in place)."""
    st = _stat_key(job.source)
    if st is None or outcome.status == "failed" or (job.target is None
                                                    and outcome.status == "written"):
        return ()
    return (st[0], st[1], outcome.digest, _stat_key(job.target))


class Progress:
    """A one-line counter on stderr, only when stderr is a terminal and not in CI."""

    def __init__(self, total: int, enabled: bool | None = None) -> None:
        if enabled is None:
            enabled = sys.stderr.isatty() and not os.environ.get("CI") and total > 20
        self.enabled, self.total, self.done, self.last = enabled, total, 0, 0.0

    def step(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.enabled and (now - self.last > 0.1 or self.done == self.total):
            self.last = now
            sys.stderr.write(f"\rcudaport: {self.done}/{self.total} files")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 40 + "\r")
            sys.stderr.flush()


def run(jobs: list[Job], request: Request, workers: int | None = None,
        cache_scope: str | None = "", progress: Progress | None = None) -> list[Outcome]:
    """Run every job; outcomes come back in job order. Jobs the cache knows are done
    are not re-run. ``cache_scope`` names the run (inputs and output folder) so each tree
    has its own cache file; None turns the cache off."""
    from .cmake import rules_digest
    from .rules import get_compiled

    compiled = get_compiled(request.options)  # loaded before forking: workers inherit it
    options = project_names.project_options(
        request.options, lambda: portability_layers.read_all(
            j.source for j in jobs if j.kind == "source"), compiled)
    if options is not request.options:
        request = replace(request, options=options)
    outcomes: list[Outcome | None] = [None] * len(jobs)
    cache_path = None
    entries: dict = {}
    pending: list[tuple[int, Job, bytes | None]] = []
    if cache_scope is not None and not request.keep_references:
        digest = compiled.table.digest + rules_digest(request.options)
        cache_path = _cache_file(request, digest, cache_scope)
        entries = _load_cache(cache_path)
    for index, job in enumerate(jobs):
        hit = _cache_hit(entries.get(_entry_key(job)), job, request.mode)
        if hit is not None:
            outcomes[index] = hit
        else:
            pending.append((index, job, None))
    progress = progress or Progress(len(jobs))
    progress.step(len(jobs) - len(pending))
    workers = max(1, workers or os.cpu_count() or 1)
    fresh: list[tuple[int, Outcome, tuple]] = []
    try:
        if workers == 1 or len(pending) < 8:
            global _REQUEST
            _REQUEST = request
            previous = signal.getsignal(signal.SIGINT)
            in_main = threading.current_thread() is threading.main_thread()
            if in_main:
                signal.signal(signal.SIGINT, _on_signal)
            try:
                for item in pending:
                    fresh.extend(_work([item]))
                    progress.step()
            finally:
                if in_main:
                    signal.signal(signal.SIGINT, previous)
        else:
            fresh = _run_pool(pending, request, workers, progress)
    finally:
        progress.close()
        for index, outcome, fingerprint in fresh:
            outcomes[index] = outcome
            if fingerprint and outcome.status != "failed":
                entries[_entry_key(jobs[index])] = fingerprint + (outcome,)
        if cache_path is not None and fresh:
            _save_cache(cache_path, entries)
    done = [o for o in outcomes if o is not None]
    own = own_names.union(o.own_names for o in done)
    if own:
        for outcome in done:
            own_names.drop_from_outcome(outcome, own)
    return done


def _entry_key(job: Job) -> tuple[str, str]:
    return (os.path.abspath(job.source), os.path.abspath(job.target) if job.target else "")


def _cache_hit(entry: tuple | None, job: Job, mode: str) -> Outcome | None:
    if not entry:
        return None
    size, mtime, digest, target_stat, outcome = entry
    st = _stat_key(job.source)
    if st is None:
        return None
    if (st[0], st[1]) != (size, mtime):
        try:
            if _digest(job.source.read_bytes()) != digest:
                return None
        except OSError:
            return None
    if job.target is not None and (outcome.wanted or outcome.status == "written") \
            and _stat_key(job.target) != target_stat:
        return None  # the output was changed or removed since: redo it
    if job.target is None and outcome.changed:
        return None  # in-place / check / diff of a file that still needs translating
    cached = Outcome(**{f: getattr(outcome, f) for f in outcome.__dataclass_fields__})
    cached.status = "unchanged" if outcome.status in ("written", "unchanged") else outcome.status
    return cached


def _run_pool(pending, request, workers, progress) -> list:
    import multiprocessing

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    # Big files first, in small batches, so the last batch does not run alone.
    pending = sorted(pending, key=lambda item: -_size(item[1].source))
    size = max(1, min(32, len(pending) // (workers * 8) or 1))
    batches = [pending[i:i + size] for i in range(0, len(pending), size)]
    fresh: list = []
    pool = ctx.Pool(workers, initializer=_worker_init, initargs=(request,))
    try:
        for done in pool.imap_unordered(_work, batches):
            fresh.extend(done)
            progress.step(len(done))
        pool.close()
    except BaseException:
        pool.terminate()  # SIGTERM: workers unwind their writes, leaving no partial file
        raise
    finally:
        pool.join()
    return fresh


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


# ---------------------------------------------------------------------------------------
# Safety checks for --in-place

def dirty_files(paths: list[Path]) -> list[str] | None:
    """Paths among ``paths`` with uncommitted changes (or untracked); None when they are
    not in a git work tree at all."""
    if not paths:
        return []
    folder = paths[0].parent
    try:
        top = subprocess.run(["git", "-C", str(folder), "rev-parse", "--show-toplevel"],
                             capture_output=True, check=False)
    except OSError:
        return None
    if top.returncode != 0:
        return None
    root = top.stdout.decode().strip()
    dirty: list[str] = []
    chunk = 500
    for i in range(0, len(paths), chunk):
        names = [os.path.relpath(os.path.abspath(p), root) for p in paths[i:i + chunk]]
        proc = subprocess.run(["git", "-C", root, "status", "--porcelain", "-z",
                               "--untracked-files=all", "--"] + names,
                              capture_output=True, check=False)
        if proc.returncode != 0:
            return None
        for item in proc.stdout.decode("utf-8", "surrogateescape").split("\0"):
            if len(item) > 3:
                dirty.append(item[3:])
    return dirty


def summary_of(outcomes: list[Outcome]):
    """The report's totals from outcomes (which carry tallies, not every reference)."""
    from .report.summary import Summary

    total = Summary()
    for outcome in outcomes:
        if outcome.kind == "copy":
            continue
        total.files += 1
        total.changed += outcome.changed
        for (library, status), count in outcome.tally.items():
            total.references += count
            total.by_status[status] += count
            if status != "unknown":
                total.by_library.setdefault(library or "?", Counter())[status] += count
        for finding in outcome.findings:
            total.by_code[finding.code] += 1
    return total
