"""Git checks for ``--in-place``: which inputs have uncommitted changes."""

from __future__ import annotations

import os
from pathlib import Path


def dirty_files(paths: list[Path]) -> list[str] | None:
    """Paths among ``paths`` with uncommitted changes (or untracked); None when they are
    not in a git work tree at all."""
    import subprocess  # (only --in-place asks git: a check does not pay for the import)

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
