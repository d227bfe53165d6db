"""Parse one file with libclang, reusing a precompiled header per header set and flags.

Parsing the CUDA runtime headers costs ~0.2-0.4 s per file; a PCH built once (on disk under
the cache folder, keyed by the flags and the libclang version) makes it a few ms.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from .environment import HeaderSet, cache_dir, cindex

_PCH: dict[str, str | None] = {}  # key -> path of a usable PCH in this process (None: failed)
_INDEX = None


def index():
    global _INDEX
    if _INDEX is None:
        _INDEX = cindex().Index.create()
    return _INDEX


def libclang_version() -> str:
    ci = cindex()
    try:
        lib = ci.conf.lib
        return ci._CXString.from_result(lib.clang_getClangVersion())  # type: ignore[attr-defined]
    except Exception:  # older/newer bindings: the version only salts the cache key
        return getattr(ci, "__version__", "unknown")


def pch_for(headers: HeaderSet, args: list[str], prelude: str) -> str | None:
    """Path of a PCH for ``args`` (built on first use), or None if clang cannot build one."""
    key = hashlib.sha256("\0".join([libclang_version(), headers.key, prelude, *args])
                         .encode()).hexdigest()[:24]
    if key in _PCH:
        return _PCH[key]
    folder = cache_dir() / "pch"
    pch = folder / f"{key}.pch"
    failed = folder / f"{key}.failed"  # remembered so other files and runs do not retry
    if pch.is_file():
        _PCH[key] = str(pch)
    elif failed.is_file():
        _PCH[key] = None
    else:
        _PCH[key] = _build(folder, pch, args, prelude)
        if _PCH[key] is None:
            try:
                failed.write_text("clang reported errors building this header\n")
            except OSError:
                pass
    return _PCH[key]


def forget_pch(path: str) -> None:
    """Drop a PCH clang refused (headers changed since it was built); the next use rebuilds."""
    for key, value in list(_PCH.items()):
        if value == path:
            del _PCH[key]
    try:
        os.unlink(path)
    except OSError:
        pass


def _build(folder: Path, pch: Path, args: list[str], prelude: str) -> str | None:
    ci = cindex()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        header = folder / f"{pch.stem}.h"
        header.write_text(prelude)
        tu = index().parse(str(header), args, options=ci.TranslationUnit.PARSE_INCOMPLETE)
        if any(d.severity >= 3 for d in tu.diagnostics):
            return None
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".pch-")
        os.close(fd)
        tu.save(tmp)
        os.replace(tmp, pch)
        return str(pch)
    except Exception:  # TranslationUnitSaveError, OSError: parse without a PCH
        return None


def parse(path: str, src: bytes, args: list[str], headers: HeaderSet, preludes: list[str],
          use_pch: bool = True):
    """The translation unit of ``src`` (named ``path``), parsed with the detailed
    preprocessing record so macro expansions and skipped ranges are known.

    ``preludes`` are tried in order: the first whose PCH builds is used; with none, the
    last is included as plain text (slow, but the parse still happens)."""
    ci = cindex()
    # KeepGoing (0x200): a missing include must not end the parse
    options = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD | 0x200
    pch = None
    if use_pch:
        for text in preludes:
            pch = pch_for(headers, args, text)
            if pch:
                break
    if pch:
        full = args + ["-include-pch", pch]
    else:
        full = args + ["-include", _prelude_header(preludes[-1])]
    tu = index().parse(path, full, unsaved_files=[(path, src)], options=options)
    if pch and any("precompiled header" in d.spelling or "PCH" in d.spelling
                   for d in tu.diagnostics):
        forget_pch(pch)
        return parse(path, src, args, headers, preludes, use_pch=False)
    return tu


def _prelude_header(prelude: str) -> str:
    folder = cache_dir() / "pch"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"prelude-{hashlib.sha256(prelude.encode()).hexdigest()[:12]}.h"
    if not path.is_file():
        path.write_text(prelude)
    return str(path)
