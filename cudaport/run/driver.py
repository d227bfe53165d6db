"""Run a planned set of files: translate each (one function per file kind, see
:mod:`cudaport.run.kinds`), act on it as the request's mode says (write atomically, compare,
diff, or only report), in a process pool, consulting the incremental cache; collect one
outcome per file.

Planning (:mod:`cudaport.run.runner.plan`) happens up front in the parent, so every refusal is
raised before a single byte is written. Workers never raise: each file ends as an
:class:`Outcome` (written, unchanged, stale, skipped or failed) carrying its findings.
The cache lives in :mod:`cudaport.run.runner.cache`, the git checks for ``--in-place`` in
:mod:`cudaport.run.runner.git`; their names are re-exported here.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

from ..symbols import own_names
from ..preprocessor import portability_layers
from ..symbols import project_names
from ..findings import Finding
from .kinds import FileOutcome, kind_of, translate_file  # noqa: F401  (kind_of: re-export)
from .runner.cache import (_cache_file, _cache_hit, _digest, _entry_key,  # noqa: F401
                           _fingerprint, _load_cache, _save_cache, _stat_key)
from .runner.git import dirty_files  # noqa: F401
from .runner.io import refuse_linked_folders, refuse_read_only
from .runner.plan import Job, Plan, PlanError, Request, plan, renamed_rel  # noqa: F401
from ..source.lazy_re import lazy

MODES = ("write", "in-place", "check", "diff", "report")  # report: findings only


Outcome = FileOutcome  # (the name the tree code and its tests use)


# ---------------------------------------------------------------------------------------
# Running one job (in a worker or in-process)

_REQUEST: Request | None = None


def run_job(job: Job, request: Request, cached_hash: bytes | None = None) -> Outcome:
    """Translate one file and act on it according to the request's mode."""
    from .runner.io import OutputError

    try:
        data = job.source.read_bytes()
    except OSError as exc:
        outcome = Outcome(job.shown, job.kind, status="failed")
        outcome.message = f"{job.shown}: cannot read: {exc.strerror or exc}"
        outcome.findings.append(Finding("CP901", f"cannot read: {exc.strerror or exc}",
                                        job.shown))
        return outcome
    outcome = Outcome(job.shown, job.kind)
    try:
        output, outcome = translate_file(
            data, job.kind, request.options, job.shown, named=job.named,
            copy_all=request.copy_all, rel=job.rel, rename=request.rename,
            renamed=request.renamed, keep_references=request.keep_references)
        if request.policy is not None and outcome.status != "failed":
            outcome.checked = request.policy(data, job.source, outcome)
        _act(job, data, output, request, outcome)
    except OutputError as exc:
        outcome.status = "failed"
        outcome.message = str(exc)
    except Exception as exc:  # a bug must not take the whole run down
        outcome.status = "failed"
        outcome.message = f"{job.shown}: internal error: {type(exc).__name__}: {exc}"
    outcome.digest = _digest(data)
    return outcome


def _act(job: Job, data: bytes, output: bytes | None, request: Request,
         outcome: Outcome) -> None:
    mode = request.mode
    if output is None or mode == "report":
        return
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
        refuse_read_only(job.source, job.shown)
        if target != job.source:
            refuse_linked_folders(target, 0)
        _backup(job, data, request)
        _write(target, output, mode_from=job.source, keep_identity=target == job.source)
        if target != job.source:
            os.unlink(job.source)
        outcome.status = "written"
        return
    if not outcome.wanted:
        return
    refuse_linked_folders(target, job.rel.count("/"))
    try:
        if os.path.lexists(target) and target.read_bytes() == output:
            return  # already up to date: keep its timestamp, save a write
    except OSError:
        pass
    _write(target, output, mode_from=job.source, durable=False)
    outcome.status = "written"


def _backup(job: Job, data: bytes, request: Request) -> None:
    from .runner.io import OutputError

    if request.backup_dir is not None:
        refuse_linked_folders(request.backup_dir / job.rel, job.rel.count("/"))
        _write(request.backup_dir / job.rel, data, mode_from=job.source)
    elif request.backup_beside:
        beside = job.source.with_name(job.source.name + ".orig")
        if os.path.lexists(beside):
            raise OutputError(f"{beside}: backup already exists; remove it first")
        _write(beside, data, mode_from=job.source)


def _unified(before: bytes, after: bytes, name: str, note: str) -> bytes:
    import difflib  # (only --diff needs it; the pre-commit hook starts faster without)

    lines = difflib.diff_bytes(
        difflib.unified_diff, before.splitlines(keepends=True), after.splitlines(keepends=True),
        fromfile=(name + (f" ({note})" if note else "")).encode("utf-8", "surrogateescape"),
        tofile=(name + " (translated)").encode("utf-8", "surrogateescape"))
    out = []
    for line in lines:
        out.append(line if line.endswith(b"\n") else line + b"\n\\ No newline at end of file\n")
    return b"".join(out)


