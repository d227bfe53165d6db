"""Where a target's build-file rules are, and their digest (the cache key of build files).

Apart from :mod:`cudaport.builds.build_flags` so that a run translating no build file (a
one-file ``check``) does not import the flag tables' classes to key its cache.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..options import Options


def rules_file(options: Options, name: str = "cmake.yaml") -> Path:
    """The target's build-file rules ``name`` (``cmake.yaml``, ``make.yaml``)."""
    from ..rules.loader import default_rules_root, resolve_target_dir

    roots = [Path(p) for p in options.rules_dirs] + [default_rules_root()]
    return resolve_target_dir(options.target, roots) / "build" / name


def rules_digest(options: Options) -> str:
    """Of the target's CMake, Makefile and flag rules together (the cache key of build
    files)."""
    digest = hashlib.sha256()
    for name in ("cmake.yaml", "make.yaml", "flags.yaml", "../target.yaml"):
        try:
            digest.update(rules_file(options, name).read_bytes())
        except OSError:
            digest.update(b"none")
    return digest.hexdigest()[:16]
