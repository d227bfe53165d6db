"""Reading inputs and writing outputs safely: atomic writes, never outside the output root."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


class OutputError(Exception):
    """An output could not be written where it was asked to go."""


def read_input(path: Path) -> bytes:
    """Read a source file; errors become messages naming the file."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise OSError(f"{path}: no such file") from None
    except OSError as exc:
        raise OSError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(f"{path}: is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise OSError(f"{path}: not a regular file")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise OSError(f"{path}: cannot read: {exc.strerror or exc}") from None


def write_atomic(path: Path, data: bytes, mode_from: Path | None = None,
                 durable: bool = True) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename,
    so a reader (or an interrupted run) never sees a partial file. ``durable=False`` skips
    the fsync (a regenerable mirror need not survive a power cut; thousands of fsyncs
    dominate a tree translation).

    What is not a regular file is written through, never replaced: a device
    (``/dev/null``), a FIFO, ``/dev/stdout`` and anything else under /dev or /proc. A
    symbolic link stays one: the file it points to is written (created if the link
    dangles)."""
    target = _replaceable(path)
    if target is None:
        _write_through(path, data)
        return
    folder = target.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.",
                                   suffix=".cudaport-tmp")
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        if mode_from is not None:
            try:
                os.chmod(tmp, stat.S_IMODE(mode_from.stat().st_mode))
            except OSError:
                pass
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
        raise


_SPECIAL_ROOTS = ("/dev/", "/proc/")


def _replaceable(path: Path) -> Path | None:
    """The regular file that ``path`` names, to be replaced by a rename (through any
    symbolic links); None when ``path`` is to be written through instead."""
    if os.path.abspath(path).startswith(_SPECIAL_ROOTS):
        return None  # /dev/stdout, /proc/self/fd/1: links the kernel makes, not files
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError:
        return path  # (the write reports it)
    if st is not None and not stat.S_ISREG(st.st_mode):
        return None
    if os.path.islink(path):
        return Path(os.path.realpath(path))
    return path


def _write_through(path: Path, data: bytes) -> None:
    try:
        with open(path, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def inside(root: Path, path: Path) -> bool:
    """Whether ``path`` (resolved) lies inside ``root`` (resolved)."""
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except ValueError:
        return False


def mirror_path(out_root: Path, source: Path, base: Path) -> Path:
    """Where ``source`` (under ``base``) goes below ``out_root``; refuses escapes."""
    try:
        relative = source.resolve().relative_to(base.resolve())
    except ValueError:
        relative = Path(source.name)
    target = out_root / relative
    if not inside(out_root, target):
        raise OutputError(f"{source}: output {target} would be outside {out_root}")
    return target