# ---------------------------------------------------------------------------------------
# Interruption: a signal that arrives while a file is being written takes effect right
# after the write, so no temporary file is left behind and no output is half-written.

_WRITING = False
_DEFERRED: list[int] = []


def _write(path: Path, data: bytes, **kwargs) -> None:
    from .runner.io import write_output

    global _WRITING
    _WRITING = True
    try:
        write_output(path, data, **kwargs)
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
    from ..builds.rule_files import rules_digest
    from ..rules import get_compiled

    compiled = get_compiled(request.options)  # loaded before forking: workers inherit it
    workers = max(1, workers or os.cpu_count() or 1)
    use_cache = cache_scope is not None and not request.keep_references
    options = _project_options(jobs, request, compiled, workers,
                               cache_scope if use_cache else None)
    if options is not request.options:
        request = replace(request, options=options)
    outcomes: list[Outcome | None] = [None] * len(jobs)
    cache_path = None
    entries: dict = {}
    pending: list[tuple[int, Job, bytes | None]] = []
    if use_cache:
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
    fresh: list[tuple[int, Outcome, tuple]] = []
    try:
        if workers == 1 or not _worth_a_pool([job.source for _i, job, _d in pending]):
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
    _headers_without_extension(jobs, outcomes, request)
    done = [o for o in outcomes if o is not None]
    own = own_names.union(o.own_names for o in done)
    if own:
        for outcome in done:
            own_names.drop_from_outcome(outcome, own)
    return done


def _headers_without_extension(jobs: list[Job], outcomes: list, request: Request) -> None:
    """Files without an extension that a source of the run includes (libcu++-style
    ``#include <cuda/std/detail/__config>``, ``#include "detail/config"``) are headers:
    translated (and checked) as sources, in place of their copy; what they include in
    turn, too. An include names such a file when it is the end of the file's path below
    its folder (``../`` steps left out), as the verdicts resolve includes."""
    import posixpath

    from .runner.plan import is_bare

    bare = [i for i, job in enumerate(jobs) if job.kind == "copy" and is_bare(job.rel)]
    if not bare:
        return
    by_suffix: dict[str, list[int]] = {}
    for i in bare:
        parts = jobs[i].rel.split("/")
        for k in range(len(parts)):
            by_suffix.setdefault("/".join(parts[k:]), []).append(i)
    read: set[int] = set()
    pending = [o for o in outcomes if o is not None and o.kind == "source"]
    while pending:
        wanted: list[int] = []
        for outcome in pending:
            for name in outcome.includes:
                if "." in name.rsplit("/", 1)[-1]:
                    continue
                parts = [p for p in posixpath.normpath(name).split("/") if p not in ("..", ".")]
                for i in by_suffix.get("/".join(parts), ()):
                    if i not in read:
                        read.add(i)
                        wanted.append(i)
        pending = []
        for i in wanted:
            job = replace(jobs[i], kind="source")
            outcomes[i] = run_job(job, request)
            pending.append(outcomes[i])


def _project_options(jobs: list[Job], request: Request, compiled, workers: int,
                     cache_scope: str | None):
    """The request's options with what the project pre-pass finds in all the sources
    (names the project declares in its namespaces, its layers' names). A tree whose
    sources all have the size and time they had last run reuses that run's answer,
    without reading them (a warm run spent most of its time here)."""
    from ..builds.rule_files import rules_digest

    sources = [j.source for j in jobs if j.kind == "source"]
    # (the project's headers the sources include, read for what they declare and define
    # though not checked: `check user.cu` reads the header beside it as a run over the
    # folder does)
    sources += included_headers(sources, request.options.include_dirs)
    memo_path = stats = None
    if cache_scope is not None:
        memo_path = _cache_file(request, "project-options " + compiled.table.digest
                                + rules_digest(request.options), cache_scope)
        stats = tuple((str(p), _stat_key(p)) for p in sources)
        memo = _load_cache(memo_path)
        if memo.get("sources") == stats and all(st is not None for _p, st in stats):
            extra = memo.get("extra")
            if extra == request.options.extra:
                return request.options
            return replace(request.options, extra=extra)
    if workers > 1 and _worth_a_pool(sources):
        _prescan_in_pool(sources, compiled, workers)
    options = project_names.project_options(
        request.options, lambda: portability_layers.read_all(sources), compiled, sources)
    # (what the project's own CMake build defines for the target: its ROCm switch)
    builds = [j.source for j in jobs if j.kind == "cmake"]
    if builds:
        from ..builds.cmake import project_hip_defines

        defined = tuple(sorted(project_hip_defines(builds, request.options).items()))
        if defined:
            extra = tuple(kv for kv in options.extra if kv[0] != BUILD_DEFINES)
            options = replace(options, extra=extra + ((BUILD_DEFINES, defined),))
    if memo_path is not None:
        _save_cache(memo_path, {"sources": stats, "extra": options.extra})
    return options


