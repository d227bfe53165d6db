"""The one atomic writer: every output, report, baseline and cache goes through
:func:`write_output`."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


class OutputError(Exception):
    """An output could not be written where it was asked to go."""


def write_output(path: Path, data: bytes, mode_from: Path | None = None,
                 durable: bool = True) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename,
    so a reader (or an interrupted run) never sees a partial file. The file gets the
    permissions of ``mode_from`` when given, else those of the file it replaces, else
    those of any new file (0666 less the umask). ``durable=False`` skips the fsync (a
    regenerable mirror or cache need not survive a power cut; thousands of fsyncs
    dominate a tree translation). Failures raise :class:`OutputError` naming the path."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".cudaport-tmp")
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.chmod(tmp, _mode(mode_from if mode_from is not None else path))
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
        raise


def _mode(like: Path) -> int:
    try:
        return stat.S_IMODE(like.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
