"""The incremental cache of tree runs: per (tool version, rule table, options, request) a
dictionary source path -> (size, mtime_ns, content digest, target stat, outcome), written
atomically; a missing or corrupt cache is treated as empty."""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
from pathlib import Path

from ..kinds import FileOutcome
from ...version import __version__
from .plan import Job, Request


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


@functools.cache
def code_stamp() -> str:
    """The size and modification time of every module of cudaport itself: a tree cache
    written by other code (an updated checkout or editable install, whose version string
    did not change) is not read back. Stat calls only: a one-file check stays quick."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    stamp = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                try:
                    st = os.stat(os.path.join(folder, name))
                except OSError:
                    continue
                stamp.append((folder, name, st.st_size, st.st_mtime_ns))
    return hashlib.sha256(repr(stamp).encode()).hexdigest()[:16]


def _cache_file(request: Request, digest: str, roots: str) -> Path:
    from ...rules.loader import _cache_dir

    key = hashlib.sha256(repr((__version__, code_stamp(), digest, request.options, request.mode,
                                request.copy_all, request.rename, sorted(request.renamed),
                                roots, request.policy is not None)).encode()).hexdigest()[:32]
    return _cache_dir() / "tree" / f"{key}.pickle"


def _load_cache(path: Path) -> dict:
    try:
        with open(path, "rb") as fh:
            data = pickle.load(fh)
        return data if isinstance(data, dict) else {}
    except Exception:  # missing or corrupt: start afresh
        return {}


def _save_cache(path: Path, entries: dict) -> None:
    from .io import OutputError, write_output

    try:
        write_output(path, pickle.dumps(entries, protocol=pickle.HIGHEST_PROTOCOL))
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


def _fingerprint(job: Job, outcome: FileOutcome) -> tuple:
    """What the cache stores to recognise this job as done next time (nothing for a
    failed job, or one whose input was just rewritten in place)."""
    st = _stat_key(job.source)
    if st is None or outcome.status == "failed" or (job.target is None
                                                    and outcome.status == "written"):
        return ()
    return (st[0], st[1], outcome.digest, _stat_key(job.target))


def _entry_key(job: Job) -> tuple[str, str]:
    return (os.path.abspath(job.source), os.path.abspath(job.target) if job.target else "")


def _cache_hit(entry: tuple | None, job: Job, mode: str) -> FileOutcome | None:
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
    cached = FileOutcome(**{f: getattr(outcome, f) for f in outcome.__dataclass_fields__})
    cached.status = "unchanged" if outcome.status in ("written", "unchanged") else outcome.status
    return cached
