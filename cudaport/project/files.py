"""Reading inputs safely, and where outputs go: never outside the output root (the writer
itself is :func:`cudaport.run.runner.io.write_output`)."""

from __future__ import annotations

import stat
from pathlib import Path


from ..run.runner.io import OutputError


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