BUILD_DEFINES = "build_defines"  # options.extra: (name, value) the project's build defines
_QUOTED_INCLUDE = lazy(rb'(?m)^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"')
_CONTEXT_LIMIT = 256  # headers read beside a run's sources, at most


def included_headers(sources: list[Path], include_dirs: tuple[str, ...] = ()) -> list[Path]:
    """The regular files that ``#include "name"`` in the sources reads (next to the
    includer, or in an -I folder), and those they include in turn, that are not sources
    themselves; at most ``_CONTEXT_LIMIT``."""
    seen = {p.resolve() for p in sources}
    queue = list(sources)
    found: list[Path] = []
    while queue and len(found) < _CONTEXT_LIMIT:
        path = queue.pop()
        try:
            data = path.read_bytes() if path.is_file() else b""
        except OSError:
            continue
        if b"include" not in data:
            continue
        for m in _QUOTED_INCLUDE.finditer(data):
            name = m.group(1).decode(errors="replace").strip()
            for folder in (path.parent, *map(Path, include_dirs)):
                candidate = folder / name
                try:
                    if candidate.is_symlink() or not candidate.is_file():
                        continue
                    real = candidate.resolve()
                except OSError:
                    continue
                if real not in seen:
                    seen.add(real)
                    found.append(candidate)
                    queue.append(candidate)
                break
    return found[:_CONTEXT_LIMIT]


def _prescan(batch: list[Path]) -> list[tuple[int, int, object]]:
    """Scans of the files the project pre-pass will read for declarations (those that
    open a namespace), made in a worker: the pre-pass then only looks them up."""
    from ..source.scan import scan_for_offer

    compiled = _PRESCAN_TABLE
    assert compiled is not None
    out = []
    for path in batch:
        try:
            src = path.read_bytes()
        except OSError:
            continue
        if b"namespace" in src:
            out.append(scan_for_offer(src, compiled))
    return out


_PRESCAN_TABLE = None


def _prescan_in_pool(paths: list[Path], compiled, workers: int) -> None:
    """The project pre-pass's scanning, shared between processes (it was a second of a
    cold 44 MB run done by one); the scans come back to this process, whose translation
    workers, forked next, inherit them."""
    from ..source.scan import offer_scan

    if _start_method() != "fork":
        return  # (a spawned worker hashes bytes differently and has no table loaded)
    batches = _batches(paths, _size, workers)
    for done in _in_pool(_prescan, batches, workers, _prescan_init, (compiled,)):
        for length, digest, result in done:
            offer_scan(compiled, length, digest, result)


def _prescan_init(compiled) -> None:
    global _PRESCAN_TABLE
    _PRESCAN_TABLE = compiled
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides about Ctrl-C


def _run_pool(pending, request, workers, progress) -> list:
    fresh: list = []
    batches = _batches(pending, lambda item: _size(item[1].source), workers)
    for done in _in_pool(_work, batches, workers, _worker_init, (request,)):
        fresh.extend(done)
        progress.step(len(done))
    return fresh


def _start_method() -> str:
    import multiprocessing

    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


def _batches(items: list, size_of, workers: int) -> list[list]:
    """Big items first, in small batches, so the last batch does not run alone."""
    items = sorted(items, key=lambda item: -size_of(item))
    size = max(1, min(32, len(items) // (workers * 8) or 1))
    return [items[i:i + size] for i in range(0, len(items), size)]


def _in_pool(work, batches: list[list], workers: int, initializer, initargs: tuple):
    """``work`` of each batch in a pool of ``workers`` processes, results as they come.
    A run that stops early (an error, Ctrl-C) terminates the workers: SIGTERM makes them
    unwind their writes, leaving no partial file."""
    import multiprocessing

    pool = multiprocessing.get_context(_start_method()).Pool(
        workers, initializer=initializer, initargs=initargs)
    try:
        yield from pool.imap_unordered(work, batches)
        pool.close()
    except BaseException:  # (GeneratorExit too: the caller stopped reading)
        pool.terminate()
        raise
    finally:
        pool.join()


# Below this much source a pool's start (forking, passing the options, collecting the
# outcomes) costs more than the second core saves: translation runs at ~13 MB/s per core.
POOL_MIN_FILES = 8
POOL_MIN_BYTES = 2_000_000


def _worth_a_pool(paths: list[Path]) -> bool:
    """Whether these files are enough work to share between processes."""
    if len(paths) < POOL_MIN_FILES:
        return False
    total = 0
    for path in paths:
        total += _size(path)
        if total >= POOL_MIN_BYTES:
            return True
    return False


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
